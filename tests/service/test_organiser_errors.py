"""The errors an organiser meets, each one line that names the cause and what to
do (exit 2), and for `aar serve` before anything is made on disk (no data directory, no key)."""
from __future__ import annotations

import socket
import time

import pytest

from afteraction.cli.main import main

from .test_tls import make_cert

GOLDEN_DUEL = "fixtures/golden/duel.aar"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "\\n" not in err and "\\t" not in err, err
    return lines[0]


def _keys(tmp_path):
    paths = []
    for s in ("a", "b"):
        p = tmp_path / f"{s}.key"
        assert main(["keygen", "-o", str(p)]) == 0
        paths.append(str(p))
    return paths


def test_serve_on_a_busy_port_says_so_and_makes_nothing(tmp_path, capsys):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code, out, err = _run(capsys, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", str(tmp_path / "d"))
    line = _one_line(err)
    assert code == 2 and out == ""
    assert f"--listen 127.0.0.1:{port}: the port is in use by another process" in line and "port 0" in line
    assert not (tmp_path / "d").exists()


def test_serve_on_a_busy_web_port_says_so(tmp_path, capsys):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code, _, err = _run(capsys, "serve", "--listen", "127.0.0.1:0", "--web-listen", f"127.0.0.1:{port}",
                            "--data-dir", str(tmp_path / "d"))
    assert code == 2 and "--web-listen" in _one_line(err) and "in use" in err
    assert not (tmp_path / "d").exists()


def test_serve_on_an_address_not_of_this_machine_says_so(tmp_path, capsys):
    code, _, err = _run(capsys, "serve", "--listen", "192.0.2.1:0", "--data-dir", str(tmp_path / "d"))
    assert code == 2 and "192.0.2.1 is not an address of this machine" in _one_line(err)
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("case", ["garbage-cert", "other-key", "cert-as-key", "missing-key"])
def test_a_bad_tls_certificate_is_named_before_anything_is_made(tmp_path, capsys, case):
    cert, key = make_cert(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    _, other_key = make_cert(other)
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    cert, key, want = {
        "garbage-cert": (str(garbage), key, "--tls-cert: " + str(garbage) + " holds no PEM certificate"),
        "other-key": (cert, other_key, f"--tls-key: {other_key} is not the private key of the certificate"),
        "cert-as-key": (cert, cert, f"--tls-key: {cert} holds no unencrypted PEM private key"),
        "missing-key": (cert, str(tmp_path / "nope.pem"), "--tls-key: cannot read"),
    }[case]
    code, out, err = _run(capsys, "serve", "--listen", "127.0.0.1:0", "--data-dir", str(tmp_path / "d"),
                          "--tls-cert", cert, "--tls-key", key)
    assert code == 2 and out == "" and want in _one_line(err)
    assert "cannot listen" not in err
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("value", ["127.0.0.1", "[::1]", "localhost"])
def test_web_listen_without_a_port_is_a_usage_error(tmp_path, capsys, value):
    code, _, err = _run(capsys, "serve", "--listen", "127.0.0.1:0", "--web-listen", value,
                        "--data-dir", str(tmp_path / "d"))
    assert code == 2 and "give a port too" in _one_line(err) and f"{value}:8080" in err
    assert not (tmp_path / "d").exists()


def test_web_listen_on_the_grpc_address_is_a_usage_error(tmp_path, capsys):
    code, _, err = _run(capsys, "serve", "--listen", "127.0.0.1:50999", "--web-listen", "127.0.0.1:50999",
                        "--data-dir", str(tmp_path / "d"))
    assert code == 2 and "the same address as --listen" in _one_line(err)


def test_a_postgres_store_that_cannot_be_reached_is_one_line_and_makes_nothing(tmp_path, capsys):
    pytest.importorskip("psycopg")
    with socket.socket() as s:   # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, out, err = _run(capsys, "serve", "--store", f"postgresql://postgres:hunter2@127.0.0.1:{port}/x",
                          "--data-dir", str(tmp_path / "d"), "--listen", "127.0.0.1:0")
    line = _one_line(err)
    assert code == 2 and out == "" and "hunter2" not in err
    assert "Connection refused; Is the server running" in line
    assert not (tmp_path / "d").exists()


def test_the_postgres_driver_message_is_made_one_line():
    from afteraction.service.store_postgres import one_line

    msg = 'connection failed: port 1 failed: Connection refused\n\tIs the server running?\nHINT:  try  this'
    assert one_line(Exception(msg)) == ("connection failed: port 1 failed: Connection refused; "
                                        "Is the server running?; HINT: try this")


def test_an_unknown_game_lists_the_games(server, tmp_path, capsys):
    a, b = _keys(tmp_path)
    capsys.readouterr()
    code, _, err = _run(capsys, "new", "--server", server.target, "--game", "chess", "--seat", f"a={a}",
                        "--seat", f"b={b}")
    assert code == 2 and "UNKNOWN_RULESET" in err and "no game 'chess' (games: duel, gmv, ntnd, sog)" in _one_line(err)


def test_an_unknown_version_lists_the_versions():
    from afteraction.engine import registry
    from afteraction.engine.errors import Rejection

    with pytest.raises(Rejection) as e:
        registry.get("gmv", "9")
    listed = ", ".join(v for g, v in registry.available() if g == "gmv")
    assert str(e.value).endswith(f"gmv/9 is not a version this build knows (it lists {listed})")


def test_a_missing_seat_key_file_is_named_as_missing(server, tmp_path, capsys):
    a, _ = _keys(tmp_path)
    capsys.readouterr()
    code, _, err = _run(capsys, "new", "--server", server.target, "--game", "duel", "--seat", f"a={a}",
                        "--seat", "b=nosuch.key")
    assert code == 2 and "--seat b: nosuch.key: no such file" in _one_line(err) and "aar keygen" in err
    code, _, err = _run(capsys, "new", "--server", server.target, "--game", "duel", "--seat", f"a={a}",
                        "--seat", f"b={tmp_path}")
    assert code == 2 and "is not a file" in _one_line(err)
    code, _, err = _run(capsys, "new", "--server", server.target, "--game", "duel", "--seat", f"a={a}",
                        "--seat", "b=abcd")   # hex, but short: still the key's length
    assert code == 2 and "expected a 32-byte Ed25519 public key" in _one_line(err)


@pytest.mark.parametrize("seats, why", [
    (("a",), "(missing b)"),
    (("a", "zz"), "(missing b; not a seat: 'zz')"),
])
def test_bad_seats_names_the_missing_seat(server, tmp_path, capsys, seats, why):
    a, b = _keys(tmp_path)
    capsys.readouterr()
    args = [f"{s}={a if s == 'a' else b}" for s in seats]
    code, _, err = _run(capsys, "new", "--server", server.target, "--game", "duel",
                        *[x for s in args for x in ("--seat", s)])
    assert code == 2 and "BAD_SEATS" in err and f"duel has seats a, b {why}" in _one_line(err)


def test_bot_against_a_dead_server_fails_fast_in_one_line(tmp_path, capsys):
    a, _ = _keys(tmp_path)
    capsys.readouterr()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    code, _, err = _run(capsys, "bot", "--server", f"127.0.0.1:{port}", "--game-id", "0123456789abcdef",
                        "--seat", "a", "--key", a)
    took = time.monotonic() - t0
    assert code == 2 and took < 5, took
    assert f"cannot reach a server at 127.0.0.1:{port} (connection refused)" in _one_line(err)
    assert "--server HOST:PORT" in err


def test_verify_pinning_a_seat_the_game_lacks_is_a_usage_error(tmp_path, capsys):
    a, _ = _keys(tmp_path)
    capsys.readouterr()
    code, out, err = _run(capsys, "verify", GOLDEN_DUEL, "--no-replay", "--seat-key", f"zz={a}")
    assert code == 2 and out == ""
    assert "--seat-key zz: this game has no seat 'zz' (its seats: a, b)" in _one_line(err)
    code, out, err = _run(capsys, "verify", GOLDEN_DUEL, "--no-replay", "--seat-key", f"a={a}")
    assert code == 1 and "seat a key differs from the pinned key" in out   # a wrong key stays a verdict


def test_scenarios_gives_sog_and_gmv_titles(capsys):
    code, out, _ = _run(capsys, "scenarios")
    assert code == 0
    lines = {ln.split()[0] + " " + ln.split()[1]: ln for ln in out.splitlines()}
    for name in ("sog mission", "gmv 1965"):
        game, sc = name.split()
        rest = lines[name].split(None, 2)[2]
        assert not rest.startswith("(default)"), lines[name]   # a title comes before "(default)"
    assert "8 turns" in lines["gmv 1965"]
