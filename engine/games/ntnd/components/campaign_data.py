"""No Trumpets No Drums: the authored campaign data, loaded and validated.

``data/random_events.json`` is the Random Events Table of rule 21 (tens die = Communist die, ones
die = Allied die, 21.1; once-only entries, 21.2); ``data/scenario_campaign.json`` the campaign game
(63 bimonthly turns, set-up, Allied Reinforcement Schedule, withdrawals, starting tracks, elections,
Communist Aid chart, victory); ``data/scenario_campaign_short.json`` its first four turns. The rule
text prints none of them; they are the afteraction project's own (docs/rules/ntnd-authoring/).

This module only reads and checks the data: no rule is wired into play here. Every check raises
``ValueError`` naming the file and the entry; a loaded object is known to be consistent with
counters.json and map.json. Pure: ints and strings only, results cached.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .map import load_map
from .pieces import load_counters, unit_name
from ....errors import InternalValueError

MONTHS = ("January/February", "March/April", "May/June", "July/August", "September/October", "November/December")
MONSOON = ("May/June", "July/August")  # 8.2 note
CAMPAIGN_TURNS = 63  # rule 2: "as long as 63 bimonthly turns"
ELECTION_TURNS = (23, 47)  # rule 2: the 1968 and 1972 elections
SEATS = ("allied", "communist")
AREAS = ("I", "II", "III", "IV", "CA", "LA")
POOLS = ("US", "SEATO", "INDOCHINESE", "SV")
H_AND_M_BOXES = ("communist_control", "pro_communist", "neutral", "pro_allied", "allied_control")
ENTER = ("I", "II", "III", "IV", "air", "LA_zone", "5.6.2")
SCENARIO_FILES = {"campaign": "scenario_campaign.json", "campaign_short": "scenario_campaign_short.json"}
RULE_NUMBER = re.compile(r"\b(\d{1,2}(?:\.\d+)+)\b")


def _read(name: str) -> dict:
    return json.loads((resources.files(__package__.rpartition(".")[0]) / "data" / name).read_text(encoding="utf-8"))


def _need(cond: bool, where: str, msg: str) -> None:
    if not cond:
        raise InternalValueError(f"{where}: {msg}")


def turn_date(number: int) -> tuple[str, int]:
    """(months, year) of campaign turn ``number``: turn 1 = March/April 1965 (so 23 and 47 are the
    November/December turns of 1968 and 1972, as rule 2 says)."""
    return MONTHS[number % 6], 1965 + number // 6


def turn_number(months: str, year: int) -> int:
    return (year - 1965) * 6 + MONTHS.index(months)


def cited_rules(obj: Any) -> set[str]:
    """Every dotted rule number (e.g. ``22.4``) named in any string of ``obj``, keys included."""
    out: set[str] = set()
    if isinstance(obj, str):
        out |= set(RULE_NUMBER.findall(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= cited_rules(k) | cited_rules(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cited_rules(v)
    return out


# --------------------------------------------------------------------------- random events (21)

@dataclass(frozen=True)
class RandomEvent:
    roll: int
    id: str
    name: str
    once: bool
    superseded_if: tuple[str, ...]
    effects: tuple[dict, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class RandomEventsTable:
    entries: dict[int, RandomEvent]  # by roll 11..36
    no_event_rolls: tuple[int, ...]
    ops: dict[str, dict]
    timings: dict[str, str]
    conditions: dict[str, str]
    procedure: dict

    def lookup(self, communist_die: int, allied_die: int) -> RandomEvent | None:
        """21.1: the Communist die is the tens, the Allied die the ones; None for no event."""
        if not (1 <= communist_die <= 6 and 1 <= allied_die <= 6):
            raise InternalValueError(f"21.1 dice are d6: {communist_die}, {allied_die}")
        return self.entries.get(10 * communist_die + allied_die)


ALL_ROLLS = tuple(10 * t + o for t in range(1, 7) for o in range(1, 7))


def _check_effect(where: str, e: dict, ops: dict, timings: dict, ids: set[str]) -> None:
    op = e.get("op")
    _need(op in ops, where, f"unknown op {op!r}")
    _need(e.get("when") in timings, where, f"unknown timing {e.get('when')!r}")
    params = set(e) - {"op", "when"}
    _need(params == set(ops[op]["params"]), where, f"{op} takes {sorted(ops[op]['params'])}, got {sorted(params)}")
    if op == "political_points":
        _need(e["dice"] in (1, 2, 3) and e["sign"] in (1, -1) and e["roller"] in SEATS, where, "bad dice/sign/roller")
    if op == "replacement_points":
        _need(e["pool"] in POOLS and isinstance(e["change"], int) and e["change"] != 0, where, "bad pool/change")
    if op == "hearts_and_minds":
        _need(e["area"] in AREAS + ("allied_choice_sv",), where, f"unknown area {e['area']!r}")
        _need(e["toward"] in SEATS and e["boxes"] in (1, 2), where, "bad boxes/toward")
    if op in ("basic_cadres", "nva_recruits"):
        _need(isinstance(e["change"], int) and e["change"] != 0, where, "bad change")
    if op == "communist_recruits":
        t = load_counters().types.get(e["type"])
        _need(t is not None and t.side == "communist" and e["count"] >= 1, where, f"bad recruit {e['type']!r}")
    if op == "aid_unit":
        _need(e["source"] in ("china", "soviet"), where, "source is china or soviet")
    if op in ("neutral_joins_allies", "persistent_supply"):
        _need(e["country"] in ("CA", "LA"), where, "a neutral state is CA or LA (10.1)")
    if op == "persistent_supply":
        town = load_map().town(e["town"])
        _need(load_map().country_of(town.hex) == e["country"], where, f"{e['town']} is not in {e['country']}")
    if op == "end_event":
        _need(e["event"] in ids, where, f"no entry {e['event']!r}")
    if op == "reveal_marker":
        _need(e["chooser"] in SEATS and e["count"] >= 1, where, "bad chooser/count")


@lru_cache(maxsize=1)
def load_random_events() -> RandomEventsTable:
    d = _read("random_events.json")
    f = "random_events.json"
    _need("afteraction" in d["meta"]["authored_by"], f, "must be marked as the project's own")
    ops, timings, conditions = d["ops"], d["timings"], d["conditions"]
    for name, op in ops.items():
        _need(op["rules"] and isinstance(op["params"], list), f"{f} op {name}", "needs rules and params")
    ids = {e["id"] for e in d["entries"]}
    _need(len(ids) == len(d["entries"]), f, "entry ids must be unique")
    seen: dict[int, str] = {}
    entries: dict[int, RandomEvent] = {}
    for e in d["entries"]:
        where = f"{f} entry {e.get('roll')} {e.get('id')}"
        roll = e["roll"]
        _need(roll in ALL_ROLLS and d["procedure"]["events_from"] <= roll <= d["procedure"]["events_to"], where,
              "an event roll is a d6 pair in 11-36 (21.1)")
        _need(roll not in seen, where, f"roll also used by {seen.get(roll)}")
        seen[roll] = e["id"]
        _need(isinstance(e["once"], bool), where, "once must be true/false (21.2)")
        _need(all(c in conditions for c in e["superseded_if"]), where, "unknown superseded_if condition")
        _need(bool(e["effects"]), where, "no effect")
        for i, fx in enumerate(e["effects"]):
            _check_effect(f"{where} effect {i}", fx, ops, timings, ids - {e["id"]})
        used = {r for fx in e["effects"] for r in ops[fx["op"]]["rules"]}
        if e["once"] or e["superseded_if"]:
            used.add("21.2")
        _need(set(e["rules"]) == used, where, f"rules {e['rules']} must be those of its ops {sorted(used)}")
        entries[roll] = RandomEvent(roll, e["id"], e["name"], e["once"], tuple(e["superseded_if"]),
                                    tuple(e["effects"]), tuple(e["rules"]))
    for roll in d["no_event"]["rolls"]:
        _need(roll in ALL_ROLLS and roll not in seen, f"{f} no_event", f"roll {roll} not a free d6 pair")
        seen[roll] = "no_event"
    _need(sorted(seen) == sorted(ALL_ROLLS), f, f"d6 pairs without an entry: {sorted(set(ALL_ROLLS) - set(seen))}")
    return RandomEventsTable(dict(sorted(entries.items())), tuple(d["no_event"]["rolls"]), ops, timings,
                             conditions, d["procedure"])


# --------------------------------------------------------------------------- the campaign scenarios

def _check_turns(where: str, turns: list[dict], first: int) -> None:
    _need([t["number"] for t in turns] == list(range(first, first + len(turns))), where, "turns must be consecutive")
    for t in turns:
        _need((t["months"], t["year"]) == turn_date(t["number"]), f"{where} turn {t['number']}",
              "date is not that campaign turn's (turn 1 = March/April 1965)")
        _need(t["monsoon"] == (t["months"] in MONSOON), f"{where} turn {t['number']}", "monsoon flag (8.2 note)")


def _units(sc: dict) -> list[tuple[str, dict]]:
    out = [("setup", u) for side in ("allied", "allied_air_available", "communist") for u in sc["setup"][side]]
    out += [("reinforcement", u) for w in sc["reinforcements"]["allied"] for u in w["units"]]
    out += [("purchasable", u) for u in sc["reinforcements"]["allied_purchasable"]]
    return out


def _check_campaign(sc: dict) -> None:
    f = "scenario_campaign.json"
    counters, gmap = load_counters(), load_map()
    _need("afteraction" in sc["meta"]["authored_by"], f, "must be marked as the project's own")
    turns = sc["turns"]
    _need(len(turns) == CAMPAIGN_TURNS, f, "63 bimonthly turns (2)")
    _check_turns(f, turns, 1)
    last = len(turns)
    ids = [u["id"] for _, u in _units(sc)]
    _need(len(ids) == len(set(ids)), f, "unit ids must be unique")
    for kind, u in _units(sc):
        where = f"{f} {kind} {u['id']}"
        t = counters.types.get(u["type"])
        _need(t is not None, where, f"unknown counter type {u['type']!r}")
        try:  # the one spelling of ids and a name for every unit, as setup.py builds them
            unit_name(u["id"], u["type"], u.get("name"))
        except ValueError as e:
            _need(False, where, str(e))
        if kind == "setup" and "location" in u:
            _need(gmap.on_map(u["location"]), where, f"location {u['location']} not on the map")
        if kind != "setup":
            _need(t.side == "allied" and u["enter"] in ENTER, where, f"bad entry {u.get('enter')!r}")
        if u.get("enter") == "air" or (kind == "setup" and u in sc["setup"]["allied_air_available"]):
            _need(t.category == "air", where, "only air units enter the Available box")
    for side in ("allied", "communist"):
        for u in sc["setup"][side]:
            _need(counters.types[u["type"]].side == side, f"{f} setup {u['id']}", f"not a {side} counter")
    known = set(ids)
    for w in sc["reinforcements"]["allied"]:
        _need(1 <= w["turn"] <= last, f"{f} reinforcements", f"turn {w['turn']} out of range")
    schedule_turns = [w["turn"] for w in sc["reinforcements"]["allied"]]
    _need(schedule_turns == sorted(set(schedule_turns)), f, "reinforcement waves in turn order, one per turn")
    for key in ("allied_withdrawals", "historical_us_withdrawals"):
        ws = sc["reinforcements"][key]
        _need([w["turn"] for w in ws] == sorted(w["turn"] for w in ws), f"{f} {key}", "not in turn order")
        for w in ws:
            _need(1 <= w["turn"] <= last, f"{f} {key}", f"turn {w['turn']} out of range")
            for uid in w.get("units", [w.get("unit")]):
                _need(uid in known, f"{f} {key}", f"unknown unit {uid!r}")
    for p in sc["reinforcements"]["allied_purchasable"]:
        _need(1 <= p["from_turn"] <= last and set(p["cost"]) <= set(POOLS), f"{f} {p['id']}", "bad turn or pool")
    for r in sc["dated_rules"]:
        months, year = r["text_date"].rsplit(" ", 1)
        _need(r["from_turn"] == turn_number(months, int(year)), f"{f} dated rule {r['rule']}", "turn is not its date")
        _need(r.get("until_turn", last) >= r["from_turn"], f"{f} dated rule {r['rule']}", "until before from")
    _need(tuple(e["turn"] for e in sc["elections"]) == ELECTION_TURNS, f, "elections on turns 23 and 47 (2, 23.1)")
    for e in sc["elections"]:
        _need(turn_date(e["turn"]) == ("November/December", e["year"]), f, "23.1: November/December of 1968, 1972")
    aid = sc["communist_aid"]
    _need(all(turn_date(t)[0] == "January/February" for t in aid["roll_turns"]), f, "27.1: January/February turns")
    _need(turn_date(sc["national_uprising"]["earliest_turn"]) == ("January/February", 1967), f, "26.1 date")
    _need(turn_date(sc["vietnamization"]["full"]["declare_by_turn"] + 1) == ("January/February", 1966), f,
          "24.2: full Vietnamization before January/February 1966")
    rules = sc["scenario_rules"]
    _need(tuple(rules["hearts_and_minds_boxes"]) == H_AND_M_BOXES, f, "Hearts and Minds boxes")
    start = rules["hearts_and_minds"]
    _need(set(start) == set(AREAS) and set(start.values()) <= set(H_AND_M_BOXES), f,
          "a Hearts and Minds start for every corps and country (7)")
    _need(sc["victory"]["initial_political_points"] == 100, f, "political track start (authored: 100)")


def _compose_short(short: dict, campaign: dict) -> dict:
    """The short campaign: the campaign's data restricted to its own turns, with its own victory."""
    f = "scenario_campaign_short.json"
    _need(short["based_on"] == campaign["id"], f, "based_on must name the campaign")
    _need("afteraction" in short["meta"]["authored_by"], f, "must be marked as the project's own")
    _check_turns(f, short["turns"], 1)
    last = len(short["turns"])
    _need(2 <= last <= 6, f, "a few turns")
    out = {k: v for k, v in campaign.items() if k not in ("turns", "victory", "reinforcements")}
    out.update({k: short[k] for k in ("meta", "id", "name", "description", "turns", "victory")})
    r = dict(campaign["reinforcements"])
    r["allied"] = [w for w in r["allied"] if w["turn"] <= last]
    r["allied_withdrawals"] = [w for w in r["allied_withdrawals"] if w["turn"] <= last]
    r["historical_us_withdrawals"] = [w for w in r["historical_us_withdrawals"] if w["turn"] <= last]
    out["reinforcements"] = r
    out["elections"] = [e for e in campaign["elections"] if e["turn"] <= last]
    out["dated_rules"] = [d for d in campaign["dated_rules"] if d["from_turn"] <= last]
    return out


@lru_cache(maxsize=None)
def load_campaign(name: str = "campaign") -> dict:
    """The campaign scenario (``campaign``) or the short campaign (``campaign_short``), validated.
    The dict is shared (cached): callers copy before changing it."""
    if name not in SCENARIO_FILES:
        raise InternalValueError(f"unknown campaign scenario {name!r} (known: {sorted(SCENARIO_FILES)})")
    campaign = _read(SCENARIO_FILES["campaign"])
    _check_campaign(campaign)
    if name == "campaign":
        return campaign
    return _compose_short(_read(SCENARIO_FILES[name]), campaign)
