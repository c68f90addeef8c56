"""No Trumpets No Drums rule 8 (movement) and 9.1 (moving to and from off-board zones).

Movement points are counted in quarters (ints): the chart's 1/2 MP road cost
(8.2.7) and the halvings of 8.2.1 (monsoon) and 18.2.1.3 (out of supply) stay
exact without fractions in the search.

A move is one command per piece (a face-up unit, or an inverted marker = a
hidden stack that moves as one, 8.5.2 "each unit or stack"): its path is checked
hex by hex here. ``reachable`` gives, per destination, one path (fewest
infiltration rolls, then fewest MP) - the destinations ``legal_commands`` offers.

Rules implemented here: 8.1-8.2.7 allowances and costs (terrain chart of
data/terrain.json, authored), 8.2.1 monsoon halving, and the environment a search
reads (``Env``: the 8.5.2 infiltration rolls, 8.6.1-8.6.2 fleet and patrol boat
movement, 14.1.3 patrolled rivers). Beside it in movement/: zones.py (8.5 ZOC and
ZOI), national.py (8.9 national restrictions, 5.3/5.3.1 corps boundaries),
stacking.py (8.10, checked at the end of each move; see docs for the reading),
hexes.py (the map as movement reads it), offboard.py (9: zones take a whole move).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..components.map import load_map
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters, load_terrain
from .hexes import interned, land_within, nbrs, utype
from .zones import _type_facts, _zoc_of, zoc_closed
from .stacking import _join_verdict, _saigon

Q = 4  # quarters per movement point
UNLIMITED = 10 ** 6

MONSOON_MONTHS = ("May/June", "July/August")  # NTND 8.2 note


def is_monsoon(s: dict) -> bool:
    """NTND 8.2 note: May/June and July/August are monsoon turns."""
    return _monsoon_label(s["turn_label"])


@lru_cache(maxsize=None)
def _monsoon_label(label: str) -> bool:
    return any(label.startswith(m) for m in MONSOON_MONTHS)


class Env:
    """Per-state caches for one batch of queries (legal moves of a whole phase); build a new one
    after the state changes."""

    def __init__(self, s: dict) -> None:
        self.s = s
        self._zoc: dict = {}
        self._zoi = None
        self._enemy: dict = {}
        self._facts = None
        self._full: dict = {}
        self.memo: dict = {}       # derived sets of this state the searches share (reach._ground_reach)
        self._river = None
        self.searches: dict = {}   # uids -> (best (rolls, cost) per hex, prev, allowance) of the last ground search
        self.walks: dict = {}      # (uids, trail) -> the step rules of the last ground search (walk_ok)

    def _scan(self, side: str) -> dict:
        """The per-state facts below, from passes over the units: per side the locations
        of its non-air units (``enemy_locs`` of the other side), the hexes of its face-up units that
        project a ZOC, its units per location; the Allied ZOI centres and the patrol boats' hexes.
        One pass makes both sides' facts, unless the Communist side's are asked first (an Allied move's
        check reads no others): then that pass takes the Communist units alone, and a later ask of the
        Allied facts makes a pass of its own."""
        f = self._facts
        if f is None:
            f = self._facts = {"locs": {}, "zoc_at": {}, "types_at": {}, "zoi_at": set(), "boats": set()}
        if side not in f["locs"]:
            _scan_units(self.s, (COMMUNIST,) if side == COMMUNIST and ALLIED not in f["locs"]
                        else tuple(x for x in (ALLIED, COMMUNIST) if x not in f["locs"]), f)
        return f

    def zoc(self, owner: str) -> frozenset:
        """``zoc_hexes(s, owner)``."""
        if owner not in self._zoc:
            # the hexes of the ZOC units, interned: the other side's moves leave them as they were
            self._zoc[owner] = _zoc_of(interned(frozenset(self._scan(owner)["zoc_at"][owner])), zoc_closed(self.s, owner))
        return self._zoc[owner]

    def zoi(self) -> frozenset:
        """``zoi_hexes(s)``."""
        if self._zoi is None:
            out: set = set()
            for loc, r in self._scan(ALLIED)["zoi_at"]:   # Allied units' only
                out.update(land_within(loc, r))
            self._zoi = interned(frozenset(out))
        return self._zoi

    def enemy(self, side: str) -> frozenset:
        """``enemy_locs(s, side)``."""
        if side not in self._enemy:
            other = COMMUNIST if side == ALLIED else ALLIED
            self._enemy[side] = interned(frozenset(self._scan(other)["locs"][other]))
        return self._enemy[side]

    def types_at(self, side: str) -> dict:
        """Location -> [(uid, type)] of ``side``'s units on the map, in the state's order."""
        return self._scan(side)["types_at"][side]

    def occupied(self, side: str) -> frozenset:
        """The locations holding ``side``'s units (the keys of ``types_at``)."""
        key = ("occupied", side)
        if key not in self.memo:
            self.memo[key] = interned(frozenset(self.types_at(side)))
        return self.memo[key]

    def full_hexes(self, side: str, types: tuple[str, ...]) -> frozenset:
        """8.10.1: the hexes holding ``side``'s units that a stack of these unit types (sorted; standing
        elsewhere) may not join: ``stacking_problem`` for every occupied hex at once."""
        key = (side, types)
        if key not in self._full:
            groups = self.memo.get(("here", side))
            if groups is None:   # (Saigon?, the sorted types there) -> the occupied hexes (not zones) so held
                zones = load_map().zones   # m.is_zone(loc) is loc in zones
                groups = self.memo[("here", side)] = {}
                for loc, here in self.types_at(side).items():
                    if loc not in zones:
                        # most hexes hold one unit: its type is the sorted tuple
                        g = (_saigon(loc), (here[0][1],) if len(here) == 1 else tuple(sorted([t for _, t in here])))
                        groups.setdefault(g, []).append(loc)
            # one verdict per kind of occupied hex, not per hex: a phase holds many lone guerrillas
            full: list = []
            for (saigon, here), locs in groups.items():
                if _join_verdict(side, saigon, here, types):
                    full += locs
            self._full[key] = frozenset(full)
        return self._full[key]

    def river_stop(self) -> frozenset:
        """``patrolled_river(s)``."""
        if self._river is None:
            self._scan(COMMUNIST)   # the boats of both sides' passes
            self._river = interned(frozenset().union(*map(_river_near, self._scan(ALLIED)["boats"])))
        return self._river


def _scan_units(s: dict, sides: tuple[str, ...], f: dict) -> None:
    """``Env._scan``'s pass over the map units of ``sides``: their facts into ``f``."""
    zones = load_map().zones   # m.is_zone(loc) is loc in zones
    locs, zoc_at, types_at, zoi_at, boats = f["locs"], f["zoc_at"], f["types_at"], f["zoi_at"], f["boats"]
    for x in sides:
        locs[x], zoc_at[x], types_at[x] = set(), set(), {}
    only = sides[0] if len(sides) == 1 else None
    facts = _SCAN_FACTS
    no_arvn = bool(s.get("sv_demoralized"))   # 25.2: demoralized ARVN units have no ZOC
    for u in s["units"].values():
        if u["status"] != "map":
            continue
        side = u["side"]
        if only is not None and side != only:
            continue
        loc, typ = u["loc"], u["type"]
        at = types_at[side]
        here = at.get(loc)
        if here is None:
            at[loc] = [(u["id"], typ)]
        else:
            here.append((u["id"], typ))
        zoc, r, air, boat = facts.get(typ) or _scan_facts(typ)
        if loc is not None and not air:
            locs[side].add(loc)
        if loc in zones:
            continue
        if zoc and not u["inv"] and not (no_arvn and u["nat"] == "ARVN"):
            zoc_at[side].add(loc)
        if r and side == ALLIED:
            zoi_at.add((loc, r))
        if boat:
            boats.add(loc)


#: unit type -> ``_type_facts`` and whether it is a patrol boat, as ``_scan_units`` reads them (filled as met)
_SCAN_FACTS: dict[str, tuple[bool, int, bool, bool]] = {}


def _scan_facts(type_id: str) -> tuple[bool, int, bool, bool]:
    v = _SCAN_FACTS[type_id] = (*_type_facts(type_id), type_id in PATROL_BOATS)
    return v


# ---------------------------------------------------------------------------
# zones of control and influence (8.5)
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# who may go where
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# costs and allowances
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _step_q(mclass_id: str, a: str, b: str) -> int | None:
    """Quarter-MP cost from hex a to adjacent hex b for a movement class (None: prohibited)."""
    counters = load_counters()
    c = load_terrain().entry_cost(load_map(), counters.movement_classes[mclass_id], a, b)
    return None if c is None else int(c * Q)


def mover(s: dict, piece: str) -> dict:
    """What moves: uids, types, side, inverted?, corps, start location."""
    if piece in s["markers"]:
        mk = s["markers"][piece]
        uids = list(mk["units"])
        return {"uids": uids, "types": [utype(s["units"][x]) for x in uids], "side": COMMUNIST,
                "inv": True, "corps": None, "loc": mk["loc"]}
    u = s["units"][piece]
    mv = {"uids": [piece], "types": [utype(u)], "side": u["side"], "inv": False,
          "corps": u.get("corps"), "loc": u["loc"]}
    if "air" in s and piece in s["air"]["attached"]:
        from ..air.pieces import carried
        if carried(s, piece):
            mv["airmobile"] = True                 # 11.1.4: a helicopter attached (air_war)
    return mv


def allowance_q(s: dict, mv: dict) -> int:
    """NTND 8.2 allowance in quarters: the slowest unit of the piece; 8.2.1 monsoon halving for
    face-up units; 18.2.1.3 halved if out of supply at the start of the movement phase."""
    out = s["phase"].get("out_of_supply")
    oos = bool(out) and not set(mv["uids"]).isdisjoint(out)
    best = _allowance_q(tuple([t.id for t in mv["types"]]), mv["inv"], is_monsoon(s), oos)
    landed = s["phase"].get("landed", {})
    if len(mv["uids"]) == 1 and mv["uids"][0] in landed:  # 8.6.4.1: what the landing left
        best = min(best or 0, landed[mv["uids"][0]])
    return best or 0


@lru_cache(maxsize=None)
def _allowance_q(type_ids: tuple[str, ...], inv: bool, monsoon: bool, oos: bool) -> int | None:
    counters = load_counters()
    best = None
    for tid in type_ids:
        t = counters.type(tid)
        mc = counters.movement_classes[t.movement_class]
        if t.id == "communist_dummy" or (inv and mc.allowance is not None and mc.allowance > 0):
            a = Fraction(mc.allowance if t.id != "communist_dummy" else 10)
        else:
            a = mc.allowance_for(monsoon=monsoon, inverted=inv, out_of_supply=oos)
        q = UNLIMITED if a is None else int(a * Q)
        best = q if best is None else min(best, q)
    return best


def movement_kind(mv: dict) -> str:
    classes = {t.movement_class for t in mv["types"]}
    if mv.get("airmobile") and "immobile" not in classes:
        return "airmobile"                         # 11.1.4: helicopters attached
    for k in ("immobile", "fleet", "patrol_boat", "airmobile", "air", "interceptor"):
        if k in classes:
            return k
    return "ground"


# ---------------------------------------------------------------------------
# 8.10.2 stacking violations at combat phases
# ---------------------------------------------------------------------------

def patrolled_river(s: dict) -> frozenset:
    """14.1.3: major-river hexes within two hexes of an Allied patrol boat, counted along contiguous
    river hexes: Communist ground units entering them stop."""
    m = load_map()
    out: set = set()
    for u in s["units"].values():
        if u["status"] != "map" or u["type"] not in PATROL_BOATS or m.is_zone(u["loc"]):
            continue
        out |= _river_near(u["loc"])
    return frozenset(out)


PATROL_BOATS = ("us_patrol_boat", "arvn_patrol_boat")


@lru_cache(maxsize=None)
def _river_near(loc: str) -> frozenset:
    """14.1.3: the major-river hexes within two hexes of a patrol boat at ``loc``, along contiguous
    river hexes (fixed by the map)."""
    m = load_map()
    frontier = [loc]
    seen = {loc}
    for _ in range(2):
        nxt = []
        for h in frontier:
            for n in nbrs(h):
                if n not in seen and m.hexes[n].major_river and m.hexes[n].is_land:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(h for h in seen if m.hexes[h].is_land and m.hexes[h].major_river)


