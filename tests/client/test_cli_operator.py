"""No traceback from any `aar` command on any input (every
subcommand with bad arguments and bad files: one line, exit 2, or 1 for a failed verification),
key files wherever a key is asked, `aar key show`, no private key ever printed, `aar serve`'s
flags and what it says at start."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from conftest import REPO

from afteraction.cli import keys as K
from afteraction.cli import serve_cmd as S
from afteraction.cli.main import build_parser, main

LOGS = REPO / "fixtures" / "logs"
GOOD = str(LOGS / "duel-complete.aar")
DEAD = "127.0.0.1:1"  # nothing listens on port 1: a refused connection


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(code, out, err, want=2):
    text = (out + err).strip()
    assert code == want, (code, text)
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    return text


@pytest.fixture
def bad_files(tmp_path):
    """Files that are not what a command expects: empty, binary, text, a directory, missing, huge."""
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "binary").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "text").write_text("hello\n")
    (tmp_path / "dir").mkdir()
    (tmp_path / "huge").write_bytes(b"0" * (K.MAX_KEY_FILE + 10))
    return {n: str(tmp_path / n) for n in ("empty", "binary", "text", "dir", "huge")} | {
        "missing": str(tmp_path / "missing")}


def _subcommands() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


def test_every_subcommand_refuses_an_unknown_flag_in_one_line(capsys):
    names = _subcommands()
    assert {"verify", "new", "play", "bot", "watch", "serve", "games", "status", "key", "render", "view"} <= set(names)
    for name in names:
        text = _one_line(*_run(capsys, name, "--no-such-flag"))
        assert text.startswith(f"aar {name}"), text
    _one_line(*_run(capsys))  # no subcommand at all
    _one_line(*_run(capsys, "no-such-command"))


def _bad_file_cases(f, tmp_path):
    key = tmp_path / "seat.key"
    for name, path in f.items():
        yield ["verify", path]
        yield ["verify", GOOD, "--checkpoint", path]
        yield ["verify", GOOD, "--server-key", path]
        yield ["verify", GOOD, "--seat-key", f"a={path}"]
        yield ["explain", path, "--record", "1"]
        yield ["explain", GOOD, "--record", "1", "--server-key", path]
        yield ["view", path, "-o", str(tmp_path / "page.html")]
        yield ["render", path, "-o", str(tmp_path / "pic.txt")]
        yield ["evidence", path, GOOD]
        yield ["key", "show", path]
        yield ["new", "--server", DEAD, "--game", "duel", "--seat", f"a={path}", "--seat", f"b={key}"]
        yield ["play", "--server", DEAD, "--game-id", "00", "--seat", "a", "--key", path]
        yield ["bot", "--server", DEAD, "--game-id", "00", "--seat", "a", "--key", path]
        if name != "missing":  # a missing key file is made (the first start): that server would serve on
            yield ["serve", "--key", path, "--data-dir", str(tmp_path / "dd")]  # until stopped
        yield ["serve", "--tls-cert", path, "--tls-key", path, "--data-dir", str(tmp_path / "dd"), "--listen",
               "127.0.0.1:0"]


def test_bad_files_are_one_line_never_a_traceback(capsys, tmp_path, bad_files):
    assert main(["keygen", "-o", str(tmp_path / "seat.key")]) == 0
    capsys.readouterr()
    for argv in _bad_file_cases(bad_files, tmp_path):
        code, out, err = _run(capsys, *argv)
        if argv[0] in ("verify", "explain", "view", "evidence") and code == 1:
            _one_line(code, out, err, 1)  # read, and not verified: one line too
        else:
            _one_line(code, out, err)


@pytest.mark.parametrize("argv", [
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=00", "--seat", "b=11", "--options", "notjson"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=" + "11" * 32, "--options", "[1, 2]"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "nonsense"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=zz"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=" + "11" * 32, "--seat", "b=" + "22" * 32],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=" + "11" * 32, "--player", "nobody"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=" + "11" * 32, "--decision-ms", "-5"],
    ["new", "--server", DEAD, "--game", "duel", "--seat", "a=" + "11" * 32, "--abandon-ms", "soon"],
    ["games", "--server", DEAD],
    ["games", "--server", DEAD, "--limit", "0"],
    ["games", "--server", DEAD, "--status", "won"],
    ["status", "00", "--server", DEAD],
    ["watch", "00", "--server", DEAD],
    ["watch", "00", "--server", DEAD, "--server-key", "nonsense"],
    ["export", "00", "--server", DEAD, "-o", GOOD + "/x.aar"],
    ["verify", GOOD, "--server-key", "nonsense"],
    ["verify", GOOD, "--seat-key", "nonsense"],
    ["verify", GOOD, "--seat-key", "a=00"],
    ["explain", GOOD],
    ["explain", GOOD, "--hidden", "x"],
    ["render", GOOD, "--seat", "nva", "-o", "/dev/null"],
    ["demo", "--game", "no-such-game", "--out", "demo-out-never-made"],
    ["demo", "--game", "duel", "--out", GOOD + "/under-a-file"],
    ["keygen", "-o", GOOD + "/k.key"],
    ["keygen", "-o", GOOD],
    ["serve", "--listen", ":50070"],
    ["serve", "--listen", "127.0.0.1:99999"],
    ["serve", "--listen", "a b"],
    ["serve", "--workers", "0"],
    ["serve", "--workers", "x"],
    ["serve", "--key-name", "has space"],
    ["serve", "--key-name", "a+b"],
    ["serve", "--store", "mysql://u:hunter2@h/db"],
    ["serve", "--store", "sqlite:"],
    ["serve", "--tls-cert", "x.pem"],
])
def test_bad_arguments_are_one_line_never_a_traceback(capsys, argv, tmp_path):
    if argv[0] == "serve":
        argv = argv + ["--data-dir", str(tmp_path / "dd")]
    text = _one_line(*_run(capsys, *argv))
    assert "hunter2" not in text


def test_a_command_line_crash_is_one_line_and_exit_2_in_a_real_process(tmp_path):
    r = subprocess.run([sys.executable, "-m", "afteraction.cli", "new", "--server", DEAD, "--game", "duel",
                        "--seat", "a=00", "--options", "notjson"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "--options is not JSON" in r.stderr


# -- keys ---------------------------------------------------------------------------------

def _server_key(tmp_path, name="games.example.org"):
    from afteraction.service.server import load_or_create_key

    path = tmp_path / "server.key"
    return str(path), load_or_create_key(str(path), name)


def test_key_show_prints_public_halves_only(capsys, tmp_path):
    seat = tmp_path / "a.key"
    assert main(["keygen", "-o", str(seat)]) == 0
    capsys.readouterr()
    seed = seat.read_text().strip()
    code, out, err = _run(capsys, "key", "show", seat)
    assert code == 0 and f"public key: {K.seat_public(bytes.fromhex(seed)).hex()}" in out and seed not in out + err
    path, signer = _server_key(tmp_path)
    code, out, err = _run(capsys, "key", "show", path)
    assert code == 0 and f"verifier key: {signer.verifier.vkey}" in out and "games.example.org" in out
    # the key material: PRIVATE+KEY+<name>+<hash>+<base64>, whose base64 may itself hold "+" (so
    # not the part after the last "+", which can be a few characters found anywhere by chance)
    assert "PRIVATE" not in out + err and signer.skey.split("+", 4)[4] not in out + err
    vk = tmp_path / "server.pub"
    vk.write_text(signer.verifier.vkey + "\n")
    code, out, _ = _run(capsys, "key", "show", vk)
    assert code == 0 and signer.verifier.vkey in out


def test_a_pasted_server_private_key_is_never_echoed(capsys, tmp_path):
    _, signer = _server_key(tmp_path)
    secret_part = signer.skey.split("+", 4)[4]  # the key material (its base64 may hold "+" itself)
    for argv in (["verify", GOOD, "--server-key", signer.skey],
                 ["verify", GOOD, "--server-key", signer.skey, "--json"],
                 ["explain", GOOD, "--record", "1", "--server-key", signer.skey],
                 ["watch", "00", "--server", DEAD, "--server-key", signer.skey]):
        code, out, err = _run(capsys, *argv)
        assert code == 2 and secret_part not in out + err and "PRIVATE+KEY" not in out + err, (argv, out, err)
        assert "private signing key" in err
    from afteraction.engine.crypto.note import parse_vkey
    from afteraction.engine.errors import CryptoError

    with pytest.raises(CryptoError) as e:  # the engine's own parser does not echo one either
        parse_vkey(signer.skey)
    assert secret_part not in str(e.value)


def test_key_files_are_accepted_wherever_a_key_is_asked(capsys, tmp_path):
    from afteraction.engine.log.bundle import read_bundle

    with open(GOOD, "rb") as f:
        header = read_bundle(f)[0]
    vk = tmp_path / "server.pub"
    vk.write_text(header["server_vkey"] + "\n")
    code, out, _ = _run(capsys, "verify", GOOD, "--server-key", vk)
    # GOOD is format v1: the one caveat of its first line is its older format (SPEC.md 10.2), not the key
    first = "VERIFIED, BUT OLDER FORMAT v1 "
    assert code == 0 and out.startswith(first) and "UNPINNED" not in out.splitlines()[0] and "(pinned)" in out
    code, out, _ = _run(capsys, "verify", GOOD, "--server-key", header["server_vkey"])
    assert code == 0 and out.startswith(first) and "UNPINNED" not in out.splitlines()[0]
    other = tmp_path / "other.key"
    assert main(["keygen", "-o", str(other)]) == 0
    capsys.readouterr()
    code, out, err = _run(capsys, "verify", GOOD, "--seat-key", f"a={other}")  # a key file, not a's key
    assert code == 1 and "seat a key differs from the pinned key" in out
    assert other.read_text().strip() not in out + err  # its private seed is not shown, only the public key


# -- aar serve ----------------------------------------------------------------------------

@pytest.mark.parametrize("value, want", [
    ("localhost", ("localhost", 50051)), ("0.0.0.0", ("0.0.0.0", 50051)), ("127.0.0.1:0", ("127.0.0.1", 0)),
    ("[::1]", ("[::1]", 50051)), ("[::1]:7000", ("[::1]", 7000)), ("example.org:443", ("example.org", 443)),
])
def test_listen_host_alone_means_the_default_port(value, want):
    assert S.parse_listen(value) == want


def test_postgres_passwords_are_redacted():
    assert S.redact("postgresql://league:s3cret@db:5432/aar") == "postgresql://league:***@db:5432/aar"
    assert S.redact("postgresql://league@db/aar") == "postgresql://league@db/aar"
    assert S.redact("sqlite:/var/x") == "sqlite:/var/x"


def test_the_default_data_dir_is_fixed_not_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("AAR_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert S.default_data_dir() == str(tmp_path / "xdg" / "afteraction")
    monkeypatch.setenv("AAR_DATA_DIR", str(tmp_path / "league"))
    assert S.default_data_dir() == str(tmp_path / "league")
    monkeypatch.chdir(tmp_path)
    assert not os.path.isabs("data") and S.default_data_dir() != os.path.abspath("data")


def test_a_key_name_that_differs_from_the_key_files_is_refused(capsys, tmp_path):
    path, _ = _server_key(tmp_path, "games.example.org")
    text = _one_line(*_run(capsys, "serve", "--key", path, "--key-name", "other.example.org",
                           "--data-dir", tmp_path / "dd"))
    assert "named games.example.org" in text


def test_a_busy_port_is_one_line(capsys, tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        port = s.getsockname()[1]
        text = _one_line(*_run(capsys, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", tmp_path / "dd"))
        assert f"--listen 127.0.0.1:{port}: the port is in use by another process" in text
    finally:
        s.close()


def _serve_once(tmp_path, *extra):
    """Start `aar serve` in a process, read what it says at start, stop it."""
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, AAR_DATA_DIR=str(tmp_path / "default-dir")))
    try:
        lines = [p.stdout.readline().strip() for _ in range(5)]
    finally:
        p.terminate()
        p.wait(30)
    return lines


def test_serve_says_where_its_store_and_key_are_and_whether_it_made_them(tmp_path):
    dd = tmp_path / "league"
    first = _serve_once(tmp_path, "--data-dir", str(dd), "--key-name", "games.example.org")
    assert first[0].startswith("afteraction server listening on 127.0.0.1:")
    assert first[1].startswith("server key: games.example.org+")
    assert first[2] == f"key file: {dd / 'server.key'} (created now: publish this verifier key)"
    assert first[3] == f"store: sqlite:{dd / 'afteraction.sqlite'} (created now)"
    again = _serve_once(tmp_path, "--data-dir", str(dd), "--key-name", "games.example.org")
    assert again[1] == first[1]  # the same key after a restart
    assert again[2].endswith("(existing)") and again[3].endswith("(existing)")
    default = _serve_once(tmp_path)  # no --data-dir: the fixed default ($AAR_DATA_DIR here)
    assert default[2] == f"key file: {tmp_path / 'default-dir' / 'server.key'} (created now: publish this verifier key)"


def test_a_url_password_in_any_error_is_redacted():
    assert S.redact_urls('connection to "postgresql://league:s3cret@db/aar" failed') == \
        'connection to "postgresql://league:***@db/aar" failed'
