"""Fixtures of the fault suite: the PostgreSQL database helper of tests/service (a fresh
database per test, skipped with the reason when there is no server, a failure instead under
AAR_REQUIRE_POSTGRES=1) and the stores the suite runs against."""
from __future__ import annotations

import pytest

from service.conftest import pg_dsn  # noqa: F401  (the fixture, reused as is)


@pytest.fixture
def store_spec(request, tmp_path):
    """``sqlite:PATH`` under tmp_path, or a fresh PostgreSQL database (indirect param)."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        return f"sqlite:{tmp_path / 'store.sqlite'}"
    return request.getfixturevalue("pg_dsn")
