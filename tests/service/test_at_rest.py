"""Secrets at rest (docs/service.md "What to protect"): the data directory is 0700,
every store file 0600, and the store's private columns (server secrets, openings, signed
commands) are encrypted under the data key beside the server key, so a copied database file
or a backup alone opens nothing; a plaintext store from before is encrypted when opened."""
from __future__ import annotations

import os
import sqlite3

import pytest

from afteraction.service import atrest
from afteraction.service.store import Append, CommandRow, GameRow, OpeningRow, RecordRow, StoreError
from afteraction.service.stores import open_store

SECRET = b"S" * 16 + os.urandom(16)          # markers that cannot occur by chance
SIGNED = b"sealed-move:" + os.urandom(20)
SALT = b"T" * 8 + os.urandom(24)
VALUE = b"\x81\xa4pick" + os.urandom(12)


def _fill(store, gid: str = "g1") -> None:
    store.create_game(GameRow(gid, "duel", "1", b"genesis-bytes", SECRET), RecordRow(0, b"r0", b"h" * 32, "cp0"))
    store.append(Append(gid, [RecordRow(1, b"r1", b"i" * 32, "cp1")],
                        CommandRow("a", 1, SIGNED, b"d" * 32, (1,)), [OpeningRow("a", 1, 0, SALT, VALUE)]))


def _reads_back(store, gid: str = "g1") -> None:
    assert store.game(gid).secret == SECRET
    assert store.command(gid, "a", 1).signed == SIGNED
    assert store.commands(gid)[0].signed == SIGNED
    op = store.openings(gid, "a")[0]
    assert (op.salt, op.value) == (SALT, VALUE)


def _raw_columns(store) -> list[bytes]:
    c = store._conn()
    rows = c.execute("SELECT secret FROM games").fetchall() + c.execute("SELECT signed FROM commands").fetchall() \
        + c.execute("SELECT salt FROM openings").fetchall() + c.execute("SELECT value FROM openings").fetchall()
    return [bytes(r[0]) for r in rows]


def _mode(p) -> int:
    return os.stat(p).st_mode & 0o777


def test_private_columns_are_encrypted_and_read_back(store):
    _fill(store)
    _reads_back(store)
    raw = _raw_columns(store)
    assert len(raw) == 4
    for blob in raw:
        assert blob[:1] == atrest.VERSION and len(blob) >= 1 + 12 + 16
        for marker in (SECRET, SIGNED, SALT, VALUE):
            assert marker not in blob


def test_a_copied_sqlite_database_holds_no_secret(tmp_path):
    """The attack of the issue: another account copies the database files (or a backup)."""
    store = open_store(f"sqlite:{tmp_path / 'db' / 's.sqlite'}", str(tmp_path))
    try:
        _fill(store)
        files = [tmp_path / "db" / f"s.sqlite{side}" for side in ("", "-wal", "-shm")]
        blob = b"".join(p.read_bytes() for p in files if p.exists())
        assert b"genesis-bytes" in blob  # the copy holds the public data...
        for marker in (SECRET, SIGNED, SALT, VALUE):
            assert marker not in blob  # ...and none of the private values
    finally:
        store.close()
    copy = sqlite3.connect(tmp_path / "db" / "s.sqlite")  # opened without the data key
    secret = copy.execute("SELECT secret FROM games").fetchone()[0]
    assert secret != SECRET and SECRET not in secret
    with pytest.raises(atrest.AtRestError):  # and another data key opens nothing either
        atrest.DataKey(os.urandom(32)).open("g1", secret, atrest.ad("secret", "g1"))


def test_the_data_key_must_be_the_stores(store, tmp_path):
    _fill(store)
    spec = f"sqlite:{store.path}" if hasattr(store, "path") else store.dsn
    other = tmp_path / "other"
    with pytest.raises(StoreError, match="does not open this store"):
        open_store(spec, str(other))
    assert _mode(other / "data.key") == 0o600


def test_a_ciphertext_moved_to_another_game_does_not_open(store):
    _fill(store, "g1")
    _fill(store, "g2")
    c = store._conn()
    p = store.PARAM
    s1 = c.execute("SELECT secret FROM games WHERE game_id='g1'").fetchone()[0]
    c.execute(f"UPDATE games SET secret={p} WHERE game_id='g2'", (s1,))
    with pytest.raises(atrest.AtRestError):
        store.game("g2")
    assert store.game("g1").secret == SECRET


def _plaintext_sqlite(path) -> None:
    """A store as written before encryption at rest (the schema without meta, plaintext rows)."""
    from afteraction.service.store_sqlite import SCHEMA

    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.executescript(SCHEMA.replace("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);", ""))
    c.execute("INSERT INTO games VALUES ('g1','duel','1',?,?,0)", (b"genesis-bytes", SECRET))
    c.execute("INSERT INTO records VALUES ('g1',0,?,?,'cp0')", (b"r0", b"h" * 32))
    c.execute("INSERT INTO records VALUES ('g1',1,?,?,'cp1')", (b"r1", b"i" * 32))
    c.execute("INSERT INTO commands VALUES ('g1','a',1,?,?,1,1)", (SIGNED, b"d" * 32))
    c.execute("INSERT INTO openings VALUES ('g1','a',1,0,?,?)", (SALT, VALUE))
    c.close()
    os.chmod(path, 0o644)


def test_a_plaintext_sqlite_store_is_encrypted_when_opened(tmp_path):
    path = tmp_path / "old.sqlite"
    _plaintext_sqlite(path)
    assert SECRET in b"".join(p.read_bytes() for p in tmp_path.glob("old.sqlite*"))
    store = open_store(f"sqlite:{path}", str(tmp_path))
    try:
        _reads_back(store)
        assert all(b[:1] == atrest.VERSION for b in _raw_columns(store))
        assert _mode(path) == 0o600
        blob = b"".join(p.read_bytes() for p in tmp_path.glob("old.sqlite*"))
        for marker in (SECRET, SIGNED, SALT, VALUE):  # no old page or WAL frame keeps the plaintext
            assert marker not in blob
    finally:
        store.close()
    again = open_store(f"sqlite:{path}", str(tmp_path))  # migrated once: the second open changes nothing
    try:
        _reads_back(again)
    finally:
        again.close()


def test_a_plaintext_postgres_store_is_encrypted_when_opened(pg_dsn, tmp_path):
    import psycopg

    from afteraction.service.store_postgres import SCHEMA

    with psycopg.connect(pg_dsn, autocommit=True) as c:
        c.execute(SCHEMA.replace("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);", ""))
        c.execute("INSERT INTO games (game_id, game, version, genesis, secret) VALUES ('g1','duel','1',%s,%s)",
                  (b"genesis-bytes", SECRET))
        c.execute("INSERT INTO records VALUES ('g1',0,%s,%s,'cp0'), ('g1',1,%s,%s,'cp1')",
                  (b"r0", b"h" * 32, b"r1", b"i" * 32))
        c.execute("INSERT INTO commands VALUES ('g1','a',1,%s,%s,1,1)", (SIGNED, b"d" * 32))
        c.execute("INSERT INTO openings VALUES ('g1','a',1,0,%s,%s)", (SALT, VALUE))
    store = open_store(pg_dsn, str(tmp_path))
    try:
        _reads_back(store)
        raw = _raw_columns(store)
        assert len(raw) == 4 and all(b[:1] == atrest.VERSION and SECRET not in b for b in raw)
    finally:
        store.close()


def test_serve_makes_the_data_directory_0700_and_every_file_0600(tmp_path):
    """Under the usual umask 022 the SQLite files were 0644: readable by every local account."""
    from afteraction.service.server import start

    old = os.umask(0o022)
    try:
        data = tmp_path / "data"
        run = start("127.0.0.1:0", None, None, str(data))
        try:
            run.store.create_game(GameRow("g1", "duel", "1", b"g", SECRET), RecordRow(0, b"r0", b"h" * 32, "cp0"))
            names = sorted(p.name for p in data.iterdir())
            assert {"afteraction.sqlite", "afteraction.sqlite-wal", "afteraction.sqlite-shm",
                    "server.key", "data.key"} <= set(names)
            assert _mode(data) == 0o700
            for n in names:
                assert _mode(data / n) == 0o600, n
        finally:
            run.stop(1)
    finally:
        os.umask(old)


def test_an_existing_data_directory_and_store_are_tightened(tmp_path):
    from afteraction.service.server import start

    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    store = open_store(None, str(data))
    store.close()
    for p in data.iterdir():
        os.chmod(p, 0o644)
    run = start("127.0.0.1:0", None, None, str(data))
    try:
        assert _mode(data) == 0o700
        for p in data.iterdir():
            if p.name.startswith("afteraction.sqlite"):
                assert _mode(p) == 0o600, p.name
    finally:
        run.stop(1)


def test_data_key_file_is_made_once_and_must_be_a_data_key(tmp_path):
    p = tmp_path / "k" / "data.key"
    k1 = atrest.load_or_create(str(p))
    assert _mode(p) == 0o600 and _mode(p.parent) == 0o700
    k2 = atrest.load_or_create(str(p))
    blob = k1.seal("g", b"x", b"ad")
    assert k2.open("g", blob, b"ad") == b"x"
    p.write_text("not a key\n")
    with pytest.raises(atrest.AtRestError):
        atrest.load_or_create(str(p))
