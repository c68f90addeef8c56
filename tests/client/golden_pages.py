"""The replay page data of the golden logs, built once per test session (a build replays the
whole log: about a second for GMV), for tests/client/test_view_*.py."""
from __future__ import annotations

import copy
import functools
import pathlib

from afteraction.cli.view import build

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "golden"


@functools.lru_cache(maxsize=None)
def _built(name: str, seat: str | None) -> dict:
    return build(str(GOLDEN / name), seat)[0]


def golden_data(name: str, seat: str | None = None) -> dict:
    """A private copy (tests may edit it) of the page data of fixtures/golden/NAME."""
    return copy.deepcopy(_built(name, seat))
