"""The reference client: it catches a server that rewrites history, checks its
openings, and the `aar` subcommands work against a real server."""
from __future__ import annotations

import json
import os
import threading

import pytest

from afteraction.cli import main as cli
from afteraction.client.client import BadOpening, CheckpointTracker, Client, HistoryRewritten, new_seat_key
from afteraction.client.seat import Seat
from afteraction.engine.crypto.merkle import CompactTree, consistency_proof, leaf_hash
from afteraction.engine.crypto.note import Signer
from afteraction.engine.local import checkpoint_note
from afteraction.engine.protocol import parse_record
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import game_service_pb2 as gs


def duel_seats(target):
    c = Client(target)
    keys = {s: new_seat_key() for s in ("a", "b")}
    gid = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
    return c, gid, {s: Seat(c, gid, s, keys[s]) for s in keys}


def leaves_of(c, gid):
    return [parse_record(r.record).leaf for r in c.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records]


def root(leaves):
    t = CompactTree()
    for x in leaves:
        t.append(x)
    return t.root()


def test_checkpoint_tracker_catches_a_rewritten_history(server):
    c, gid, seats = duel_seats(server.target)
    for s in seats.values():
        s.submit(s.sign_commit())
    server_signer = server.service.games.signer  # the server itself is the adversary here
    origin = f"{server_signer.name}/game/{gid}"
    honest = leaves_of(c, gid)
    n = len(honest)
    assert seats["b"].next_seq == n
    # honest growth passes (consistency proof from the server)
    for s in seats.values():
        s.submit(s.sign_reveal())
    t2 = CheckpointTracker(c, gid)
    t2.update(checkpoint_note(server_signer, origin, n, root(honest)))
    t2.update(c.audit.GetCheckpoint(au.GetCheckpointRequest(game_id=gid)).checkpoint.note)
    assert t2.size == n + 2
    # a forged history: record 1 replaced, the tree extended, and a self-consistent proof for it
    forged = [honest[0], leaf_hash(b"rewritten"), *honest[2:], leaf_hash(b"more")]
    note = checkpoint_note(server_signer, origin, len(forged), root(forged))
    t3 = CheckpointTracker(c, gid)
    t3.update(checkpoint_note(server_signer, origin, n, root(honest)))
    lying = au.GetConsistencyProofResponse(from_size=n, to_size=len(forged), hashes=consistency_proof(forged, n))
    real_call = c.call
    c.call = lambda method, req, **kw: lying if method == c.audit.GetConsistencyProof else real_call(method, req, **kw)
    try:
        with pytest.raises(HistoryRewritten):
            t3.update(note)
    finally:
        c.call = real_call
    # a fork at the same size, and a checkpoint signed by another key
    with pytest.raises(HistoryRewritten):
        t3.update(checkpoint_note(server_signer, origin, n, root(forged[:n])))
    with pytest.raises(HistoryRewritten):
        t3.update(checkpoint_note(Signer(server_signer.name, bytes(32)), origin, n, root(honest)))


def test_seat_rejects_an_opening_that_does_not_match_its_commitment(server):
    c, gid, seats = duel_seats(server.target)
    for s in seats.values():
        s.submit(s.sign_commit())
    for s in seats.values():
        s.submit(s.sign_reveal())
    a = seats["a"]
    from afteraction.v1 import command_pb2

    cmd = command_pb2.Command()
    cmd.duel.pick.number = 3
    res = a.submit(a.sign_command(c.state(gid).state_seq, cmd))
    assert res.openings and len(a.openings) == len(res.openings)
    bad = gs.SeatOpening()
    bad.CopyFrom(res.openings[-1])
    bad.salt = bytes(32)
    with pytest.raises(BadOpening):
        a.see_opening(bad)


def test_cli_keygen_new_bot_export_verify(server, tmp_path, capsys):
    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    assert cli.main(["keygen", "-o", ka]) == 0
    assert cli.main(["keygen", "-o", kb]) == 0
    assert oct(os.stat(ka).st_mode & 0o777) == "0o600"
    assert cli.main(["keygen", "-o", ka]) == 2  # never overwrites a key
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    rcs = []
    ts = [threading.Thread(target=lambda s=s, k=k: rcs.append(cli.main(
        ["bot", "--server", server.target, "--game-id", gid, "--seat", s, "--key", k, "--seed", s, "--quiet"])))
        for s, k in (("a", ka), ("b", kb))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert rcs == [0, 0]
    out = str(tmp_path / "g.aar")
    assert cli.main(["export", gid, "-o", out, "--server", server.target]) == 0
    assert cli.main(["verify", out, "--server-key", server.vkey]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    assert cli.main(["watch", gid, "--server", server.target]) == 0
    assert " end " in capsys.readouterr().out


def test_aar_demo_plays_exports_and_verifies(tmp_path, capsys):
    assert cli.main(["demo", "--game", "duel", "--seed", "3", "--out", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr().out
    assert "verification:   VERIFIED" in out and "dice rolled:" in out
    assert any(f.endswith(".aar") for f in os.listdir(tmp_path / "demo"))


def test_aar_play_is_interactive_on_a_scripted_terminal(server, tmp_path, capsys, monkeypatch):
    """`aar play --json` shows the seat's view and numbered legal choices (machine forms), refuses a
    non-choice and plays what is typed; the other seat is a bot. (The default, human form:
    tests/client/test_play_text.py.)"""
    import io

    from afteraction.engine.bots import random_bot

    ka, kb = str(tmp_path / "a.key"), str(tmp_path / "b.key")
    for k in (ka, kb):
        assert cli.main(["keygen", "-o", k]) == 0
    capsys.readouterr()
    assert cli.main(["new", "--server", server.target, "--game", "duel", "--seat", f"a={ka}", "--seat", f"b={kb}"]) == 0
    gid = capsys.readouterr().out.strip().splitlines()[0]
    from afteraction.cli.commands import read_seat_key

    bot = Seat(Client(server.target), gid, "b", read_seat_key(kb))
    t = threading.Thread(target=lambda: bot.play(random_bot(b"b")), daemon=True)
    t.start()
    # three rounds, a picks each time: a word and an out-of-range number are refused, then "6" three times
    monkeypatch.setattr("sys.stdin", io.StringIO("pick six\n9\n6\n6\n6\n"))
    assert cli.main(["play", "--server", server.target, "--game-id", gid, "--seat", "a", "--key", ka, "--json"]) == 0
    t.join(30)
    out = capsys.readouterr().out
    assert out.count("decision: round") == 3 and '"score"' in out  # the seat's view and the prompt
    assert "    6. duel { pick { number: 6 } }" in out
    assert out.count("type a choice's number (1-6)") == 2  # "pick six" and "9": said in words, asked again
    assert "(private to you)" in out and "game over:" in out
    picks = [json.loads(line.split("(private to you) ", 1)[1]) for line in out.splitlines() if "(private to you)" in line]
    assert [p["number"] for p in picks if p.get("t") == "pick"] == [6, 6, 6]
    bot.client.close()
