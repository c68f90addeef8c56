"""The service's one write path and its fast stream: the pending
decision asked once per command, the next decision returned with the acceptance, a Play stream's
records sent from the game's tail, and the server processes of one SQLite store told of each
other's commits (service/wake.py)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

from .conftest import handshake, new_duel

from afteraction.engine import registry
from afteraction.v1 import game_service_pb2 as gs


def test_the_pending_decision_is_asked_once_per_command(server, monkeypatch):
    """One command through the service asks the ruleset's ``pending`` once (the referee keeps it for
    the log position): the clock's check, the decision check, the reply's next decision and the
    next prompt read the same value."""
    c, gid, seats = new_duel(server.target)
    handshake(seats)
    rs = registry.get("duel")
    calls = []
    real = type(rs).pending

    def counted(self, state):
        calls.append(1)
        return real(self, state)
    monkeypatch.setattr(type(rs), "pending", counted)
    a = seats["a"]
    lg = a.legal()             # a's prompt: the last reveal's acceptance asked already
    assert len(calls) == 0
    res = a.submit(a.sign_command(lg.state_seq, lg.commands[0]))
    assert res.next_decision.seat == "b"
    assert len(calls) == 1     # the command (the clock's check, the decision's): once, for the position after it
    seats["b"].legal()
    assert len(calls) == 1     # b's prompt and its legal commands read what the acceptance asked
    c.close()


def test_a_play_stream_sends_what_was_appended_without_reading_the_store(server, monkeypatch):
    """A seat's Play stream of a cached game sends the other seat's new records from the game's tail:
    once the stream is open, the store's ``records`` is not read for them."""
    from afteraction.client.seat import unbatch

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    store = server.games.store
    size = store.size(gid)
    a = seats["a"]
    signed = a.sign_command(size, a.legal().commands[0])
    reads = []
    real = type(store).records

    def counted(self, g, from_seq=0, limit=None):
        reads.append(from_seq)
        return real(self, g, from_seq, limit)
    monkeypatch.setattr(type(store), "records", counted)
    b = seats["b"]
    join = gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=b.auth(), from_seq=size, batched=True))
    call = b.client.game.Play(iter([join]), timeout=20)
    server.games.submit(signed)   # a's command, as a replica's would be (the client's checks read the store)
    got = []
    for m in unbatch(call):
        got.append(m.WhichOneof("kind"))
        if got[-1] == "your_decision":
            break
    call.cancel()
    assert got[:3] == ["record", "checkpoint", "your_decision"], got
    assert reads == [], reads
    c.close()


LISTENER = """
import sys, time
from afteraction.service.wake import Wakes
told = []
stop = Wakes(sys.argv[1]).listen(lambda g, n: told.append((g, n)), lambda up: print("up", up, flush=True))
t = time.time()
while not told and time.time() - t < 20:
    time.sleep(0.01)
print(told, flush=True)
stop()
"""


def test_the_processes_of_one_sqlite_store_tell_each_other_of_a_commit(tmp_path):
    """service/wake.py: a process listening on a store's path is told ``game size`` by another
    process's ``tell`` (the store's writer, after each commit), at once, not at the next poll."""
    from afteraction.service.wake import Wakes

    path = str(tmp_path / "store.sqlite")
    p = subprocess.Popen([sys.executable, "-c", LISTENER, path], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "up True"
        w = Wakes(path)
        assert w.peers() == [p.pid]
        t0 = time.monotonic()
        w.tell([("g1", 7)])
        assert p.stdout.readline().strip() == "[('g1', 7)]"
        assert time.monotonic() - t0 < 5
    finally:
        p.wait(30)
    assert not [n for n in os.listdir(tmp_path) if "-wake" in n]   # the marker goes with the listener
    assert Wakes(path).peers() == []
