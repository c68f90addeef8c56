"""Restart: the server stops mid-game and starts again on the same store and key;
the game continues (clients catch up from the log) and the log verifies. Also
`aar serve` as a process: SIGTERM shuts it down cleanly, on SQLite and PostgreSQL."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from afteraction.client.client import Client

from afteraction.client.seat import Seat
from afteraction.engine.bots import random_bot
from afteraction.v1 import audit_service_pb2 as au

from .conftest import handshake, new_duel
from .inject import appends_through


def bot_moves(c, gid, seats, n: int, bot) -> None:
    for _ in range(n):
        st = c.state(gid)
        if st.ended:
            return
        s = seats[st.decision.seat]
        s.catch_up()
        lg = s.legal()
        s.submit(s.sign_command(lg.state_seq, bot(s.seat, list(lg.commands))))


def test_restart_mid_game_continues_and_verifies(server):
    c, gid, seats = new_duel(server.target)
    handshake(seats)
    bot = random_bot(b"restart")
    bot_moves(c, gid, seats, 3, bot)
    vkey = c.server_vkey()
    size = c.state(gid).state_seq
    c.close()
    server.stop()
    server.start()  # same store, same key file, new port
    c2 = Client(server.target)
    assert c2.server_vkey() == vkey
    assert c2.state(gid).state_seq == size
    seats2 = {s: Seat(c2, gid, s, seats[s].signer.seed, seats[s].entropy) for s in seats}
    for s in seats2.values():
        s.catch_up()  # learns its counter and the commitments from the log
    bot_moves(c2, gid, seats2, 100, bot)
    assert c2.state(gid).ended
    rep = c2.verify(c2.export(gid))
    assert rep.verified and rep.replayed
    c2.close()


def test_play_streams_resume_across_a_restart_on_the_same_port(server):
    c, gid, seats = new_duel(server.target)
    port = server.run.port
    bots_done = []
    stopped = threading.Event()
    paused = threading.Event()

    def hook(seat, m):
        # stop the server once, mid-game, from inside a's stream
        if seat.seat == "a" and m.WhichOneof("kind") == "accepted" and seat.next_seq >= 6 and not stopped.is_set():
            stopped.set()
            paused.set()

    def run(seat):
        seat.play(random_bot(f"resume/{seat.seat}"), hook)
        bots_done.append(seat.outcome)

    ts = [threading.Thread(target=run, args=(s,), daemon=True) for s in seats.values()]
    for t in ts:
        t.start()
    assert paused.wait(30)
    server.stop()
    server.start(port)
    for t in ts:
        t.join(60)
    assert len(bots_done) == 2 and bots_done[0] == bots_done[1] is not None
    with Client(server.target) as c2:
        rep = c2.verify(c2.export(gid))
    assert rep.verified and rep.replayed


def serve_process(tmp_path, store: str):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--store", store, "--data-dir", str(tmp_path / "data")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    for line in p.stdout:
        lines.append(line)
        if line.startswith("server key:"):
            break
    port = int(lines[0].rsplit(":", 1)[1])
    return p, f"127.0.0.1:{port}", lines[1].split(": ", 1)[1].strip()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_aar_serve_process_plays_a_game_and_stops_on_sigterm(tmp_path, request, kind):
    store = f"sqlite:{tmp_path / 's.sqlite'}" if kind == "sqlite" else request.getfixturevalue("pg_dsn")
    p, target, vkey = serve_process(tmp_path, store)
    try:
        c, gid, seats = new_duel(target)
        assert c.server_vkey() == vkey
        assert oct(os.stat(tmp_path / "data" / "server.key").st_mode & 0o777) == "0o600"
        handshake(seats)
        bot_moves(c, gid, seats, 100, random_bot(b"serve"))
        rep = c.verify(c.export(gid))
        assert rep.verified and rep.replayed
        c.close()
        p.send_signal(signal.SIGTERM)
        assert p.wait(30) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_graceful_stop_finishes_an_in_flight_append(server):
    """stop() while a command is between accept and its durable append: the
    command is acknowledged, and it is in the store after a restart."""
    import time

    c, gid, seats = new_duel(server.target)
    a = seats["a"]
    store = server.games.store
    real_append = store.append
    entered = threading.Event()

    def slow_append(ap):
        entered.set()
        time.sleep(0.5)
        return real_append(ap)

    from afteraction.v1 import envelope_pb2
    from afteraction.v1 import game_service_pb2 as gs

    result = {}
    req = gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(a.sign_commit()))
    t = threading.Thread(target=lambda: result.setdefault("res", c.game.SubmitCommand(req, timeout=10)))
    with appends_through(store, slow_append):
        t.start()
        assert entered.wait(10)
        server.stop()  # graceful: waits for the in-flight command
        t.join(10)
    assert [r.seq for r in result["res"].records] == [1]
    server.start()
    with Client(server.target) as c2:
        assert c2.state(gid).state_seq == 2


def test_a_deadline_that_passes_before_the_append_stores_nothing(server):
    import time

    import grpc

    from afteraction.v1 import envelope_pb2
    from afteraction.v1 import game_service_pb2 as gs

    c, gid, seats = new_duel(server.target)
    a = seats["a"]
    store = server.games.store
    real_size = store.size

    def slow_size(g):
        time.sleep(0.4)
        return real_size(g)

    signed = a.sign_commit()  # the client reads the log first: that loads the game
    server.games._live.clear()  # so that the submit below loads it again, slowly
    store.size = slow_size
    try:
        with pytest.raises(grpc.RpcError) as e:
            c.game.SubmitCommand(gs.SubmitCommandRequest(
                command=envelope_pb2.SignedCommand.FromString(signed)), timeout=0.2)
        assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        time.sleep(0.8)  # the handler notices the passed deadline before appending
    finally:
        store.size = real_size
    assert c.state(gid).state_seq == 1
def test_watch_resumes_after_the_server_restarts(server):
    """Client.watch follows a live game's public log across a server restart on
    the same port: no record missed or repeated, every checkpoint still checked."""
    import time

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    port = server.run.port
    calls, seen, out = [], [], {}
    w = Client(server.target)
    real_watch = w.game.Watch
    w.game.Watch = lambda req, **kw: calls.append(req.from_seq) or real_watch(req, **kw)
    t = threading.Thread(target=lambda: out.setdefault("tracker", w.watch(gid, lambda r: seen.append(r.record))),
                         daemon=True)
    t.start()
    deadline = time.monotonic() + 10
    while len(seen) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(seen) == 5  # the handshake; the stream now waits for more
    c.close()
    server.stop()
    server.start(port)
    c2 = Client(server.target)
    seats2 = {s: Seat(c2, gid, s, seats[s].signer.seed, seats[s].entropy) for s in seats}
    for s in seats2.values():
        s.catch_up()
    bot_moves(c2, gid, seats2, 100, random_bot(b"watch"))
    t.join(60)
    full = [r.record for r in c2.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records]
    assert seen == full and out["tracker"].report.records == len(full)
    assert calls[0] == 0 and len(calls) >= 2 and calls[1] == 5, calls  # broken, then resumed from record 5
    w.close()
    c2.close()


def test_a_stream_cut_by_shutdown_ends_unavailable_not_ok(server):
    """A Watch of a live game ended by a graceful stop is not a finished stream:
    it ends UNAVAILABLE/SHUTTING_DOWN so clients know to resume."""
    import grpc

    from afteraction.client.client import error_info
    from afteraction.v1 import game_service_pb2 as gs

    c, gid, seats = new_duel(server.target)
    handshake(seats)
    it = c.game.Watch(gs.WatchRequest(game_id=gid), timeout=30)
    got = [next(it) for _ in range(6)]  # five records and a checkpoint; the stream now waits
    assert got[-1].WhichOneof("kind") == "checkpoint"
    threading.Thread(target=server.stop, daemon=True).start()
    with pytest.raises(grpc.RpcError) as e:
        list(it)
    assert e.value.code() == grpc.StatusCode.UNAVAILABLE and error_info(e.value).reason == "SHUTTING_DOWN"
    c.close()
