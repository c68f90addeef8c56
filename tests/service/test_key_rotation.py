"""Server key rotation (SPEC.md 4.6): the key ring of `aar serve`, the signed
append-only key history, and `aar verify --key-history`.

A server whose key was rotated creates new games under the new key, and the games created before
go on under the key their genesis names; both kinds of log verify pinned through the history to
its first key. A history whose new key is not signed by the old one (forged), a reordered or
truncated-and-forked one, is refused; a log signed by a key outside the history fails."""
from __future__ import annotations

import base64
import io
import json
import os

import pytest

from afteraction.cli.main import main as aar
from afteraction.client.client import Client
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import key_history as KH
from afteraction.engine.crypto.note import Signer, parse_vkey
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.errors import CryptoError

from .conftest import handshake, new_duel
from .test_restart import bot_moves


def signer(i: int, name: str = "afteraction.local") -> Signer:
    return Signer(name, bytes([i]) * 32)


def history(n: int) -> str:
    h = KH.start(signer(1).verifier)
    for i in range(2, n + 1):
        h = KH.extend(h, signer(i - 1), signer(i).verifier)
    return h


# -- the history itself (engine/crypto/key_history.py) -------------------------------------------
def test_a_history_lists_its_keys_oldest_first():
    h = history(3)
    assert KH.parse(h) == [signer(i).verifier.vkey for i in (1, 2, 3)]
    assert KH.parse(h.encode()) == KH.parse(h)
    assert KH.extends(history(2), h) and not KH.extends(h, history(2))


def test_the_rotation_message_is_domain_separated():
    from afteraction.engine.crypto.hashing import TAGS
    from afteraction.engine.league.entries import LEAGUE_TAGS

    assert KH.TAG_KEY_ROTATION not in TAGS + LEAGUE_TAGS and "\x00" not in KH.TAG_KEY_ROTATION
    m = KH.rotation_message(1, "a", "b")
    assert m.startswith(b"aar1/key-rotation\x00") and m == (b"aar1/key-rotation\x00" + (1).to_bytes(8, "big")
                                                             + b"\x00\x00\x00\x01a" + b"\x00\x00\x00\x01b")


def forged(h: str, by: Signer, new: Signer) -> str:
    """``h`` extended with ``new`` signed by ``by`` (whatever the last key is)."""
    keys = KH.parse(h)
    sig = by.sign(KH.rotation_message(len(keys), keys[-1], new.verifier.vkey))
    return h + f"{new.verifier.vkey} {base64.b64encode(sig).decode()}\n"


@pytest.mark.parametrize("case", ["not-signed-by-old", "signed-by-itself", "signed-by-first", "wrong-index",
                                  "swapped", "bad-sig-bytes", "repeat-key", "no-header", "extra-line",
                                  "no-newline", "first-with-sig"])
def test_a_forged_or_malformed_history_is_refused(case):
    h2 = history(2)
    bad = {
        "not-signed-by-old": lambda: forged(h2, signer(9), signer(3)),   # an attacker's key names its own
        "signed-by-itself": lambda: forged(h2, signer(3), signer(3)),
        "signed-by-first": lambda: forged(h2, signer(1), signer(3)),     # key 1 may name only key 2
        "wrong-index": lambda: h2 + "{} {}\n".format(signer(3).verifier.vkey, base64.b64encode(
            signer(2).sign(KH.rotation_message(5, signer(2).verifier.vkey, signer(3).verifier.vkey))).decode()),
        "swapped": lambda: "\n".join([KH.HEADER, signer(2).verifier.vkey, h2.splitlines()[2].replace(
            signer(2).verifier.vkey, signer(1).verifier.vkey)]) + "\n",
        "bad-sig-bytes": lambda: h2[:-3] + ("A" if h2[-3] != "A" else "B") + h2[-2:],
        "repeat-key": lambda: forged(h2, signer(2), signer(1)),
        "no-header": lambda: h2.split("\n", 1)[1],
        "extra-line": lambda: h2 + "\n",
        "no-newline": lambda: h2[:-1],
        "first-with-sig": lambda: KH.HEADER + "\n" + h2.splitlines()[2].replace(
            signer(2).verifier.vkey, signer(1).verifier.vkey) + "\n",
    }[case]()
    with pytest.raises(CryptoError):
        KH.parse(bad)


def test_only_the_newest_key_extends_a_history():
    with pytest.raises(CryptoError):
        KH.extend(history(2), signer(1), signer(3).verifier)
    with pytest.raises(CryptoError):
        KH.extend(history(2), signer(2), signer(1).verifier)


# -- the server's ring and `aar key rotate` ---------------------------------------------------------
def _vkey_of_export(c: Client, gid: str) -> str:
    header, _ = read_bundle(io.BytesIO(c.export(gid)))
    return header["server_vkey"]


def test_a_rotated_server_signs_new_games_with_the_new_key_and_old_games_with_theirs(server, tmp_path, capsys):
    keyfile = os.path.join(server.dir, "server.key")
    c, old_gid, seats = new_duel(server.target, b"old")
    handshake(seats)
    first = c.server_vkey()
    c.close()
    server.stop()
    assert aar(["key", "rotate", "--key", keyfile]) == 0
    out = capsys.readouterr().out
    new = out.split("new server key: ", 1)[1].split(" ", 1)[0]
    assert new != first
    assert KH.parse(open(keyfile + ".history").read()) == [first, new]
    assert oct(os.stat(keyfile).st_mode & 0o777) == "0o600"
    assert aar(["key", "show", keyfile]) == 0
    shown = capsys.readouterr().out
    assert "2 keys" in shown and f"verifier key 0: {first}" in shown and f"verifier key 1: {new}" in shown
    assert "PRIVATE" not in shown
    server.start()
    c = Client(server.target)
    assert c.server_vkey() == new
    c_new, new_gid, new_seats = new_duel(server.target, b"new")
    handshake(new_seats)
    assert _vkey_of_export(c, new_gid) == new
    # the old game goes on under its own key, to its end
    seats2 = {s: Seat(c, old_gid, s, seats[s].signer.seed, seats[s].entropy) for s in seats}
    for s in seats2.values():
        s.catch_up()
    bot = random_bot(b"rotate")
    bot_moves(c, old_gid, seats2, 200, bot)
    bot_moves(c_new, new_gid, new_seats, 200, bot)
    assert c.state(old_gid).ended and c.state(new_gid).ended
    # every receipt of the old game is signed by its own key, which its seats check (SPEC.md 7.5)
    assert all(s.faults == [] for s in seats2.values()), [s.faults for s in seats2.values()]
    assert _vkey_of_export(c, old_gid) == first
    paths = {}
    for name, gid in (("old", old_gid), ("new", new_gid)):
        paths[name] = tmp_path / f"{name}.aar"
        paths[name].write_bytes(c.export(gid))
    hist = keyfile + ".history"
    capsys.readouterr()
    assert aar(["export", old_gid, "--server", server.target, "-o", str(tmp_path / "x.aar")]) == 0
    assert f"--server-key '{first}'" in capsys.readouterr().out   # the old game's own key, not the newest
    for p in paths.values():   # both pinned through the history to its first key
        assert aar(["verify", str(p), "--key-history", hist]) == 0
        out = capsys.readouterr().out
        assert out.startswith("VERIFIED: ") and "pinned through the key history" in out and first in out
        assert aar(["verify", str(p), "--key-history", hist, "--server-key", first]) == 0
    capsys.readouterr()
    assert aar(["verify", str(paths["new"]), "--key-history", hist, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pinned"] and out["server_vkey"] == new and any("key 1 of 2" in n and first in n for n in out["notes"])
    assert aar(["verify", str(paths["new"]), "--key-history", hist, "--server-key", new]) == 2  # not the first key
    assert "the history pins its first key" in capsys.readouterr().err
    # a forged history: a key the attacker holds, not signed by the old one
    fake = tmp_path / "forged.history"
    fake.write_text(forged(KH.start(Signer("afteraction.local", bytes(32)).verifier), signer(9),
                           Signer("afteraction.local", bytes([7]) * 32)))
    assert aar(["verify", str(paths["new"]), "--key-history", str(fake)]) == 2
    assert "is not signed by key 0" in capsys.readouterr().err
    # a genuine history the log's key is not in: NOT VERIFIED at step 4
    other = tmp_path / "other.history"
    other.write_text(history(2))
    assert aar(["verify", str(paths["new"]), "--key-history", str(other)]) == 1
    assert "server key is not in the key history" in capsys.readouterr().out
    # the first key's history (before rotation) does not cover the new key's games
    just_first = tmp_path / "first.history"
    just_first.write_text(KH.start(parse_vkey(first)))
    assert aar(["verify", str(paths["old"]), "--key-history", str(just_first)]) == 0
    assert aar(["verify", str(paths["new"]), "--key-history", str(just_first)]) == 1
    c.close()
    c_new.close()


def test_a_server_whose_ring_lacks_a_games_key_refuses_it(server):
    from afteraction.engine.errors import Rejection
    from afteraction.service.games import GameManager

    c, gid, seats = new_duel(server.target)
    old = server.games.signer
    with_it = GameManager(server.games.store, signer(5), ring=(old, signer(5)))
    without = GameManager(server.games.store, signer(5), ring=(signer(4), signer(5)))
    with pytest.raises(Rejection) as e:
        without.submit(seats["a"].sign_commit())
    assert e.value.code == "WRONG_SERVER_KEY"
    with_it.submit(seats["a"].sign_commit())   # accepted, signed with the game's own (old) key
    rep = c.verify(c.export(gid))  # pinned to the server's key: the game's own
    assert rep.verified and rep.records == 2
    c.close()


def test_an_interrupted_rotation_is_refused_at_start_and_completed_by_rotate(tmp_path, capsys):
    from afteraction.service.keyring import load_or_create, read_ring, rotate
    from afteraction.service.store import StoreError

    path = str(tmp_path / "server.key")
    ring = load_or_create(path, "afteraction.local")
    rotate(path)
    hist = open(path + ".history").read()
    # the key file written, the history not yet (a crash between the two writes of a rotation)
    ring3 = ring.text() + open(path).read().splitlines()[1] + "\n" + Signer("afteraction.local", os.urandom(32)).skey + "\n"
    open(path, "w").write(ring3)
    with pytest.raises(StoreError, match="interrupted"):
        read_ring(path)
    assert aar(["serve", "--key", path, "--data-dir", str(tmp_path), "--listen", "127.0.0.1:0"]) == 2
    assert "interrupted" in capsys.readouterr().err
    r, h, added = rotate(path)
    assert not added and len(r.signers) == 3 and KH.extends(hist, h) and KH.parse(h) == r.vkeys
    assert read_ring(path).vkeys == r.vkeys
    # a ring of several keys without its history does not start either
    os.unlink(path + ".history")
    with pytest.raises(StoreError, match="no key history"):
        read_ring(path)
