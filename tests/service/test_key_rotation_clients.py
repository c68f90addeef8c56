"""Key rotation and the clients (SPEC.md 4.6): `GetServerKey` serves the key history
beside the newest key, and the reference client follows it. A seat pinned to the key it knew before
a rotation plays a game created after it (its key signed by the pinned one); the game created before
the rotation still verifies (exported and checked, checkpoints tracked) although the server's newest
key is another. A key before the pinned one is never trusted, nor a history that does not verify.
At the commit before, GetServerKey had no history: a pinned seat refused every new game's log, and
`Client.verify` and `CheckpointTracker` checked an old game against the newest key and failed."""
from __future__ import annotations

import os

import pytest

from afteraction.cli.main import main as aar
from afteraction.client.client import CheckpointTracker, Client, ClientError
from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import key_history as KH
from afteraction.engine.errors import VerificationError
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import game_service_pb2 as gs

from .conftest import handshake, new_duel
from .test_restart import bot_moves


def rotated(server):
    """Rotate ``server``'s key between two games: (old game id and seats, first key, new key); the
    server is restarted on its ring of two keys. The old game is past its handshake, in progress."""
    c, old_gid, seats = new_duel(server.target, b"before")
    handshake(seats)
    bot_moves(c, old_gid, seats, 4, random_bot(b"before"))
    first = c.server_vkey()
    c.close()
    server.stop()
    assert aar(["key", "rotate", "--key", os.path.join(server.dir, "server.key")]) == 0
    server.start()
    new = Client(server.target).server_vkey()
    assert new != first
    return old_gid, seats, first, new


def test_get_server_key_serves_the_key_history(server, capsys):
    c = Client(server.target)
    res = c.call(c.game.GetServerKey, gs.GetServerKeyRequest())
    assert res.key_history == "" and c.key_history() == [res.vkey]   # one key: no history
    c.close()
    _, _, first, new = rotated(server)
    capsys.readouterr()
    c = Client(server.target)
    res = c.call(c.game.GetServerKey, gs.GetServerKeyRequest())
    assert res.vkey == new and KH.parse(res.key_history) == [first, new]
    with open(os.path.join(server.dir, "server.key.history")) as f:
        assert res.key_history == f.read()
    assert c.key_history() == [first, new]
    assert c.linked_vkey(new, first) and c.linked_vkey(first) and c.linked_vkey(new)
    assert not c.linked_vkey(first, new)   # never backwards: a successor's name proves no predecessor
    c.close()


def test_after_a_rotation_a_seat_pinned_to_the_first_key_plays_old_and_new_games(server, capsys):
    old_gid, seats, first, new = rotated(server)
    capsys.readouterr()
    c = Client(server.target)
    bot = random_bot(b"after")
    # the old game, by seats pinned to the first key: on to its end, every receipt checked
    old = {s: Seat(c, old_gid, s, seats[s].signer.seed, seats[s].entropy, server_vkey=first) for s in seats}
    for s in old.values():
        s.catch_up()
    bot_moves(c, old_gid, old, 300, bot)
    assert c.state(old_gid).ended and all(s.faults == [] for s in old.values())
    report = c.verify(c.export(old_gid))   # pinned to the game's own (first) key, not the newest
    assert report.server_vkey == first
    t = CheckpointTracker(c, old_gid)      # its checkpoints are the first key's
    recs = c.call(c.audit.GetRecords, au.GetRecordsRequest(game_id=old_gid, from_seq=0, limit=2)).records
    t.update(recs[0].checkpoint)
    t.update(recs[1].checkpoint)
    assert t.size == 2
    # a new game, by seats that pinned the first key: its key is the next of the history
    c2, new_gid, new_seats = new_duel(server.target, b"after")
    pinned = {s: Seat(c2, new_gid, s, new_seats[s].signer.seed, new_seats[s].entropy, server_vkey=first)
              for s in new_seats}
    for s in pinned.values():
        s.submit(s.sign_commit())
    for s in pinned.values():
        s.submit(s.sign_reveal())
    bot_moves(c2, new_gid, pinned, 300, bot)
    assert c2.state(new_gid).ended and all(s.faults == [] for s in pinned.values())
    assert c.watch(new_gid, server_vkey=first).report.server_vkey == new
    assert c.watch(old_gid, server_vkey=first).report.server_vkey == first
    with pytest.raises(VerificationError) as e:   # pinned to the new key, the old game's key is not trusted
        c.watch(old_gid, server_vkey=new)
    assert "server key differs from the pinned key" in str(e.value)
    c.close()
    c2.close()


def test_a_history_that_does_not_verify_is_refused_by_the_client(server, capsys):
    _, _, first, new = rotated(server)
    svc = server.run.service
    lines = svc.key_history.splitlines(keepends=True)
    svc.key_history = lines[0] + lines[1] + lines[2].replace(lines[2].split(" ")[1][:8], "AAAAAAAA", 1)
    c = Client(server.target)
    with pytest.raises(ClientError) as e:
        c.key_history()
    assert "the server's key history does not verify" in str(e.value)
    c.close()
