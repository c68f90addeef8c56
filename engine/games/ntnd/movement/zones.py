"""No Trumpets No Drums 8.5: zones of control and influence (8.5.1 ZOC of face-up morale 3-4 ground combat
units, 8.5.3 ZOI of firebases, the fleet and Green Berets, 8.5.4 none into or out of the off-board
zones), and the locations of enemy units they are read with."""
from __future__ import annotations

from functools import lru_cache

from ..components.map import load_map
from ..components.features import in_force
from ..components.state import ALLIED
from ..components.pieces import load_counters
from .hexes import interned, land_within, nbrs


def zoc_hexes(s: dict, owner: str) -> frozenset:
    """Hexes in the ZOC of ``owner``'s face-up ground combat units of printed morale 3-4 (8.5.1).

    A ZOC covers the unit's hex and the six around it; none in, out of or
    within zones (8.5.1, 8.5.4); none across a border into or out of a
    country of ``zoc_closed`` (8.5.1: neutral ones unless designated, 10.2).
    """
    m = load_map()
    neutral = zoc_closed(s, owner)
    out: set = set()
    no_arvn = bool(s.get("sv_demoralized"))   # 25.2: demoralized ARVN units have no ZOC
    for u in s["units"].values():
        if u["status"] != "map" or u["side"] != owner or u["inv"] or m.is_zone(u["loc"]):
            continue
        if _type_facts(u["type"])[0] and not (no_arvn and u["nat"] == "ARVN"):
            out |= _zoc_around(u["loc"], neutral)
    return frozenset(out)


def zoc_closed(s: dict, owner: str) -> tuple[str, ...]:
    """The countries ``owner``'s ZOCs do not extend into or out of (8.5.1): the neutral ones and, where
    rule 10 is in force, North Vietnam for the Allied player (10.8: "technically neutral"; ZOCs extended
    into it "count as invasions"), except those the player has designated (10.2's announcement,
    ``s["neutrality"]["zoc"][owner]``, neutrality.announce_zoc). Tet: the neutral countries alone."""
    closed = list(s["neutral"])
    if in_force(s, "neutrality"):
        if owner == ALLIED:
            closed.append("NV")
        opened = s.get("neutrality", {}).get("zoc", {}).get(owner, ())
        closed = [c for c in closed if c not in opened]
    return tuple(sorted(closed))


@lru_cache(maxsize=None)
def _type_facts(type_id: str) -> tuple[bool, int, bool]:
    """(projects a ZOC 8.5.1, ZOI range 8.5.3, is an air unit) of a unit type: fixed by counters.json."""
    t = load_counters().type(type_id)
    return bool(t.has_printed_zoc), t.zoi_range or 0, t.category == "air"


#: memoised ZOCs kept (``_zoc_of``)
ZOC_CACHE = 1024


@lru_cache(maxsize=ZOC_CACHE)
def _zoc_of(centres: frozenset, neutral: tuple[str, ...]) -> frozenset:
    """The ZOC of units at the hexes ``centres`` (``_zoc_around`` each; ``neutral``: ``zoc_closed``), interned:
    a pure function of its arguments, memoised across states."""
    out: set = set()
    for loc in centres:
        out |= _zoc_around(loc, neutral)
    return interned(frozenset(out))


@lru_cache(maxsize=None)
def _zoc_around(loc: str, neutral: tuple[str, ...]) -> frozenset:
    """The ZOC of one unit at hex ``loc``: the hex and its land neighbours, not across a border into or
    out of a neutral country (8.5.1); fixed by the map and the neutral countries."""
    m = load_map()
    here = m.hex(loc).country
    out = {loc}
    for n in nbrs(loc):
        h = m.hexes[n]
        if not h.is_land:
            continue
        if h.country != here and (h.country in neutral or here in neutral):
            continue
        out.add(n)
    return frozenset(out)


def zoi_hexes(s: dict) -> frozenset:
    """Allied zones of influence: 2 hexes around firebases, the fleet and Green Berets (8.5.3, 14.2)."""
    m = load_map()
    out = set()
    for u in s["units"].values():
        if u["status"] != "map" or u["side"] != ALLIED or m.is_zone(u["loc"]):
            continue
        r = _type_facts(u["type"])[1]
        if r:
            out.update(land_within(u["loc"], r))
    return frozenset(out)


def enemy_locs(s: dict, side: str) -> frozenset:
    """Locations holding any unit of the other side (inverted markers included)."""
    return frozenset(u["loc"] for u in s["units"].values()
                     if u["status"] == "map" and u["side"] != side and u["loc"] is not None
                     and not _type_facts(u["type"])[2])
