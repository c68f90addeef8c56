"""No Trumpets No Drums 4.1.5 (additional Communist recruits from random events, 21) and 28.10 (NVA
mobilization lifted by the National Uprising): the Communist recruitment extras of the campaign.

Random events write one-shot modifiers into ``s["mods"]`` (POLITICS helper, docs/rules/ntnd-authoring/
random-events.md); the next Communist Recruitment phase consumes them here, after the quotas of
4.1.1-4.1.4 are set (recruitment.start_communist_recruitment), and clears them:

    basic_cadres        change of the three 4.1.1 cadres (never below 0)
    nva_recruits        change of the two 4.1.3 NVA recruits (never below 0; the 4.1.7/28.10 cap holds)
    communist_recruits  [{type, count, place}]: cadre types are placed as 4.1.1 cadres of their own
                        country (Laos, Cambodia: the phase's per-region extra quota, as 4.5.1's);
                        other types are forfeited with a public event (no entry of the table gives
                        one yet)

(``aid_units`` and ``aid_suspended`` are aid.py's.)
"""
from __future__ import annotations

from ..components.features import in_force

_HOME = {"pl_cadre": "LA", "kr_cadre": "CA"}   # their country is one 4.5.1 region (a VC one is a corps)


def apply_mods(s: dict, ctx) -> None:
    """4.1.5: the random events' recruitment modifiers, once, in this Communist Recruitment phase."""
    if not in_force(s, "random_events"):
        return
    mods = s.setdefault("mods", {})
    ph = s["phase"]
    if "basic_cadres" in mods:
        ch = mods.pop("basic_cadres")
        ph["cadres"] = max(0, ph.get("cadres", 0) + ch)
        ctx.emit({"t": "recruit-extra", "rule": "NTND 4.1.5", "what": "basic_cadres", "change": ch,
                  "cadres": ph["cadres"]})
    if "nva_recruits" in mods:
        ch = mods.pop("nva_recruits")
        ph["nva"] = max(0, ph.get("nva", 0) + ch)
        ctx.emit({"t": "recruit-extra", "rule": "NTND 4.1.5", "what": "nva_recruits", "change": ch, "nva": ph["nva"]})
    for r in mods.pop("communist_recruits", []):
        home = _HOME.get(r["type"])
        if home is None:
            ctx.emit({"t": "recruit-forfeit", "what": r["type"], "count": r["count"], "rule": "NTND 4.1.6",
                      "note": "no placement rule for this type as an extra recruit"})
            continue
        extra = ph.setdefault("extra", {})
        extra[home] = extra.get(home, 0) + r["count"]
        ph["extra"] = dict(sorted(extra.items()))
        ctx.emit({"t": "recruit-extra", "rule": "NTND 4.1.5", "what": r["type"], "count": r["count"], "country": home})
