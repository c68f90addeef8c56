"""SPEC.md names every rejection code the core raises (SPEC.md 5.2, 7.2, 7.3): the referee's
pipeline, game creation (ruleset options) and the registry. A code added to the core without a
line in SPEC.md fails here."""
from __future__ import annotations

import re

from conftest import REPO

CORE = ["engine/referee.py", "engine/endings.py", "engine/ruleset.py", "engine/registry.py"]
_RAISE = re.compile(r'raise\s+Rejection\(\s*"([A-Z_]+)"')


def _codes() -> dict[str, str]:
    out = {}
    for f in CORE:
        for code in _RAISE.findall((REPO / f).read_text()):
            out.setdefault(code, f)
    return out


def test_the_core_raises_the_codes_we_expect_to_find():
    codes = _codes()
    # a floor, so that a broken pattern (finding nothing) cannot make the next test pass
    assert {"MALFORMED", "BAD_SIGNATURE", "COUNTER_REUSED", "STALE_STATE", "UNKNOWN_RULESET",
            "BAD_OPTION"} <= set(codes)
    assert len(codes) >= 20


def test_spec_lists_every_core_rejection_code():
    spec = (REPO / "SPEC.md").read_text()
    missing = {c: f for c, f in _codes().items() if f"`{c}`" not in spec}
    assert not missing, f"rejection codes raised but not in SPEC.md: {missing}"
