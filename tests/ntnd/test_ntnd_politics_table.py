"""NTND 22 (3.1.7, 3.2.7) complete where political_table is in force, with 24.2.10's bounds and
24.4.3's 300: through the game's phases on campaign states (tests/ntnd/campaign_states.py)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.politics import victory as politics
from afteraction.engine.games.ntnd.phases import FLOW
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.forces.operations import make_marker
from afteraction.engine.games.ntnd.sequence.turns import PHASES
from afteraction.engine.ruleset import Context

from .campaign_states import at_phase, camp, clear_communists, free, neutral_track, of, put


def _enter(s, phase):
    from afteraction.engine.games.ntnd.sequence.turns import INDEX
    s["step"] = INDEX[phase]
    ctx = Context.for_tests()
    FLOW.enter(s, ctx)
    return [e for e, _ in ctx.events]


def test_ntnd_3_2_7_22_4_allied_phase_scores_no_communist_units_per_corps():
    s = neutral_track(camp())                                           # 7.3.2/7.4.2 are hearts' items
    clear_communists(s)
    ev = _enter(s, "a_politics")
    items = of(ev, "politics")[0]["items"]
    got = {(i["area"], i["item"]) for i in items}
    assert {(a, "no_communist_units") for a in ("I", "II", "III", "IV")} <= got
    assert not any(i["area"] in ("LA", "CA") for i in items)          # note ^: still neutral
    assert s["pp"] == 100 + sum(i["pp"] for i in items) and sum(i["pp"] for i in items) >= 12


def test_ntnd_3_1_7_22_3_communist_phase_scores_occupation_only():
    s = neutral_track(camp())                                           # 7.3.2/7.4.2 are hearts' items
    clear_communists(s)
    put(s, free(s, "vc_regiment"), "1609")                               # Hue, a city of I Corps
    put(s, free(s, "vc_regiment"), "1408")                               # Dong Ha, a town
    ev = _enter(s, "c_politics")
    items = of(ev, "politics")[0]["items"]
    assert sorted((i["item"], i["pp"]) for i in items) == [("city", -2), ("town", -1)]
    assert s["pp"] == 97


def test_ntnd_22_2_22_4_only_inverted_communists_score_2_not_3():
    s = camp()
    clear_communists(s)
    m = load_map()
    hid = next(h for h in m.hexes_in(country="SV", corps="II") if m.hex(h).terrain == "jungle" and not m.hex(h).town)
    uid = put(s, free(s, "vc_cadre"), hid)
    make_marker(s, [uid], hid, Context.for_tests(), "test")
    ev = _enter(s, "a_politics")
    got = {(i["area"], i["item"]) for i in of(ev, "politics")[0]["items"]}
    assert ("II", "only_inverted_communists") in got and ("II", "no_communist_units") not in got
    assert ("I", "no_communist_units") in got


def test_ntnd_22_4_all_towns_occupied_by_allied_units():
    s = camp()
    clear_communists(s)
    m = load_map()
    militia = [u["id"] for u in sorted(s["units"].values(), key=lambda u: u["id"])
               if u["nat"] == "ARVN" and u["status"] == "map" and not u["type"].endswith(("firebase", "air"))]
    towns = m.town_hexes(country="SV", corps="IV")
    assert len(militia) >= len(towns)
    for h, uid in zip(towns, militia):
        put(s, uid, h)
    ev = _enter(s, "a_politics")
    items = of(ev, "politics")[0]["items"]
    assert {"area": "IV", "item": "all_towns_allied", "pp": 2} in items
    put(s, militia[0], "1020")
    assert {"area": "IV", "item": "all_towns_allied", "pp": 2} not in of(_enter(s, "a_politics"), "politics")[0]["items"]


def test_ntnd_22_4_saigon_minus_25_instead_of_the_city_penalty():
    s = neutral_track(camp())                                           # 7.3.2/7.4.2 are hearts' items
    clear_communists(s)
    put(s, free(s, "vc_regiment"), load_map().town("Saigon").hex)
    ev = _enter(s, "c_politics")
    assert [(i["item"], i["pp"]) for i in of(ev, "politics")[0]["items"]] == [("saigon", -25)]
    assert s["pp"] == 75


def test_ntnd_22_4_note_a_neutral_state_is_scored_once_it_is_no_longer_neutral():
    s = camp()
    clear_communists(s)
    put(s, free(s, "pl_regiment") if any(u["type"] == "pl_regiment" for u in s["units"].values())
        else free(s, "nva_regiment"), "0909")                            # Savannakhet, Laos
    assert not any(i["area"] == "LA" for i in of(_enter(s, "c_politics"), "politics")[0]["items"])
    s["neutral"] = ["CA"]
    assert any(i["area"] == "LA" and i["pp"] == -1 for i in of(_enter(s, "c_politics"), "politics")[0]["items"])


def test_ntnd_22_4_sudden_victory_judged_at_the_end_of_a_political_phase_only():
    s = camp()
    s["pp"] = 251
    s["step"] = 9                                                      # a_move: no end mid-turn
    s["phase"] = {"id": "a_move", "done": True}
    assert politics.sudden_death(s) is None
    clear_communists(s)
    at_phase(s, "a_politics")
    assert s["outcome"]["winner"] == "allied" and "22.4" in s["outcome"]["reason"]


def test_ntnd_22_4_below_zero_at_a_political_phase_the_communists_win():
    s = camp()
    s["pp"] = 5
    put(s, free(s, "vc_regiment"), load_map().town("Saigon").hex)
    at_phase(s, "c_politics")
    assert s["outcome"]["winner"] == "communist" and s["pp"] < 0


def test_ntnd_24_4_3_after_a_reversal_the_allies_need_300():
    s = neutral_track(camp())                                           # 7.3.2/7.4.2 are hearts' items
    clear_communists(s)
    s["vietnamization_reversed"] = "full"                              # as vietnamization.reverse records it
    s["turn"] = 30
    s["pp"] = 280
    at_phase(s, "c_politics")
    assert s.get("outcome") is None
    s["pp"] = 301
    at_phase(s, "c_politics")
    assert s["outcome"]["winner"] == "allied" and "24.4.3" in s["outcome"]["reason"]


def test_ntnd_24_2_10_bounds_1_and_249_under_full_vietnamization_before_turn_24():
    s = camp()
    s["vietnamization"] = "full"
    s["pp"] = 248
    ctx = Context.for_tests()
    politics.score(s, ctx, 5, "test", "bound")
    assert s["pp"] == 249 and ctx.events[-1][0]["pp"] == 1            # the extra points are ignored
    s["pp"] = 3
    uid = next(u["id"] for u in s["units"].values() if u["side"] == "allied" and u["status"] == "map"
               and u["type"] == "arvn_infantry_regiment")
    politics.eliminate(s, uid, ctx, "test")
    politics.score(s, ctx, -10, "test", "bound")
    assert s["pp"] == 1
    s["phase"] = {"id": "a_politics"}
    assert politics.sudden_death(s) is None
    s["turn"] = 24                                                     # after November/December 1968
    politics.score(s, ctx, -10, "test", "bound")
    assert s["pp"] == -9


def _end(s):
    s["step"] = len(PHASES) - 1
    s["phase"] = {"id": PHASES[-1].id, "done": True}
    s["turn"] = len(s["scenario"]["turns"])
    s["outcome"] = None
    FLOW.advance(s, Context.for_tests())
    return s["outcome"]


def test_ntnd_22_4_campaign_end_allies_need_100_and_saigon():
    s = camp("campaign")
    clear_communists(s)
    s["pp"] = 120
    assert _end(s)["winner"] == "allied"
    s = camp("campaign")
    clear_communists(s)
    s["pp"] = 120
    put(s, free(s, "vc_regiment"), load_map().town("Saigon").hex)
    out = _end(s)
    assert out["winner"] == "communist" and "Saigon" in out["reason"]
    s = camp("campaign")
    s["pp"] = 99
    assert _end(s)["winner"] == "communist"


def test_ntnd_22_4_short_campaign_end_draw_band():
    s = camp()
    clear_communists(s)
    s["pp"] = 95
    assert _end(s)["winner"] is None
    s["pp"] = 89
    assert _end(s)["winner"] == "communist"
