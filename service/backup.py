"""Backups that prove themselves: ``aar backup`` and ``aar restore`` (docs/operations.md).

A backup is a directory:

- ``afteraction.sqlite``: the store, as a SQLite store file whatever the server's store. From a
  SQLite store it is SQLite's online backup (one step: a read transaction, so a consistent
  snapshot while the server writes); from any other store (PostgreSQL) a logical copy of every
  game through the store's own reads, each game a consistent prefix (its size read first, then
  only the records, commands, openings and cosignatures below it: a command and its records are
  one transaction, so the prefix ends between two commands). The private columns stay encrypted
  under the server's data key (``atrest.py``): the backup alone opens nothing.
- ``manifest.json``: the format, when, from which store (its password redacted), the SHA-256 of
  the store file, every game with its number of records and its last checkpoint, the server's
  verifier keys (its key ring) and the keys that are *not* in the backup and must be kept.
- ``server.key.history``: the public key history, if the server has one (SPEC.md 4.6).

The server key ring and the data key are not copied into the backup: they are listed, and
``aar restore`` is given them. ``restore`` loads the backup into a new data directory (a SQLite
store there, or an empty PostgreSQL database) and finishes only if the store file is the one the
manifest names, every game of the manifest is there with its records and last checkpoint, and
every game's export verifies by SPEC.md 10 with replay, its server key pinned to a key of the
ring. Otherwise it removes what it wrote and says which game failed and why."""
from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
from dataclasses import dataclass, field

from afteraction.engine.errors import AfteractionError, VerificationError
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.protocol import parse_record

from . import atrest, keyring
from .store import Append, GameRow, Store, StoreError, private_dir
from .stores import open_store

FORMAT = "afteraction backup v1"
STORE_FILE = "afteraction.sqlite"
MANIFEST = "manifest.json"
HISTORY_FILE = "server.key.history"
PAGE = 200  # games listed a page at a time


class BackupError(AfteractionError):
    """A backup or restore that cannot be done or finished; the message says why, in one line."""


def _redact(spec: str) -> str:
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@]*:)[^@]*@", r"\1***@", spec)


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _all_games(store: Store):
    after = ""
    while True:
        page = store.list_games(after, PAGE)
        if not page:
            return
        yield from page
        after = page[-1][0]


# -- copying -------------------------------------------------------------------------------------
def sqlite_snapshot(src_path: str, dst_path: str) -> None:
    """SQLite's online backup of the store file at ``src_path`` into a new file: all pages in one
    step, under one read transaction, so the copy is the store at one instant (writers go on)."""
    src = sqlite3.connect(src_path, timeout=30)   # only read (a new -wal/-shm gets the file's own mode)
    fd = os.open(dst_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    dst = sqlite3.connect(dst_path)
    try:
        src.backup(dst)  # pages=-1: one step
        dst.execute("PRAGMA journal_mode=WAL")
    finally:
        dst.close()
        src.close()


def game_appends(src: Store, gid: str) -> tuple[GameRow, list, list[Append], list[tuple[int, str, str]]] | None:
    """One game as a consistent prefix: its row, genesis record, the appends that rebuild it and
    its cosignatures; None if it has no record (never: a game is created with its genesis)."""
    n = src.size(gid)          # first: every read below stops at this size
    if n == 0:
        return None
    row = src.game(gid)
    records = src.records(gid, 0, n)
    if [r.seq for r in records] != list(range(n)):
        raise BackupError(f"game {gid}: the store's records are not 0..{n - 1}")
    commands = [c for c in src.commands(gid, 1) if c.seqs[-1] < n]
    openings: dict[int, list] = {}
    for o in src.all_openings(gid, n):
        openings.setdefault(o.seq, []).append(o)
    if 0 in openings:
        raise BackupError(f"game {gid}: openings of genesis, which no store writes")
    by_first = {c.seqs[0]: c for c in commands}
    appends: list[Append] = []
    seq = 1
    while seq < n:
        cmd = by_first.get(seq)
        seqs = list(cmd.seqs) if cmd is not None else [seq]   # no command: a time-out or abandonment
        recs = [records[s] for s in seqs]
        ended = parse_record(recs[-1].raw).kind == "end"
        appends.append(Append(gid, recs, cmd, [o for s in seqs for o in openings.get(s, [])], ended))
        seq = seqs[-1] + 1
    cos = src.all_cosignatures(gid, n)
    return GameRow(row.game_id, row.game, row.version, row.genesis, row.secret, False), records[0], appends, cos


def copy_game(src: Store, dst: Store, gid: str) -> int:
    """Copy one game (a consistent prefix) from ``src`` into ``dst`` through the stores' own
    reads and writes; the number of records copied."""
    g = game_appends(src, gid)
    if g is None:
        return 0
    row, genesis, appends, cos = g
    dst.create_game(row, genesis)
    for a in appends:
        dst.append(a)
    for size, seat, line in cos:
        dst.add_cosignature(gid, size, seat, line)
    return 1 + sum(len(a.records) for a in appends)


def copy_games(src: Store, dst: Store) -> int:
    return sum(copy_game(src, dst, gid) for gid, *_ in _all_games(src))


# -- backup --------------------------------------------------------------------------------------
@dataclass
class Manifest:
    data: dict

    @property
    def games(self) -> dict[str, dict]:
        return {g["game_id"]: g for g in self.data["games"]}


def _key_paths(key_path: str) -> dict:
    return {"server_key_ring": os.path.abspath(key_path), "data_key": atrest.beside(key_path)}


def backup(spec: str | None, data_dir: str, key_path: str, out_dir: str) -> Manifest:
    """Write a backup of the store ``spec`` (None: the SQLite store of ``data_dir``) of the server
    whose key file is ``key_path`` into the new directory ``out_dir``."""
    if os.path.exists(out_dir) and os.listdir(out_dir):
        raise BackupError(f"{out_dir} exists and is not empty: a backup goes into a new directory")
    ring, dkey, box = _backup_keys(key_path)
    private_dir(out_dir)
    dst_path = os.path.join(out_dir, STORE_FILE)
    if not spec:
        spec = "sqlite:" + os.path.join(data_dir, "afteraction.sqlite")
    try:
        method = _copy_store(spec, data_dir, dkey, box, dst_path)
        games = _closed_copy(dst_path, box)
        hist = keyring.history_path(key_path)
        if os.path.isfile(hist):
            shutil.copyfile(hist, os.path.join(out_dir, HISTORY_FILE))
        data = {
            "format": FORMAT,
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "source": _redact(spec), "method": method,
            "store_file": STORE_FILE, "store_sha256": _sha256(dst_path),
            "games": games, "records": sum(g["records"] for g in games),
            "server_keys": ring.vkeys,
            "keys_not_in_this_backup": _key_paths(key_path),
        }
        _write_manifest(out_dir, data)
    except BaseException:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return Manifest(data)


def _backup_keys(key_path: str):
    """The server's key ring, its data key's path and the data key (BackupError if one is missing)."""
    try:
        ring = keyring.read_ring(key_path)
    except FileNotFoundError:
        raise BackupError(f"no server key file {key_path}: give the server's --key (or --data-dir)") from None
    dkey = atrest.beside(key_path)
    if not os.path.isfile(dkey):
        raise BackupError(f"no data key {dkey} beside the server key: the store's private columns cannot be "
                          f"read without it")
    return ring, dkey, atrest.load_or_create(dkey)


def _copy_store(spec: str, data_dir: str, dkey: str, box, dst_path: str) -> str:
    """The store ``spec`` copied into the SQLite file ``dst_path``; how (the manifest's ``method``)."""
    from .store_sqlite import SqliteStore

    if spec.startswith("sqlite:"):
        src_path = spec[len("sqlite:"):]
        if not os.path.isfile(src_path):
            raise BackupError(f"no SQLite store {src_path}")
        sqlite_snapshot(src_path, dst_path)
        return "sqlite online backup"
    src = open_store(spec, data_dir, dkey)
    try:
        dst = SqliteStore(dst_path, box)
        try:
            copy_games(src, dst)
        finally:
            dst.close()
    finally:
        src.close()
    return "logical copy of every game through the store's reads"


def _closed_copy(dst_path: str, box) -> list[dict]:
    """The copy opened with the data key (so it is known to open), its WAL folded in and its side files
    removed, the file synced; the manifest's list of its games."""
    from .store_sqlite import SqliteStore

    copy = SqliteStore(dst_path, box)
    try:
        copy._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        games = []
        for gid, genesis, ended, n in _all_games(copy):
            last = copy.latest(gid)
            games.append({"game_id": gid, "records": n, "ended": ended, "checkpoint": last.checkpoint,
                          "server_vkey": parse_record(genesis).body["server"]["vkey"]})
    finally:
        copy.close()
    for side in ("-wal", "-shm", "-writer"):
        try:
            os.unlink(dst_path + side)
        except FileNotFoundError:
            pass
    _fsync(dst_path)
    return games


def _write_manifest(out_dir: str, data: dict) -> None:
    mpath = os.path.join(out_dir, MANIFEST)
    with open(mpath, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    _fsync(mpath)
    _fsync(out_dir)


# -- restore -------------------------------------------------------------------------------------
@dataclass
class Restored:
    games: int = 0
    records: int = 0
    ended: int = 0
    store: str = ""
    failures: list[str] = field(default_factory=list)


def read_manifest(backup_dir: str) -> Manifest:
    try:
        with open(os.path.join(backup_dir, MANIFEST)) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise BackupError(f"{backup_dir} is not a backup: no {MANIFEST}") from None
    except (OSError, ValueError) as e:
        raise BackupError(f"{backup_dir}/{MANIFEST} cannot be read: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{backup_dir}/{MANIFEST} is not a manifest of {FORMAT!r}")
    return Manifest(data)


def _with_secret(secret: bytes):
    """verify_bundle's driver for a game in progress, verified by the holder of its server secret
    (the store): the secret is given to the verifier before genesis, so the dice, the sealed values
    and the replay are checked as for an ended game (SPEC.md 10 steps 9-11), not only steps 1-8."""
    from afteraction.engine.log.steps import _fail
    from afteraction.engine.log.verify import next_frame

    def drive(v, header, records, progress):
        v.secret = secret
        while (item := next_frame(v, records)) is not None:
            v.add(*item)
        if v.tree.size != header["records"]:
            raise _fail("1", v.tree.size, "record count in the header", header["records"], v.tree.size)
        rep = v.finish()
        rep.replayed = v.referee is not None  # every record went through the replay (step 11) without a difference
        return rep
    return drive


def verify_store(store: Store, ring: keyring.KeyRing, manifest: Manifest, progress=None) -> Restored:
    """Every game of ``store`` against the manifest and by SPEC.md 10 with replay, pinned to the
    game's key, which must be in ``ring``. Failures are collected, one line each."""
    from .audit_servicer import export_bundle
    from .games import GameManager

    out = Restored()
    gm = GameManager(store, ring.newest, ring=ring.signers)
    want = manifest.games
    seen = set()
    for gid, genesis, ended, n in _all_games(store):
        seen.add(gid)
        m = want.get(gid)
        if m is None:
            out.failures.append(f"game {gid}: in the store but not in the manifest")
            continue
        if n != m["records"] or store.latest(gid).checkpoint != m["checkpoint"]:
            out.failures.append(f"game {gid}: {n} records and its last checkpoint are not the manifest's "
                                f"({m['records']} records)")
            continue
        vkey = parse_record(genesis).body["server"]["vkey"]
        if vkey not in ring.vkeys:
            out.failures.append(f"game {gid}: signed by {vkey}, which is not a key of the server key ring given")
            continue
        try:
            drive = None if ended else _with_secret(store.game(gid).secret)
            rep = verify_bundle(io.BytesIO(export_bundle(gm, gid)), pinned_vkey=vkey, replay=True, drive=drive)
        except VerificationError as e:
            out.failures.append(f"game {gid}: does not verify: {e}")
            continue
        except AfteractionError as e:  # the store and the replay disagree (games.Internal), a bad row
            out.failures.append(f"game {gid}: cannot be read back: {e}")
            continue
        if not rep.replayed:
            out.failures.append(f"game {gid}: was not replayed: {'; '.join(rep.notes)}")
            continue
        out.games += 1
        out.records += n
        out.ended += bool(ended)
        if progress is not None:
            progress(out.games, len(want))
    for gid in sorted(set(want) - seen):
        out.failures.append(f"game {gid}: in the manifest ({want[gid]['records']} records) but not in the store")
    return out


def restore(backup_dir: str, data_dir: str, key_path: str, spec: str | None = None,
            data_key: str | None = None, progress=None) -> Restored:
    """Load the backup into ``data_dir`` (its SQLite store, or the empty PostgreSQL database
    ``spec``), verify every game, and copy the keys into ``data_dir``; BackupError before anything
    is written for a bad argument, and a Restored with ``failures`` (after removing what was
    written) when a game does not verify."""
    manifest, src_file = _checked_backup(backup_dir)
    ring, dkey, box = _restore_keys(manifest, key_path, data_key)
    _check_history(backup_dir, ring, key_path)
    target = os.path.join(data_dir, STORE_FILE)
    if spec and spec.startswith("sqlite:"):   # a SQLite file elsewhere than DATA_DIR
        target, spec = spec[len("sqlite:"):], None
    if not spec and os.path.exists(target):
        raise BackupError(f"{target} exists: restore into a new data directory")
    private_dir(data_dir)
    written: list[str] = []
    store: Store | None = None
    try:
        store, result_store = _load(src_file, target, spec, data_dir, dkey, box, written)
        result = verify_store(store, ring, manifest, progress)
        result.store = result_store
        if result.failures:
            s, store = store, None
            _undo(s, spec, written)
            return result
        s, store = store, None
        s.close()
        _place_keys(key_path, dkey, data_dir)
        return result
    except BaseException:
        try:
            _undo(store, spec, written)
        except Exception:  # noqa: BLE001 -- the first error is the one reported
            pass
        raise


def _checked_backup(backup_dir: str) -> tuple[Manifest, str]:
    """The backup's manifest and its store file, checked against the manifest's SHA-256."""
    manifest = read_manifest(backup_dir)
    src_file = os.path.join(backup_dir, manifest.data.get("store_file", STORE_FILE))
    if not os.path.isfile(src_file):
        raise BackupError(f"the backup's store file {src_file} is missing")
    if _sha256(src_file) != manifest.data.get("store_sha256"):
        raise BackupError(f"{src_file} is not the file the manifest names (its SHA-256 differs): changed or "
                          f"damaged since the backup")
    return manifest, src_file


def _restore_keys(manifest: Manifest, key_path: str, data_key: str | None):
    """The key ring, the data key's path and the data key a restore is given (BackupError naming the
    ones the backup lists if one is missing)."""
    listed = manifest.data.get("keys_not_in_this_backup", {})
    try:
        ring = keyring.read_ring(key_path)
    except FileNotFoundError:
        raise BackupError(f"no server key file {key_path}: give the key ring the backup lists "
                          f"({listed.get('server_key_ring')})") from None
    dkey = data_key or atrest.beside(key_path)
    if not os.path.isfile(dkey):
        raise BackupError(f"no data key {dkey}: give the data key the backup lists with --data-key "
                          f"({listed.get('data_key')})")
    return ring, dkey, atrest.load_or_create(dkey)


def _check_history(backup_dir: str, ring: keyring.KeyRing, key_path: str) -> None:
    """The key ring given is the ring of the backup's key history (one may be longer: a rotation since)."""
    hist = os.path.join(backup_dir, HISTORY_FILE)
    if not os.path.isfile(hist):
        return
    from afteraction.engine.crypto import key_history

    with open(hist, "rb") as f:
        try:
            keys = key_history.parse(f.read(key_history.MAX_BYTES + 1))
        except AfteractionError as e:
            raise BackupError(f"the backup's key history {hist}: {e}") from None
    n = min(len(keys), len(ring.vkeys))
    if keys[:n] != ring.vkeys[:n]:
        raise BackupError(f"the key ring {key_path} is not the ring of the backup's key history {hist}")


def _load(src_file: str, target: str, spec: str | None, data_dir: str, dkey: str, box,
          written: list) -> tuple[Store, str]:
    """The backup's store file copied into ``target`` (SQLite) or, through the stores' reads, into the
    empty database ``spec``; the files written are added to ``written``. The open store and its name,
    as the result reports it; on a failure, a database it filled is emptied again and closed."""
    from .store_sqlite import SqliteStore

    if not spec:
        sqlite_snapshot(src_file, target)
        written.append(target)
        return SqliteStore(target, box), "sqlite:" + os.path.abspath(target)
    dst = open_store(spec, data_dir, dkey)
    if dst.list_games("", 1):
        dst.close()
        raise BackupError(f"{_redact(spec)} already holds games: restore into an empty database")
    try:
        tmp = os.path.join(data_dir, f".restore-{os.getpid()}.sqlite")
        sqlite_snapshot(src_file, tmp)   # the backup itself is never opened for writing
        written.append(tmp)
        src = SqliteStore(tmp, box)
        try:
            copy_games(src, dst)
        finally:
            src.close()
            _remove_sqlite(tmp)
            written.remove(tmp)
    except BaseException:
        try:
            _undo(dst, spec, [])
        except Exception:  # noqa: BLE001 -- the first error is the one reported
            pass
        raise
    return dst, _redact(spec)


def _undo(store: Store | None, spec: str | None, written: list) -> None:
    """What a failed restore wrote, removed: a database's rows emptied, the store closed, the files deleted."""
    try:
        if store is not None:
            try:
                if spec:
                    _wipe(store)
            finally:
                store.close()
    finally:
        for p in written:
            _remove_sqlite(p)


def _remove_sqlite(path: str) -> None:
    for side in ("", "-wal", "-shm", "-journal", "-writer"):
        try:
            os.unlink(path + side)
        except FileNotFoundError:
            pass


def _wipe(store: Store) -> None:
    """Empty the tables of a PostgreSQL store this restore filled (it was empty before)."""
    c = store._conn()
    with c.transaction():
        for t in ("cosignatures", "openings", "commands", "records", "games"):
            c.execute(f"DELETE FROM {t}")


def _place_keys(key_path: str, dkey: str, data_dir: str) -> None:
    """The key ring (and its history) and the data key into ``data_dir``, so that ``aar serve
    --data-dir DATA_DIR`` finds them; files already there are left as they are."""
    for src, name, mode in ((key_path, "server.key", 0o600), (dkey, "data.key", 0o600),
                            (keyring.history_path(key_path), "server.key.history", 0o644)):
        dst = os.path.join(data_dir, name)
        if not os.path.isfile(src) or os.path.abspath(src) == os.path.abspath(dst) or os.path.exists(dst):
            continue
        fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as f, open(src, "rb") as s:
            f.write(s.read())
            f.flush()
            os.fsync(f.fileno())


__all__ = ["BackupError", "Manifest", "Restored", "backup", "restore", "verify_store", "copy_games", "StoreError"]
