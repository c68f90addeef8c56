"""PostgreSQL store (psycopg 3): the same contract as the SQLite store.

One connection per thread. An append is one transaction: it checks that the
new records follow the stored tail and inserts them; the primary key
(game_id, seq) makes a concurrent append by another process fail with a
unique violation, reported as Conflict, so replicas sharing one database never
fork a log. COMMIT returns after the WAL is flushed (each connection sets
synchronous_commit on, whatever the server's default), so an acknowledged
command is durable.

Every append, once committed, is told by ``NOTIFY aar_appends`` (``_notify``: a notifier thread,
so only a committed append is ever told, and the append does not wait for it) with the game id,
the new log size and this store object's id;
``listen`` runs one thread per process that ``LISTEN``s on its own connection, so a Watch on one
server learns of another server's append as soon as it is committed (service/feeds.py), not by
polling.
"""
from __future__ import annotations

import logging
import os
import threading

from . import atrest
from .store import Append, Conflict, GameRow, RecordRow, SqlStore, StoreError, schema

SCHEMA = schema("postgresql")  # store.py's one schema
CHANNEL = "aar_appends"        # NOTIFY channel of appends: payload "GAME_ID SIZE STORE_ID"
LISTEN_WAIT_S = 1.0            # the listener looks up from its connection this often (to stop)
LISTEN_RETRY_S = (0.2, 5.0)    # after a lost listening connection, reconnect after this (doubling) delay
log = logging.getLogger("afteraction.service")


def one_line(e: BaseException) -> str:
    """A driver's message on one line: libpq's lines (its hint after a newline and a tab, DETAIL and
    HINT lines) joined by "; ", runs of spaces made one."""
    return "; ".join(" ".join(line.split()) for line in str(e).splitlines() if line.strip())


class PostgresStore(SqlStore):
    PARAM = "%s"

    def __init__(self, dsn: str, box: atrest.DataKey) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError("the PostgreSQL store needs psycopg 3: pip install 'afteraction[postgres]'") from None
        self._psycopg = psycopg
        self.dsn = dsn
        self.instance = os.urandom(6).hex()  # in each NOTIFY: a listener skips its own process's appends
        self.box = box
        self._local = threading.local()
        self._conns: list = []
        self._listeners: list = []   # (stop event, thread) of each ``listen``
        self._nq: dict[str, int] = {}   # game id -> newest size, to be NOTIFYed (``_notify``)
        self._ncv = threading.Condition()
        self._nclosed = False
        self._notifier: threading.Thread | None = None
        self._lock = threading.Lock()
        try:
            c = self._conn()
            with c.transaction():
                c.execute("SELECT pg_advisory_xact_lock(7461727231)")  # one schema creator (and migrator) at a time
                c.execute(SCHEMA)
                migrated = self._migrate(c)
            if migrated:  # the plaintext's old row versions: rewritten away now (backups keep theirs)
                for t in ("games", "commands", "openings"):
                    c.execute(f"VACUUM FULL {t}")
        except psycopg.Error as e:
            raise StoreError(f"cannot open PostgreSQL store: {one_line(e)}") from None

    def _conn(self):
        c = getattr(self._local, "conn", None)
        if c is None or c.closed:
            c = self._psycopg.connect(self.dsn, autocommit=True)
            # an acknowledged command must be durable whatever the server, database or role default
            c.execute("SET synchronous_commit = on")
            self._local.conn = c
            with self._lock:
                self._conns.append(c)
        return c

    def create_game(self, game: GameRow, genesis: RecordRow) -> None:
        c = self._conn()
        try:
            with c.transaction():
                c.execute("INSERT INTO games (game_id, game, version, genesis, secret) VALUES (%s,%s,%s,%s,%s)",
                          (game.game_id, game.game, game.version, game.genesis,
                           self._secret_out(game.game_id, game.secret)))
                c.execute("INSERT INTO records (game_id, seq, record, hash, checkpoint) VALUES (%s,%s,%s,%s,%s)",
                          (game.game_id, genesis.seq, genesis.raw, genesis.hash, genesis.checkpoint))
        except self._psycopg.errors.UniqueViolation:
            raise Conflict(f"game {game.game_id} exists") from None

    def append(self, a: Append) -> None:
        c = self._conn()
        first = a.records[0].seq
        try:
            with c.transaction():
                r = c.execute("SELECT MAX(seq) FROM records WHERE game_id=%s", (a.game_id,)).fetchone()
                if r[0] is None or r[0] != first - 1:
                    raise Conflict(f"game {a.game_id}: log is at {None if r[0] is None else r[0] + 1}, "
                                   f"append starts at {first}")
                with c.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO records (game_id, seq, record, hash, checkpoint) VALUES (%s,%s,%s,%s,%s)",
                        [(a.game_id, x.seq, x.raw, x.hash, x.checkpoint) for x in a.records])
                    cmd = a.command
                    if cmd is not None:  # None: a time-out or abandonment (SPEC.md 8.2)
                        cur.execute("INSERT INTO commands (game_id, seat, counter, signed, digest, first_seq, "
                                    "last_seq) VALUES (%s,%s,%s,%s,%s,%s,%s)",
                                    (a.game_id, cmd.seat, cmd.counter,
                                     self._signed_out(a.game_id, cmd.seat, cmd.counter, cmd.signed),
                                     cmd.digest, cmd.seqs[0], cmd.seqs[-1]))
                    if a.openings:
                        cur.executemany(
                            "INSERT INTO openings (game_id, seat, seq, k, salt, value) VALUES (%s,%s,%s,%s,%s,%s)",
                            [(a.game_id, o.seat, o.seq, o.k, *self._opening_out(a.game_id, o)) for o in a.openings])
                    if a.ended:
                        cur.execute("UPDATE games SET ended=TRUE WHERE game_id=%s", (a.game_id,))
        except self._psycopg.errors.UniqueViolation as e:
            raise Conflict(f"lost append race: {e}") from None
        except self._psycopg.Error as e:
            raise StoreError(f"PostgreSQL append failed: {one_line(e)}") from None
        self._notify(c, a.game_id, a.records[-1].seq + 1)   # after the commit: only what is durable is told

    def _notify(self, c, game_id: str, size: int) -> None:
        """Tell the listeners (``listen``) of a committed append, without waiting: the notifier
        thread sends what is queued, one NOTIFY per game (its newest size) in one transaction of
        its own that does not wait for its commit record to reach the disk. A NOTIFY inside the
        append's transaction holds PostgreSQL's notify lock through that transaction's WAL flush,
        so concurrent appends commit one at a time; one sent after each commit costs the append a
        round trip. A NOTIFY lost (the process dies
        right after the commit) is made up by the listeners' slow poll (feeds.SAFETY_POLL_S)."""
        with self._ncv:
            if self._nq.get(game_id, -1) < size:
                self._nq[game_id] = size
            if self._notifier is None:
                self._notifier = threading.Thread(target=self._notify_forever, name="aar-pg-notify", daemon=True)
                self._notifier.start()
            self._ncv.notify()

    def _notify_forever(self) -> None:
        conn = None
        while True:
            with self._ncv:
                while not self._nq and not self._nclosed:
                    self._ncv.wait()
                if not self._nq:
                    break
                batch, self._nq = self._nq, {}
            try:
                if conn is None or conn.closed:
                    conn = self._psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
                conn.execute("SELECT set_config('synchronous_commit', 'off', true), pg_notify(%s, p) "
                             "FROM unnest(%s::text[]) AS p",
                             (CHANNEL, [f"{g} {n} {self.instance}" for g, n in batch.items()]))
            except Exception as e:  # noqa: BLE001 -- the appends are durable; listeners' polls find them
                log.warning("NOTIFY %s failed: %s", CHANNEL, type(e).__name__)
                if conn is not None:
                    try:
                        conn.close()
                    except Exception:  # noqa: BLE001
                        pass
                conn = None
        if conn is not None:
            conn.close()

    def listen(self, on_append, on_state) -> "callable":
        """Start the listener thread: ``on_append(game_id, size)`` for each append committed by
        another process, ``on_state(listening: bool)`` whenever its connection is up (every append
        from then on will be told) or lost (it reconnects, with a growing delay). Returns the
        function that stops it. The callbacks run on the listener thread."""
        stop = threading.Event()

        def run() -> None:
            delay = LISTEN_RETRY_S[0]
            while not stop.is_set():
                conn = None
                try:
                    conn = self._psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
                    conn.execute(f"LISTEN {CHANNEL}")
                    on_state(True)
                    delay = LISTEN_RETRY_S[0]
                    while not stop.is_set():
                        for n in conn.notifies(timeout=LISTEN_WAIT_S):
                            gid, size, origin = (n.payload.split(" ") + ["", "", ""])[:3]
                            if origin != self.instance and size.isdigit():
                                on_append(gid, int(size))
                except Exception as e:  # noqa: BLE001 -- the database went away: poll, reconnect
                    if stop.is_set():
                        return
                    log.warning("LISTEN %s lost (%s): polling until it is back", CHANNEL, type(e).__name__)
                    on_state(False)
                    stop.wait(delay)
                    delay = min(2 * delay, LISTEN_RETRY_S[1])
                finally:
                    if conn is not None:
                        try:
                            conn.close()
                        except Exception:  # noqa: BLE001
                            pass

        t = threading.Thread(target=run, name="aar-pg-listen", daemon=True)
        t.start()
        with self._lock:
            self._listeners.append((stop, t))
        return stop.set   # the thread ends within LISTEN_WAIT_S; ``close`` waits for it

    def close(self) -> None:
        with self._ncv:   # what is queued is sent, then the notifier stops
            self._nclosed = True
            self._ncv.notify()
            notifier = self._notifier
        if notifier is not None:
            notifier.join(10)
        with self._lock:
            listeners, self._listeners = self._listeners, []
        for stop, t in listeners:
            stop.set()
        for stop, t in listeners:
            t.join(LISTEN_WAIT_S + 5)
        with self._lock:
            for c in self._conns:
                try:
                    c.close()
                except Exception:
                    pass
            self._conns.clear()
        self._local = threading.local()
