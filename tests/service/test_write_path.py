"""The service's one write path and its fast stream: the pending
decision asked once per command, the next decision returned with the acceptance, a Play stream's
records sent from the game's tail, and the server processes of one SQLite store told of each
other's commits (service/wake.py), and a cached game caught up from what they told, in place."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import grpc
import pytest

from .conftest import handshake, new_duel, new_game

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


def _other_process(server, gid):
    """A second process's games manager on the server's store, with ``gid`` cached, its listener up
    and the cache compared with the store once since (as a worker of `aar serve --workers 2`)."""
    from afteraction.service.games import GameManager

    other = GameManager(server.games.store, server.games.signer)
    with other.locked(gid):
        pass
    other.listening(True)
    with other.locked(gid, told=True):   # the first read in the new epoch asks the store
        pass
    return other


def test_a_stream_read_knows_from_what_was_told_whether_the_store_has_more(server, monkeypatch):
    """A stream's read (``locked(told=True)``) asks the store nothing while the listener is up and the
    cache was compared with the store in this epoch: another process's append is seen once told
    (``told``), then caught up; with the listener down the store's size is asked again."""
    c, gid, seats = new_duel(server.target)
    handshake(seats)
    store = server.games.store
    other = _other_process(server, gid)
    sizes = []
    real = type(store).size

    def counted(self, g):
        sizes.append(g)
        return real(self, g)
    monkeypatch.setattr(type(store), "size", counted)
    a = seats["a"]
    n = real(store, gid)
    server.games.submit(a.sign_command(n, a.legal().commands[0]))   # the first process appends
    sizes.clear()
    with other.locked(gid, told=True) as live:
        assert live.size == n             # not told yet: as cached (the wake will make the stream read again)
    assert sizes == []
    other.told(gid, n + 1)
    with other.locked(gid, told=True) as live:
        assert live.size == n + 1         # told: caught up, without asking the store its size
        assert other.seat_turn(live, "b") is not None
    assert sizes == []
    other.listening(False)
    with other.locked(gid, told=True):
        pass
    assert sizes == [gid]                 # the listener down: what was told is not trusted
    c.close()


def test_a_catch_up_on_the_loop_replays_in_place_and_a_refusal_discards_the_game(server, monkeypatch):
    """The other process's catch-up of a cached game runs where the read runs (``inline``: no pool
    hop) for a few records, applies the stored commands to the live state without copying it, and a
    stored command that its replay refuses discards the cached game (INTERNAL), as the verifier's
    in-place replay fails."""
    from afteraction.engine.codes import Code
    from afteraction.engine.errors import Rejection
    from afteraction.service.status import Internal

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    store = server.games.store
    other = _other_process(server, gid)
    rs = registry.get("duel")
    copies = []
    real_copy = type(rs).copy_state
    monkeypatch.setattr(type(rs), "copy_state", lambda self, st: copies.append(1) or real_copy(self, st))
    a = seats["a"]
    n = store.size(gid)
    server.games.submit(a.sign_command(n, a.legal().commands[0]))
    copies.clear()
    other.told(gid, n + 1)
    with other.inline():
        with other.locked(gid, told=True) as live:   # no WouldWait: caught up here
            assert live.size == n + 1
    assert copies == []
    assert gid in other._live
    b = seats["b"]
    server.games.submit(b.sign_command(n + 1, b.legal().commands[0]))
    other.told(gid, n + 2)

    def refuse(*args, **kw):
        raise Rejection(Code.STALE_STATE, "simulated: the replay refuses the stored command")
    monkeypatch.setattr(type(other._live[gid].referee), "accept", refuse)
    with pytest.raises(Internal):
        with other.inline():
            with other.locked(gid, told=True):
                pass
    assert gid not in other._live                    # discarded: the next use rebuilds it from the store
    monkeypatch.undo()
    with other.locked(gid) as live:
        assert live.size == n + 2
    c.close()


def test_what_was_told_is_kept_for_cached_games_past_its_bound(server, monkeypatch):
    """``GameManager.told`` keeps a size for every game told (a game being loaded is not cached yet);
    past TOLD_KEPT entries only those of cached games (and the one just told) stay, with their sizes."""
    from afteraction.service import games as games_mod

    c, gid, seats = new_duel(server.target)
    other = _other_process(server, gid)
    monkeypatch.setattr(games_mod, "TOLD_KEPT", 4)
    other.told(gid, 3)
    for i in range(4):
        other.told(f"gone{i}", 1)
    assert other._told == {gid: 3, "gone3": 1}
    c.close()


def _open_play(seat, gid: str, size: int, timeout: float):
    """A batched Play stream of ``seat`` joined at ``size``: (the queue its requests are put on, None
    ends them; the call)."""
    import queue

    q: queue.Queue = queue.Queue()
    q.put(gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=seat.auth(), from_seq=size, batched=True)))

    def requests():
        while (m := q.get()) is not None:
            yield m
    return q, seat.client.game.Play(requests(), timeout=timeout)


def test_the_seat_that_moved_gets_its_records_and_its_acceptance_as_one_message(server):
    """A batched Play stream's own command: its append wakes the stream before the command's result
    reaches it; the stream waits for the result, so the records and the acceptance go together as
    one message (they went as two)."""
    from afteraction.v1 import envelope_pb2

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    a = seats["a"]
    size = server.games.store.size(gid)
    legal = a.legal()
    q, call = _open_play(a, gid, size, timeout=20)
    try:
        it = iter(call)
        first = next(it)
        items = first.batch.items if first.WhichOneof("kind") == "batch" else [first]
        assert [m.WhichOneof("kind") for m in items] == ["your_decision"]
        signed = a.sign_command(size, legal.commands[0])
        q.put(gs.PlayRequest(command=envelope_pb2.SignedCommand.FromString(signed)))
        m = next(it)
        assert m.WhichOneof("kind") == "batch", m
        kinds = [x.WhichOneof("kind") for x in m.batch.items]   # the record, a's openings in it, its checkpoint
        assert kinds[0] == "record" and kinds[-2:] == ["checkpoint", "accepted"], kinds
        assert set(kinds[1:-2]) <= {"opening"}, kinds
    finally:
        q.put(None)
        call.cancel()
    c.close()


def test_a_stream_waiting_for_its_result_still_sends_what_another_seat_appended_meanwhile(server, monkeypatch):
    """The other seat's command stored while this seat's command is still being judged wakes the
    stream while it waits for its result; the stream then sends its own records from the result and
    must still find the other seat's: here b's guess is stored before a's pick reaches a's stream
    (before the fix, the stream waited for a wake that had been taken, and the game stopped)."""
    from afteraction.engine.seat import Head
    from afteraction.v1 import envelope_pb2

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    a, games = seats["a"], server.games
    size = games.store.size(gid)
    genesis = games.store.records(gid, 0, 1)[0].hash
    b_key = seats["b"].signer   # its counter goes on from the handshake
    real = type(games).submit_async

    async def then_b(self, signed, deadline_ok, run):
        res = await real(self, signed, deadline_ok, run)
        if res.seat == "a" and not res.duplicate:
            last = res.records[-1]
            with self.locked(gid) as live:
                legal = self.seat_turn(live, "b")[1]
            self.submit(b_key.command(gid, last.seq + 1, legal[0], Head(last.seq + 1, last.hash, genesis)))
        return res
    monkeypatch.setattr(type(games), "submit_async", then_b)
    q, call = _open_play(a, gid, size, timeout=10)
    kinds = []
    try:
        for m in call:
            kinds += [x.WhichOneof("kind") for x in (m.batch.items if m.WhichOneof("kind") == "batch" else [m])]
            if kinds == ["your_decision"]:
                signed = a.sign_command(size, a.legal().commands[0])
                q.put(gs.PlayRequest(command=envelope_pb2.SignedCommand.FromString(signed)))
            if kinds.count("your_decision") == 2:
                break
    except grpc.RpcError as e:
        assert False, f"{e.code()} after {kinds}"
    finally:
        q.put(None)
        call.cancel()
    assert kinds.count("record") == 2 and "accepted" in kinds, kinds   # a's pick, b's guess, then a's prompt
    c.close()


def test_the_next_decision_of_a_submit_is_the_decision_get_state_gives(server):
    """SubmitCommandResponse.next_decision carries what the game's decision table declares of it
    (sampled, space, rule), as GetState's decision does: SOG's sampled answers included."""
    from afteraction.engine.bots import Prng

    kinds = set()
    for g in range(8):   # the dice differ run to run (the game id is the server's); about one game in
        seed = b"next-decision/%d" % g   # six ends before a sampled decision: another game then
        c, gid, seats = new_game(server.target, "sog", seed)
        handshake(seats)
        prng = Prng(seed)
        while (True, True) not in kinds:
            d = c.state(gid).decision
            seat = seats[d.seat]
            lg = seat.legal()
            res = seat.submit(seat.sign_command(lg.state_seq, prng.choice(list(lg.commands))))
            after = c.state(gid)
            if after.ended:
                break
            assert res.next_decision == after.decision, (res.next_decision, after.decision)
            kinds.add((res.next_decision.sampled, bool(res.next_decision.rule)))
        c.close()
        if (True, True) in kinds:
            break
    assert (True, True) in kinds, kinds   # a sampled decision with its rule was met and compared


def test_a_play_batch_written_from_its_items_bytes_is_protobufs_own_serialization():
    """servicer.batch_bytes (Play's batches sent as bytes) gives what protobuf serializes for the same
    batch, with items whose lengths take one, two and three varint bytes; and it parses back."""
    from afteraction.service.servicer import batch_bytes

    items = [gs.PlayResponse(record=gs.LogRecord(seq=n, record=b"r" * n)) for n in (0, 5, 126, 127, 300, 20000)]
    items.append(gs.PlayResponse(accepted=gs.CommandAccepted(counter=7, seqs=[1, 2])))
    for k in (1, 2, len(items)):
        want = gs.PlayResponse(batch=gs.PlayBatch(items=items[:k])).SerializeToString()
        got = batch_bytes([m.SerializeToString() for m in items[:k]])
        assert got == want
        assert list(gs.PlayResponse.FromString(got).batch.items) == items[:k]


def test_a_seats_read_while_a_command_of_its_game_is_on_its_way_to_the_disk_waits_for_its_wake(server, monkeypatch):
    """A seat's stream that reads while another command of its game is being stored (the game's lock
    held by ``submit_async`` until the store's writer is done) sends nothing yet and does not go to
    the pool to wait for that lock there; the append's wake, once stored, brings its record and the
    seat's prompt on the event loop."""
    import asyncio
    import threading

    from afteraction.service import servicer

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    svc, games = server.run.service, server.games
    size = games.store.size(gid)
    a = seats["a"]
    store = games.store
    held, go = threading.Event(), threading.Event()
    real_commit = type(store)._commit

    def slow_commit(self, batch):
        held.set()
        go.wait(10)
        return real_commit(self, batch)
    monkeypatch.setattr(type(store), "_commit", slow_commit)
    pooled = []
    real_run_stream = svc.run_stream

    async def run_stream(fn, *args):
        pooled.append(getattr(fn, "__name__", fn))
        return await real_run_stream(fn, *args)
    monkeypatch.setattr(svc, "run_stream", run_stream)
    signed = a.sign_command(size, a.legal().commands[0])
    from afteraction.service.envelopes import Command

    async def scene():
        wake = svc.feeds.subscribe(gid)
        try:
            submit = asyncio.ensure_future(games.submit_async(Command.parse(signed), lambda: True, svc.run_counted))
            await asyncio.get_running_loop().run_in_executor(None, held.wait, 10)
            wake.clear()
            during = await servicer._read(svc, gid, size, "b", False)
            go.set()
            await asyncio.wait_for(wake.wait(), 10)
            after = await servicer._read(svc, gid, size, "b", False)
            await submit
            return during, after
        finally:
            svc.feeds.unsubscribe(gid, wake)
    during, after = server.run.call(scene(), 30)
    assert during == ([], {}, False, None)
    recs, _, ended, prompt = after
    assert [r.seq for r in recs] == [size] and not ended and prompt.your_decision.decision.seat == "b"
    assert "_snapshot" not in pooled, pooled
    c.close()
