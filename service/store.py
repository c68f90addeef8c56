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


class Conflict(AfteractionError):
    """A lost append race: the (game, seq) or (game, seat, counter) is already taken."""


class StoreError(AfteractionError):
    """The store cannot be opened or used."""


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
    """One accepted command: its records, the command and the openings it created."""
    game_id: str
    records: list[RecordRow]
    command: CommandRow
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

    def latest(self, game_id: str) -> RecordRow | None:
        """The last record (with the latest checkpoint)."""
        n = self.size(game_id)
        rows = self.records(game_id, n - 1, 1) if n else []
        return rows[0] if rows else None

    def close(self) -> None:
        pass


class SqlStore(Store):
    """The reads, in SQL shared by the SQLite and PostgreSQL stores (the schema is the same).

    A subclass sets ``PARAM`` (its driver's placeholder) and provides ``_conn()``."""

    PARAM = "?"

    def _conn(self):
        raise NotImplementedError

    def _rows(self, sql: str, args: tuple) -> list:
        return self._conn().execute(sql.replace("?", self.PARAM), args).fetchall()

    def game(self, game_id: str) -> GameRow | None:
        r = self._rows("SELECT game_id, game, version, genesis, secret, ended FROM games WHERE game_id=?", (game_id,))
        return None if not r else GameRow(r[0][0], r[0][1], r[0][2], bytes(r[0][3]), bytes(r[0][4]), bool(r[0][5]))

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
        return _command_row(r[0]) if r else None

    def commands(self, game_id: str, from_seq: int = 1) -> list[CommandRow]:
        return [_command_row(r) for r in self._rows(
            "SELECT seat, counter, signed, digest, first_seq, last_seq FROM commands "
            "WHERE game_id=? AND first_seq>=? ORDER BY first_seq", (game_id, from_seq))]

    def openings(self, game_id: str, seat: str, from_seq: int = 0, to_seq: int | None = None) -> list[OpeningRow]:
        return [OpeningRow(r[0], int(r[1]), int(r[2]), bytes(r[3]), bytes(r[4])) for r in self._rows(
            "SELECT seat, seq, k, salt, value FROM openings WHERE game_id=? AND seat=? AND seq>=? AND seq<? "
            "ORDER BY seq, k", (game_id, seat, from_seq, 2**62 if to_seq is None else to_seq))]


def _command_row(r) -> CommandRow:
    return CommandRow(r[0], int(r[1]), bytes(r[2]), bytes(r[3]), tuple(range(int(r[4]), int(r[5]) + 1)))


def open_store(spec: str | None, data_dir: str = "data") -> Store:
    """``sqlite:PATH`` or ``postgresql://...``; None = SQLite file under data_dir."""
    if spec is None or spec == "":
        os.makedirs(data_dir, exist_ok=True)
        spec = "sqlite:" + os.path.join(data_dir, "afteraction.sqlite")
    if spec.startswith("sqlite:"):
        from .store_sqlite import SqliteStore

        return SqliteStore(spec[len("sqlite:"):])
    if spec.startswith(("postgresql://", "postgres://")):
        from .store_postgres import PostgresStore

        return PostgresStore(spec)
    raise StoreError(f"unknown store {spec!r}: use sqlite:PATH or postgresql://...")
