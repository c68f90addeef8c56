"""No Trumpets No Drums: the five scenarios of rule 2 besides Tet and the campaign, loaded, composed
from the campaign's data and validated.

Rule 2 names "6 scenarios and a campaign game": the Tet Offensive and the Year of the Rat (purely
military), the 1975 scenario (short) and longer ones. The text prints none of them; the project
authored them (docs/rules/ntnd-authoring/scenarios.md, gen_scenarios.py):

    rat       rat_1972     campaign turns 43-46  March/April - September/October 1972, purely military
    1975      final_1975   campaign turns 60-63  January/February - July/August 1975, purely military
    1965_68   war_1965_68  campaign turns 1-23   the campaign's set-up, ends after the 1968 election
    1968_72   war_1968_72  campaign turns 21-47  July/August 1968 to the 1972 election
    1972_75   war_1972_75  campaign turns 43-63  the Easter Offensive to the campaign's end

One source of truth: a scenario's file holds its turns (``campaign_turns``), features, tracks,
victory and where the units stand; its Allied order of battle must be exactly the campaign's at its
first turn (set-up, plus the schedule before it, less every withdrawal before it: ``campaign_oob``),
and the schedule, withdrawals, elections, dated rules and aid turns are the campaign's own for the
scenario's turns, taken from scenario_campaign.json here and renumbered from 1 (the turn record
keeps ``campaign_turn``, as Tet's). Every check raises ``ValueError`` naming the file and the entry.
Pure: ints and strings only, results cached.
"""
from __future__ import annotations

from functools import lru_cache

from .campaign_data import ENTER, MONSOON, _need, _read, load_campaign, turn_date
from .features import FEATURES, scenario_features
from .map import load_map
from .pieces import load_counters, unit_name
from ....errors import InternalValueError

SCENARIO_FILES = {"rat": "scenario_rat.json", "1975": "scenario_1975.json", "1965_68": "scenario_1965_68.json",
                  "1968_72": "scenario_1968_72.json", "1972_75": "scenario_1972_75.json"}
MILITARY = ("air_war", "fleet", "montagnards", "special_units")   # in every one of them
POLITICAL = tuple(f for f in FEATURES if f not in MILITARY)      # the longer ones only


def campaign_oob(first: int) -> tuple[set[str], set[str]]:
    """(ground and naval ids, air ids) of the campaign's Allied order of battle at the start of campaign
    turn ``first``: its set-up and every scheduled unit of an earlier turn, less every unit a binding
    or historical withdrawal of an earlier turn removed."""
    c = load_campaign("campaign")
    r = c["reinforcements"]
    gone = {w["unit"] for w in r["allied_withdrawals"] if w["turn"] < first}
    gone |= {u for w in r["historical_us_withdrawals"] if w["turn"] < first for u in w["units"]}
    ground = {u["id"] for u in c["setup"]["allied"]}
    air = {u["id"] for u in c["setup"]["allied_air_available"]}
    for w in r["allied"]:
        if w["turn"] < first:
            for u in w["units"]:
                (air if u["enter"] == "air" else ground).add(u["id"])
    return ground - gone, air - gone


def _shift(turn: int, first: int) -> int:
    return turn - first + 1


def _compose(sc: dict, campaign: dict) -> dict:
    """The scenario: its own file over the campaign's data for its turns, renumbered from 1."""
    first, last = sc["campaign_turns"]["first"], sc["campaign_turns"]["last"]
    n = last - first + 1
    out = {k: sc[k] for k in ("meta", "id", "name", "description", "based_on", "features", "features_note",
                              "first_player", "rules_not_used", "scenario_rules", "victory")}
    out["turn_sequence_rule"] = campaign["turn_sequence_rule"]
    out["turns"] = [{"number": _shift(t["number"], first), "campaign_turn": t["number"], "months": t["months"],
                     "year": t["year"], "monsoon": t["monsoon"]} for t in campaign["turns"][first - 1:last]]
    setup = campaign["setup"] if sc.get("setup_from") == campaign["id"] else sc["setup"]
    out["setup"] = {k: setup[k] for k in ("allied", "allied_air_available", "communist")}
    out["setup_left_out"] = list(sc.get("setup", {}).get("left_out", []))
    known = {u["id"] for side in ("allied", "allied_air_available") for u in out["setup"][side]}
    r = campaign["reinforcements"]
    inside = [w for w in r["allied"] if first <= w["turn"] <= last]
    known |= {u["id"] for w in inside for u in w["units"]}
    rein = {k: r[k] for k in ("allied_note", "allied_withdrawals_note", "historical_us_withdrawals_note",
                              "communist", "allied_replacement_points")}
    rein["allied"] = [{"turn": _shift(w["turn"], first), "units": w["units"]} for w in inside]
    wd = [dict(w, turn=_shift(w["turn"], first)) for w in r["allied_withdrawals"]
          if first <= w["turn"] <= last and w["unit"] in known]
    hist = [dict(w, turn=_shift(w["turn"], first), units=[u for u in w["units"] if u in known])
            for w in r["historical_us_withdrawals"] if first <= w["turn"] <= last]
    hist = [w for w in hist if w["units"]]
    if sc.get("historical_us_withdrawals_binding"):   # purely military: no rule of 23-24 removes them
        wd += [{"turn": w["turn"], "unit": u, "rule": "4.3.1", "regardless_of_location": True,
                "history": "; ".join(w["history"])} for w in hist for u in w["units"]]
        wd.sort(key=lambda w: w["turn"])
        hist = []
    rein["allied_withdrawals"], rein["historical_us_withdrawals"] = wd, hist
    if "allied_purchasable" in sc:
        rein["allied_purchasable"] = sc["allied_purchasable"]
    else:
        rein["allied_purchasable"] = [dict(p, from_turn=max(1, _shift(p["from_turn"], first)))
                                      for p in r["allied_purchasable"] if p["from_turn"] <= last]
    out["reinforcements"] = rein
    out["dated_rules"] = [dict(d, from_turn=max(1, _shift(d["from_turn"], first)),
                               **({"until_turn": _shift(d["until_turn"], first)} if "until_turn" in d else {}))
                          for d in campaign["dated_rules"]
                          if d["from_turn"] <= last and d.get("until_turn", last) >= first]
    if "elections" in sc["features"]:
        out["elections"] = [dict(e, turn=_shift(e["turn"], first)) for e in campaign["elections"]
                            if first <= e["turn"] <= last]
        aid = dict(campaign["communist_aid"])
        aid["roll_turns"] = [_shift(t, first) for t in aid["roll_turns"] if first <= t <= last]
        out["communist_aid"] = aid
        out["national_uprising"] = dict(campaign["national_uprising"], earliest_turn=max(
            1, _shift(campaign["national_uprising"]["earliest_turn"], first)))
        v = campaign["vietnamization"]
        out["vietnamization"] = {
            "full": dict(v["full"], declare_by_turn=_shift(v["full"]["declare_by_turn"], first)),
            "partial": dict(v["partial"], declare_from_turn=max(1, _shift(v["partial"]["declare_from_turn"], first)))}
    _need(n == len(out["turns"]), sc["id"], "turns")
    return out


def _check(f: str, sc: dict, first: int) -> None:
    counters, gmap = load_counters(), load_map()
    _need("afteraction" in sc["meta"]["authored_by"], f, "must be marked as the project's own")
    political = _check_features_and_turns(f, sc)
    units = _check_units(f, sc, counters, gmap)
    _check_setup(f, sc["setup"], counters, gmap)
    ground, air = campaign_oob(first)
    left = {x["id"] for x in sc["setup_left_out"]}
    _need({u["id"] for u in sc["setup"]["allied"]} | left == ground, f,
          "the Allied set-up is not the campaign's order of battle at the start date")
    _need({u["id"] for u in sc["setup"]["allied_air_available"]} == air, f, "the air units are not the campaign's")
    _check_schedule(f, sc, {u["id"] for kind, u in units if kind != "purchasable"})
    _check_ending(f, sc, political)


def _check_features_and_turns(f: str, sc: dict) -> set:
    """The features in force (every military one; the political ones all or none) and the turn record;
    the political features in force."""
    feats = scenario_features(sc)
    _need(set(MILITARY) <= set(feats), f, f"the military features {MILITARY} are in force in every scenario")
    political = set(POLITICAL) & set(feats)
    _need(political in (set(), set(POLITICAL)), f, "political features: all (longer scenarios) or none (military)")
    turns = sc["turns"]
    _need([t["number"] for t in turns] == list(range(1, len(turns) + 1)), f, "turns numbered from 1")
    for t in turns:
        _need((t["months"], t["year"]) == turn_date(t["campaign_turn"]), f"{f} turn {t['number']}", "date")
        _need(t["monsoon"] == (t["months"] in MONSOON), f"{f} turn {t['number']}", "monsoon flag (8.2 note)")
    return political


def _check_units(f: str, sc: dict, counters, gmap) -> list[tuple[str, dict]]:
    """Every unit of the set-up, the schedule and the purchasable list: (kind, unit), each checked."""
    setup, r = sc["setup"], sc["reinforcements"]
    units = [("setup", u) for side in ("allied", "allied_air_available", "communist") for u in setup[side]]
    units += [("reinforcement", u) for w in r["allied"] for u in w["units"]]
    units += [("purchasable", u) for u in r["allied_purchasable"]]
    ids = [u["id"] for _, u in units]
    _need(len(ids) == len(set(ids)), f, "unit ids must be unique")
    for kind, u in units:
        where = f"{f} {kind} {u['id']}"
        t = counters.types.get(u["type"])
        _need(t is not None, where, f"unknown counter type {u['type']!r}")
        try:
            unit_name(u["id"], u["type"], u.get("name"))
        except ValueError as e:
            _need(False, where, str(e))
        if "location" in u:
            _need(gmap.on_map(u["location"]), where, f"location {u['location']} not on the map")
        if kind != "setup":
            _need(t.side == "allied" and u["enter"] in ENTER, where, f"bad entry {u.get('enter')!r}")
    return units


def _check_setup(f: str, setup: dict, counters, gmap) -> None:
    """Each side's set-up: its own counters, stacking (8.10), no hex held by both, 4.1.7's ten divisions."""
    for side in ("allied", "communist"):
        by_hex: dict[str, list[str]] = {}
        for u in setup[side]:
            _need(counters.types[u["type"]].side == side, f"{f} setup {u['id']}", f"not a {side} counter")
            by_hex.setdefault(u["location"], []).append(u["type"])
        for loc, types in sorted(by_hex.items()):
            if gmap.is_zone(loc):
                continue
            saigon = gmap.hex(loc).town is not None and gmap.hex(loc).town.name == "Saigon"
            bad = counters.stacking_violations(types, side, saigon=saigon)
            _need(bad == (), f"{f} setup {loc}", f"stacking (8.10): {bad}")
    shared = {u["location"] for u in setup["allied"]} & {u["location"] for u in setup["communist"]}
    _need(not {loc for loc in shared if not gmap.is_zone(loc)}, f, f"hexes held by both sides: {sorted(shared)}")
    _need(sum(1 for u in setup["communist"] if u["type"] == "nva_division") <= 10, f, "4.1.7: ten NVA divisions")


def _check_schedule(f: str, sc: dict, known: set) -> None:
    """Reinforcements, withdrawals, purchases, elections and dated rules fall inside the scenario."""
    r, turns = sc["reinforcements"], sc["turns"]
    last = len(turns)
    for w in r["allied"]:
        _need(1 <= w["turn"] <= last, f"{f} reinforcements", f"turn {w['turn']} outside the scenario")
    for key in ("allied_withdrawals", "historical_us_withdrawals"):
        for w in r[key]:
            _need(1 <= w["turn"] <= last, f"{f} {key}", f"turn {w['turn']} outside the scenario")
            for uid in w.get("units", [w.get("unit")]):
                _need(uid in known, f"{f} {key}", f"unknown unit {uid!r}")
    for p in r["allied_purchasable"]:
        _need(1 <= p["from_turn"] <= last, f"{f} {p['id']}", "purchase turn outside the scenario")
    for e in sc.get("elections", []):
        _need(1 <= e["turn"] <= last and turns[e["turn"] - 1]["months"] == "November/December", f, "23.1")
    for d in sc["dated_rules"]:
        _need(1 <= d["from_turn"] <= d.get("until_turn", last) <= last, f"{f} dated rule {d['rule']}", "turns")


def _check_ending(f: str, sc: dict, political: set) -> None:
    """The political track's start and the end of game (22.4); a military scenario's band; Hearts and Minds."""
    v = sc["victory"]
    _need(isinstance(v["initial_political_points"], int) and 0 <= v["initial_political_points"] <= 250, f,
          "political track start (22.4)")
    e = v["end_of_game"]
    _need(isinstance(e["allied_victory_if_at_least"], int), f, "end of game: the Allied threshold")
    if not political:
        _need("communist_victory_if_below" in e and e["otherwise"] == "draw", f, "a military end of game band")
        _need(not sc.get("elections") and "vietnamization" not in sc, f, "purely military: no election, no 24")
    hm = sc["scenario_rules"]["hearts_and_minds"]
    _need(set(hm) == {"I", "II", "III", "IV", "CA", "LA"}, f, "a Hearts and Minds start for every area (7)")

@lru_cache(maxsize=None)
def load_period(name: str) -> dict:
    """One of SCENARIO_FILES, composed with the campaign and validated. Shared (cached): callers copy
    before changing it."""
    if name not in SCENARIO_FILES:
        raise InternalValueError(f"unknown scenario {name!r} (known: {sorted(SCENARIO_FILES)})")
    f = SCENARIO_FILES[name]
    raw = _read(f)
    campaign = load_campaign("campaign")
    _need(raw["based_on"] == campaign["id"], f, "based_on must name the campaign")
    first, last = raw["campaign_turns"]["first"], raw["campaign_turns"]["last"]
    _need(1 <= first < last <= len(campaign["turns"]), f, "campaign_turns inside the campaign's 63")
    sc = _compose(raw, campaign)
    _check(f, sc, first)
    return sc
