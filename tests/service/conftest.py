"""Fixtures for the service tests: stores (SQLite in a temp dir; PostgreSQL in a
fresh database with a random name, dropped after) and servers on port 0."""
from __future__ import annotations

import os
import secrets

import pytest

PG_ADMIN_DSN = os.environ.get("AAR_PG_DSN", "postgresql://postgres@127.0.0.1:5432/postgres")


def _pg_unavailable(reason: str):
    if os.environ.get("AAR_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL required (AAR_REQUIRE_POSTGRES=1) but {reason}")
    pytest.skip(f"PostgreSQL not reachable: {reason}")


@pytest.fixture
def pg_dsn():
    """A fresh PostgreSQL database for one test; dropped afterwards."""
    try:
        import psycopg
    except ImportError:
        _pg_unavailable("psycopg is not installed")
    name = "aar_test_" + secrets.token_hex(6)
    try:
        admin = psycopg.connect(PG_ADMIN_DSN, autocommit=True, connect_timeout=3)
    except Exception as e:  # unreachable server, auth failure
        _pg_unavailable(f"{PG_ADMIN_DSN}: {e}".strip())
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        base = PG_ADMIN_DSN.rsplit("/", 1)[0]
        try:
            yield f"{base}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    from afteraction.service.store import open_store

    if request.param == "sqlite":
        s = open_store(f"sqlite:{tmp_path / 'store.sqlite'}")
    else:
        s = open_store(request.getfixturevalue("pg_dsn"))
    try:
        yield s
    finally:
        s.close()
