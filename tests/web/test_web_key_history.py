"""Key rotation in the browser (SPEC.md 4.6): the browser library's key history
(clients/web/src/lib/keyhistory.ts, what the page pins and trusts with) run in node. It reads every
history as engine/crypto/key_history.py does (the same keys; a forged or malformed one refused at
the same line); a browser pins a history's first key, trusts the pinned key and every later one,
never an earlier one; and after a real rotation, the game created before it and one created after
both verify in the browser library, for a browser that pinned the first key before the rotation
and for a fresh one. At the commit before, the page pinned the newest key: after a rotation it
refused the server outright, and a fresh browser refused every game created before the rotation.
Needs node and clients/web/node_modules (esbuild); skips without them, fails under
AAR_REQUIRE_BROWSER=1."""
from __future__ import annotations

import base64
import json
import subprocess

import pytest

from afteraction.engine.crypto import key_history as KH
from afteraction.engine.errors import CryptoError
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import game_service_pb2 as gs

from service.conftest import Server
from service.test_key_rotation import forged, history, signer
from service.test_key_rotation_clients import rotated

from .conftest import node_bundle


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = node_bundle(tmp_path_factory, "keyhistory_driver.ts")

    def call(cases: list[dict], logs: list[dict] = ()) -> dict:
        p = subprocess.run(["node", str(out)], input=json.dumps({"cases": cases, "logs": list(logs)}),
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)
    return call


def _vk(i: int) -> str:
    return signer(i).verifier.vkey


def test_the_browser_reads_every_history_as_the_reference_does(run):
    h2, h3 = history(2), history(3)
    texts = {
        "three keys": h3, "one key": history(1),
        "not signed by the old key": forged(h2, signer(9), signer(3)),
        "signed by the first key": forged(h2, signer(1), signer(3)),
        "repeat key": forged(h2, signer(2), signer(1)),
        "no header": h2.split("\n", 1)[1], "extra line": h2 + "\n", "no newline": h2[:-1],
        "bad signature": h2[:-3] + ("A" if h2[-3] != "A" else "B") + h2[-2:],
        "a signature line first": KH.HEADER + "\n" + h2.splitlines()[2].replace(_vk(2), _vk(1)) + "\n",
    }
    got = run([{"history": t, "pinned": _vk(1), "newest": _vk(3), "genesis": _vk(1)} for t in texts.values()])
    for (name, text), g in zip(texts.items(), got["cases"]):
        try:
            want = KH.parse(text)
        except CryptoError as e:
            assert "error" in g["parsed"], name
            line = str(e).split(":", 1)[0]   # "key history line N" or "key history"
            assert g["parsed"]["error"].split(":", 1)[0] == line, (name, g["parsed"]["error"], str(e))
            continue
        assert g["parsed"] == {"ok": want}, name


def test_trust_follows_rotations_forward_and_never_backward(run):
    h3 = history(3)
    cases = [
        # (pinned, newest, history, the game's genesis key) -> the game's key is trusted?
        (_vk(1), _vk(3), h3, _vk(1), True), (_vk(1), _vk(3), h3, _vk(3), True), (_vk(1), _vk(3), h3, _vk(2), True),
        (_vk(2), _vk(3), h3, _vk(3), True), (_vk(2), _vk(3), h3, _vk(1), False),   # not before the pin
        (_vk(9), _vk(3), h3, _vk(3), False),                                         # a pin not in the history
        (_vk(1), _vk(1), "", _vk(1), True), (_vk(1), _vk(1), "", _vk(2), False),   # one key, no history
        (_vk(1), _vk(2), h3, _vk(2), False),                                         # history past the server's key
        (_vk(1), _vk(3), forged(history(2), signer(9), signer(3)), _vk(3), False),  # forged: nothing trusted
    ]
    got = run([{"pinned": p, "newest": n, "history": h, "genesis": g} for p, n, h, g, _ in cases])["cases"]
    for (p, n, h, g, ok), r in zip(cases, got):
        assert ("ok" in r["game_key"]) == ok, (p, n, g, r)
        if ok:
            assert r["game_key"]["ok"] == g
    assert got[0]["to_pin"] == {"ok": _vk(1)} and got[6]["to_pin"] == {"ok": _vk(1)}   # the history's first key
    assert got[0]["trusted"] == {"ok": [_vk(1), _vk(2), _vk(3)]} and got[3]["trusted"] == {"ok": [_vk(2), _vk(3)]}
    assert "does not name the key this browser pinned" in got[5]["trusted"]["error"]
    assert "neither the key this browser pinned nor one its key history signed after it" in got[4]["game_key"]["error"]


def test_after_a_rotation_old_and_new_games_verify_in_the_browser_library(run, tmp_path, capsys):
    from afteraction.client.client import Client

    from service.conftest import handshake, new_duel

    server = Server(tmp_path)
    try:
        old_gid, _, first, new = rotated(server)
        capsys.readouterr()
        c = Client(server.target)
        c2, new_gid, seats = new_duel(server.target, b"web after")
        handshake(seats)
        res = c.call(c.game.GetServerKey, gs.GetServerKeyRequest())

        def log(gid: str, pinned: str | None) -> dict:
            recs = c.call(c.audit.GetRecords, au.GetRecordsRequest(game_id=gid, from_seq=0, limit=1000)).records
            return {"pinned": pinned, "newest": res.vkey, "history": res.key_history, "game": gid,
                    "records": [[base64.b64encode(r.record).decode(), r.checkpoint] for r in recs]}
        logs = [log(old_gid, first), log(new_gid, first),     # a browser that pinned the first key before
                log(old_gid, None), log(new_gid, None),       # a fresh browser: pins the history's first key
                log(old_gid, new), log(new_gid, new)]         # one that pinned the new key
        got = run([], logs)["logs"]
        sizes = [c.state(old_gid).state_seq, c.state(new_gid).state_seq]   # records 0..state_seq-1
        assert got[:4] == [{"ok": sizes[0]}, {"ok": sizes[1]}] * 2, got
        assert "neither the key this browser pinned" in got[4]["error"] and got[5] == {"ok": sizes[1]}
        c.close()
        c2.close()
    finally:
        server.stop()
