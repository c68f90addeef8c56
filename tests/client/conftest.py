"""Client tests run against a real server on port 0 (SQLite store in tmp_path)."""
from __future__ import annotations

import pytest


@pytest.fixture
def server(tmp_path):
    from afteraction.service.server import start

    run = start("127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path))
    run.target = f"127.0.0.1:{run.port}"
    try:
        yield run
    finally:
        run.stop(2)
