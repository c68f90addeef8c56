"""Which store a ``--store`` value names, opened (the store contract is store.py; its two
implementations store_sqlite.py and store_postgres.py build on it, so choosing one lives here, above all three)."""
from __future__ import annotations

import os

from . import atrest
from .store import Store, StoreError, private_dir


def open_store(spec: str | None, data_dir: str = "data", data_key: str | None = None) -> Store:
    """``sqlite:PATH`` or ``postgresql://...``; None = SQLite file under data_dir (made 0700).

    ``data_key``: the data key file (made on first use, 0600); default ``DATA_DIR/data.key``.
    The server passes the one beside its server key (``atrest.beside``)."""
    if spec is None or spec == "":
        private_dir(data_dir)
        spec = "sqlite:" + os.path.join(data_dir, "afteraction.sqlite")
    try:
        box = atrest.load_or_create(data_key or os.path.join(data_dir, "data.key"))
    except (OSError, atrest.AtRestError) as e:
        raise StoreError(f"data key: {e}") from None
    if spec.startswith("sqlite:"):
        from .store_sqlite import SqliteStore

        return SqliteStore(spec[len("sqlite:"):], box)
    if spec.startswith(("postgresql://", "postgres://")):
        from .store_postgres import PostgresStore

        return PostgresStore(spec, box)
    raise StoreError(f"unknown store {spec!r}: use sqlite:PATH or postgresql://...")
