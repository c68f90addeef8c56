"""PostgreSQL store (psycopg 3): the same contract as the SQLite store.

One connection per thread. An append is one transaction: it checks that the
new records follow the stored tail and inserts them; the primary key
(game_id, seq) makes a concurrent append by another process fail with a
unique violation, reported as Conflict, so replicas sharing one database never
fork a log. COMMIT returns after the WAL is flushed (each connection sets
synchronous_commit on, whatever the server's default), so an acknowledged
command is durable.
"""
from __future__ import annotations

import threading

from .store import Append, CommandRow, Conflict, GameRow, OpeningRow, RecordRow, Store, StoreError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
  game_id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,
  genesis BYTEA NOT NULL, secret BYTEA NOT NULL, ended BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE IF NOT EXISTS records (
  game_id TEXT NOT NULL, seq BIGINT NOT NULL, record BYTEA NOT NULL, hash BYTEA NOT NULL,
  checkpoint TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS commands (
  game_id TEXT NOT NULL, seat TEXT NOT NULL, counter BIGINT NOT NULL, signed BYTEA NOT NULL,
  digest BYTEA NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL,
  PRIMARY KEY (game_id, seat, counter));
CREATE INDEX IF NOT EXISTS commands_by_seq ON commands (game_id, first_seq);
CREATE TABLE IF NOT EXISTS openings (
  game_id TEXT NOT NULL, seat TEXT NOT NULL, seq BIGINT NOT NULL, k INTEGER NOT NULL,
  salt BYTEA NOT NULL, value BYTEA NOT NULL, PRIMARY KEY (game_id, seq, k));
"""


class PostgresStore(Store):
    def __init__(self, dsn: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError("the PostgreSQL store needs psycopg 3: pip install 'afteraction[postgres]'") from None
        self._psycopg = psycopg
        self.dsn = dsn
        self._local = threading.local()
        self._conns: list = []
        self._lock = threading.Lock()
        try:
            c = self._conn()
            with c.transaction():
                c.execute("SELECT pg_advisory_xact_lock(7461727231)")  # one schema creator at a time
                c.execute(SCHEMA)
        except psycopg.Error as e:
            raise StoreError(f"cannot open PostgreSQL store: {e}") from None

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
                          (game.game_id, game.game, game.version, game.genesis, game.secret))
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
                    cur.execute("INSERT INTO commands (game_id, seat, counter, signed, digest, first_seq, last_seq) "
                                "VALUES (%s,%s,%s,%s,%s,%s,%s)",
                                (a.game_id, cmd.seat, cmd.counter, cmd.signed, cmd.digest, cmd.seqs[0], cmd.seqs[-1]))
                    if a.openings:
                        cur.executemany(
                            "INSERT INTO openings (game_id, seat, seq, k, salt, value) VALUES (%s,%s,%s,%s,%s,%s)",
                            [(a.game_id, o.seat, o.seq, o.k, o.salt, o.value) for o in a.openings])
                    if a.ended:
                        cur.execute("UPDATE games SET ended=TRUE WHERE game_id=%s", (a.game_id,))
        except self._psycopg.errors.UniqueViolation as e:
            raise Conflict(f"lost append race: {e}") from None
        except self._psycopg.Error as e:
            raise StoreError(f"PostgreSQL append failed: {e}") from None

    def game(self, game_id: str) -> GameRow | None:
        r = self._conn().execute("SELECT game_id, game, version, genesis, secret, ended FROM games WHERE game_id=%s",
                                 (game_id,)).fetchone()
        return None if r is None else GameRow(r[0], r[1], r[2], bytes(r[3]), bytes(r[4]), bool(r[5]))

    def size(self, game_id: str) -> int:
        r = self._conn().execute("SELECT MAX(seq) FROM records WHERE game_id=%s", (game_id,)).fetchone()
        return 0 if r[0] is None else r[0] + 1

    def records(self, game_id: str, from_seq: int = 0, limit: int | None = None) -> list[RecordRow]:
        rows = self._conn().execute(
            "SELECT seq, record, hash, checkpoint FROM records WHERE game_id=%s AND seq>=%s ORDER BY seq LIMIT %s",
            (game_id, from_seq, limit)).fetchall()
        return [RecordRow(r[0], bytes(r[1]), bytes(r[2]), r[3]) for r in rows]

    def command(self, game_id: str, seat: str, counter: int) -> CommandRow | None:
        r = self._conn().execute(
            "SELECT seat, counter, signed, digest, first_seq, last_seq FROM commands "
            "WHERE game_id=%s AND seat=%s AND counter=%s", (game_id, seat, counter)).fetchone()
        return None if r is None else _command_row(r)

    def commands(self, game_id: str, from_seq: int = 1) -> list[CommandRow]:
        rows = self._conn().execute(
            "SELECT seat, counter, signed, digest, first_seq, last_seq FROM commands "
            "WHERE game_id=%s AND first_seq>=%s ORDER BY first_seq", (game_id, from_seq)).fetchall()
        return [_command_row(r) for r in rows]

    def openings(self, game_id: str, seat: str, from_seq: int = 0, to_seq: int | None = None) -> list[OpeningRow]:
        rows = self._conn().execute(
            "SELECT seat, seq, k, salt, value FROM openings WHERE game_id=%s AND seat=%s AND seq>=%s AND seq<%s "
            "ORDER BY seq, k", (game_id, seat, from_seq, 2**62 if to_seq is None else to_seq)).fetchall()
        return [OpeningRow(r[0], r[1], r[2], bytes(r[3]), bytes(r[4])) for r in rows]

    def close(self) -> None:
        with self._lock:
            for c in self._conns:
                try:
                    c.close()
                except Exception:
                    pass
            self._conns.clear()
        self._local = threading.local()


def _command_row(r) -> CommandRow:
    return CommandRow(r[0], int(r[1]), bytes(r[2]), bytes(r[3]), tuple(range(int(r[4]), int(r[5]) + 1)))
