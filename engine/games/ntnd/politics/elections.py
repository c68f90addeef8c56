"""No Trumpets No Drums rule 23: the American elections (campaign game, ``in_force(s, "elections")``).

``s["elections"]``: one record per election held, in order: {"turn", "year", "dice" (the faces),
"needed" (sum x 10), "pp" (the track then), "won": "war" | "peace", "why"}. ALLIED owns it; other
rules read ``peace_party`` (23.3-23.6: NEUTRAL doubles U.S. neutrality violations by it, 23.5).

The election is rolled automatically at the end of the Allied political phase of its turn (23.1:
November/December 1968 and 1972, the scenario's ``elections``; 23.2 "at the end of his political
phase"): the Allied player's dice, each a d6 rolled through ``ctx.roll`` with the rule string
"NTND 23.2 Allied election die" (he rolls them: 23.1 "the Allied player must roll"). Their number is
the scenario's (three, four), one less under Full Vietnamization (24.2.7), plus one after a reversed
Partial and two after a reversed Full Vietnamization (24.4.1, 24.4.2; the next election only).
"""
from __future__ import annotations

from . import vietnamization as V
from .election_results import PEACE, WAR, decided, peace_party  # noqa: F401 (read by the other rules)
from ..components.features import in_force
from ..components.pieces import POOL_OF_NAT

WAR_LINE = 100   # 23.6, 23.8: "below 100 points" / "fewer than 100 points"


def _dice(s: dict, base: int) -> int:
    n = base
    if V.kind(s) == "full":
        n -= 1                                   # 24.2.7
    n += s.get("election_extra_dice", 0)         # 24.4.1, 24.4.2
    return max(0, n)


def at_political_phase_end(s: dict, ctx) -> None:
    """23.1-23.2, 23.8: hold this turn's election, if any, after the Allied political phase's points."""
    if not in_force(s, "elections"):
        return
    due = [e for e in s["scenario"].get("elections", []) if e["turn"] == s["turn"]]
    if not due:
        return
    e = due[0]
    n = _dice(s, e["dice"])
    faces = [ctx.roll("d6", f"NTND 23.2 Allied election die {i + 1} of {n} ({e['year']})").result for i in range(n)]
    s["election_extra_dice"] = 0
    needed = sum(faces) * 10
    pp = s["pp"]
    if s.get("vietnamization_forced") and V.american_units_in_play(s) + _seato_in_play(s):
        won, why = PEACE, "NTND 23.8: U.S. and SEATO troops were not all withdrawn before the election"
    elif pp < needed:
        won, why = PEACE, f"NTND 23.2: {pp} political points, fewer than {needed}"
    else:
        won, why = WAR, f"NTND 23.2: {pp} political points, at least {needed}"
    rec = {"turn": s["turn"], "year": e["year"], "dice": faces, "needed": needed, "pp": pp, "won": won, "why": why}
    s.setdefault("elections", []).append(rec)
    ctx.emit({"t": "election", "rule": "NTND 23.2", **rec})
    if won == PEACE:
        V.cancel_partial(s, ctx)                 # 24.3
    elif pp < WAR_LINE and V.kind(s) is None and in_force(s, "vietnamization"):
        V.declare(s, "partial", ctx, forced_by="NTND 23.8")   # 23.8: declared at once, never reversed


def _seato_in_play(s: dict) -> list[str]:
    return [uid for uid in sorted(s["units"]) if POOL_OF_NAT.get(s["units"][uid]["nat"]) == "SEATO"
            and s["units"][uid]["side"] == "allied" and s["units"][uid]["status"] in ("map", "air")]
