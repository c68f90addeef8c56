"""No Trumpets No Drums: the initial state of a scenario (data/scenario_<id>.json,
authored by the project; see docs/rules/ntnd-data.md).

Every counter of the Communist counter mix (counters.json, 4.4) gets a record:
the scenario's set-up units under their scenario ids, the rest of the mix as
``counter_id(type, n)`` ("kr-cadre-2") named ``counter_name(type, n)`` ("Khmer Rouge cadre 2"),
n from one past the scenario's counters of the type to its counter_mix. A scenario entry without
a ``name`` (the numbered cadres and dummies) has such an id and gets that name: one spelling and
one name for set-up and mix (units.py). Allied units are the set-up, the reinforcement
schedule (4.2.1; its special entries SPECIAL_ENTRY) and the air units (kept in the available box for part 2).
A scenario's dated rules (the campaign's, rule 2's dates) are kept in ``s["scenario"]["dated_rules"]``.
Inverted set-up units of one location form one marker (their identity is
committed to the Communist seat in the genesis-following record).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from .campaign_data import load_campaign
from .scenario_data import SCENARIO_FILES as PERIOD_FILES, load_period
from .features import scenario_features
from .map import load_map
from ..forces.operations import make_marker
from ..sequence.turns import turn_label
from .state import ALLIED, COMMUNIST
from .pieces import counter_id, load_counters, unit_name
from ....errors import InternalValueError

SCENARIO_FILES = {"tet": "scenario_tet.json"}
# the first is the default (NtndRuleset.scenarios); rule 2's six scenarios and the campaign (scenario_data.py)
SCENARIOS = ("tet", "campaign", "campaign_short") + tuple(PERIOD_FILES)
# entry codes of the Allied Reinforcement Schedule other than a corps (scenario_campaign.json meta "enter"):
# "air" the Available box (5.6), "LA_zone" Luang Prabang or Vientiane (28.6.1), "5.6.2" a firebase placed
# with a non-militia ground combat unit of its nationality; a unit's record keeps it ("enter")
SPECIAL_ENTRY = ("air", "LA_zone", "5.6.2")


@lru_cache(maxsize=None)
def load_scenario(name: str) -> dict:
    """A scenario's data: Tet from its file; the campaign and the short campaign validated and
    composed by campaign_data.load_campaign; the other scenarios of rule 2 (Year of the Rat, 1975 and
    the period scenarios) composed from the campaign by scenario_data.load_period. Shared (cached):
    callers copy before changing it."""
    if name in SCENARIO_FILES:
        text = (resources.files(__package__.rpartition(".")[0]) / "data" / SCENARIO_FILES[name]).read_text(encoding="utf-8")
        return json.loads(text)
    if name in PERIOD_FILES:
        return load_period(name)
    return load_campaign(name)


def group_of(u: dict) -> str:
    """Divisional group of 5.2.2/5.7 from the unit's type and name (project rule, docs)."""
    t, name = u["type"], u.get("name", "")
    if u.get("corps") is None:
        return ""
    if t.startswith("us_marine"):
        return "US Marines"
    if t.startswith("rok_"):
        return "ROK"
    if t.startswith("thai_"):
        return "Thai"
    if t.startswith("us_") and ", " in name and (name.endswith("Div") or " Div (" in name):
        return name.split(", ", 1)[1].split(" (")[0]
    return name or u["id"]


def _unit(uid, type_id, side, status, loc=None, name=None, corps=None, arrive=0) -> dict:
    t = load_counters().type(type_id)
    name = unit_name(uid, type_id, name)
    return {"id": uid, "type": type_id, "nat": t.nationality, "side": side, "name": name, "group": "",
            "status": status, "loc": loc, "inv": False, "mk": None, "corps": corps, "arrive": arrive}


def _fill_mix(units: dict, tid: str, side: str) -> None:
    """The counters of type ``tid`` the scenario does not use, in the counter mix (4.4): with k of
    them in the scenario, counters k+1 to counter_mix (a scenario's numbered counters are 1 to k)."""
    used = sum(1 for u in units.values() if u["type"] == tid)
    for n in range(used + 1, load_counters().type(tid).counter_mix + 1):
        uid = counter_id(tid, n)
        if uid in units:
            raise InternalValueError(f"scenario unit {uid!r} takes the id of counter {n} of the {tid} mix")
        units[uid] = _unit(uid, tid, side, "mix")


def initial_state(scenario: str, ctx) -> dict:
    sc = load_scenario(scenario)
    counters = load_counters()
    m = load_map()
    units = _allied_units(sc, counters)
    inverted = _communist_units(sc, counters, units)
    s = _new_state(sc, counters, units)
    if "air_war" in s["scenario"]["features"]:
        from ..air.pieces import start as air_start
        air_start(s)                                   # 11 (air_war only: the Tet state has no "air")
    ctx.emit({"t": "scenario", "id": sc["id"], "name": sc["name"], "turns": len(sc["turns"]),
              "pp": s["pp"], "neutral": s["neutral"]})
    for loc in sorted(inverted):
        if not m.on_map(loc):
            raise InternalValueError(f"scenario location {loc} is not on the map")
        make_marker(s, sorted(inverted[loc]), loc, ctx, "scenario set-up")
    return s


def _allied_units(sc: dict, counters) -> dict[str, dict]:
    """The Allied set-up, the Allied Reinforcement Schedule, the Available air units and the Allied
    firebases and militia of the counter mix, each with its divisional group."""
    units: dict[str, dict] = {}
    for u in sc["setup"]["allied"]:
        units[u["id"]] = _unit(u["id"], u["type"], ALLIED, "map", u["location"], u.get("name"), u.get("corps"))
    for block in sc["reinforcements"]["allied"]:
        for u in block["units"]:
            t = counters.type(u["type"])
            attached = None if (t.airmobile or t.stacking_class != "ground_combat") else u.get("enter")
            if u.get("enter") == "LA_zone":
                attached = "LA" if attached else None   # 28.6.1: the 333 moves and fights only in Laos
            units[u["id"]] = _unit(u["id"], u["type"], ALLIED, "sched", None, u.get("name"), attached, block["turn"])
            if u.get("enter") in SPECIAL_ENTRY:       # the campaign's schedule (Tet's units enter at corps HQs)
                units[u["id"]]["enter"] = u["enter"]
    for u in sc["setup"].get("allied_air_available", []):
        units[u["id"]] = _unit(u["id"], u["type"], ALLIED, "air", None, u.get("name"))
    # Allied firebases and militia not in play: the counter mix they are built from (4.2.3, 4.4)
    for tid, t in counters.types.items():
        if t.side == ALLIED and t.stacking_class in ("firebase", "militia") and t.nationality in ("US", "ARVN", "SEATO"):
            _fill_mix(units, tid, ALLIED)
    for u in units.values():
        u["group"] = group_of(u)
    return units


def _communist_units(sc: dict, counters, units: dict) -> dict[str, list[str]]:
    """The Communist set-up and counter mix into ``units``; location -> the units set up inverted there."""
    inverted: dict[str, list[str]] = {}
    for u in sc["setup"]["communist"]:
        units[u["id"]] = _unit(u["id"], u["type"], COMMUNIST, "map", u["location"], u.get("name"))
        if u["inverted"]:
            inverted.setdefault(u["location"], []).append(u["id"])
    for tid, t in counters.types.items():
        if t.side == COMMUNIST:
            _fill_mix(units, tid, COMMUNIST)
    return inverted


def _new_state(sc: dict, counters, units: dict) -> dict:
    """The state at the start of the scenario (components/state.py describes every key)."""
    start_year = sc["turns"][0]["year"]
    return {
        "scenario": {"id": sc["id"], "name": sc["name"], "turns": sc["turns"], "victory": sc["victory"],
                     "withdrawals": sc["reinforcements"].get("allied_withdrawals", []),
                     "replacement_points": sc["reinforcements"].get("allied_replacement_points", {}).get("per_turn", {}),
                     "armor_shock": bool(sc["scenario_rules"].get("armor_shock_available")),
                     "start_year": start_year, "features": scenario_features(sc),
                     # 23.1, 24.2-24.3 (campaign only: the Tet state has neither key)
                     **{k: sc[k] for k in ("elections", "vietnamization") if k in sc},
                     **({"dated_rules": sc["dated_rules"]} if sc.get("dated_rules") else {})},
        "turn": 1,
        "turn_label": turn_label(sc["turns"], 1),
        "step": 0,
        "phase": {},
        "units": units,
        "markers": {},
        # public_names: per Communist type, the last public number given (operations.name_public,
        # ntnd/5): the scenario's own counters of the type; the mix is numbered from one past it
        "meta": {"next_marker": 0,
                 "public_names": {tid: sum(1 for u in sc["setup"]["communist"] if u["type"] == tid)
                                  for tid, t in sorted(counters.types.items()) if t.side == COMMUNIST}},
        "neutral": sorted(sc["scenario_rules"].get("neutral_countries", [])),
        "pp": sc["victory"]["initial_political_points"],
        "attacks": [],
        "battle": None,
        "ambush": None,
        "resume": None,
        "interdict": None,
        "decision": None,
        "outcome": None,
        "flags": {"allied_moved": []},
        "sealed": [],
        "rp": {},
        # 7: the Hearts and Minds marker of each corps / country (one of campaign_data.H_AND_M_BOXES)
        "hm": dict(sorted(sc["scenario_rules"]["hearts_and_minds"].items())),
    }
