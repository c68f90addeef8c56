"""No Trumpets No Drums: counter types, movement classes and the terrain chart.

``data/counters.json`` holds the unit types of NTND 2.2 (plus the special units
of 28.7 sappers and 28.8 armor, and the other 28.x units) with their counter-mix
limits (4.4). ``data/terrain.json`` holds the movement Terrain Effects Chart,
which the rule text does not contain (authored by the afteraction project), and
the 19.2.3 defence modifiers, which it does.

Deterministic: ints and ``fractions.Fraction`` only, mappings sorted by key.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

from .map import GameMap
from ....errors import InternalKeyError, InternalTypeError, InternalValueError

# 4.2.5: the replacement point pool that pays for a nationality's units
POOL_OF_NAT = {"US": "US", "MTG": "US", "ARVN": "SV", "ROK": "SEATO", "ANZAC": "SEATO", "THAI": "SEATO",
               "SEATO": "SEATO", "LAO": "INDOCHINESE", "KHMER": "INDOCHINESE"}

SIDES = ("allied", "communist")
CATEGORIES = ("air", "dummy", "ground_combat", "naval", "support")
STACKING_CLASSES = ("artillery", "firebase", "green_beret", "ground_combat", "militia", "none", "patrol_boat",
                    "sam", "supply", "vc_base")


def _frac(v: Any) -> Fraction:
    """Parse a chart cost: an int or a [numerator, denominator] pair (no floats)."""
    if isinstance(v, bool):
        raise InternalTypeError("boolean is not a cost")
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v):
        return Fraction(v[0], v[1])
    raise InternalTypeError(f"not a cost: {v!r}")


def _read(name: str) -> dict:
    return json.loads((resources.files(__package__.rpartition(".")[0]) / "data" / name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------
# Counter types
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitType:
    """One counter type (NTND 2.2). ``morale`` is the printed morale (None: no combat value)."""
    id: str
    name: str
    side: str
    nationality: str
    category: str
    size: str
    mechanized: bool
    airmobile: bool
    guerrilla: bool
    morale: int | None
    morale_source: str
    movement_class: str
    zoc: bool
    zoi_range: int | None
    aa: tuple[int, ...]
    fire_support_range: int | None
    can_invert: bool
    stacking_class: str
    counter_mix: int
    counter_mix_source: str
    rules: tuple[str, ...]

    @property
    def is_ground_combat(self) -> bool:
        """NTND 2.2 ground combat units (incl. Green Berets, militia, Phoenix)."""
        return self.category == "ground_combat"

    @property
    def has_printed_zoc(self) -> bool:
        """NTND 8.5.1: ground combat units with printed morale 3 or 4 (when face up)."""
        return self.is_ground_combat and self.morale in (3, 4)

    def aa_hits(self, die: int, target_is_sac: bool = False) -> bool:
        """NTND 12.1.1 / 12.1.2: does an AA die roll shoot down an air unit?"""
        if not self.aa:
            return False
        roll = die - 1 if target_is_sac else die
        return roll in self.aa


@dataclass(frozen=True)
class MovementClass:
    """NTND 8.2 movement allowance and how terrain is paid."""
    id: str
    allowance: int | None          # None = unlimited
    terrain_costs: bool            # False: 1 MP per hex regardless of terrain (8.2.2)
    terrain_table: str | None
    monsoon_halved: bool           # 8.2.1 (fleet and patrol boats are not)
    monsoon_allowance: int | None  # airmobile: 9 MP in monsoon
    improved_trail_allowance: int | None   # 8.4 supply units: 15

    def allowance_for(self, monsoon: bool = False, inverted: bool = False,
                      out_of_supply: bool = False) -> Fraction | None:
        """Movement allowance this phase (None = unlimited).

        NTND 8.2.1: face-up allowances are halved in Monsoon (fleet, patrol boats
        excepted; inverted units unaffected); airmobile units get 9 MP in Monsoon.
        NTND 18.2.1.3: halved if the unit began its movement phase out of supply.
        Fractions are retained.
        """
        if monsoon and not inverted and self.monsoon_allowance is not None:
            base: Fraction | None = Fraction(self.monsoon_allowance)
        elif self.allowance is None:
            base = None
        else:
            base = Fraction(self.allowance)
            if monsoon and not inverted and self.monsoon_halved:
                base = base / 2
        if base is not None and out_of_supply:
            base = base / 2
        return base


@dataclass(frozen=True)
class Counters:
    types: dict[str, UnitType]
    movement_classes: dict[str, MovementClass]
    nationalities: dict[str, dict]
    stacking: dict

    def type(self, type_id: str) -> UnitType:
        try:
            return self.types[type_id]
        except KeyError:
            raise InternalKeyError(f"unknown NTND counter type {type_id!r}") from None

    def movement_of(self, type_id: str) -> MovementClass:
        return self.movement_classes[self.type(type_id).movement_class]

    def mix_limit(self, type_id: str) -> int:
        """NTND 4.4 / 6.1.4: the counter mix is a hard limit."""
        return self.type(type_id).counter_mix

    def stacking_violations(self, type_ids: list[str] | tuple[str, ...], side: str,
                            saigon: bool = False) -> tuple[str, ...]:
        """Return human-readable violations of NTND 8.10.1 for one hex's units of one side.

        ``type_ids`` lists the counters in the hex (air units and the fleet are ignored).
        Helicopters attached as transports (8.10.1.1) should not be passed.
        """
        counts: dict[str, int] = {}
        for tid in sorted(type_ids):
            t = self.type(tid)
            counts[t.stacking_class] = counts.get(t.stacking_class, 0) + 1
        out = []
        caps = self.stacking_caps(side, saigon)
        for cls in sorted(counts, key=lambda c: (c != "ground_combat", c)):
            if cls == "none":
                continue
            cap = caps.get(cls, 0)
            if cap is None or counts[cls] <= cap:
                continue
            if cls == "ground_combat":
                out.append(f"8.10.1: {counts[cls]} ground combat units > {cap}")
            elif cls == "vc_base":
                out.append("28.9.1: more than one VC base in a hex")
            elif cap == 0:
                out.append(f"8.10.1: {side} may not stack {cls} units")
            else:
                out.append(f"8.10.1: {counts[cls]} {cls} units > {cap}")
        return tuple(out)

    def stacking_caps(self, side: str, saigon: bool = False) -> dict[str, int | None]:
        """NTND 8.10.1 per stacking class for one hex of ``side``: the most units it may hold (None:
        any number; a class not listed: none). 8.10.1.2: three Allied ground combat units in Saigon;
        28.9.1: one VC base. The one table both the placement checks and 8.10.2 use."""
        limit = self.stacking["ground_combat_per_hex"]
        if saigon and side == "allied":
            limit = self.stacking["ground_combat_allied_in_saigon"]  # 8.10.1.2
        caps: dict[str, int | None] = {"ground_combat": limit, **self.stacking["extra_per_hex"][side]}
        if side == "communist":
            caps["vc_base"] = self.stacking["vc_base_per_hex"]
        return caps


# --------------------------------------------------------------------------
# Unit ids and names (the one spelling; docs/rules/ntnd-data.md "Unit ids")
# --------------------------------------------------------------------------

UNIT_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""Every unit id: lower-case words of letters and digits joined by hyphens (``nva-304``,
``kr-cadre-2``); never an underscore, so a unit id is never spelled like a counter type."""


def counter_id(type_id: str, n: int) -> str:
    """The id of counter ``n`` (from 1) of a type without a historical designation (a counter of the
    mix, a numbered cadre or dummy of a scenario): the type id in hyphens, then ``n``."""
    return f"{type_id.replace('_', '-')}-{n}"


def counter_name(type_id: str, n: int) -> str:
    """The name of counter ``n`` of a type: its counters.json name and ``n`` ("Khmer Rouge cadre 2")."""
    return f"{load_counters().type(type_id).name} {n}"


def unit_name(uid: str, type_id: str, name: str | None = None) -> str:
    """The name of a unit a scenario lists (``name`` as written) or the counter mix makes (None):
    a unit without a written name must be a numbered counter (``counter_id``) and is named by
    ``counter_name``. Refuses an id off the one spelling and an empty name (ValueError)."""
    if not UNIT_ID.fullmatch(uid):
        raise InternalValueError(f"unit id {uid!r} is not lower-case words joined by hyphens")
    if name is None:
        n = uid.rsplit("-", 1)[-1]
        if not (n.isdigit() and uid == counter_id(type_id, int(n))):
            raise InternalValueError(f"unit {uid!r} has no name and is not a numbered {type_id} counter")
        return counter_name(type_id, int(n))
    if not name.strip():
        raise InternalValueError(f"unit {uid!r} has an empty name")
    return name


@lru_cache(maxsize=None)
def counter_order(uid: str) -> tuple:
    """Sort key of unit ids with their numbers compared as numbers (``vc-cadre-7`` before
    ``vc-cadre-10``): the counter mix hands out its counters in this order (4.4). Memoised: a pure
    function of the id, asked for every counter of the mix each time one is taken."""
    return tuple((0, int(w), "") if w.isdigit() else (1, 0, w) for w in uid.split("-"))


def _unit_type(tid: str, d: dict) -> UnitType:
    return UnitType(
        id=tid, name=d["name"], side=d["side"], nationality=d["nationality"], category=d["category"],
        size=d["size"], mechanized=bool(d["mechanized"]), airmobile=bool(d["airmobile"]),
        guerrilla=bool(d["guerrilla"]), morale=d["morale"], morale_source=d["morale_source"],
        movement_class=d["movement_class"], zoc=bool(d["zoc"]), zoi_range=d["zoi_range"],
        aa=tuple(d["aa"] or ()), fire_support_range=d["fire_support_range"], can_invert=bool(d["can_invert"]),
        stacking_class=d["stacking_class"], counter_mix=d["counter_mix"],
        counter_mix_source=d["counter_mix_source"], rules=tuple(d["rules"]),
    )


@lru_cache(maxsize=1)
def load_counters() -> Counters:
    data = _read("counters.json")
    types = {tid: _unit_type(tid, d) for tid, d in sorted(data["unit_types"].items())}
    mcs = {}
    for mid, m in sorted(data["movement_classes"].items()):
        mcs[mid] = MovementClass(
            id=mid, allowance=m.get("allowance"), terrain_costs=bool(m.get("terrain_costs", False)),
            terrain_table=m.get("terrain_table"), monsoon_halved=bool(m.get("monsoon_halved", True)),
            monsoon_allowance=m.get("monsoon_allowance"),
            improved_trail_allowance=m.get("improved_trail_allowance"),
        )
    return Counters(types, mcs, dict(sorted(data["nationalities"].items())), data["stacking"])


# --------------------------------------------------------------------------
# Terrain Effects Chart
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class TerrainChart:
    """Movement costs (authored) and defence modifiers (NTND 19.2.3)."""
    tables: dict[str, dict[str, Fraction]]
    road_cost: Fraction
    trail_cost: Fraction
    river_cost: dict[str, Fraction]
    defence: dict[str, int]
    river_defence: dict[str, int]
    zoi_multiplier: int
    prohibited: tuple[str, ...]

    def entry_cost(self, gmap: GameMap, mclass: MovementClass, a: str, b: str) -> Fraction | None:
        """Base cost for a ground unit of ``mclass`` to move from hex a to adjacent hex b.

        None if b is prohibited (sea/lake). Applies 8.2.2 (flat 1), 8.2.7 (road 1/2,
        trail 1) and the authored terrain table and river costs. Zone, ZOC/ZOI,
        Communist control (8.3) and monsoon effects are left to the movement rules.
        """
        if not gmap.adjacent(a, b) or gmap.is_zone(a) or gmap.is_zone(b):
            raise InternalValueError(f"{a}->{b} is not a hex-to-hex move")
        dest = gmap.hex(b)
        if dest.terrain in self.prohibited:
            return None
        if not mclass.terrain_costs:
            return Fraction(1)
        if gmap.road_between(a, b):
            return self.road_cost
        if gmap.trail_between(a, b):
            return self.trail_cost
        table = self.tables[mclass.terrain_table or "foot"]
        cost = table[dest.terrain]
        river = gmap.river_between(a, b)
        if river is not None:
            cost += self.river_cost[river]
        return cost

    def defence_modifier(self, terrain: str, has_city: bool) -> int:
        """NTND 19.2.3 modifier for the defender's hex (cumulative; towns +0, see terrain.json)."""
        return self.defence.get(terrain, 0) + (self.defence["city"] if has_city else 0)


@lru_cache(maxsize=1)
def load_terrain() -> TerrainChart:
    data = _read("terrain.json")
    mv = data["movement"]
    tables = {
        name: {k: _frac(v) for k, v in sorted(t.items()) if k in ("clear", "jungle", "mountain", "swamp")}
        for name, t in sorted(mv["terrain_tables"].items())
    }
    d = data["defence"]
    return TerrainChart(
        tables=tables,
        road_cost=_frac(mv["road"]["cost"]),
        trail_cost=_frac(mv["trail"]["cost"]),
        river_cost={k: _frac(mv["river_crossing"][k]) for k in ("major", "minor")},
        defence={k: int(v) for k, v in sorted(d["modifiers"].items())},
        river_defence={k: int(d["attackers_across_river"][k]) for k in ("major", "minor")},
        zoi_multiplier=int(mv["zone_of_influence"]["multiplier"]),
        prohibited=tuple(sorted(mv["prohibited_to_ground_units"])),
    )
