"""`aar backup` and `aar restore` (service/backup.py, docs/operations.md "Backup and restore").

Exit codes: 0 done; 1 a restore refused because a game does not verify (nothing is left
behind); 2 a usage error or a backup/restore that cannot start (one line saying why)."""
from __future__ import annotations

import os
import sys


def _msg(e: BaseException) -> str:
    from .serve_cmd import redact_urls

    if isinstance(e, OSError) and e.strerror:
        return f"{e.filename}: {e.strerror}" if e.filename else e.strerror
    return redact_urls(str(e))


def _paths(args):
    from .common import default_data_dir

    data_dir = args.data_dir or default_data_dir()
    return data_dir, args.key or os.path.join(data_dir, "server.key")


def cmd_backup(args) -> int:
    from afteraction.service.backup import BackupError, backup
    from afteraction.service.store import StoreError

    data_dir, key = _paths(args)
    try:
        m = backup(args.store, data_dir, key, args.out)
    except (BackupError, StoreError, OSError) as e:
        print(f"aar backup: {_msg(e)}", file=sys.stderr)
        return 2
    d = m.data
    ended = sum(g["ended"] for g in d["games"])
    print(f"backup {os.path.abspath(args.out)}: {len(d['games'])} games ({ended} ended), {d['records']} records, "
          f"from {d['source']} ({d['method']})")
    print(f"store file sha256: {d['store_sha256']}")
    keys = d["keys_not_in_this_backup"]
    print("keys to keep, NOT in this backup (a restore needs them; keep them apart from it):")
    print(f"  server key ring: {keys['server_key_ring']} ({len(d['server_keys'])} "
          f"key{'s' if len(d['server_keys']) != 1 else ''}: {', '.join(d['server_keys'])})")
    print(f"  data key: {keys['data_key']} (opens the store's private columns: without it no game in progress "
          f"can go on)")
    print(f"restore with: aar restore {args.out} --data-dir NEW_DIR --key {keys['server_key_ring']}")
    return 0


def cmd_restore(args) -> int:
    from afteraction.service.backup import BackupError, restore
    from afteraction.service.store import StoreError

    if not args.key:
        print("aar restore: --key FILE is required: the server key ring the backup lists", file=sys.stderr)
        return 2
    try:
        r = restore(args.backup, args.data_dir, args.key, args.store, args.data_key)
    except (BackupError, StoreError, OSError) as e:
        print(f"aar restore: {_msg(e)}", file=sys.stderr)
        return 2
    if r.failures:
        print(f"RESTORE REFUSED: {len(r.failures)} game(s) do not verify; nothing was kept in {r.store or args.data_dir}")
        for f in r.failures:
            print(f"  {f}")
        return 1
    print(f"RESTORED AND VERIFIED: {r.games} games ({r.ended} ended), {r.records} records into {r.store}; every "
          f"game replayed and verified against its server key")
    print(f"start it with: aar serve --data-dir {args.data_dir}" + (f" --store {r.store}" if args.store else ""))
    return 0


def register(sub) -> None:
    b = sub.add_parser("backup", help="write a consistent copy of a (running) server's store",
                       description="Write a consistent copy of a server's store into a new directory, while the "
                                   "server runs: SQLite's online backup, or for PostgreSQL a logical copy of every "
                                   "game; with a manifest of its games and the keys to keep (not in the backup).")
    b.add_argument("-o", "--out", required=True, metavar="DIR", help="the new backup directory")
    b.add_argument("--data-dir", metavar="DIR", help="the server's data directory (aar serve --data-dir)")
    b.add_argument("--store", metavar="SPEC", help="sqlite:PATH or postgresql://... (default: the data directory's)")
    b.add_argument("--key", metavar="FILE", help="the server key file (default DATA_DIR/server.key); its data "
                                                 "key is data.key beside it")
    b.set_defaults(func=cmd_backup)
    r = sub.add_parser("restore", help="load a backup into a new data directory; finished only if every game verifies",
                       description="Load a backup (aar backup) into a new data directory, or an empty PostgreSQL "
                                   "database, and verify every game by replay against its server key; if any game "
                                   "does not verify, remove what was loaded and exit 1.")
    r.add_argument("backup", help="the backup directory")
    r.add_argument("--data-dir", required=True, metavar="DIR", help="the new data directory")
    r.add_argument("--key", metavar="FILE", help="the server key ring the backup lists (copied into DIR)")
    r.add_argument("--data-key", metavar="FILE", help="the data key (default: data.key beside --key)")
    r.add_argument("--store", metavar="SPEC", help="an empty PostgreSQL database to load into (default: a SQLite "
                                                   "store in DIR)")
    r.set_defaults(func=cmd_restore)
