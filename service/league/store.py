"""Where the LeagueService keeps its ledgers: two tables in the server's own store (SQLite or
PostgreSQL, service/store.py), beside the games'.

- league_entries: (league, seq) UNIQUE, the entry's canonical bytes (SPEC.md 15.1) and the league's
  signed checkpoint after it (15.2);
- league_bundles: (league, hash) UNIQUE, the bundle file of each result entry (15.3, `bundle`).

The organiser's key is in the ledger itself (the genesis's ``organiser``, SPEC.md 15.3); for a league
version 1 ledger (whose genesis names none) it is read from league_organisers, where servers before
version 2 kept it (nothing writes it now).

Everything a ledger holds is public (the ledger file is exported as it is), so nothing here is
encrypted. One write path, ``_transaction``, through the store's own write turn (SQLite: the writers' lock
of store_sqlite.py; PostgreSQL: a transaction on the thread's connection): ``write`` puts an entry
and the bundle it names in one transaction that checks the entry follows the stored tail (a lost
race is ``Conflict`` and writes nothing); ``set_checkpoint`` keeps a player's cosignature with a
checkpoint.
"""
from __future__ import annotations

from ..store import Conflict, Store, StoreError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS league_entries (
  league_id TEXT NOT NULL, seq {bigint} NOT NULL, entry {blob} NOT NULL, checkpoint TEXT NOT NULL,
  PRIMARY KEY (league_id, seq));
CREATE TABLE IF NOT EXISTS league_bundles (
  league_id TEXT NOT NULL, hash {blob} NOT NULL, bundle {blob} NOT NULL, PRIMARY KEY (league_id, hash));
CREATE TABLE IF NOT EXISTS league_organisers (league_id TEXT PRIMARY KEY, organiser {blob} NOT NULL);
"""


class LeagueStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.sqlite = hasattr(store, "_writer_turn")
        types = dict(blob="BLOB", bigint="INTEGER") if self.sqlite else dict(blob="BYTEA", bigint="BIGINT")
        sql = _SCHEMA.format(**types)
        try:
            if self.sqlite:
                with store._writer_turn():
                    store._conn().executescript(sql)
            else:
                c = store._conn()
                with c.transaction():
                    c.execute("SELECT pg_advisory_xact_lock(7461727231)")  # store_postgres.py's schema lock
                    c.execute(sql)
        except Exception as e:  # noqa: BLE001 -- the driver's own error types
            raise StoreError(f"cannot create the league tables: {e}") from None

    def leagues(self) -> list[str]:
        return [r[0] for r in self.store._rows("SELECT DISTINCT league_id FROM league_entries ORDER BY league_id", ())]

    def entries(self, league_id: str) -> list[tuple[bytes, str]]:
        return [(bytes(r[0]), r[1]) for r in self.store._rows(
            "SELECT entry, checkpoint FROM league_entries WHERE league_id=? ORDER BY seq", (league_id,))]

    def size(self, league_id: str) -> int:
        return int(self.store._rows("SELECT COUNT(*) FROM league_entries WHERE league_id=?", (league_id,))[0][0])

    def bundles(self, league_id: str) -> dict[bytes, bytes]:
        return {bytes(r[0]): bytes(r[1]) for r in self.store._rows(
            "SELECT hash, bundle FROM league_bundles WHERE league_id=?", (league_id,))}

    def write(self, league_id: str, seq: int, entry: bytes, checkpoint: str,
              bundle: tuple[bytes, bytes] | None = None) -> None:
        """Store entry ``seq`` (and the bundle its result names): durable when this returns."""
        self._transaction(league_id, self._statements(league_id, seq, entry, checkpoint, bundle), seq)

    def organiser(self, league_id: str) -> bytes | None:
        """The organiser's key a server kept beside a league version 1 ledger (whose genesis names
        none, SPEC.md 15.1; written by servers before version 2, read only): None if there is none."""
        r = self.store._rows("SELECT organiser FROM league_organisers WHERE league_id=?", (league_id,))
        return bytes(r[0][0]) if r else None

    def set_checkpoint(self, league_id: str, seq: int, checkpoint: str) -> None:
        """Entry ``seq``'s checkpoint with the players' cosignature lines added (SPEC.md 15.2)."""
        self._transaction(league_id, [("UPDATE league_entries SET checkpoint=? WHERE league_id=? AND seq=?",
                                       (checkpoint, league_id, seq))])

    def _statements(self, league_id, seq, entry, checkpoint, bundle):
        out = [("INSERT INTO league_entries (league_id, seq, entry, checkpoint) VALUES (?,?,?,?)",
                (league_id, seq, entry, checkpoint))]
        if bundle is not None:
            out.append(("INSERT INTO league_bundles (league_id, hash, bundle) VALUES (?,?,?) "
                        "ON CONFLICT (league_id, hash) DO NOTHING", (league_id, bundle[0], bundle[1])))
        return out

    def _transaction(self, league_id: str, statements: list, tail: int | None = None) -> None:
        """The one write path: ``statements`` in one transaction, through the store's write turn;
        ``tail``: the number of entries the ledger must hold first (an append), else Conflict."""
        if self.sqlite:
            self._write_sqlite(league_id, statements, tail)
        else:
            self._write_postgres(league_id, statements, tail)

    def _write_sqlite(self, league_id, statements, tail) -> None:
        import sqlite3

        st = self.store
        with st._writer_turn():
            c = st._conn()
            c.execute("BEGIN IMMEDIATE")
            try:
                n = c.execute("SELECT COUNT(*) FROM league_entries WHERE league_id=?", (league_id,)).fetchone()[0]
                if tail is not None and n != tail:
                    raise Conflict(f"league {league_id}: the ledger has {n} entries, the append is entry {tail}")
                for sql, args in statements:
                    c.execute(sql, args)
                c.execute("COMMIT")
            except sqlite3.IntegrityError:
                c.execute("ROLLBACK")
                raise Conflict(f"league {league_id}: the entry is already stored") from None
            except BaseException:
                c.execute("ROLLBACK")
                raise

    def _write_postgres(self, league_id, statements, tail) -> None:
        st = self.store
        c = st._conn()
        try:
            with c.transaction():
                n = c.execute("SELECT COUNT(*) FROM league_entries WHERE league_id=%s", (league_id,)).fetchone()[0]
                if tail is not None and n != tail:
                    raise Conflict(f"league {league_id}: the ledger has {n} entries, the append is entry {tail}")
                for sql, args in statements:
                    c.execute(sql.replace("?", "%s"), args)
        except st._psycopg.errors.UniqueViolation:
            raise Conflict(f"league {league_id}: the entry is already stored") from None
        except st._psycopg.Error as e:
            raise StoreError(f"PostgreSQL league append failed: {e}") from None
