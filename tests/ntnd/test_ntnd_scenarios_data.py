"""Validator for the five NTND scenarios of rule 2 the project authored besides Tet and the campaign: the Year of the Rat, 1975, and the period scenarios 1965-68, 1968-72, 1972-75
(engine/games/ntnd/components/scenario_data.py, docs/rules/ntnd-authoring/scenarios.md). Data and set-up only;
tests/service/test_ntnd_scenarios_service.py plays them.

Test names cite the No Trumpets No Drums rule a check enforces, where one applies.
"""
from __future__ import annotations

import copy
import json
import pathlib
import subprocess
import sys
from collections import Counter

import pytest

from afteraction.engine.games.ntnd.components import (
    campaign_data as cd,
    scenario_data as sd,
    scenarios as setup,
)
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.components.pieces import load_counters
from afteraction.engine.local import LocalGame

ROOT = pathlib.Path(__file__).resolve().parents[2]
NEW = tuple(sd.SCENARIO_FILES)
SHORT, LONG = ("rat", "1975"), ("1965_68", "1968_72", "1972_75")
SPAN = {"rat": (43, 46), "1975": (60, 63), "1965_68": (1, 23), "1968_72": (21, 47), "1972_75": (43, 63)}


@pytest.fixture(scope="module")
def scen():
    return {k: sd.load_period(k) for k in NEW}


@pytest.fixture(scope="module")
def camp():
    return cd.load_campaign()


def _new_state(name: str) -> dict:
    g = LocalGame.create("ntnd", seed=b"scenarios-data", scenario=name)
    g.handshake()
    return g.referee.state


# ---------------------------------------------------------------- rule 2: six scenarios and a campaign

def test_ntnd_2_six_scenarios_and_a_campaign_are_registered():
    assert set(NEW) | {"tet", "campaign"} <= set(setup.SCENARIOS)
    assert len([s for s in setup.SCENARIOS if s not in ("campaign", "campaign_short")]) == 6
    text = (ROOT / "docs/rules/ntnd-authoring/scenarios.md").read_text()
    for k in NEW:
        assert f"`{k}`" in text and f"`{sd.load_period(k)['id']}`" in text, k


def test_ntnd_2_each_scenario_covers_its_period_of_the_campaign(scen, camp):
    for k, sc in scen.items():
        first, last = SPAN[k]
        assert [t["number"] for t in sc["turns"]] == list(range(1, last - first + 2)), k
        assert [t["campaign_turn"] for t in sc["turns"]] == list(range(first, last + 1)), k
        for t in sc["turns"]:
            c = camp["turns"][t["campaign_turn"] - 1]
            assert (t["months"], t["year"], t["monsoon"]) == (c["months"], c["year"], c["monsoon"]), (k, t)
    assert len(scen["rat"]["turns"]) == len(scen["1975"]["turns"]) == 4          # "an hour or two" (2)
    assert all(len(scen[k]["turns"]) > 20 for k in LONG)                           # "longer" (2)
    assert scen["rat"]["turns"][0]["year"] == 1972 and scen["1975"]["turns"][0]["year"] == 1975


def test_ntnd_2_rat_and_1975_are_purely_military_the_longer_ones_political(scen):
    for k in SHORT:
        assert scen[k]["features"] == sorted(sd.MILITARY), k
        assert "elections" not in scen[k] and "vietnamization" not in scen[k], k
        assert scen[k]["scenario_rules"]["hearts_and_minds"] == {a: "neutral" for a in cd.AREAS}
    for k in LONG:
        assert scen[k]["features"] == sorted(sd.MILITARY + sd.POLITICAL), k
    for k in NEW:
        assert set(sd.MILITARY) <= set(_new_state(k)["scenario"]["features"]), k


def test_ntnd_2_the_generator_writes_exactly_the_data(tmp_path):
    gen = ROOT / "docs/rules/ntnd-authoring/gen_scenarios.py"
    subprocess.run([sys.executable, str(gen), str(tmp_path)], check=True, capture_output=True)
    for k, f in sd.SCENARIO_FILES.items():
        assert (tmp_path / f).read_text() == (ROOT / "engine/games/ntnd/data" / f).read_text(), k


# ---------------------------------------------------------------- one source of truth: the campaign's data

def test_ntnd_4_2_1_allied_order_of_battle_is_the_campaigns_at_the_start_date(scen, camp):
    for k, sc in scen.items():
        first = SPAN[k][0]
        ground, air = sd.campaign_oob(first)
        left = {x["id"] for x in sc["setup_left_out"]}
        assert {u["id"] for u in sc["setup"]["allied"]} == ground - left, k
        assert {u["id"] for u in sc["setup"]["allied_air_available"]} == air, k
        assert all(x["why"].startswith("5.6.2") and load_counters().type(
            next(u["type"] for u in camp["setup"]["allied"] + [u for w in camp["reinforcements"]["allied"]
                                                                for u in w["units"]] if u["id"] == x["id"])
        ).stacking_class == "firebase" for x in sc["setup_left_out"]), k     # only a firebase without a host
        ours = [(w["turn"] + first - 1, w["units"]) for w in sc["reinforcements"]["allied"]]
        theirs = [(w["turn"], w["units"]) for w in camp["reinforcements"]["allied"] if first <= w["turn"] <= SPAN[k][1]]
        assert ours == theirs, k
    assert scen["1965_68"]["setup"] == camp["setup"]
    assert {u["id"] for u in scen["1975"]["setup"]["allied"]
            if load_counters().type(u["type"]).nationality == "US"} == set()            # Case-Church, 1973
    assert "thai-bp" in {u["id"] for w in scen["1968_72"]["reinforcements"]["allied"] for u in w["units"]}


def test_ntnd_4_3_1_withdrawals_fall_inside_each_scenario(scen, camp):
    for k, sc in scen.items():
        n = len(sc["turns"])
        here = {u["id"] for side in ("allied", "allied_air_available") for u in sc["setup"][side]}
        here |= {u["id"] for w in sc["reinforcements"]["allied"] for u in w["units"]}
        for w in sc["reinforcements"]["allied_withdrawals"]:
            assert 1 <= w["turn"] <= n and w["unit"] in here, (k, w)
        for w in sc["reinforcements"]["historical_us_withdrawals"]:
            assert 1 <= w["turn"] <= n and set(w["units"]) <= here, (k, w)
    rat = scen["rat"]["reinforcements"]
    assert rat["historical_us_withdrawals"] == []                    # purely military: binding there
    assert {w["unit"] for w in rat["allied_withdrawals"] if w["turn"] == 2} >= {"us-3-1cav", "us-196-amer"}
    assert [w["unit"] for w in scen["1972_75"]["reinforcements"]["allied_withdrawals"]] == [
        w["unit"] for w in camp["reinforcements"]["allied_withdrawals"] if 43 <= w["turn"] <= 63]


def test_ntnd_23_1_elections_and_27_1_aid_on_the_scenarios_own_turns(scen):
    for k in LONG:
        sc = scen[k]
        for e in sc["elections"]:
            assert sc["turns"][e["turn"] - 1]["months"] == "November/December", k
        for t in sc["communist_aid"]["roll_turns"]:
            assert sc["turns"][t - 1]["months"] == "January/February", k
    assert [e["turn"] for e in scen["1965_68"]["elections"]] == [23]
    assert [e["turn"] for e in scen["1968_72"]["elections"]] == [3, 27]
    assert [e["turn"] for e in scen["1972_75"]["elections"]] == [5]


def test_ntnd_26_1_and_28_4_1_later_scenarios_open_the_uprising_and_phoenix_from_the_start():
    from afteraction.engine.games.ntnd.optional import allied_specials
    from afteraction.engine.games.ntnd.politics import uprising
    s = _new_state("1968_72")
    assert uprising.earliest_turn(s) == 1 and allied_specials.phoenix_open(s)        # July/August 1968 (28.4.1)
    s = _new_state("1965_68")
    assert uprising.earliest_turn(s) == 12 and not allied_specials.phoenix_open(s)


def test_ntnd_24_2_full_vietnamization_only_in_the_scenario_starting_1965(scen):
    assert scen["1965_68"]["vietnamization"]["full"]["declare_by_turn"] == 5
    assert scen["1968_72"]["vietnamization"]["full"]["declare_by_turn"] < 1
    assert scen["1972_75"]["vietnamization"]["full"]["declare_by_turn"] < 1


def test_ntnd_28_8_armor_shock_only_in_scenarios_starting_1965_to_1968(scen):
    for k, sc in scen.items():
        assert sc["scenario_rules"]["armor_shock_available"] == (sc["turns"][0]["year"] <= 1968), k


def test_ntnd_10_1_cambodia_at_war_from_1970(scen):
    for k, sc in scen.items():
        assert sc["scenario_rules"]["neutral_countries"] == (["CA", "LA"] if sc["turns"][0]["year"] < 1970 else ["LA"])
        assert _new_state(k)["neutral"] == sc["scenario_rules"]["neutral_countries"]


def test_ntnd_dated_rules_in_force_as_at_their_dates(scen, camp):
    for k, sc in scen.items():
        first, last = SPAN[k]
        want = [(d["rule"], d["text_date"]) for d in camp["dated_rules"]
                if d["from_turn"] <= last and d.get("until_turn", last) >= first]
        assert [(d["rule"], d["text_date"]) for d in sc["dated_rules"]] == want, k
        for d in sc["dated_rules"]:
            c = next(x for x in camp["dated_rules"] if (x["rule"], x["text_date"]) == (d["rule"], d["text_date"]))
            assert d["from_turn"] == max(1, c["from_turn"] - first + 1), (k, d)
    assert ("8.4", "January/February 1971") in [(d["rule"], d["text_date"]) for d in scen["rat"]["dated_rules"]]


# ---------------------------------------------------------------- counters and map

def test_ntnd_scenarios_units_exist_in_counters_and_stand_on_the_map(scen):
    counters, gmap = load_counters(), load_map()
    for k, sc in scen.items():
        for side in ("allied", "communist"):
            for u in sc["setup"][side]:
                t = counters.type(u["type"])
                assert t.side == side and gmap.on_map(u["location"]), (k, u)
                if gmap.is_zone(u["location"]):
                    continue
                h = gmap.hex(u["location"])
                if t.movement_class == "fleet":
                    assert h.is_sea or h.coastal, (k, u)
                elif t.movement_class == "patrol_boat":
                    assert h.coastal or h.major_river, (k, u)
                else:
                    assert h.is_land, (k, u)
        for u in sc["setup"]["allied_air_available"]:
            assert counters.type(u["type"]).category == "air", (k, u)


def test_ntnd_4_4_scenarios_respect_the_counter_mix(scen):
    counters = load_counters()
    for k, sc in scen.items():
        used = Counter(u["type"] for side in ("allied", "allied_air_available", "communist") for u in sc["setup"][side])
        used.update(u["type"] for w in sc["reinforcements"]["allied"] for u in w["units"])
        for tid, n in sorted(used.items()):
            assert n <= counters.mix_limit(tid), (k, tid, n)


def test_ntnd_8_10_scenarios_setup_stacking_and_no_shared_hex(scen):
    counters, gmap = load_counters(), load_map()
    for k, sc in scen.items():
        for side in ("allied", "communist"):
            by_hex: dict[str, list[str]] = {}
            for u in sc["setup"][side]:
                by_hex.setdefault(u["location"], []).append(u["type"])
            for loc, types in sorted(by_hex.items()):
                if not gmap.is_zone(loc):
                    saigon = gmap.hex(loc).town is not None and gmap.hex(loc).town.name == "Saigon"
                    assert counters.stacking_violations(types, side, saigon=saigon) == (), (k, loc, types)
        both = {u["location"] for u in sc["setup"]["allied"]} & {u["location"] for u in sc["setup"]["communist"]}
        assert not {loc for loc in both if not gmap.is_zone(loc)}, k


def test_ntnd_4_1_7_and_6_2_communist_setups(scen):
    counters = load_counters()
    for k, sc in scen.items():
        assert sum(1 for u in sc["setup"]["communist"] if u["type"] == "nva_division") <= 10, k
        for u in sc["setup"]["communist"]:
            t = counters.type(u["type"])
            assert u["inverted"] is True or t.id != "communist_dummy", (k, u)
            assert t.can_invert or u["inverted"] is False, (k, u)


def test_ntnd_5_2_15_1_8_9_2_allied_setups_in_their_corps_and_countries(scen):
    counters, gmap = load_counters(), load_map()
    for k, sc in scen.items():
        for u in sc["setup"]["allied"]:
            t, loc = counters.type(u["type"]), u["location"]
            if t.nationality in ("LAO", "KHMER") or u.get("corps") == "LA":
                assert gmap.country_of(loc) == ("CA" if t.nationality == "KHMER" else "LA"), (k, u)
            elif u.get("corps") in ("I", "II", "III", "IV"):
                assert gmap.corps_of(loc) == u["corps"], (k, u)
            if t.id == "us_green_beret":
                assert gmap.hex(loc).town is None and gmap.country_of(loc) == "SV", (k, u)
            if t.stacking_class == "firebase":       # 5.6.2: with a ground combat unit of its nationality
                nats = ("ROK", "ANZAC", "THAI") if t.nationality == "SEATO" else (t.nationality,)
                assert any(o["location"] == loc and counters.type(o["type"]).nationality in nats
                           and counters.type(o["type"]).is_ground_combat for o in sc["setup"]["allied"]), (k, u)


def _largest_sealed(name: str) -> tuple[int, int]:
    """(a marker identity holding every invertible Communist counter, a Communist command naming every
    Communist unit): padded lengths in scenario ``name``, as tests/engine/test_sealed_lengths.py builds them."""
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.ntnd.rules import cmd
    from engine.test_sealed_lengths import _envelope_value  # tests/engine (tests/ is on sys.path: conftest.py)
    gmap = load_map()
    loc = max(list(gmap.hexes) + list(gmap.zones), key=len)
    units = _new_state(name)["units"].values()
    inv = sorted((u for u in units if u["side"] == "communist" and load_counters().type(u["type"]).can_invert),
                 key=lambda u: u["id"])
    ev = {"t": "marker-identity", "marker": "m99999", "loc": loc,
          "units": [{"id": u["id"], "type": u["type"], "name": u["name"]} for u in inv]}
    ids = sorted(u["id"] for u in units if u["side"] == "communist")
    return padded_length(ev), padded_length(_envelope_value(cmd("attack", target="LUANG_PRABANG", attackers=ids),
                                                            "communist"))


@pytest.mark.parametrize("name", setup.SCENARIOS)
def test_ntnd_8_10_1_3_each_setups_largest_sealed_values_fit_their_padded_size(name):
    """SPEC.md 6.5: every scenario's set-up names (ids, names) keep the worst marker (every invertible
    Communist counter in one zone, 8.10.1.3) and the worst command inside the sizes every NTND game pads
    to, with the 64 bytes of room test_sealed_lengths keeps for the command (ntnd/4: the campaign's
    set-up, 6060 / 1748 bytes, did not fit ntnd/3's 5888 / 1728)."""
    from afteraction.engine.games.ntnd.rules import NtndRuleset
    marker, command = _largest_sealed(name)
    assert marker <= NtndRuleset.sealed_sizes["event"]["communist"]
    assert command + 64 <= NtndRuleset.sealed_sizes["command"]["communist"]


# ---------------------------------------------------------------- victory conditions and tracks

def test_ntnd_22_4_victory_conditions(scen):
    for k, sc in scen.items():
        v = sc["victory"]
        assert v["initial_political_points"] == 100 and _new_state(k)["pp"] == 100, k
        assert v["sudden_death"]["communist_if_below"] == 0 and v["sudden_death"]["allied_if_above"] == 250, k
        e = v["end_of_game"]
        assert f"turn {len(sc['turns'])}" in e["after"], k
        if k in SHORT:
            assert e["otherwise"] == "draw" and e["communist_victory_if_below"] < e["allied_victory_if_at_least"]
            assert v["scoring"] == json.loads((ROOT / "engine/games/ntnd/data/scenario_tet.json").read_text())[
                "victory"]["scoring"], k
        else:
            assert e["allied_victory_also_requires"].startswith("Saigon"), k
    assert scen["1972_75"]["victory"]["end_of_game"]["otherwise"] == "communist"   # the campaign's own end


def test_ntnd_7_hearts_and_minds_start_of_the_longer_scenarios(scen, camp):
    assert scen["1965_68"]["scenario_rules"]["hearts_and_minds"] == camp["scenario_rules"]["hearts_and_minds"]
    for k in LONG:
        hm = _new_state(k)["hm"]
        assert hm == dict(sorted(scen[k]["scenario_rules"]["hearts_and_minds"].items()))
        assert set(hm.values()) <= set(cd.H_AND_M_BOXES), k


# ---------------------------------------------------------------- the loader refuses bad data

def _reload_with(monkeypatch, name: str, change) -> None:
    real = sd._read

    def fake(n):
        d = copy.deepcopy(real(n))
        if n == name:
            change(d)
        return d
    monkeypatch.setattr(sd, "_read", fake)
    sd.load_period.cache_clear()


@pytest.mark.parametrize("name, change, message", [
    ("scenario_rat.json", lambda d: d["features"].remove("fleet"), "military features"),
    ("scenario_rat.json", lambda d: d["features"].append("elections"), "political features"),
    ("scenario_rat.json", lambda d: d["setup"]["allied"].pop(0), "order of battle"),
    ("scenario_rat.json", lambda d: d["setup"]["communist"][0].update(location="9999"), "not on the map"),
    ("scenario_rat.json", lambda d: d["setup"]["communist"][0].update(type="nva_tank"), "unknown counter type"),
    ("scenario_1975.json", lambda d: d["setup"]["communist"][0].update(location=d["setup"]["allied"][0]["location"]),
     "held by both sides|stacking"),
    ("scenario_1968_72.json", lambda d: d["campaign_turns"].update(last=70), "inside the campaign"),
    ("scenario_1972_75.json", lambda d: d.update(based_on="tet"), "based_on"),
    ("scenario_1965_68.json", lambda d: d["victory"].update(initial_political_points=400), "political track"),
])
def test_ntnd_scenario_loader_refuses_bad_data(monkeypatch, name, change, message):
    key = next(k for k, f in sd.SCENARIO_FILES.items() if f == name)
    _reload_with(monkeypatch, name, change)
    try:
        with pytest.raises(ValueError, match=message):
            sd.load_period(key)
    finally:
        monkeypatch.undo()
        sd.load_period.cache_clear()


def test_ntnd_scenario_loader_unknown_scenario():
    with pytest.raises(ValueError, match="unknown scenario"):
        sd.load_period("1964")
