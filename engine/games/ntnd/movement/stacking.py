"""No Trumpets No Drums 8.10: stacking (8.10.1 the limits, one table: components/pieces.py stacking_caps;
8.10.1.2 Saigon's own; 8.10.1.3 zones unlimited) and 8.10.2's violations, eliminated by their owner at
the combat phases."""
from __future__ import annotations

from functools import lru_cache

from ..components.map import load_map
from ..components.pieces import load_counters


def stacking_problem(s: dict, side: str, loc: str, adding: list[str], env: "Env | None" = None) -> str | None:
    """NTND 8.10.1: would adding these uids to ``loc`` over-stack it? Zones are unlimited (8.10.1.3)."""
    m = load_map()
    if m.is_zone(loc):
        return None
    if env is not None:
        here = env.types_at(side).get(loc, ())
        if not here and len(adding) == 1:
            return None  # one unit alone never over-stacks (8.10.1)
        types = [t for uid, t in here if uid not in adding]
    else:
        types = [u["type"] for u in s["units"].values()
                 if u["status"] == "map" and u["side"] == side and u["loc"] == loc and u["id"] not in adding]
    types += [s["units"][a]["type"] for a in adding]
    h = m.hex(loc)
    return _stack_verdict(side, bool(h.town and h.town.name == "Saigon"), tuple(sorted(types)))


@lru_cache(maxsize=None)
def _saigon(loc: str) -> bool:
    """8.10.1.2: Saigon's own stacking limit."""
    town = load_map().hexes[loc].town
    return bool(town and town.name == "Saigon")


@lru_cache(maxsize=8192)
def _join_verdict(side: str, saigon: bool, here: tuple[str, ...], adding: tuple[str, ...]) -> bool:
    """Would units of types ``adding`` over-stack a hex holding ``here`` (both sorted)?"""
    return _stack_verdict(side, saigon, tuple(sorted(here + adding))) is not None


@lru_cache(maxsize=4096)
def _stack_verdict(side: str, saigon: bool, types: tuple[str, ...]) -> str | None:
    v = load_counters().stacking_violations(types, side, saigon=saigon)
    return "NTND " + v[0] if v else None


def first_violation(s: dict) -> dict | None:
    """8.10.2: the first over-stacked location (sorted), as {"seat", "loc", "count", "eligible"}:
    the owner eliminates ``count`` of ``eligible`` (the units of the over-full stacking class)."""
    m = load_map()
    here: dict[tuple[str, str], list[str]] = {}   # (side, loc) -> its unit types: one pass over the units
    for u in s["units"].values():
        if u["status"] == "map" and not m.is_zone(u["loc"]):
            here.setdefault((u["side"], u["loc"]), []).append(u["type"])
    for side, loc in sorted(here):
        types = here[side, loc]
        # stacking_problem(s, side, loc, []) from the types gathered above; violation_at only where it fails
        if _stack_verdict(side, _saigon(loc), tuple(sorted(types))) is not None:
            return violation_at(s, side, loc)
    return None


def violation_at(s: dict, side: str, loc: str) -> dict | None:
    """8.10: ``side``'s stacking violation at ``loc`` as {"seat", "loc", "count", "eligible"} (the first
    over-full stacking class, sorted; its units sorted by id, inverted ones included), or None."""
    m = load_map()
    if m.is_zone(loc) or not stacking_problem(s, side, loc, []):
        return None
    counters = load_counters()
    us = sorted((u for u in s["units"].values() if u["status"] == "map" and u["side"] == side and u["loc"] == loc),
                key=lambda x: x["id"])
    h = m.hex(loc)
    classes: dict[str, list[str]] = {}
    for u in us:
        classes.setdefault(counters.type(u["type"]).stacking_class, []).append(u["id"])
    caps = counters.stacking_caps(side, bool(h.town and h.town.name == "Saigon"))   # one table (units.py)
    for cls in sorted(classes):
        cap = None if cls == "none" else caps.get(cls, 0)
        if cap is not None and len(classes[cls]) > cap:
            return {"seat": side, "loc": loc, "count": len(classes[cls]) - cap, "eligible": classes[cls]}
    return None
