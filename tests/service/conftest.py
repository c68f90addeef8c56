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
    from afteraction.service.stores import open_store

    if request.param == "sqlite":
        s = open_store(f"sqlite:{tmp_path / 'store.sqlite'}", str(tmp_path))
    else:
        s = open_store(request.getfixturevalue("pg_dsn"), str(tmp_path))
    try:
        yield s
    finally:
        s.close()


class Server:
    """A server on port 0 with a SQLite store under tmp_path; ``restart`` keeps store and key."""

    def __init__(self, tmp_path, store=None):
        self.dir = str(tmp_path)
        self.store_spec = store or f"sqlite:{tmp_path / 'store.sqlite'}"
        self.run = None
        self.start()

    def start(self, port: int = 0):
        from afteraction.service.server import start

        self.run = start(f"127.0.0.1:{port}", self.store_spec, None, self.dir)
        self.target = f"127.0.0.1:{self.run.port}"
        return self

    def stop(self):
        if self.run is not None:
            self.run.stop(2)
            self.run = None

    @property
    def games(self):
        return self.run.service.games


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    try:
        yield s
    finally:
        s.stop()


def new_game(target: str, game: str, seed: bytes = b"t"):
    """A game of ``game`` with deterministic seat keys: (client, game_id, {seat: Seat})."""
    from afteraction.client.client import Client
    from afteraction.client.seat import Seat
    from afteraction.engine import registry
    from afteraction.engine.local import derive_bytes
    from afteraction.engine.seat import SeatSigner

    c = Client(target, timeout=10)
    keys = {s: derive_bytes(seed, f"key/{s}") for s in registry.get(game).seats}
    res = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()})
    seats = {s: Seat(c, res.game_id, s, keys[s], entropy=derive_bytes(seed, f"entropy/{s}")) for s in keys}
    return c, res.game_id, seats


def new_duel(target: str, seed: bytes = b"t"):
    """A duel game with deterministic seat keys: (client, game_id, {seat: Seat})."""
    return new_game(target, "duel", seed)


def handshake(seats) -> None:
    for s in seats.values():
        s.submit(s.sign_commit())
    for s in seats.values():
        s.submit(s.sign_reveal())
