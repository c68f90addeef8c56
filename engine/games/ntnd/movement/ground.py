"""No Trumpets No Drums rule 8 (movement) and 9.1 (moving to and from off-board zones).

Movement points are counted in quarters (ints): the chart's 1/2 MP road cost
(8.2.7) and the halvings of 8.2.1 (monsoon) and 18.2.1.3 (out of supply) stay
exact without fractions in the search.

A move is one command per piece (a face-up unit, or an inverted marker = a
hidden stack that moves as one, 8.5.2 "each unit or stack"): its path is checked
hex by hex here. ``reachable`` gives, per destination, one path (fewest
infiltration rolls, then fewest MP) - the destinations ``legal_commands`` offers.

Rules implemented here: 8.1-8.2.7 allowances and costs (terrain chart of
data/terrain.json, authored), 8.2.1 monsoon halving, 8.5.1-8.5.4 ZOC and ZOI with
the 8.5.2 infiltration rolls, 8.6.1-8.6.2 fleet and patrol boat movement,
8.9 national restrictions, 5.3/5.3.1 corps boundaries, 8.10 stacking (checked at
the end of each move; see docs for the reading), 9.1 zones take a whole move.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..components.map import load_map
from ..components.features import in_force
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters, load_terrain

Q = 4  # quarters per movement point
UNLIMITED = 10 ** 6

MONSOON_MONTHS = ("May/June", "July/August")  # NTND 8.2 note


def is_monsoon(s: dict) -> bool:
    """NTND 8.2 note: May/June and July/August are monsoon turns."""
    return _monsoon_label(s["turn_label"])


@lru_cache(maxsize=None)
def _monsoon_label(label: str) -> bool:
    return any(label.startswith(m) for m in MONSOON_MONTHS)


def utype(u: dict):
    return load_counters().type(u["type"])


def region_of(loc: str) -> str | None:
    """Corps zone for South Vietnam, else the country (zones: their country)."""
    m = load_map()
    if m.is_zone(loc):
        return m.zones[loc].country
    h = m.hex(loc)
    return h.corps or h.country


@lru_cache(maxsize=None)
def nbrs(h: str) -> tuple[str, ...]:
    """Cached on-map hex neighbours."""
    return load_map().hex_neighbours(h)


@lru_cache(maxsize=None)
def land_within(h: str, r: int) -> tuple[str, ...]:
    """Cached land hexes within ``r`` hexes of ``h`` (ZOI, 8.5.3)."""
    m = load_map()
    return tuple(x for x in m.hexes_within(h, r) if m.hexes[x].is_land)


@lru_cache(maxsize=None)
def road(a: str, b: str) -> bool:
    return load_map().road_between(a, b)


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
        """The per-state facts below, from passes over the units (issue 15): per side the locations
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
                        # most hexes hold one unit: its type is the sorted tuple (issue 15)
                        g = (_saigon(loc), (here[0][1],) if len(here) == 1 else tuple(sorted([t for _, t in here])))
                        groups.setdefault(g, []).append(loc)
            # one verdict per kind of occupied hex, not per hex: a phase holds many lone guerrillas (issue 15)
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


#: canonical copies of the sets ``Env`` derives (``interned``), at most this many kept
INTERNED = 4096
_interned: dict[frozenset, frozenset] = {}


def interned(x: frozenset) -> frozenset:
    """The one kept frozenset equal to ``x`` (``x`` itself the first time). The memoised searches
    (ground_search._search) take these sets as arguments: the states of a phase mostly derive equal sets,
    and an equal key that is the same object is found without comparing the sets element by element
    (issue 15). Equal sets either way: results never depend on it."""
    if len(_interned) >= INTERNED:
        _interned.clear()
    return _interned.setdefault(x, x)


@lru_cache(maxsize=1)
def region_neighbours() -> dict[str, tuple[str, ...]]:
    """Corps zones/countries sharing a hexside (NTND 5.3.1, 8.8.1.1)."""
    m = load_map()
    adj: dict[str, set] = {}
    for h in m.land_hexes():
        for n in m.hex_neighbours(h):
            if m.hexes[n].is_land and region_of(n) != region_of(h):
                adj.setdefault(region_of(h), set()).add(region_of(n))
    return {k: tuple(sorted(v)) for k, v in sorted(adj.items())}


# ---------------------------------------------------------------------------
# zones of control and influence (8.5)
# ---------------------------------------------------------------------------

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
    a pure function of its arguments, memoised across states (issue 15)."""
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


# ---------------------------------------------------------------------------
# who may go where
# ---------------------------------------------------------------------------

#: in a ``neutral_key``: neutrality is refereed (10: entering a neutral country is a violation that
#: costs points, not a closed border)
OPEN = "10.2"


def neutral_key(s: dict) -> tuple[str, ...]:
    """What ``may_enter`` reads of the neutrality state, hashable (reach's memoised searches key on it):
    the still-neutral countries, and ``OPEN`` where rule 10 is in force (the campaign). Tet: the
    neutral countries alone, as before."""
    n = tuple(s["neutral"])
    return n + (OPEN,) if in_force(s, "neutrality") else n


def neutral_state(key: tuple[str, ...]) -> dict:
    """The part of a state ``may_enter`` reads, rebuilt from a ``neutral_key``."""
    return {"neutral": [c for c in key if c != OPEN], "neutral_open": OPEN in key}


def _borders_open(s: dict) -> bool:
    return s["neutral_open"] if "neutral_open" in s else in_force(s, "neutrality")


def may_enter(s: dict, types: list, side: str, corps: str | None, loc: str) -> str | None:
    """None if units of these types may stand in ``loc``; else the rule that forbids it. Reads only
    ``s["neutral"]`` and whether rule 10 is in force (``neutral_key``)."""
    m = load_map()
    counters = load_counters()
    if m.is_zone(loc):
        country = m.zones[loc].country
    else:
        h = m.hex(loc)
        if not h.is_land:
            return "NTND 8.2.3: ground units may not enter all-sea or all-lake hexes"
        country = h.country
    for t in types:
        nat = counters.nationalities[t.nationality]
        home = nat.get("home")
        if t.id == "communist_dummy":
            continue  # project reading: dummies move as inverted guerrillas of any country (17.1)
        if side == COMMUNIST and t.guerrilla and home and country != home:
            return f"NTND 8.9.1: {t.nationality} guerrillas may not leave their own country"
        if side == ALLIED:
            if t.stacking_class == "militia" and home and country != home:
                return "NTND 8.9.1: militia may not leave their own country"
            if t.nationality in ("LAO", "KHMER") and country != home:
                return "NTND 8.9.2: Laotian and Cambodian forces may not leave their country"
    if side == ALLIED and _borders_open(s):
        for t in types:
            if t.nationality == "KHMER" and "CA" in s["neutral"]:
                return "NTND 10.3.1: Cambodian units cannot move while Cambodia is neutral"
            if t.id == "lao_guard" and loc not in ("LUANG_PRABANG", "VIENTIANE"):
                return "NTND 28.11.4: the Laotian Guard moves only between Luang Prabang and Vientiane"
    if side == ALLIED:
        if country == "CN":
            return "NTND 10.7: China may not be invaded by Allied ground units"
        if _borders_open(s):
            pass  # 10.2, 10.8: Laos, Cambodia and North Vietnam may be entered, at a political cost (neutrality.py)
        elif country == "NV":
            return "NTND 10.8: North Vietnam is closed to Allied ground units where rule 10 is not in force (the military scenarios)"
        elif country in s["neutral"] and not all(t.nationality in ("LAO", "KHMER") for t in types):
            return f"NTND 10.2: neutral {country} is closed to Allied units where rule 10 is not in force (the military scenarios)"
        if corps is not None and country == "SV":
            here = region_of(loc)
            if here != corps:
                return f"NTND 5.3: units attached to {corps} Corps move only within its boundary"
        if corps is not None and country in ("LA", "CA") and corps in ("I", "II", "III", "IV"):
            if country not in region_neighbours().get(corps, ()):
                return f"NTND 5.3.1: {country} does not border {corps} Corps"
    return None


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


def enemy_locs(s: dict, side: str) -> frozenset:
    """Locations holding any unit of the other side (inverted markers included)."""
    return frozenset(u["loc"] for u in s["units"].values()
                     if u["status"] == "map" and u["side"] != side and u["loc"] is not None
                     and not _type_facts(u["type"])[2])


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


def path_to(prev: dict, start: str, dest: str) -> list[str]:
    """The path from ``start`` (excluded) to ``dest`` recorded in a search's predecessor map."""
    path = [dest]
    while prev[path[-1]] != start:
        path.append(prev[path[-1]])
    return list(reversed(path))
