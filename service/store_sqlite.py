"""SQLite store: WAL, synchronous=FULL, group commit across games.

Group commit: one writer thread per store (per process) takes every append queued at
that moment (from any game), writes the batch in a handful of statements (a lost race:
redone with a SAVEPOINT per append, so only the loser fails) and commits it with one
fsync; appends queued meanwhile go in the next batch. ``append`` (blocking) returns, and
``append_async``'s future resolves, only after the commit that holds its data, so an
acknowledged command is on disk.
Readers use their own per-thread connections (WAL lets them read while the
writer writes). Several processes may share the file: appends are checked in
the transaction (BEGIN IMMEDIATE) against the stored tail. Between processes the
writers take turns by an flock on the file ``PATH-writer`` beside the store before they
begin (the kernel wakes the next writer when the lock is released, where SQLite's own
lock can only be polled), so two servers on one store (``--workers 2``) hand the write
lock over at once and spend no CPU polling for it; the flock is advisory (a process
killed while holding it releases it), and BEGIN IMMEDIATE stays the guarantee.
"""
from __future__ import annotations

import contextlib
import logging
import fcntl
import os
import sqlite3
import threading
import time

from . import atrest
from .store import Append, Conflict, GameRow, RecordRow, SqlStore, StoreError, schema
from .wake import Wakes

log = logging.getLogger("afteraction.service")

SCHEMA = schema("sqlite")  # store.py's one schema
_SIDE = ("", "-wal", "-shm", "-journal", "-writer")  # the database, the files SQLite keeps beside it, our lock
BUSY_TIMEOUT_S = 10.0      # how long a writer waits for another process's write lock (then: StoreError)
BUSY_POLL_S = (0.0002, 0.002)  # the group commit's leader retries the write lock this often (first, at most)


class _Pending:
    __slots__ = ("append", "wake", "error", "future")

    def __init__(self, a: Append, future=None) -> None:
        self.append = a
        self.wake = None if future is not None else threading.Event()  # a blocking append waits on it
        self.future = future   # an asyncio future (append_async), resolved on its loop
        self.error: BaseException | None = None


class SqliteStore(SqlStore):
    def __init__(self, path: str, box: atrest.DataKey) -> None:
        self.path = path
        self.box = box
        d = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(d):
            os.makedirs(d, mode=0o700)  # a directory made here is private; an existing one is the operator's
        _private_files(path)
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        try:
            c = self._connect()
            c.executescript(SCHEMA)
            c.execute("BEGIN IMMEDIATE")
            try:
                migrated = self._migrate(c)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            if migrated:
                # the plaintext's old pages: rewritten (VACUUM), and the WAL that held them emptied
                c.execute("VACUUM")
                c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _private_files(path)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open SQLite store {path}: {e}") from None
        # the writers' turn: a lock between this process's threads, then an flock between processes
        self._turn = threading.Lock()
        self._turn_fd = os.open(path + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
        self._cv = threading.Condition()
        self._queue: list[_Pending] = []
        self._closed = False
        self._wconn = self._connect()  # used only by the writer thread
        # The writer waits for another process's write lock itself (``_begin``): SQLite's own busy
        # handler sleeps in steps growing to 100 ms, which made the p99 of `--workers 2`.
        self._wconn.execute("PRAGMA busy_timeout=0")
        self._wakes = Wakes(path)      # the other processes on this store are told of each commit (wake.py)
        self._writer = threading.Thread(target=self._write_forever, name="aar-store-writer", daemon=True)
        self._writer.start()

    def listen(self, on_append, on_state):
        """Appends by the other processes of this store, as they commit them (service/wake.py)."""
        return self._wakes.listen(on_append, on_state)

    # -- connections ----------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        c = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=FULL")
        c.execute("PRAGMA secure_delete=ON")  # freed pages are zeroed, not left holding old bytes
        c.execute("PRAGMA busy_timeout=10000")
        with self._conns_lock:
            self._conns.append(c)
        return c

    def _conn(self) -> sqlite3.Connection:
        c = getattr(self._local, "conn", None)
        if c is None:
            c = self._local.conn = self._connect()
        return c

    # -- writes ---------------------------------------------------------------
    @contextlib.contextmanager
    def _writer_turn(self):
        """This process's and then this store's write turn (the ``PATH-writer`` flock): held from
        before BEGIN IMMEDIATE to after COMMIT. ``fcntl.flock`` waits in the kernel without the GIL."""
        with self._turn:
            fcntl.flock(self._turn_fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._turn_fd, fcntl.LOCK_UN)

    def create_game(self, game: GameRow, genesis: RecordRow) -> None:
        with self._writer_turn():
            self._create_game(game, genesis)

    def _create_game(self, game: GameRow, genesis: RecordRow) -> None:
        c = self._conn()
        try:
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT INTO games (game_id, game, version, genesis, secret, ended) VALUES (?,?,?,?,?,0)",
                      (game.game_id, game.game, game.version, game.genesis,
                       self._secret_out(game.game_id, game.secret)))
            c.execute("INSERT INTO records (game_id, seq, record, hash, checkpoint) VALUES (?,?,?,?,?)",
                      (game.game_id, genesis.seq, genesis.raw, genesis.hash, genesis.checkpoint))
            c.execute("COMMIT")
        except sqlite3.IntegrityError:
            c.execute("ROLLBACK")
            raise Conflict(f"game {game.game_id} exists") from None

    def append(self, a: Append) -> None:
        """Queue the append for the writer thread and wait until its batch is on disk."""
        p = _Pending(a)
        self._enqueue(p)
        p.wake.wait()
        if p.error is not None:
            raise p.error

    def append_async(self, a: Append, loop):
        """Queue the append for the writer thread; an asyncio future of ``loop`` (call this on
        the loop's thread) that is resolved once the batch holding it is on disk, or fails with
        its error (Conflict, StoreError). The writer resolves a whole batch's futures with one
        wake-up of the loop."""
        p = _Pending(a, loop.create_future())
        self._enqueue(p)
        return p.future

    def _enqueue(self, p: _Pending) -> None:
        with self._cv:
            if self._closed:
                raise StoreError("store is closed")
            self._queue.append(p)
            if len(self._queue) == 1:
                self._cv.notify_all()

    def _write_forever(self) -> None:
        """The one writer of this process: take every append queued (from any game), commit them
        as one batch (one transaction, one fsync), tell each, repeat; after close, drain and stop."""
        while True:
            with self._cv:
                while not self._queue and not self._closed:
                    self._cv.wait()
                if not self._queue:
                    return
                batch, self._queue = self._queue, []
            try:
                with self._writer_turn():
                    self._commit(batch)
            except BaseException as e:  # noqa: BLE001 -- nothing of the batch is acknowledged
                for p in batch:
                    p.error = p.error or StoreError(f"SQLite append failed: {e}")
            finally:
                _finish(batch)
            try:
                self._wakes.tell([(p.append.game_id, p.append.records[-1].seq + 1) for p in batch
                                  if p.error is None and p.append.records])
            except Exception:  # noqa: BLE001 -- a wake not sent: the other processes' poll finds the append
                log.debug("wakes not sent", exc_info=True)

    def _commit(self, batch: list[_Pending]) -> None:
        """Commit a batch. Fast path: the whole batch in a handful of statements
        (a statement costs a GIL round trip, so their number matters more than
        their size). If any append of the batch lost a race, the transaction is
        rolled back and the batch redone one append per SAVEPOINT, so only the
        losers fail."""
        if len({p.append.game_id for p in batch}) == len(batch):  # one append per game: the service's case
            c = self._wconn
            try:
                _begin(c)
                if _insert_batch(c, [p.append for p in batch], self):
                    c.execute("COMMIT")
                    return
                c.execute("ROLLBACK")
            except sqlite3.IntegrityError:
                c.execute("ROLLBACK")
            except Exception as e:  # nothing of the batch is acknowledged
                try:
                    if c.in_transaction:
                        c.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                for p in batch:
                    p.error = StoreError(f"SQLite append failed: {e}")
                return
        self._commit_each(batch)

    def _commit_each(self, batch: list[_Pending]) -> None:
        c = self._wconn
        try:
            _begin(c)
            single = len(batch) == 1  # no savepoint needed: a conflict rolls back the whole transaction
            for p in batch:
                if not single:
                    c.execute("SAVEPOINT one")
                try:
                    _insert(c, p.append, self)
                    if not single:
                        c.execute("RELEASE one")
                except (sqlite3.IntegrityError, Conflict) as e:
                    c.execute("ROLLBACK" if single else "ROLLBACK TO one")
                    if not single:
                        c.execute("RELEASE one")
                    p.error = e if isinstance(e, Conflict) else Conflict(f"lost append race: {e}")
            if c.in_transaction:
                c.execute("COMMIT")
        except Exception as e:  # the whole batch failed: nothing of it is acknowledged
            try:
                if c.in_transaction:
                    c.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            for p in batch:
                if p.error is None:
                    p.error = StoreError(f"SQLite append failed: {e}")

    # -- reads ----------------------------------------------------------------
    def close(self) -> None:
        with self._cv:
            self._closed = True  # the writer commits what is queued (it reaches the disk), then stops
            self._cv.notify_all()
        self._writer.join()
        with self._conns_lock:
            for c in self._conns:
                try:
                    c.close()
                except sqlite3.Error:
                    pass
            self._conns.clear()
        self._local = threading.local()
        try:
            os.close(self._turn_fd)
        except OSError:
            pass


def _finish(batch: list[_Pending]) -> None:
    """Tell a committed (or failed) batch: wake the blocking appends, and resolve the asyncio
    futures with one call per event loop."""
    by_loop: dict = {}
    for p in batch:
        if p.future is None:
            p.wake.set()
        else:
            by_loop.setdefault(p.future.get_loop(), []).append(p)
    for loop, ps in by_loop.items():
        try:
            loop.call_soon_threadsafe(_resolve, ps)
        except RuntimeError:  # the loop is closed (shutdown): the data is on disk or not, nobody waits
            pass


def _resolve(ps: list[_Pending]) -> None:
    for p in ps:
        if not p.future.done():
            if p.error is None:
                p.future.set_result(None)
            else:
                p.future.set_exception(p.error)


def _begin(c: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE on a connection without a busy handler: while another process holds the
    write lock, poll for it every BUSY_POLL_S (a few tenths of a millisecond, growing to 2 ms),
    so the lock is taken within about 2 ms of its release; sqlite3.OperationalError after
    BUSY_TIMEOUT_S."""
    delay, give_up = BUSY_POLL_S[0], time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            c.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY or time.monotonic() > give_up:
                raise
        time.sleep(delay)
        delay = min(2 * delay, BUSY_POLL_S[1])


def _private_files(path: str) -> None:
    """The database and its -wal/-shm files are 0600 (SQLite gives new -wal/-shm files the
    database's mode, so making the database 0600 before SQLite first opens it is enough; files
    of an older store are tightened here)."""
    if not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for side in _SIDE:
        try:
            os.chmod(path + side, 0o600)
        except FileNotFoundError:
            pass


def _insert(c: sqlite3.Connection, a: Append, st: SqlStore) -> None:
    first, *rest = a.records
    # the first record goes in only if it follows the stored tail (same statement: no gap, no fork)
    cur = c.execute("INSERT INTO records (game_id, seq, record, hash, checkpoint) SELECT ?,?,?,?,? "
                    "WHERE (SELECT MAX(seq) FROM records WHERE game_id=?) = ?",
                    (a.game_id, first.seq, first.raw, first.hash, first.checkpoint, a.game_id, first.seq - 1))
    if cur.rowcount != 1:
        raise Conflict(f"game {a.game_id}: the log is not at {first.seq}")
    if rest:
        c.executemany("INSERT INTO records (game_id, seq, record, hash, checkpoint) VALUES (?,?,?,?,?)",
                      [(a.game_id, x.seq, x.raw, x.hash, x.checkpoint) for x in rest])
    cmd = a.command
    if cmd is not None:  # None: a time-out or abandonment (SPEC.md 8.2)
        c.execute("INSERT INTO commands (game_id, seat, counter, signed, digest, first_seq, last_seq) "
                  "VALUES (?,?,?,?,?,?,?)", (a.game_id, cmd.seat, cmd.counter,
                                             st._signed_out(a.game_id, cmd.seat, cmd.counter, cmd.signed),
                                             cmd.digest, cmd.seqs[0], cmd.seqs[-1]))
    if a.openings:
        c.executemany("INSERT INTO openings (game_id, seat, seq, k, salt, value) VALUES (?,?,?,?,?,?)",
                      [(a.game_id, o.seat, o.seq, o.k, *st._opening_out(a.game_id, o)) for o in a.openings])
    if a.ended:
        c.execute("UPDATE games SET ended=1 WHERE game_id=?", (a.game_id,))


def _insert_batch(c: sqlite3.Connection, batch: list[Append], st: SqlStore) -> bool:
    """Insert appends of distinct games in one go; False if any does not follow its game's tail.

    One multi-row statement per table (ROWS_PER_STATEMENT rows at most), not a step per row: each
    statement's step gives the GIL away, and on a busy event loop taking it back costs about a
    switch interval (``python bench/profile_server.py commit-gil``). Every record is inserted by
    one INSERT ... SELECT over its VALUES; the first record of each append carries its expected
    predecessor and goes in only if the game's stored tail is that one (SQLite evaluates the
    SELECT, which reads ``records``, before it inserts: the tails are the ones before the batch)."""
    recs = []
    for a in batch:
        first, *rest = a.records
        recs.append((a.game_id, first.seq, first.raw, first.hash, first.checkpoint, first.seq - 1))
        recs += [(a.game_id, x.seq, x.raw, x.hash, x.checkpoint, None) for x in rest]
    inserted = 0
    for part in _parts(recs):
        cur = c.execute("INSERT INTO records (game_id, seq, record, hash, checkpoint) SELECT v.column1, v.column2, "
                        "v.column3, v.column4, v.column5 FROM (VALUES " + _rows(6, len(part)) + ") AS v WHERE "
                        "v.column6 IS NULL OR (SELECT MAX(seq) FROM records WHERE game_id = v.column1) = v.column6",
                        [x for r in part for x in r])
        inserted += cur.rowcount
    if inserted != len(recs):
        return False
    cmds = [(a.game_id, a.command.seat, a.command.counter,
             st._signed_out(a.game_id, a.command.seat, a.command.counter, a.command.signed),
             a.command.digest, a.command.seqs[0], a.command.seqs[-1]) for a in batch if a.command is not None]
    for part in _parts(cmds):
        c.execute("INSERT INTO commands (game_id, seat, counter, signed, digest, first_seq, last_seq) VALUES "
                  + _rows(7, len(part)), [x for r in part for x in r])
    ops = [(a.game_id, o.seat, o.seq, o.k, *st._opening_out(a.game_id, o)) for a in batch for o in a.openings]
    for part in _parts(ops):
        c.execute("INSERT INTO openings (game_id, seat, seq, k, salt, value) VALUES " + _rows(6, len(part)),
                  [x for r in part for x in r])
    ended = [a.game_id for a in batch if a.ended]
    for part in _parts(ended):
        c.execute("UPDATE games SET ended=1 WHERE game_id IN (" + ",".join("?" * len(part)) + ")", part)
    return True


ROWS_PER_STATEMENT = 500  # a multi-row statement's rows at most (7 x 500 parameters, under SQLite's 32,766)


def _parts(rows: list) -> list[list]:
    return [rows[i:i + ROWS_PER_STATEMENT] for i in range(0, len(rows), ROWS_PER_STATEMENT)]


def _rows(width: int, n: int) -> str:
    one = "(" + ",".join("?" * width) + ")"
    return ",".join([one] * n)
