"""No Trumpets No Drums rule 9: the off-board zones (China, Hanoi, Haiphong, the Plain of Jars,
Luang Prabang, Vientiane; data/map.json).

9.1   a move from a zone to an adjacent zone or bordering hex, or from a hex into a zone, takes the
      unit's whole move (``zone_moves``, called by reach._ground_reach); any number of units may
      stand in a zone (8.10.1.3, stacking.stacking_problem); 9.1.1.1 the fleet may enter Haiphong
      (sea.fleet_reach).
9.2   zones count as non-clear for infiltration (``NON_CLEAR``, reach.infiltration_target) and
      bombing (part 2), as clear for ground combat (combat.CombatSituation.in_zone).
9.3   combat in a zone is voluntary, by the units the attacker commits there; all the defender's
      units in the zone defend together (``zone_attackers``, used by battles.attack_options); units in
      zones never retreat (19.3.9, retreat.retreat_plan).
8.5.4 zones of control and influence do not reach into or out of zones (they are sets of hexes).
"""
from __future__ import annotations

from functools import lru_cache

from ..components.map import load_map
from .national import may_enter
from .stacking import stacking_problem
from ..components.state import ALLIED
from ..components.pieces import load_counters

NON_CLEAR = True  # 9.2: for infiltration (8.5.2) a zone is a non-clear location


@lru_cache(maxsize=None)
@lru_cache(maxsize=None)
def touches_zone(loc: str) -> bool:
    """A zone, or a hex bordering one (fixed by the map)."""
    m = load_map()
    return m.is_zone(loc) or any(m.is_zone(n) for n in m.neighbours(loc))


def zone_moves(s: dict, mv: dict, allow: int, enemy, env) -> dict[str, list[str]]:
    """9.1: one-step moves into, out of or between zones (each is the whole move). From a zone these
    are the only moves; from a hex bordering a zone they are added to the ordinary ones."""
    m = load_map()
    start, side = mv["loc"], mv["side"]
    out: dict[str, list[str]] = {}
    if allow <= 0:
        return out
    for n in m.neighbours(start):
        if not (m.is_zone(start) or m.is_zone(n)) or n in enemy:
            continue
        if may_enter(s, mv["types"], side, mv["corps"], n) is not None:
            continue
        if side != ALLIED and stacking_problem(s, side, n, mv["uids"], env) is not None:
            continue
        out[n] = [n]
    return out


def zone_attackers(s: dict, side: str, done: set) -> dict[str, list[str]]:
    """9.3: zone -> the side's face-up ground combat units there that may attack (not yet attacked;
    guerrillas and militia only in a zone of their own country: the 8.9.1 reading of
    battles.attack_options, which also lets militia and Green Berets attack)."""
    m = load_map()
    counters = load_counters()
    out: dict[str, list[str]] = {}
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side or u["inv"] or uid in done or not m.is_zone(u["loc"]):
            continue
        t = counters.type(u["type"])
        bound = t.guerrilla if side != ALLIED else t.stacking_class == "militia"
        home = counters.nationalities[t.nationality].get("home")
        if bound and home and m.zones[u["loc"]].country != home:
            continue  # 8.9.1: no attacks in foreign countries
        if t.is_ground_combat:
            out.setdefault(u["loc"], []).append(uid)
    return out
