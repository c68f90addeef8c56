"""The durable log store: one contract, two implementations (SQLite, PostgreSQL).

What is stored (docs/service.md, "Store design"):
- games:    game id, ruleset, genesis bytes, the server secret (private until the
            end record is written; the service serves it only then), ended flag;
- records:  (game, seq) UNIQUE, record bytes, record hash, the signed checkpoint
            over records 0..seq;
- commands: private; (game, seat, counter) UNIQUE, the exact SignedCommand bytes,
            their SHA-256 digest and the seqs they produced, so a retry of the same
            bytes gets the original result and the referee can be rebuilt by
            replaying them;
- openings: private; (game, seq, k) with the owning seat, salt and value.
- cosignatures: public; (game, tree size, seat) UNIQUE, the seat's C2SP cosignature line of
            the checkpoint of that size (SPEC.md 4.5), verified before it is stored.
- meta:     that the private columns are encrypted, and a check value of the data key.

The private columns (games.secret, commands.signed, openings.salt and .value) are stored
encrypted under the data key (``atrest.py``), which lives beside the server key and never in
the store; the rows here and in the dataclasses below hold the plaintext.

Appends are optimistic: ``append`` inserts the new records with (game, seq)
unique and checks in the same transaction that they follow the last stored
record. A lost race raises ``Conflict`` and nothing is written; two writers can
never fork a log. ``append`` returns only once the data is durable.
"""
from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from afteraction.engine.errors import AfteractionError

from . import atrest


class Conflict(AfteractionError):
    """A lost append race: the (game, seq) or (game, seat, counter) is already taken."""


class StoreError(AfteractionError):
    """The store cannot be opened or used."""


# The one schema of both stores; ``schema`` writes it in a dialect's column types.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
  game_id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,
  genesis {blob} NOT NULL, secret {blob} NOT NULL, ended {boolean} NOT NULL DEFAULT {false});
CREATE TABLE IF NOT EXISTS records (
  game_id TEXT NOT NULL, seq {bigint} NOT NULL, record {blob} NOT NULL, hash {blob} NOT NULL,
  checkpoint TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS commands (
  game_id TEXT NOT NULL, seat TEXT NOT NULL, counter {bigint} NOT NULL, signed {blob} NOT NULL,
  digest {blob} NOT NULL, first_seq {bigint} NOT NULL, last_seq {bigint} NOT NULL,
  PRIMARY KEY (game_id, seat, counter));
CREATE INDEX IF NOT EXISTS commands_by_seq ON commands (game_id, first_seq);
CREATE TABLE IF NOT EXISTS openings (
  game_id TEXT NOT NULL, seat TEXT NOT NULL, seq {bigint} NOT NULL, k INTEGER NOT NULL,
  salt {blob} NOT NULL, value {blob} NOT NULL, PRIMARY KEY (game_id, seq, k));
CREATE TABLE IF NOT EXISTS cosignatures (
  game_id TEXT NOT NULL, size {bigint} NOT NULL, seat TEXT NOT NULL, line TEXT NOT NULL,
  PRIMARY KEY (game_id, size, seat));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value {blob} NOT NULL);
"""


def schema(dialect: str) -> str:
    """The stores' tables in ``sqlite`` or ``postgresql`` column types."""
    types = {"sqlite": dict(blob="BLOB", bigint="INTEGER", boolean="INTEGER", false="0"),
             "postgresql": dict(blob="BYTEA", bigint="BIGINT", boolean="BOOLEAN", false="FALSE")}[dialect]
    return _SCHEMA.format(**types)


@dataclass(frozen=True)
class GameRow:
    game_id: str
    game: str
    version: str
    genesis: bytes
    secret: bytes
    ended: bool = False


@dataclass(frozen=True)
class RecordRow:
    seq: int
    raw: bytes
    hash: bytes
    checkpoint: str


@dataclass(frozen=True)
class CommandRow:
    seat: str
    counter: int
    signed: bytes
    digest: bytes
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class OpeningRow:
    seat: str
    seq: int
    k: int
    salt: bytes
    value: bytes  # canonical msgpack of the value


@dataclass
class Append:
    """One accepted command: its records, the command and the openings it created. ``command`` is
    None for the end record of a time-out or abandonment (SPEC.md 8.2), which no seat sent."""
    game_id: str
    records: list[RecordRow]
    command: CommandRow | None
    openings: list[OpeningRow] = field(default_factory=list)
    ended: bool = False


class Store(ABC):
    """The contract (tests/service/test_store_contract.py runs against every store)."""

    @abstractmethod
    def create_game(self, game: GameRow, genesis: RecordRow) -> None:
        """Store a new game with its genesis record (seq 0). Conflict if the id exists."""

    @abstractmethod
    def game(self, game_id: str) -> GameRow | None:
        """The game row, or None."""

    @abstractmethod
    def append(self, a: Append) -> None:
        """Durably append; raises Conflict (and writes nothing) on a lost race."""

    def append_async(self, a: Append, loop):
        """Like ``append`` without blocking, called on ``loop``'s thread: an asyncio future resolved
        once the append is durable (or failed with Conflict/StoreError); None if this store has no
        such path (the caller then runs ``append`` in a thread)."""
        return None

    @abstractmethod
    def size(self, game_id: str) -> int:
        """Number of stored records (next seq)."""

    @abstractmethod
    def records(self, game_id: str, from_seq: int = 0, limit: int | None = None) -> list[RecordRow]:
        """Records with seq >= from_seq, in order."""

    @abstractmethod
    def command(self, game_id: str, seat: str, counter: int) -> CommandRow | None:
        """The stored command of (seat, counter), or None."""

    @abstractmethod
    def commands(self, game_id: str, from_seq: int = 1) -> list[CommandRow]:
        """Stored commands whose first record has seq >= from_seq, in log order."""

    @abstractmethod
    def openings(self, game_id: str, seat: str, from_seq: int = 0, to_seq: int | None = None) -> list[OpeningRow]:
        """The seat's openings for records from_seq <= seq (< to_seq), ordered by (seq, k)."""

    @abstractmethod
    def add_cosignature(self, game_id: str, size: int, seat: str, line: str) -> None:
        """Durably store a seat's cosignature line of checkpoint ``size``; the first one a seat
        gives for a size stays (another is ignored)."""

    @abstractmethod
    def cosignatures(self, game_id: str, size: int) -> list[tuple[str, str]]:
        """(seat, line) of the cosignatures of checkpoint ``size``, ordered by seat."""

    def list_games(self, after: str = "", limit: int = 50, ended: bool | None = None) -> list[tuple[str, bytes, bool, int]]:
        """(game id, genesis record, ended, number of records) of up to ``limit`` games with ids
        greater than ``after``, ordered by id; ``ended`` True/False keeps only those ended / not."""
        raise NotImplementedError

    def latest(self, game_id: str) -> RecordRow | None:
        """The last record (with the latest checkpoint)."""
        n = self.size(game_id)
        rows = self.records(game_id, n - 1, 1) if n else []
        return rows[0] if rows else None

    def close(self) -> None:
        pass


class SqlStore(Store):
    """The reads, in SQL shared by the SQLite and PostgreSQL stores (the schema is the same),
    and the encryption of the private columns at rest (``atrest.py``), on both stores' writes.

    A subclass sets ``PARAM`` (its driver's placeholder), ``box`` (the data key) and provides
    ``_conn()``."""

    PARAM = "?"
    box: atrest.DataKey

    def _conn(self):
        raise NotImplementedError

    def _rows(self, sql: str, args: tuple) -> list:
        return self._conn().execute(sql.replace("?", self.PARAM), args).fetchall()

    # -- the private columns, encrypted -----------------------------------------
    def _secret_out(self, game_id: str, secret: bytes) -> bytes:
        return self.box.seal(game_id, secret, atrest.ad("secret", game_id))

    def _signed_out(self, game_id: str, seat: str, counter: int, signed: bytes) -> bytes:
        return self.box.seal(game_id, signed, atrest.ad("signed", game_id, seat, counter))

    def _opening_out(self, game_id: str, o: "OpeningRow") -> tuple[bytes, bytes]:
        return (self.box.seal(game_id, o.salt, atrest.ad("salt", game_id, o.seat, o.seq, o.k)),
                self.box.seal(game_id, o.value, atrest.ad("value", game_id, o.seat, o.seq, o.k)))

    def _command_row(self, game_id: str, r) -> CommandRow:
        seat, counter = r[0], int(r[1])
        signed = self.box.open(game_id, r[2], atrest.ad("signed", game_id, seat, counter))
        return CommandRow(seat, counter, signed, bytes(r[3]), tuple(range(int(r[4]), int(r[5]) + 1)))

    def _migrate(self, c) -> int:
        """In the caller's transaction: check the data key against the store's, or encrypt a
        plaintext store (written before encryption at rest) in place and mark it. Returns the
        number of values encrypted. Raises StoreError if the key does not open this store."""
        P = self.PARAM

        def q(sql, args=()):
            return c.execute(sql.replace("?", P), args)

        row = q("SELECT value FROM meta WHERE key='at_rest'").fetchone()
        if row is not None:
            if not self.box.opens_check(bytes(row[0])):
                raise StoreError("the data key (data.key beside the server key) does not open this store: "
                                 "it was encrypted under another key")
            return 0
        n = 0
        for gid, secret in q("SELECT game_id, secret FROM games").fetchall():
            q("UPDATE games SET secret=? WHERE game_id=?", (self._secret_out(gid, bytes(secret)), gid))
            n += 1
        for gid, seat, ctr, signed in q("SELECT game_id, seat, counter, signed FROM commands").fetchall():
            q("UPDATE commands SET signed=? WHERE game_id=? AND seat=? AND counter=?",
              (self._signed_out(gid, seat, int(ctr), bytes(signed)), gid, seat, ctr))
            n += 1
        for gid, seat, seq, k, salt, value in q("SELECT game_id, seat, seq, k, salt, value FROM openings").fetchall():
            salt_c, value_c = self._opening_out(gid, OpeningRow(seat, int(seq), int(k), bytes(salt), bytes(value)))
            q("UPDATE openings SET salt=?, value=? WHERE game_id=? AND seq=? AND k=?", (salt_c, value_c, gid, seq, k))
            n += 2
        q("INSERT INTO meta (key, value) VALUES ('at_rest', ?)", (self.box.check_value(),))
        return n

    def game(self, game_id: str) -> GameRow | None:
        r = self._rows("SELECT game_id, game, version, genesis, secret, ended FROM games WHERE game_id=?", (game_id,))
        if not r:
            return None
        secret = self.box.open(game_id, r[0][4], atrest.ad("secret", game_id))
        return GameRow(r[0][0], r[0][1], r[0][2], bytes(r[0][3]), secret, bool(r[0][5]))

    def list_games(self, after: str = "", limit: int = 50, ended: bool | None = None) -> list[tuple[str, bytes, bool, int]]:
        sql = ("SELECT g.game_id, g.genesis, g.ended, (SELECT MAX(r.seq) FROM records r WHERE r.game_id=g.game_id) "
               "FROM games g WHERE g.game_id>?")
        args: tuple = (after,)
        if ended is not None:
            sql, args = sql + " AND g.ended=?", args + (ended,)
        rows = self._rows(sql + " ORDER BY g.game_id LIMIT ?", args + (limit,))
        return [(r[0], bytes(r[1]), bool(r[2]), 0 if r[3] is None else int(r[3]) + 1) for r in rows]

    def size(self, game_id: str) -> int:
        r = self._rows("SELECT MAX(seq) FROM records WHERE game_id=?", (game_id,))
        return 0 if r[0][0] is None else int(r[0][0]) + 1

    def records(self, game_id: str, from_seq: int = 0, limit: int | None = None) -> list[RecordRow]:
        sql = "SELECT seq, record, hash, checkpoint FROM records WHERE game_id=? AND seq>=? ORDER BY seq"
        args: tuple = (game_id, from_seq)
        if limit is not None:
            sql, args = sql + " LIMIT ?", args + (limit,)
        return [RecordRow(int(r[0]), bytes(r[1]), bytes(r[2]), r[3]) for r in self._rows(sql, args)]

    def command(self, game_id: str, seat: str, counter: int) -> CommandRow | None:
        r = self._rows("SELECT seat, counter, signed, digest, first_seq, last_seq FROM commands "
                       "WHERE game_id=? AND seat=? AND counter=?", (game_id, seat, counter))
        return self._command_row(game_id, r[0]) if r else None

    def commands(self, game_id: str, from_seq: int = 1) -> list[CommandRow]:
        return [self._command_row(game_id, r) for r in self._rows(
            "SELECT seat, counter, signed, digest, first_seq, last_seq FROM commands "
            "WHERE game_id=? AND first_seq>=? ORDER BY first_seq", (game_id, from_seq))]

    def add_cosignature(self, game_id: str, size: int, seat: str, line: str) -> None:
        self._rows("INSERT INTO cosignatures (game_id, size, seat, line) VALUES (?,?,?,?) "
                   "ON CONFLICT (game_id, size, seat) DO NOTHING RETURNING seat", (game_id, size, seat, line))

    def cosignatures(self, game_id: str, size: int) -> list[tuple[str, str]]:
        return sorted((r[0], r[1]) for r in self._rows(
            "SELECT seat, line FROM cosignatures WHERE game_id=? AND size=?", (game_id, size)))

    def openings(self, game_id: str, seat: str, from_seq: int = 0, to_seq: int | None = None) -> list[OpeningRow]:
        out = []
        for r in self._rows(
                "SELECT seat, seq, k, salt, value FROM openings WHERE game_id=? AND seat=? AND seq>=? AND seq<? "
                "ORDER BY seq, k", (game_id, seat, from_seq, 2**62 if to_seq is None else to_seq)):
            s, seq, k = r[0], int(r[1]), int(r[2])
            out.append(OpeningRow(s, seq, k, self.box.open(game_id, r[3], atrest.ad("salt", game_id, s, seq, k)),
                                  self.box.open(game_id, r[4], atrest.ad("value", game_id, s, seq, k))))
        return out

    # -- every private row of a game, for a logical backup (service/backup.py) ---------------
    def all_openings(self, game_id: str, to_seq: int) -> list[OpeningRow]:
        """Every seat's openings of records seq < to_seq, ordered by (seq, k)."""
        out = []
        for r in self._rows("SELECT seat, seq, k, salt, value FROM openings WHERE game_id=? AND seq<? ORDER BY seq, k",
                            (game_id, to_seq)):
            s, seq, k = r[0], int(r[1]), int(r[2])
            out.append(OpeningRow(s, seq, k, self.box.open(game_id, r[3], atrest.ad("salt", game_id, s, seq, k)),
                                  self.box.open(game_id, r[4], atrest.ad("value", game_id, s, seq, k))))
        return out

    def all_cosignatures(self, game_id: str, to_size: int) -> list[tuple[int, str, str]]:
        """(size, seat, line) of every cosignature of checkpoints of size <= to_size."""
        return sorted((int(r[0]), r[1], r[2]) for r in self._rows(
            "SELECT size, seat, line FROM cosignatures WHERE game_id=? AND size<=?", (game_id, to_size)))


def private_dir(path: str) -> None:
    """Make ``path`` (and its parents) if missing; ``path`` itself is made or tightened to 0700."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
