"""Shared test helpers: kept minimal on purpose.

- ``REPO``: the repository root; ``SHARED_VECTORS``: the third-party vectors in
  ``shared/vectors`` beside the repository (see its README.md).
- ``duel_bundle``: the bytes of a complete duel game (fixed seed), built once per session.
"""
from __future__ import annotations

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
SHARED_VECTORS = (REPO / ".." / "shared" / "vectors").resolve()


def build_duel(seed: bytes = b"tests/duel") -> "object":
    """A complete duel game played by seeded random bots (deterministic)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("duel", seed=seed)
    g.handshake()
    g.run_bots(random_bot(seed))
    return g


@pytest.fixture(scope="session")
def shared_vectors() -> pathlib.Path:
    if not SHARED_VECTORS.is_dir():
        msg = f"third-party vectors not found at {SHARED_VECTORS} (shared/vectors beside the repo)"
        if os.environ.get("AAR_REQUIRE_SHARED") == "1":  # set by .ci/run: CI must not pass without them
            pytest.fail(msg)
        pytest.skip(msg)
    return SHARED_VECTORS


@pytest.fixture(scope="session")
def duel_game():
    return build_duel()


@pytest.fixture(scope="session")
def duel_bundle(duel_game) -> bytes:
    return duel_game.bundle()



def pytest_configure(config):
    """Under pytest-xdist, the controller names the run (``--testrunuid``) itself, so that it knows the
    corpus directory its workers share (tests/corpus.py) and can remove it at the end."""
    if not hasattr(config, "workerinput") and getattr(config.option, "testrunuid", "") is None:
        import uuid
        config.option.testrunuid = uuid.uuid4().hex


def pytest_sessionfinish(session, exitstatus):
    """The corpus directory of this run (tests/corpus.py), removed by the controller at the end."""
    uid = getattr(session.config.option, "testrunuid", None)
    if hasattr(session.config, "workerinput") or not uid:
        return
    import shutil

    import corpus
    shutil.rmtree(corpus.run_dir(uid), ignore_errors=True)
