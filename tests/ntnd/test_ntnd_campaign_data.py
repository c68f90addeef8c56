"""Validator for the afteraction-authored NTND campaign data: the Random Events
Table (21), the campaign scenario and the short campaign. Data only: no rule is played here.

Test names cite the No Trumpets No Drums rule a check enforces, where one applies.
"""
from __future__ import annotations

import copy
import json
import pathlib
import re
from collections import Counter
from importlib import resources

import pytest

from afteraction.engine.games.ntnd.components import campaign_data as cd
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.components.pieces import load_counters

PKG = "afteraction.engine.games.ntnd"
ROOT = pathlib.Path(__file__).resolve().parents[2]
FILES = ("random_events.json", "scenario_campaign.json", "scenario_campaign_short.json")


def _json(name: str) -> dict:
    return json.loads((resources.files(PKG) / "data" / name).read_text(encoding="utf-8"))


def _seed_text() -> str:
    text = ROOT.parent / "shared/seeds/000_dc65da6ddb3c3a25.txt"
    if not text.exists():
        text = pathlib.Path("/work/shared/seeds/000_dc65da6ddb3c3a25.txt")
    return text.read_text()


def _rule_paragraph(rule: str) -> str:
    """The rule's line and the text after it up to the next numbered rule (a heading's paragraph)."""
    m = re.search(rf"^{re.escape(rule)}\.? .*?(?=^\d+(?:\.\d+)*\.? [A-Z]|\Z)", _seed_text(), re.M | re.S)
    assert m, rule
    return m.group(0)


@pytest.fixture(scope="module")
def events():
    return cd.load_random_events()


@pytest.fixture(scope="module")
def camp():
    return cd.load_campaign()


@pytest.fixture(scope="module")
def short():
    return cd.load_campaign("campaign_short")


@pytest.fixture(scope="module")
def tet():
    return _json("scenario_tet.json")


def _arrivals(sc: dict) -> dict[str, int]:
    out = {u["id"]: 0 for side in ("allied", "allied_air_available") for u in sc["setup"][side]}
    for w in sc["reinforcements"]["allied"]:
        for u in w["units"]:
            out[u["id"]] = w["turn"]
    return out


def _allied(sc: dict) -> dict[str, dict]:
    units = {u["id"]: u for side in ("allied", "allied_air_available") for u in sc["setup"][side]}
    units.update({u["id"]: u for w in sc["reinforcements"]["allied"] for u in w["units"]})
    units.update({u["id"]: u for u in sc["reinforcements"]["allied_purchasable"]})
    return units


# ---------------------------------------------------------------- authorship and rule numbers

def test_ntnd_campaign_data_is_marked_the_projects_own():
    for name in FILES:
        assert "afteraction" in _json(name)["meta"]["authored_by"], name
    for doc in ("random-events.md", "campaign.md"):
        text = (ROOT / "docs/rules/ntnd-authoring" / doc).read_text()
        assert "project's own" in text, doc


def test_ntnd_campaign_data_cites_only_rule_numbers_of_the_coverage_table():
    rows = set(re.findall(r"^\| (\d+(?:\.\d+)*) \|", (ROOT / "docs/rules/ntnd.md").read_text(), re.M))
    for name in FILES:
        cited = cd.cited_rules(_json(name))
        assert cited, name
        assert sorted(cited - rows) == [], name


# ---------------------------------------------------------------- the Random Events Table (21)

def test_ntnd_21_1_every_die_pair_has_exactly_one_entry():
    raw = _json("random_events.json")
    pairs = Counter([e["roll"] for e in raw["entries"]] + raw["no_event"]["rolls"])
    assert sorted(pairs) == [10 * t + o for t in range(1, 7) for o in range(1, 7)]
    assert set(pairs.values()) == {1}
    # 21.1: 11-36 consult the table, 37-66 no event
    assert sorted(e["roll"] for e in raw["entries"]) == [10 * t + o for t in (1, 2, 3) for o in range(1, 7)]


def test_ntnd_21_1_communist_die_is_tens_allied_die_is_ones(events):
    dice = events.procedure["dice"]
    assert [(d["seat"], d["digit"]) for d in dice] == [("communist", "tens"), ("allied", "ones")]
    assert events.lookup(2, 4).roll == 24 and events.lookup(4, 2) is None and events.lookup(3, 6).roll == 36
    with pytest.raises(ValueError):
        events.lookup(0, 3)
    with pytest.raises(ValueError):
        events.lookup(1, 7)


def test_ntnd_21_2_once_only_entries_marked(events):
    once = [e for e in events.entries.values() if e.once]
    repeatable = [e for e in events.entries.values() if not e.once]
    assert once and repeatable
    for e in once:
        assert "21.2" in e.rules, e.id
    for e in events.entries.values():
        for c in e.superseded_if:
            assert c in events.conditions and "21.2" in events.conditions[c]
    # the Cambodian entries are superseded once Cambodia has left neutrality (21.2 example: a coup)
    assert events.entries[24].superseded_if == ("cambodia_not_neutral",) and events.entries[24].once


def test_ntnd_21_effects_name_the_mechanisms_they_use(events):
    seed = _seed_text()
    for op, spec in events.ops.items():
        for r in spec["rules"]:
            assert re.search(rf"^{re.escape(r)}\.? ", seed, re.M), (op, r)
    for e in events.entries.values():
        for fx in e.effects:
            assert set(fx) - {"op", "when"} == set(events.ops[fx["op"]]["params"]), e.id
            assert fx["when"] in events.timings
        assert set(e.rules) >= {r for fx in e.effects for r in events.ops[fx["op"]]["rules"]}
    # every op of the vocabulary is used by some entry (no dead vocabulary)
    assert {fx["op"] for e in events.entries.values() for fx in e.effects} == set(events.ops)


def test_ntnd_21_table_is_not_one_sided(events):
    """Authored balance: as many political points can swing each way, and both sides gain units."""
    swing = Counter()
    for e in events.entries.values():
        for fx in e.effects:
            if fx["op"] == "political_points":
                swing[fx["sign"]] += fx["dice"]
    assert swing[1] == swing[-1]
    ops = Counter(fx["op"] for e in events.entries.values() for fx in e.effects)
    assert ops["aid_unit"] and ops["basic_cadres"]


# ---------------------------------------------------------------- campaign turns and dates

def test_ntnd_2_campaign_has_63_bimonthly_turns_with_monotone_dates(camp):
    turns = _json("scenario_campaign.json")["turns"]
    assert len(turns) == 63 == cd.CAMPAIGN_TURNS
    keys = [(t["year"], cd.MONTHS.index(t["months"])) for t in turns]
    assert keys == sorted(keys) and len(set(keys)) == 63
    for a, b in zip(keys, keys[1:]):
        assert b[0] * 6 + b[1] == a[0] * 6 + a[1] + 1  # every two months, no gap
    assert (turns[0]["months"], turns[0]["year"]) == ("March/April", 1965)
    assert (turns[-1]["months"], turns[-1]["year"]) == ("July/August", 1975)
    for t in turns:  # 8.2 note
        assert t["monsoon"] == (t["months"] in ("May/June", "July/August"))


def test_ntnd_23_1_elections_on_turns_23_and_47(camp):
    assert [(e["turn"], e["year"], e["dice"]) for e in camp["elections"]] == [(23, 1968, 3), (47, 1972, 4)]  # 23.2
    for e in camp["elections"]:
        assert camp["turns"][e["turn"] - 1]["months"] == "November/December"


def test_ntnd_campaign_dated_rules_match_the_rule_text(camp):
    for r in camp["dated_rules"]:
        months, year = r["text_date"].rsplit(" ", 1)
        para = _rule_paragraph(r["rule"]).replace("-", "/")
        assert year in para, r
        assert months.split("/")[0] in para, r
        t = camp["turns"][r["from_turn"] - 1]
        assert (t["months"], str(t["year"])) == (months, year)


def test_ntnd_24_26_27_campaign_timing(camp):
    assert camp["vietnamization"]["full"]["declare_by_turn"] == 5  # 24.2: before January/February 1966 (turn 6)
    assert camp["national_uprising"]["earliest_turn"] == 12  # 26.1: not before January/February 1967
    aid = camp["communist_aid"]
    assert aid["roll_turns"] == [6, 12, 18, 24, 30, 36, 42, 48, 54, 60]  # 27.1: each January/February
    assert {c["source"] for c in aid["chart"]} == {"china", "soviet"}
    for c in aid["chart"]:
        assert 2 <= c["aid_begins_if_at_least"] <= 6
    changes = {m["rule"].split(",")[0]: m["change"] for m in aid["modifiers"]}
    assert changes["27.1.2"] == 2 and changes["14.2.2"] == 1
    assert sorted(m["change"] for m in aid["modifiers"] if m["rule"].startswith("27.1.1")) == [-2, -1]


def test_ntnd_22_4_campaign_political_track_and_victory(camp):
    v = camp["victory"]
    assert v["initial_political_points"] == 100
    assert v["sudden_death"]["communist_if_below"] == 0 and v["sudden_death"]["allied_if_above"] == 250
    assert v["sudden_death"]["allied_if_above_after_reversal"] == 300  # 24.4.3
    assert v["sudden_death"]["bounds_before_turn_24_under_full_vietnamization"] == [1, 249]  # 24.2.10
    assert "63" in v["end_of_game"]["after"]


def test_ntnd_7_campaign_hearts_and_minds_start(camp):
    rules = camp["scenario_rules"]
    assert tuple(rules["hearts_and_minds_boxes"]) == cd.H_AND_M_BOXES
    assert set(rules["hearts_and_minds"]) == {"I", "II", "III", "IV", "CA", "LA"}
    assert set(rules["neutral_countries"]) == {"CA", "LA"}  # 10.1


# ---------------------------------------------------------------- order of battle and schedules

def test_ntnd_campaign_units_reference_counters_and_map(camp):
    counters, gmap = load_counters(), load_map()
    ids = [u["id"] for _, u in cd._units(camp)]
    assert len(ids) == len(set(ids))
    for side in ("allied", "communist"):
        for u in camp["setup"][side]:
            t = counters.type(u["type"])
            assert t.side == side and gmap.on_map(u["location"]), u
            if not gmap.is_zone(u["location"]):
                h = gmap.hex(u["location"])
                if t.movement_class == "fleet":
                    assert h.is_sea or h.coastal, u
                elif t.movement_class == "patrol_boat":
                    assert h.coastal or h.major_river, u
                else:
                    assert h.is_land, u
    for u in camp["setup"]["allied_air_available"]:
        assert counters.type(u["type"]).category == "air"
    for w in camp["reinforcements"]["allied"]:
        assert 1 <= w["turn"] <= 63
        for u in w["units"]:
            t = counters.type(u["type"])
            assert t.side == "allied" and u["enter"] in cd.ENTER, u
            assert (u["enter"] == "air") == (t.category == "air"), u
            assert (u["enter"] == "5.6.2") == (t.stacking_class == "firebase"), u
    assert 20 <= len(camp["setup"]["allied"]) <= 80 and 20 <= len(camp["setup"]["communist"]) <= 80


def test_ntnd_4_4_campaign_respects_counter_mix(camp):
    counters = load_counters()
    used = Counter(u["type"] for _, u in cd._units(camp))
    for tid, n in sorted(used.items()):
        assert n <= counters.mix_limit(tid), (tid, n)


def test_ntnd_8_10_campaign_setup_stacking(camp):
    counters, gmap = load_counters(), load_map()
    for side in ("allied", "communist"):
        by_hex: dict[str, list[str]] = {}
        for u in camp["setup"][side]:
            by_hex.setdefault(u["location"], []).append(u["type"])
        for loc, types in sorted(by_hex.items()):
            if gmap.is_zone(loc):
                continue  # 8.10.1.3
            saigon = gmap.hex(loc).town is not None and gmap.hex(loc).town.name == "Saigon"
            assert counters.stacking_violations(types, side, saigon=saigon) == (), (loc, types)
    allied = {u["location"] for u in camp["setup"]["allied"]}
    communist = {u["location"] for u in camp["setup"]["communist"]}
    assert not {loc for loc in allied & communist if not gmap.is_zone(loc)}


def test_ntnd_4_1_7_campaign_at_most_ten_nva_divisions(camp):
    assert sum(1 for u in camp["setup"]["communist"] if u["type"] == "nva_division") <= 10


def test_ntnd_6_2_and_17_campaign_inversion(camp):
    counters = load_counters()
    for u in camp["setup"]["communist"]:
        t = counters.type(u["type"])
        if t.id == "communist_dummy":
            assert u["inverted"] is True
        if not t.can_invert:
            assert u["inverted"] is False, u


def test_ntnd_15_1_campaign_five_green_berets_off_towns(camp):
    gmap = load_map()
    gb = [u for u in camp["setup"]["allied"] if u["type"] == "us_green_beret"]
    assert len(gb) == 5
    for u in gb:
        assert gmap.hex(u["location"]).town is None and gmap.country_of(u["location"]) == "SV", u


def test_ntnd_5_2_campaign_corps_attachments(camp):
    """5.2.1/5.3 set-up units in their corps zone; 5.2.2 one corps per division, for the Marines, ROK and
    Thai (the 333 excepted, 28.6.1), across the set-up and the schedule."""
    counters, gmap = load_counters(), load_map()
    groups: dict[str, set[str]] = {}
    entries = [(u, u.get("corps")) for u in camp["setup"]["allied"]]
    entries += [(u, u["enter"]) for w in camp["reinforcements"]["allied"] for u in w["units"]]
    for u, corps in entries:
        t = counters.type(u["type"])
        if not t.is_ground_combat or t.movement_class == "immobile" or t.airmobile or corps is None:
            continue
        if t.nationality in ("LAO", "KHMER"):
            assert corps == {"LAO": "LA", "KHMER": "CA"}[t.nationality]
            continue
        if "location" in u:
            assert gmap.corps_of(u["location"]) == corps, u
        if t.id == "thai_333_ranger":
            assert corps == "LA_zone"
            continue
        assert corps in ("I", "II", "III", "IV"), u
        if t.nationality == "US" and "Bde," in u["name"]:
            groups.setdefault("US " + u["name"].split(",", 1)[1].strip(), set()).add(corps)
        if t.id == "us_marine_regiment":
            groups.setdefault("USMC", set()).add(corps)
        if t.nationality in ("ROK", "THAI"):
            groups.setdefault(t.nationality, set()).add(corps)
    assert {"USMC", "ROK", "THAI", "US 1st Infantry Div"} <= set(groups)
    for g, corps in groups.items():
        assert len(corps) == 1, (g, corps)


def test_ntnd_8_9_2_campaign_neutral_forces_at_home(camp):
    counters, gmap = load_counters(), load_map()
    for u in camp["setup"]["allied"]:
        nat = counters.type(u["type"]).nationality
        if nat in ("LAO", "KHMER"):
            assert gmap.country_of(u["location"]) == {"LAO": "LA", "KHMER": "CA"}[nat]


def test_ntnd_4_2_1_campaign_schedule_delivers_the_tet_order_of_battle(camp, tet):
    """Shared ids are the same counter; every Allied unit of the Tet scenario (January 1968, campaign turn
    18) is on the campaign map or schedule by that turn, and Tet's reinforcements by their own turn; the
    USMC III is bought in the campaign (28.3.1)."""
    mine = _allied(camp)
    arrive = _arrivals(camp)
    communist = {u["id"]: u for u in camp["setup"]["communist"]}
    for u in tet["setup"]["communist"]:
        if u["id"] in communist:
            assert communist[u["id"]]["type"] == u["type"], u["id"]
    tet_turn = {t["number"]: t["campaign_turn"] for t in tet["turns"]}
    due = [(u, tet_turn[1]) for side in ("allied", "allied_air_available") for u in tet["setup"][side]]
    due += [(u, tet_turn[w["turn"]]) for w in tet["reinforcements"]["allied"] for u in w["units"]]
    for u, turn in due:
        assert u["id"] in mine, u["id"]
        assert mine[u["id"]]["type"] == u["type"], u["id"]
        if u["id"] == "us-usmc-iii":
            assert mine[u["id"]]["rule"] == "28.3.1"
            continue
        assert arrive[u["id"]] <= turn, (u["id"], arrive[u["id"]], turn)


def test_ntnd_28_6_1_and_28_11_5_campaign_special_arrivals(camp):
    arrive = _arrivals(camp)
    assert arrive["thai-333"] == 32  # May-June 1970
    paracdo = next(p for p in camp["reinforcements"]["allied_purchasable"] if p["type"] == "lao_paracommando")
    assert paracdo["from_turn"] == 12 and paracdo["cost"] == {"INDOCHINESE": 1, "US": 1}
    iii = next(p for p in camp["reinforcements"]["allied_purchasable"] if p["type"] == "us_marine_iii")
    assert iii["cost"] == {"US": 2}  # 28.3.1


def test_ntnd_4_3_campaign_withdrawals(camp):
    counters = load_counters()
    mine, arrive = _allied(camp), _arrivals(camp)
    binding = camp["reinforcements"]["allied_withdrawals"]
    assert binding[0] == {**binding[0], "turn": 20, "unit": "thai-qc", "rule": "4.3.3"}  # May/June 1968
    for w in binding:
        nat = counters.type(mine[w["unit"]]["type"]).nationality
        assert counters.nationalities[nat]["group"] == "SEATO", w  # no US unit is forced out by the schedule
        assert w["turn"] > arrive[w["unit"]], w
    seen: set[str] = set()
    for w in camp["reinforcements"]["historical_us_withdrawals"]:
        for uid in w["units"]:
            assert counters.type(mine[uid]["type"]).nationality == "US", uid
            assert uid not in seen and w["turn"] > arrive[uid], uid
            seen.add(uid)


# ---------------------------------------------------------------- the authoring documents tell the truth

def _doc(name: str) -> str:
    return (ROOT / "docs/rules/ntnd-authoring" / name).read_text()


def test_ntnd_21_random_events_doc_lists_the_table(events):
    rows = re.findall(r"^\| (\d\d) \| `(\w+)` \| ?(\*?) ?\|", _doc("random-events.md"), re.M)
    assert [(int(r), i, o == "*") for r, i, o in rows] == [(e.roll, e.id, e.once) for e in events.entries.values()]


def test_ntnd_4_2_1_campaign_doc_lists_the_schedule_and_withdrawals(camp):
    doc = _doc("campaign.md")
    rows = re.findall(r"^\| (\d+) \| [A-Za-z/]+ \d{4} \| .*?\(`([\w-]+)`, (\w+)\) \|", doc, re.M)
    assert [(int(t), i, ty) for t, i, ty in rows] == [
        (w["turn"], u["id"], u["type"]) for w in camp["reinforcements"]["allied"] for u in w["units"]]
    binding = re.findall(r"^\| (\d+) \| [A-Za-z/]+ \d{4} \| `([\w-]+)` \| ([\d.]+) \|", doc, re.M)
    assert [(int(t), i, r) for t, i, r in binding] == [
        (w["turn"], w["unit"], w["rule"]) for w in camp["reinforcements"]["allied_withdrawals"]]
    dated = re.findall(r"^\| ([\d.]+) \| (\d+) (?:on|only) \| ", doc, re.M)
    assert [(r, int(t)) for r, t in dated] == [(d["rule"], d["from_turn"]) for d in camp["dated_rules"]]
    n_allied, n_air, n_comm = (len(camp["setup"][k]) for k in ("allied", "allied_air_available", "communist"))
    assert f"**Allied ({n_allied} + {n_air} air).**" in doc and f"**Communist ({n_comm}).**" in doc


# ---------------------------------------------------------------- the short campaign

def test_ntnd_campaign_short_is_the_campaigns_first_turns(camp, short):
    assert short["id"] != camp["id"] and 2 <= len(short["turns"]) <= 6
    assert short["turns"] == camp["turns"][:len(short["turns"])]
    assert short["setup"] == camp["setup"]
    last = len(short["turns"])
    assert all(w["turn"] <= last for w in short["reinforcements"]["allied"])
    assert short["reinforcements"]["allied"] == [w for w in camp["reinforcements"]["allied"] if w["turn"] <= last]
    assert short["elections"] == [] and short["victory"]["end_of_game"]["after"].endswith("(September/October 1965)")


# ---------------------------------------------------------------- the loader refuses bad data

def _reload_with(monkeypatch, name: str, change) -> None:
    real = cd._read

    def fake(n):
        d = copy.deepcopy(real(n))
        if n == name:
            change(d)
        return d
    monkeypatch.setattr(cd, "_read", fake)
    cd.load_random_events.cache_clear()
    cd.load_campaign.cache_clear()


@pytest.mark.parametrize("change, message", [
    (lambda d: d["entries"][1].update(roll=11), "roll also used"),
    (lambda d: d["no_event"]["rolls"].pop(), "without an entry"),
    (lambda d: d["entries"][0]["effects"][0].update(op="nuke"), "unknown op"),
    (lambda d: d["entries"][0]["effects"][0].pop("dice"), "takes"),
    (lambda d: d["entries"][0].update(once="yes"), "once must be"),
    (lambda d: d["entries"][0]["rules"].append("22.4"), "must be those of its ops"),
])
def test_ntnd_21_loader_refuses_a_bad_table(monkeypatch, change, message):
    _reload_with(monkeypatch, "random_events.json", change)
    try:
        with pytest.raises(ValueError, match=message):
            cd.load_random_events()
    finally:
        monkeypatch.undo()
        cd.load_random_events.cache_clear()


@pytest.mark.parametrize("change, message", [
    (lambda d: d["turns"].pop(), "63 bimonthly"),
    (lambda d: d["turns"][5].update(year=1967), "date is not"),
    (lambda d: d["elections"][0].update(turn=22), "23 and 47"),
    (lambda d: d["setup"]["allied"][0].update(type="us_tank"), "unknown counter type"),
    (lambda d: d["setup"]["allied"][0].update(location="9999"), "not on the map"),
    (lambda d: d["reinforcements"]["allied"][0].update(turn=64), "out of range"),
    (lambda d: d["reinforcements"]["allied_withdrawals"][0].update(unit="nobody"), "unknown unit"),
    (lambda d: d["dated_rules"][0].update(from_turn=7), "turn is not its date"),
])
def test_ntnd_campaign_loader_refuses_bad_data(monkeypatch, change, message):
    _reload_with(monkeypatch, "scenario_campaign.json", change)
    try:
        with pytest.raises(ValueError, match=message):
            cd.load_campaign()
    finally:
        monkeypatch.undo()
        cd.load_campaign.cache_clear()


def test_ntnd_campaign_loader_unknown_scenario():
    with pytest.raises(ValueError, match="unknown campaign scenario"):
        cd.load_campaign("tet")
