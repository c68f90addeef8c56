"""TLS: `aar serve --tls-cert/--tls-key` and the client's `--tls-ca`, with a
self-signed certificate made here (the `cryptography` package)."""
from __future__ import annotations

import datetime
import ipaddress
import os
import subprocess
import sys

import grpc
import pytest

from afteraction.client.client import Client
from afteraction.v1 import game_service_pb2 as gs


def make_cert(tmp_path):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


def test_a_tls_server_answers_a_client_that_trusts_its_ca_and_only_over_tls(tmp_path):
    from afteraction.service.server import start

    cert, key = make_cert(tmp_path)
    run = start("127.0.0.1:0", f"sqlite:{tmp_path / 's.sqlite'}", None, str(tmp_path), tls_cert=cert, tls_key=key)
    try:
        target = f"127.0.0.1:{run.port}"
        with Client(target, tls_ca=cert) as c:
            assert c.server_vkey() == run.vkey
            assert {r.game for r in c.game.ListRulesets(gs.ListRulesetsRequest(), timeout=10).rulesets} >= {"duel"}
        with Client(target, timeout=3) as plain:
            with pytest.raises(Exception) as e:
                plain.server_vkey()
            assert e.value.code == grpc.StatusCode.UNAVAILABLE
    finally:
        run.stop(2)


def test_aar_serve_with_tls_flags_and_aar_export_with_tls_ca(tmp_path, capsys):
    from afteraction.cli.main import main

    cert, key = make_cert(tmp_path)
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--data-dir", str(tmp_path / "data"), "--tls-cert", cert, "--tls-key", key],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        first = p.stdout.readline()
        assert "listening on 127.0.0.1:" in first and "(TLS)" in first, first
        target = first.split("listening on ")[1].split()[0]
        a_key, b_key = tmp_path / "a.key", tmp_path / "b.key"
        assert main(["keygen", "-o", str(a_key)]) == 0 and main(["keygen", "-o", str(b_key)]) == 0
        capsys.readouterr()
        assert main(["new", "--server", target, "--tls-ca", cert, "--game", "duel",
                     "--seat", f"a={a_key}", "--seat", f"b={b_key}"]) == 0
        gid = capsys.readouterr().out.strip().splitlines()[-1]
        out = tmp_path / "g.aar"
        assert main(["export", gid, "-o", str(out), "--server", target, "--tls-ca", cert]) == 0
        assert out.stat().st_size > 0
    finally:
        p.terminate()
        p.wait(20)
