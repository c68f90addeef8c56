"""`aar verify` exit codes and key pinning (SPEC.md 10.2, 11 "Keys to compare out of band").

Exit 0 verified, 1 verification failed (one line naming step, record, check, expected and
found), 2 unreadable input or usage error: every way a file can fail to be a bundle, and every
malformed argument, is a 2, never a traceback and never a 1."""
from __future__ import annotations

import json

import pytest

from afteraction.cli.main import main
from afteraction.engine.local import derive_bytes
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.protocol import parse_record

from conftest import REPO

GOLDEN = REPO / "fixtures" / "logs" / "duel-complete.aar"


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def seat_keys() -> dict[str, bytes]:
    with open(GOLDEN, "rb") as f:
        _, frames = read_bundle(f)
        genesis = parse_record(next(frames)[0])
    return {s["name"]: s["key"] for s in genesis.body["seats"]}


# -- exit 2: unreadable input ------------------------------------------------------------

def test_a_directory_is_exit_2(capsys, tmp_path):
    code, out, err = _run(capsys, "verify", tmp_path)
    assert code == 2 and "cannot read" in err and out == ""


def test_a_missing_file_with_json_is_exit_2_and_a_json_object(capsys, tmp_path):
    code, out, err = _run(capsys, "verify", "--json", tmp_path / "nope.aar")
    assert code == 2
    r = json.loads(out)
    assert r["verified"] is False and r["unreadable"] is True and "cannot read" in r["message"]


def test_random_bytes_are_exit_2(capsys, tmp_path):
    p = tmp_path / "random.aar"
    p.write_bytes(derive_bytes(b"tests/cli", "random") * 64)  # 2 KiB of hash output
    code, out, err = _run(capsys, "verify", p)
    assert code == 2 and out == "" and "unreadable bundle" in err and "\n" == err[-1] and err.count("\n") == 1


def test_random_bytes_after_the_magic_are_exit_2(capsys, tmp_path):
    p = tmp_path / "magic-random.aar"
    p.write_bytes(b"aar-bundle-v1\n" + bytes([0xc1]) + derive_bytes(b"tests/cli", "random") * 8)
    assert _run(capsys, "verify", p)[0] == 2


@pytest.mark.parametrize("cut", [15, 20, 40, 60])
def test_a_truncated_header_is_exit_2(capsys, tmp_path, cut):
    data = GOLDEN.read_bytes()
    # the header frame is longer than 60 bytes (game id, server key), so each cut is inside it
    with open(GOLDEN, "rb") as f:
        header, _ = read_bundle(f)
    assert len(header["server_vkey"]) > 60
    p = tmp_path / "cut.aar"
    p.write_bytes(data[:cut])
    code, out, err = _run(capsys, "verify", "--json", p)
    assert code == 2, out + err
    assert json.loads(out)["unreadable"] is True


def test_a_header_of_the_wrong_shape_is_exit_2(capsys, tmp_path):
    from afteraction.engine.crypto import canon

    p = tmp_path / "shape.aar"
    p.write_bytes(b"aar-bundle-v1\n" + canon.encode({"t": "header", "game": "g", "server_vkey": 7, "records": 1}))
    assert _run(capsys, "verify", p)[0] == 2


# -- exit 2: usage errors ----------------------------------------------------------------

@pytest.mark.parametrize("key", ["garbage", "afteraction.test+00000000+AAAA", ""])
def test_a_malformed_server_key_is_a_usage_error(capsys, key):
    code, out, err = _run(capsys, "verify", "--server-key", key, GOLDEN)
    assert code == 2 and "--server-key" in err and out == ""


@pytest.mark.parametrize("item", ["a", "=00", "a=xyz", "a=" + "00" * 31, "a=" + "00" * 33])
def test_a_malformed_seat_key_is_a_usage_error(capsys, item):
    code, out, err = _run(capsys, "verify", "--seat-key", item, GOLDEN)
    assert code == 2 and "--seat-key" in err and out == ""


def test_the_same_seat_pinned_twice_is_a_usage_error(capsys, seat_keys):
    k = seat_keys["a"].hex()
    assert _run(capsys, "verify", "--seat-key", f"a={k}", "--seat-key", f"a={k}", GOLDEN)[0] == 2


# -- seat key pinning (step 4) -----------------------------------------------------------

def test_pinned_seat_keys_that_match_genesis_verify(capsys, seat_keys):
    argv = ["verify", "--json", GOLDEN]
    for s, k in seat_keys.items():
        argv += ["--seat-key", f"{s}={k.hex()}"]
    code, out, _ = _run(capsys, *argv)
    assert code == 0, out
    assert json.loads(out)["pinned_seats"] == sorted(seat_keys)
    code, out, _ = _run(capsys, "verify", GOLDEN, "--seat-key", f"b={seat_keys['b'].hex().upper()}")
    assert code == 0 and "seat keys: pinned for b" in out


def test_unpinned_seat_keys_are_reported_as_taken_from_the_bundle(capsys):
    code, out, _ = _run(capsys, "verify", GOLDEN)
    assert code == 0 and "seat keys: from the bundle" in out


def test_a_seat_key_that_differs_from_genesis_fails_at_step_4(capsys, seat_keys):
    wrong = seat_keys["b"]  # b's key pinned for a: a real key, just not a's
    code, out, _ = _run(capsys, "verify", "--json", "--seat-key", f"a={wrong.hex()}", GOLDEN)
    assert code == 1
    r = json.loads(out)
    assert (r["step"], r["seq"]) == ("4 (genesis)", 0)
    assert r["expected"] == wrong.hex() and r["found"] == seat_keys["a"].hex()
    code, out, _ = _run(capsys, "verify", "--seat-key", f"a={wrong.hex()}", GOLDEN)
    assert code == 1 and out.count("\n") == 1
    assert out.startswith("NOT VERIFIED: step 4 (genesis) failed at record 0: seat a key differs from the pinned key")


def test_a_pinned_seat_that_genesis_does_not_list_is_a_usage_error_found_at_step_4(capsys, seat_keys):
    """SPEC.md 10.2: a --seat-key naming a seat the game does not have is a usage error (exit 2),
    found when genesis is read (step 4, record 0), not a verdict on the log."""
    code, out, _ = _run(capsys, "verify", "--json", "--seat-key", f"c={seat_keys['a'].hex()}", GOLDEN)
    assert code == 2
    r = json.loads(out)
    assert r["unreadable"] is True and "no seat 'c' (its seats: a, b)" in r["message"]


# -- one line, even when the bundle's own strings hold newlines ---------------------------

def test_a_failure_naming_a_string_with_a_newline_stays_one_line(capsys, tmp_path, duel_game, duel_bundle):
    """A dishonest server re-signs a log whose record 1 names the seat "a\nVERIFIED...": the
    failure (step 6, unknown seat) quotes that name, escaped, on the one line."""
    from .surgery import bodies, rechain

    h, recs = bodies(duel_bundle)
    game, seq, kind, body = recs[1]
    recs[1] = (game, seq, kind, {**body, "seat": "a\nVERIFIED: \x1b[2J"})
    p = tmp_path / "newline.aar"
    p.write_bytes(rechain(h, recs, duel_game.server))
    code, out, _ = _run(capsys, "verify", p)
    assert code == 1 and out.count("\n") == 1, out
    assert out.startswith("NOT VERIFIED: step 6 (seats) failed at record 1: ")
    assert "a\\nVERIFIED: \\x1b[2J" in out and "\x1b" not in out
    code, out, _ = _run(capsys, "verify", "--json", p)
    assert code == 1 and json.loads(out)["found"] == "a\nVERIFIED: \x1b[2J"  # JSON keeps the exact value


def test_a_kept_checkpoint_file_longer_than_a_note_is_a_usage_error(tmp_path, capsys):
    """aar verify --checkpoint reads at most one frame text's worth (engine/log/bundle.py MAX_TEXT)."""
    from afteraction.cli.main import main
    from afteraction.engine.log.bundle import MAX_TEXT

    big = tmp_path / "big.checkpoint"
    big.write_text("x" * (MAX_TEXT + 1))
    log = REPO / "fixtures" / "golden" / "duel.aar"
    assert main(["verify", str(log), "--checkpoint", str(big)]) == 2
    assert "longer than a checkpoint note" in capsys.readouterr().err
