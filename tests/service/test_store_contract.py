"""The store contract (service/store.py), run against SQLite and PostgreSQL."""
from __future__ import annotations

import asyncio
import hashlib
import threading

import pytest

from afteraction.service.store import Append, CommandRow, Conflict, GameRow, OpeningRow, RecordRow


def _append_async(store, a: Append) -> None:
    """The service's path: ``append_async``'s future on a running loop, or, for a store without
    one (it returns None), ``append`` in a thread of the loop's pool."""
    async def go():
        loop = asyncio.get_running_loop()
        fut = store.append_async(a, loop)
        if fut is None:
            return await loop.run_in_executor(None, store.append, a)
        return await fut
    asyncio.run(go())


@pytest.fixture(params=["append", "append_async"])
def append(request):
    """Every contract test appends both ways: ``Store.append`` and ``Store.append_async``."""
    if request.param == "append":
        return lambda store, a: store.append(a)
    return _append_async


def rec(seq: int, tag: bytes = b"") -> RecordRow:
    raw = b"record-%d" % seq + tag
    return RecordRow(seq, raw, hashlib.sha256(raw).digest(), f"checkpoint {seq + 1}\n")


def cmd(seat: str, counter: int, seqs, body: bytes = b"") -> CommandRow:
    signed = f"{seat}/{counter}".encode() + body
    return CommandRow(seat, counter, signed, hashlib.sha256(signed).digest(), tuple(seqs))


def new_game(store, gid="g1") -> None:
    store.create_game(GameRow(gid, "duel", "1", b"genesis", b"s" * 32), rec(0))


def test_create_and_read_game(store):
    new_game(store)
    g = store.game("g1")
    assert (g.game_id, g.game, g.version, g.genesis, g.secret, g.ended) == ("g1", "duel", "1", b"genesis", b"s" * 32, False)
    assert store.game("nope") is None
    assert store.size("g1") == 1 and store.size("nope") == 0
    assert store.records("g1") == [rec(0)]
    with pytest.raises(Conflict):
        new_game(store)


def test_append_and_read_back(store, append):
    new_game(store)
    append(store, Append("g1", [rec(1)], cmd("a", 1, [1])))
    append(store, Append("g1", [rec(2), rec(3)], cmd("b", 1, [2, 3]),
                        [OpeningRow("b", 2, 1, b"x" * 32, b"\x01"), OpeningRow("a", 3, 1, b"y" * 32, b"\x02")],
                        ended=True))
    assert store.size("g1") == 4
    assert [r.seq for r in store.records("g1")] == [0, 1, 2, 3]
    assert store.records("g1", 2, 1) == [rec(2)]
    assert store.latest("g1") == rec(3)
    assert store.command("g1", "b", 1) == cmd("b", 1, [2, 3])
    assert store.command("g1", "b", 2) is None
    assert [(c.seat, c.counter) for c in store.commands("g1")] == [("a", 1), ("b", 1)]
    assert [(c.seat, c.counter) for c in store.commands("g1", 2)] == [("b", 1)]
    assert store.openings("g1", "b") == [OpeningRow("b", 2, 1, b"x" * 32, b"\x01")]
    assert store.openings("g1", "a", 0, 3) == []
    assert store.game("g1").ended


def _unchanged(store, n):
    assert store.size("g1") == n
    assert len(store.commands("g1")) == n - 1


def test_lost_race_same_seq_is_conflict_and_writes_nothing(store, append):
    new_game(store)
    append(store, Append("g1", [rec(1)], cmd("a", 1, [1])))
    with pytest.raises(Conflict):
        append(store, Append("g1", [rec(1, b"fork")], cmd("b", 1, [1]), [OpeningRow("b", 1, 1, b"z" * 32, b"")]))
    _unchanged(store, 2)
    assert store.records("g1", 1) == [rec(1)]
    assert store.openings("g1", "b") == []


def test_gap_is_conflict(store, append):
    new_game(store)
    with pytest.raises(Conflict):
        append(store, Append("g1", [rec(2)], cmd("a", 1, [2])))
    _unchanged(store, 1)


def test_counter_reuse_is_conflict(store, append):
    new_game(store)
    append(store, Append("g1", [rec(1)], cmd("a", 1, [1])))
    with pytest.raises(Conflict):
        append(store, Append("g1", [rec(2)], cmd("a", 1, [2], b"other")))
    _unchanged(store, 2)


def test_games_are_independent(store, append):
    new_game(store, "g1")
    new_game(store, "g2")
    append(store, Append("g1", [rec(1)], cmd("a", 1, [1])))
    append(store, Append("g2", [rec(1)], cmd("a", 1, [1])))
    assert store.size("g1") == store.size("g2") == 2


def test_concurrent_appends_never_fork(store, append):
    """Eight threads race for the same seq repeatedly: exactly one wins each round."""
    new_game(store)
    for seq in range(1, 6):
        wins, conflicts = [], []

        def go(i):
            try:
                append(store, Append("g1", [rec(seq, b"%d" % i)], cmd(f"s{i}", seq, [seq])))
                wins.append(i)
            except Conflict:
                conflicts.append(i)

        ts = [threading.Thread(target=go, args=(i,)) for i in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert len(wins) == 1 and len(conflicts) == 7
        assert store.size("g1") == seq + 1
        assert store.records("g1", seq)[0] == rec(seq, b"%d" % wins[0])


def test_reopen_keeps_everything(store, append, tmp_path):
    """What append acknowledged is there for a new store object (another process)."""
    from afteraction.service.stores import open_store

    new_game(store)
    append(store, Append("g1", [rec(1)], cmd("a", 1, [1])))
    spec = f"sqlite:{store.path}" if hasattr(store, "path") else store.dsn
    other = open_store(spec, str(tmp_path))  # the same data key (tmp_path/data.key)
    try:
        assert other.records("g1") == [rec(0), rec(1)]
        assert other.command("g1", "a", 1) == cmd("a", 1, [1])
    finally:
        other.close()


def test_sqlite_batch_with_one_loser_commits_the_others(tmp_path):
    """Group commit: a batch holding a lost race rolls back and is redone one append
    at a time, so only the loser fails (store_sqlite._commit's fallback)."""
    from afteraction.service.stores import open_store
    from afteraction.service.store_sqlite import _Pending

    store = open_store(f"sqlite:{tmp_path / 'b.sqlite'}", str(tmp_path))
    try:
        for g in ("g1", "g2", "g3"):
            new_game(store, g)
        store.append(Append("g2", [rec(1)], cmd("a", 1, [1])))
        batch = [_Pending(Append("g1", [rec(1)], cmd("a", 1, [1]))),
                 _Pending(Append("g2", [rec(1, b"late")], cmd("b", 1, [1]))),   # lost race: seq 1 is taken
                 _Pending(Append("g3", [rec(1), rec(2)], cmd("a", 1, [1, 2]), ended=True))]
        store._commit(batch)
        assert batch[0].error is None and batch[2].error is None
        assert isinstance(batch[1].error, Conflict)
        assert store.size("g1") == 2 and store.size("g2") == 2 and store.size("g3") == 3
        assert store.records("g2", 1) == [rec(1)] and store.game("g3").ended
    finally:
        store.close()


def test_sqlite_batch_in_multirow_statements_keeps_each_append_whole(tmp_path):
    """Group commit writes a batch in one multi-row statement per table (store_sqlite._insert_batch,
    in parts of ROWS_PER_STATEMENT rows): 600 appends of two records, a command and an opening each
    (1,200 record rows: three parts), some ending their game, go in whole; an append whose first
    record does not follow its game's stored tail (a gap) fails alone, by the fallback."""
    from afteraction.service import store_sqlite
    from afteraction.service.stores import open_store

    store = open_store(f"sqlite:{tmp_path / 'm.sqlite'}", str(tmp_path))
    try:
        gids = [f"g{i}" for i in range(600)]
        for g in gids + ["gap"]:
            new_game(store, g)
        batch = [store_sqlite._Pending(Append(g, [rec(1, g.encode()), rec(2)], cmd("a", 1, [1, 2]),
                                              [OpeningRow("a", 1, 0, b"salt" + g.encode(), b"v")], ended=i % 7 == 0))
                 for i, g in enumerate(gids)]
        assert len(batch) * 2 > 2 * store_sqlite.ROWS_PER_STATEMENT
        store._commit(batch)
        assert all(p.error is None for p in batch)
        for i, g in enumerate(gids):
            assert store.records(g) == [rec(0), rec(1, g.encode()), rec(2)]
            assert store.command(g, "a", 1) == cmd("a", 1, [1, 2])
            assert store.openings(g, "a") == [OpeningRow("a", 1, 0, b"salt" + g.encode(), b"v")]
            assert store.game(g).ended is (i % 7 == 0)
        more = [store_sqlite._Pending(Append(g, [rec(3)], cmd("a", 2, [3]))) for g in gids[1:4]]
        more.insert(1, store_sqlite._Pending(Append("gap", [rec(2)], cmd("a", 1, [2]))))  # the log is at 1, not 2
        store._commit(more)
        assert isinstance(more[1].error, Conflict)
        assert [p.error for p in more if p is not more[1]] == [None, None, None]
        assert store.size("gap") == 1 and store.command("gap", "a", 1) is None
        assert all(store.size(g) == 4 for g in gids[1:4])
    finally:
        store.close()


def test_sqlite_writers_take_turns_by_the_path_writer_flock(tmp_path):
    """Two processes' writers on one SQLite store take turns by an flock on PATH-writer (0600),
    held from before BEGIN IMMEDIATE to after COMMIT: while another holder has it, an append
    waits (and is not acknowledged); once it is released the append commits."""
    import fcntl
    import os
    import stat

    from afteraction.service.stores import open_store

    path = tmp_path / "w.sqlite"
    store = open_store(f"sqlite:{path}", str(tmp_path))
    try:
        new_game(store)
        lock = f"{path}-writer"
        assert stat.S_IMODE(os.stat(lock).st_mode) == 0o600 and os.path.getsize(lock) == 0
        fd = os.open(lock, os.O_RDWR)  # another open file description: what another process holds
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            done = threading.Event()
            t = threading.Thread(target=lambda: (store.append(Append("g1", [rec(1)], cmd("a", 1, [1]))), done.set()))
            t.start()
            assert not done.wait(0.5), "the append did not wait for the other writer's turn"
            assert store.size("g1") == 1
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        assert done.wait(10)
        t.join()
        assert store.size("g1") == 2
    finally:
        store.close()


def test_cosignatures_first_per_seat_and_size_stays(store):
    """SPEC.md 4.5: the store keeps one cosignature line per (game, size, seat), the first."""
    gid = "g1"
    new_game(store)
    assert store.cosignatures(gid, 1) == []
    store.add_cosignature(gid, 1, "b", "line b\n")
    store.add_cosignature(gid, 1, "a", "line a\n")
    store.add_cosignature(gid, 1, "a", "another line a\n")  # ignored
    store.add_cosignature(gid, 2, "a", "line a at 2\n")
    assert store.cosignatures(gid, 1) == [("a", "line a\n"), ("b", "line b\n")]
    assert store.cosignatures(gid, 2) == [("a", "line a at 2\n")]
    new_game(store, "g2")
    assert store.cosignatures("g2", 1) == []


def test_list_games_pages_by_id_and_filters_by_ended(store, append):
    for gid in ("g3", "g1", "g2"):
        new_game(store, gid)
    append(store, Append("g2", [rec(1)], cmd("a", 1, [1]), ended=True))
    assert store.list_games() == [("g1", b"genesis", False, 1), ("g2", b"genesis", True, 2), ("g3", b"genesis", False, 1)]
    assert [g[0] for g in store.list_games("g1", 1)] == ["g2"]
    assert [g[0] for g in store.list_games("", 50, True)] == ["g2"]
    assert [g[0] for g in store.list_games("", 50, False)] == ["g1", "g3"]
    assert store.list_games("g3") == []
