"""Optimistic concurrency across replicas and durability of an acknowledged command.

- Two servers (two processes' worth of caches: separate GameManagers, stores and
  gRPC servers) on the same store, SQLite and PostgreSQL, race on one game from
  threads: the same signed bytes sent to both get one stored result (the other
  reply is the original result again); two different commands for one seat
  counter get one stored command and ALREADY_EXISTS. The log never forks: it is
  contiguous, both servers export the same bytes, and it verifies.
- An acknowledged command is on disk before the reply: the server process is
  killed with SIGKILL right after a reply and the record is in the store.
"""
from __future__ import annotations

import signal
import sqlite3
import threading

import grpc
import pytest

from afteraction.client.client import Client
from afteraction.engine.bots import Prng
from afteraction.client.client import error_info
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

from .conftest import Server, new_duel


def submit(c: Client, signed: bytes):
    return c.game.SubmitCommand(gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed)),
                                timeout=30)


def race(*calls):
    """Run the calls at once (a barrier releases them together); results or RpcErrors."""
    out: list = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def run(i, fn):
        gate.wait()
        try:
            out[i] = fn()
        except grpc.RpcError as e:
            out[i] = e

    ts = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    return out


def all_records(c: Client, gid: str) -> list[gs.LogRecord]:
    return list(c.audit.GetRecords(au.GetRecordsRequest(game_id=gid), timeout=30).records)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_two_servers_racing_on_one_game_never_fork(tmp_path, request, kind):
    spec = f"sqlite:{tmp_path / 'store.sqlite'}" if kind == "sqlite" else request.getfixturevalue("pg_dsn")
    s1, s2 = Server(tmp_path, spec), Server(tmp_path, spec)  # same store, same key file
    try:
        c1, gid, seats = new_duel(s1.target)
        c2 = Client(s2.target, timeout=30)
        a, b = seats["a"], seats["b"]
        # the handshake: both seats' commits (then reveals) at once, one through each server
        for step in ("sign_commit", "sign_reveal"):
            sa, sb = getattr(a, step)(), getattr(b, step)()
            r = race(lambda: submit(c1, sa), lambda: submit(c2, sb))
            # format version 2: both are bound to the same end of the log; one is written, the
            # other is stale there (never written after a record its seat had not seen): re-signed
            bad = [(s, x) for s, x in zip((a, b), r) if isinstance(x, grpc.RpcError)]
            assert len(bad) == 1 and error_info(bad[0][1]).reason in ("STALE_STATE", "LOST_RACE"), r
            late = bad[0][0]
            late.submit(getattr(late, step)())
            for s in (a, b):
                s.catch_up()
        prng = Prng(b"race")
        same_bytes = different = 0
        while True:
            st = c1.state(gid)
            if st.ended:
                break
            seat = seats[st.decision.seat]
            seat.catch_up()
            legal = list(seat.legal().commands)
            before = len(all_records(c1, gid))
            if (same_bytes + different) % 2 == 0:
                # a retry racing its original on another replica: one stored result, the same for both
                signed = seat.sign_command(st.state_seq, prng.choice(legal))
                r = race(lambda: submit(c1, signed), lambda: submit(c2, signed))
                assert not any(isinstance(x, grpc.RpcError) for x in r), r
                assert sorted(x.duplicate for x in r) == [False, True]
                assert list(r[0].records) == list(r[1].records) and r[0].checkpoint == r[1].checkpoint
                stored = r[0]
                same_bytes += 1
            else:
                # two different commands under one seat counter: one is stored, the other ALREADY_EXISTS
                x, y = legal[0], legal[-1]
                sx = seat.sign_command(st.state_seq, x)
                sy = seat.sign_command(st.state_seq, y)  # same counter: the log is the counter's truth
                r = race(lambda: submit(c1, sx), lambda: submit(c2, sy))
                ok = [v for v in r if not isinstance(v, grpc.RpcError)]
                bad = [v for v in r if isinstance(v, grpc.RpcError)]
                assert len(ok) == 1 and len(bad) == 1, r
                assert bad[0].code() == grpc.StatusCode.ALREADY_EXISTS, bad[0].details()
                assert error_info(bad[0]).reason == "COUNTER_REUSED"
                stored = ok[0]
                different += 1
            assert len(all_records(c1, gid)) == before + len(stored.records)  # one result stored, no fork
        assert same_bytes and different
        recs1, recs2 = all_records(c1, gid), all_records(c2, gid)
        assert [x.seq for x in recs1] == list(range(len(recs1)))
        assert recs1 == recs2
        data = c1.export(gid)
        assert data == c2.export(gid)
        rep = c1.verify(data)
        assert rep.verified and rep.ended and rep.replayed
        c1.close()
        c2.close()
    finally:
        s1.stop()
        s2.stop()


def test_sqlite_store_runs_wal_with_synchronous_full(tmp_path):
    from afteraction.service.stores import open_store

    st = open_store(f"sqlite:{tmp_path / 's.sqlite'}", str(tmp_path))
    try:
        for conn in (st._wconn, st._conn()):
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        st.close()


def test_an_acknowledged_command_survives_kill_9_right_after_the_reply(tmp_path):
    """SIGKILL gives the server no chance to flush anything: whatever a reply
    acknowledged must already be committed in the store file."""
    from .test_restart import serve_process

    db = tmp_path / "s.sqlite"
    p, target, _ = serve_process(tmp_path, f"sqlite:{db}")
    try:
        c, gid, seats = new_duel(target)
        a, b = seats["a"], seats["b"]
        acked = []
        for s in (a, b):
            acked.append(s.submit(s.sign_commit()))
        res = submit(c, b.sign_reveal())  # the last reply: kill the server the moment it arrives
        p.send_signal(signal.SIGKILL)
        p.wait(10)
        acked.append(res)
        c.close()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    conn = sqlite3.connect(db)
    stored = dict(conn.execute("SELECT seq, record FROM records WHERE game_id=?", (gid,)).fetchall())
    conn.close()
    for r in acked:
        for rec in r.records:
            assert stored.get(rec.seq) == rec.record, f"acknowledged record {rec.seq} is not in the store"


def test_a_replica_with_a_stale_cache_judges_a_command_on_the_stored_tail(tmp_path):
    """Replica 2 cached the game at the handshake; replica 1 then took the game
    further. A command for the current state sent to replica 2 is refused by its
    stale referee, so it must check the store, catch up and accept it."""
    from afteraction.service.games import GameManager

    from .test_errors import duel

    s1 = Server(tmp_path)
    try:
        c, gid, seats = new_duel(s1.target)
        a, b = seats["a"], seats["b"]
        other = GameManager(s1.games.store, s1.games.signer)
        other.submit(a.sign_commit())          # replica 2 caches the game at record 2
        a.catch_up()
        b.submit(b.sign_commit())              # replica 1 takes it to the end of the handshake
        for s in (a, b):
            s.submit(s.sign_reveal())
        a.catch_up()
        seq = c.state(gid).state_seq
        res = other.submit(a.sign_command(seq, duel("pick", 2)))
        assert [r.seq for r in res.records] == [seq]
        assert c.state(gid).state_seq == seq + 1
        c.close()
    finally:
        s1.stop()


def test_postgres_store_commits_synchronously_even_if_the_database_default_is_off(pg_dsn, tmp_path):
    import psycopg

    from afteraction.service.stores import open_store

    name = pg_dsn.rsplit("/", 1)[1]
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    st = open_store(pg_dsn, str(tmp_path))
    try:
        assert st._conn().execute("SHOW synchronous_commit").fetchone()[0] == "on"
    finally:
        st.close()
