"""SPEC.md names every rejection code of the core (SPEC.md 5.2, 7.2, 7.3): the codes of scope
``core`` of engine/codes.py, which are the codes the referee's pipeline (with the protocol's rules
it asks, engine/protocol_rules.py), game creation (ruleset options) and the registry raise. A core code without a line in SPEC.md, or a code raised by the
core that the enum does not give scope core, fails here."""
from __future__ import annotations

from conftest import REPO
from sources import code_uses

from afteraction.engine.codes import Code

CORE = ("engine/referee.py", "engine/protocol_rules.py", "engine/endings.py", "engine/ruleset.py", "engine/registry.py",
        "engine/protocol.py")


def _raised_by_core() -> dict[str, str]:
    out = {}
    for u in code_uses(("engine",)):
        if u.where.split(":")[0] in CORE and u.code is not None:
            out.setdefault(u.code, u.where)
    return out


def test_the_core_raises_the_codes_we_expect_to_find():
    codes = _raised_by_core()
    # a floor, so that a broken reader (finding nothing) cannot make the next tests pass
    assert {"MALFORMED", "BAD_SIGNATURE", "COUNTER_REUSED", "STALE_STATE", "UNKNOWN_RULESET",
            "BAD_OPTION"} <= set(codes)
    assert len(codes) >= 20


def test_the_core_raises_core_codes():
    wrong = {c: w for c, w in _raised_by_core().items() if c not in Code.__members__ or Code[c].scope != "core"}
    assert not wrong, f"codes the core raises that engine/codes.py does not give scope core: {wrong}"


def test_spec_lists_every_core_rejection_code():
    spec = (REPO / "SPEC.md").read_text()
    missing = sorted(c.value for c in Code if c.scope == "core" and f"`{c.value}`" not in spec)
    assert not missing, f"core rejection codes of engine/codes.py not in SPEC.md: {missing}"
