"""Watch wake-ups across servers through PostgreSQL's LISTEN/NOTIFY (
service/feeds.py, service/store_postgres.py): a Watch on one server learns of another server's
append when it is committed, not at the next poll. The poll interval is set to a minute here, so
a Watch that waited for the poll would miss the test's bound; a notification of an append that
rolled back is never sent; a lost listening connection falls back to polling and wakes every
stream once it is back."""
from __future__ import annotations

import threading
import time

import pytest

from afteraction.client.client import Client

from .conftest import handshake, new_duel

BOUND_S = 5.0


@pytest.fixture
def two_servers(tmp_path, pg_dsn, monkeypatch):
    from afteraction.service import limits
    from afteraction.service.server import start

    monkeypatch.setattr(limits, "STREAM_POLL_S", 60.0)
    a = start("127.0.0.1:0", pg_dsn, None, str(tmp_path))
    b = start("127.0.0.1:0", pg_dsn, None, str(tmp_path))   # same key and data key, other process state
    try:
        yield a, b
    finally:
        a.stop(2)
        b.stop(2)


def _watch_until(target: str, gid: str, size: int, seen: list, done: threading.Event):
    c = Client(target, timeout=30)

    def on_record(r):
        seen.append((r.seq, time.monotonic()))
        if r.seq + 1 >= size:
            done.set()
    t = threading.Thread(target=lambda: _run_watch(c, gid, on_record, done), daemon=True)
    t.start()
    return c, t


def _run_watch(c, gid, on_record, done):
    try:
        c.watch(gid, on_record)
    except Exception:  # noqa: BLE001 -- ended by the test's close
        pass
    finally:
        done.set()


def test_a_watch_on_one_server_wakes_at_once_on_an_append_through_another(two_servers):
    a, b = two_servers
    assert b.service.feeds.listening or _wait(lambda: b.service.feeds.listening)
    c, gid, seats = new_duel(f"127.0.0.1:{a.port}")
    seen: list = []
    done = threading.Event()
    wc, t = _watch_until(f"127.0.0.1:{b.port}", gid, 3, seen, done)
    _wait(lambda: seen)            # genesis read through B
    time.sleep(0.3)                # B's Watch is now waiting for an append
    t0 = time.monotonic()
    handshake(seats)               # two commits and two reveals, all through A
    assert done.wait(BOUND_S), f"B's Watch saw {len(seen)} records in {BOUND_S} s (poll every 60 s)"
    assert seen[2][1] - t0 < BOUND_S
    wc.close()
    c.close()


def test_a_lost_listening_connection_falls_back_to_polling_and_wakes_every_stream(two_servers, pg_dsn):
    import psycopg

    a, b = two_servers
    feeds = b.service.feeds
    _wait(lambda: feeds.listening)
    ev = b.call(_subscribe(feeds, "g"))
    states = []
    orig = feeds._listening
    feeds._listening = lambda up: (states.append(up), orig(up))
    with psycopg.connect(pg_dsn, autocommit=True) as conn:   # the database drops the listeners' connections
        n = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                         "datname = current_database() AND query LIKE 'LISTEN%%'").fetchone()[0]
    assert n >= 1
    _wait(lambda: False in states)          # lost: polling meanwhile
    _wait(lambda: states[-1] is True)       # reconnected
    _wait(lambda: ev.is_set())              # and every watched game woken once
    # and the next append through A is told again, at once
    c, gid, seats = new_duel(f"127.0.0.1:{a.port}")
    seen: list = []
    done = threading.Event()
    wc, t = _watch_until(f"127.0.0.1:{b.port}", gid, 3, seen, done)
    _wait(lambda: seen)
    handshake(seats)
    assert done.wait(BOUND_S)
    wc.close()
    c.close()


async def _subscribe(feeds, gid):
    return feeds.subscribe(gid)


def test_an_append_that_rolls_back_is_not_told(pg_dsn, tmp_path):
    """NOTIFY inside the append's transaction: a lost race (Conflict) tells no listener."""
    from afteraction.service.store import Append, Conflict, GameRow, RecordRow
    from afteraction.service.stores import open_store

    st = open_store(pg_dsn, str(tmp_path))
    other = open_store(pg_dsn, str(tmp_path))
    told, up = [], threading.Event()
    stop = st.listen(lambda gid, n: told.append((gid, n)), lambda ok: ok and up.set())
    try:
        assert up.wait(10)
        other.create_game(GameRow("g1", "duel", "1", b"gen", b"s" * 32), RecordRow(0, b"r0", b"h0", "cp0"))
        other.append(Append("g1", [RecordRow(1, b"r1", b"h1", "cp1")], None))
        with pytest.raises(Conflict):
            other.append(Append("g1", [RecordRow(1, b"r1x", b"h1x", "cp1x")], None))
        st.append(Append("g1", [RecordRow(2, b"r2", b"h2", "cp2")], None))   # its own: not told to itself
        _wait(lambda: told)
        time.sleep(0.5)
        assert told == [("g1", 2)]
    finally:
        stop()
        st.close()
        other.close()


def _wait(cond, timeout: float = 10.0) -> bool:
    give_up = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < give_up, "timed out"
        time.sleep(0.02)
    return True


def test_an_append_whose_notify_was_lost_is_found_by_the_slow_poll(tmp_path, pg_dsn, monkeypatch):
    """A server that died between its commit and its NOTIFY: the listeners' poll, which runs every
    SAFETY_POLL_S while they listen, finds the append."""
    from afteraction.service import feeds as F
    from afteraction.service import limits
    from afteraction.service.server import start
    from afteraction.service.store_postgres import PostgresStore

    monkeypatch.setattr(limits, "STREAM_POLL_S", 0.2)
    monkeypatch.setattr(F, "SAFETY_POLL_S", 1.0)
    a = start("127.0.0.1:0", pg_dsn, None, str(tmp_path))
    b = start("127.0.0.1:0", pg_dsn, None, str(tmp_path))
    try:
        _wait(lambda: b.service.feeds.listening)
        monkeypatch.setattr(PostgresStore, "_notify", lambda self, c, gid, size: None)   # A never tells
        c, gid, seats = new_duel(f"127.0.0.1:{a.port}")
        seen: list = []
        done = threading.Event()
        wc, t = _watch_until(f"127.0.0.1:{b.port}", gid, 3, seen, done)
        _wait(lambda: seen)
        handshake(seats)
        assert done.wait(BOUND_S)
        assert b.service.feeds.listening   # found while listening, by the slow poll
        wc.close()
        c.close()
    finally:
        a.stop(2)
        b.stop(2)
