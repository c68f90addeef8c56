"""NTND 15 (Green Berets: placement 15.1, militia 15.2, withdrawal 15.2.3) and 16 (Montagnards), the
``montagnards`` feature switched on in the test's campaign state (every scenario but Tet lists it; the
tests switch it on explicitly). Played through the Allied Reinforcement phase's "reinforce" decision
(NtndRuleset.legal_commands / apply)."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.components.pieces import load_counters
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import reinforcing, ALLIED, RS, at, campaign, of, only_families
from .campaign_states import clear_communists
from .mapplay import legal, play


def _reinforce(turn=2, features=("montagnards",), hm=None, rp_us=3) -> dict:
    s = campaign(turn)
    only_families(s, features)
    clear_communists(s)
    if hm:
        s["hm"].update(hm)
    return reinforcing(s, rp_us)


def _places(s) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for c in legal(s, ALLIED):
        if c.ntnd.WhichOneof("action") == "place":
            out.setdefault(c.ntnd.place.unit, set()).add(c.ntnd.place.location)
    return out


def _by_type(s, places, tid) -> set[str]:
    return set().union(*[locs for u, locs in places.items() if s["units"][u]["type"] == tid] or [set()])


def _recalls(s) -> list[str]:
    return [c.ntnd.recall_green_beret.unit for c in legal(s, ALLIED)
            if c.ntnd.WhichOneof("action") == "recall_green_beret"]


def test_ntnd_15_2_3_green_berets_withdrawn_in_a_reinforcement_phase_return_on_a_later_one():
    s = _reinforce()
    assert _recalls(s) == ["us-gb-1", "us-gb-2", "us-gb-3", "us-gb-4", "us-gb-5"]
    s, ev = play(s, ALLIED, cmd("recall_green_beret", unit="us-gb-1"))
    u = s["units"]["us-gb-1"]
    assert (u["status"], u["loc"], u["recalled"], u["arrive"]) == ("sched", None, 2, 3)
    assert of(ev, "gb-recalled")[0]["from"] == "1610"
    assert "us-gb-1" not in _places(s) and "us-gb-1" not in _recalls(s)   # not back in the same phase
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("recall_green_beret", unit="us-gb-1"), Context.for_tests())
    assert e.value.code == "ILLEGAL_RECALL"
    s, _ = play(s, ALLIED, cmd("done"))
    s["turn"] = 3
    s, _ = at(s, "a_reinforce")
    if s["decision"]["kind"] == "policy":
        s, _ = play(s, ALLIED, cmd("done"))
    assert "us-gb-1" in _places(s)                                       # a subsequent reinforcement phase


def test_ntnd_15_1_green_berets_are_placed_in_any_non_town_hex_of_south_vietnam_cambodia_or_laos():
    s = _reinforce()
    s, _ = play(s, ALLIED, cmd("recall_green_beret", unit="us-gb-1"))
    s["units"]["us-gb-1"]["arrive"] = 2                                  # as on its return (next phase)
    m = load_map()
    locs = _places(s)["us-gb-1"]
    assert {m.hex(h).country for h in locs} == {"SV", "CA", "LA"}
    assert all(m.hex(h).town is None and m.hex(h).is_land for h in locs)
    assert "1610" in locs and "0216" in locs and "0804" in locs
    hq = m.corps_hq_of("I").location
    assert hq not in locs                                                # not the corps HQ rule (5.4)
    pp = s["pp"]
    s, ev = play(s, ALLIED, cmd("place", unit="us-gb-1", location="0804"))   # Laos: no violation
    assert s["units"]["us-gb-1"]["status"] == "map" and s["units"]["us-gb-1"]["loc"] == "0804"
    assert "recalled" not in s["units"]["us-gb-1"] and s["pp"] == pp and not of(ev, "neutrality")


def test_ntnd_15_1_without_the_feature_green_berets_enter_as_before():
    s = _reinforce(features=())
    assert _recalls(s) == []
    s["units"]["us-gb-1"].update(status="sched", loc=None, arrive=2)
    m = load_map()
    assert all(m.hex(h).town is not None for h in _places(s)["us-gb-1"])   # the corps HQ (5.4)


def test_ntnd_15_2_3_2_withdrawing_a_green_beret_removes_the_militia_of_its_zone_outside_towns():
    s = _reinforce(hm={"I": "pro_allied"})
    s["units"]["us-gb-1"]["loc"] = "1611"                               # a Green Beret on a mountain hex
    s, _ = play(s, ALLIED, cmd("place", unit=_mix(s, "montagnard"), location="1611"))
    s["units"][_mix(s, "arvn_militia")].update(status="map", loc="1610")   # a militia in its zone
    mtg = next(u for u in s["units"].values() if u["type"] == "montagnard" and u["status"] == "map")
    mil = next(u for u in s["units"].values() if u["type"] == "arvn_militia" and u["loc"] == "1610")
    town = next(u for u in s["units"].values() if u["type"] == "arvn_militia" and u["status"] == "map"
                and u["loc"] != "1610")
    s["units"]["us-gb-1"]["loc"] = "1611"
    assert mtg["loc"] == "1611"
    s, ev = play(s, ALLIED, cmd("recall_green_beret", unit="us-gb-1"))
    assert s["units"][mtg["id"]]["status"] == "mix" and s["units"][mtg["id"]]["loc"] is None
    assert sorted((e["unit"], e["rule"]) for e in of(ev, "removed")) == sorted(
        [(mtg["id"], "NTND 15.2.3.2"), (mil["id"], "NTND 15.2.3.2")])
    assert s["units"][town["id"]]["status"] == "map"                      # militia elsewhere stay


def _mix(s, tid) -> str:
    return next(uid for uid in sorted(s["units"]) if s["units"][uid]["type"] == tid and s["units"][uid]["status"] == "mix")


def test_ntnd_15_2_militia_are_built_in_green_beret_hexes_of_their_own_country():
    s = _reinforce()
    s["units"]["us-gb-2"]["loc"] = "0216"                                # a Green Beret in Cambodia
    s["units"]["us-gb-3"]["loc"] = "0804"                                # and one in Laos
    p = _places(s)
    assert "0216" in _by_type(s, p, "khmer_militia") and "0804" not in _by_type(s, p, "khmer_militia")
    assert _by_type(s, p, "lao_militia") == {"0804"}
    assert {"1610", "1422", "1124"} <= _by_type(s, p, "arvn_militia")   # non-town Green Beret hexes of SV
    assert not {"0216", "0804"} & _by_type(s, p, "arvn_militia")
    rp = dict(s["rp"])
    lao = _mix(s, "lao_militia")
    s, ev = play(s, ALLIED, cmd("place", unit=lao, location="0804"))
    assert s["units"][lao]["status"] == "map" and s["units"][lao]["loc"] == "0804"    # at once (4.2.7)
    assert sum(s["rp"].values()) == sum(rp.values()) - 1
    off = _reinforce(features=())
    off["units"]["us-gb-3"]["loc"] = "0804"
    assert not _by_type(off, _places(off), "lao_militia") and "1610" not in _by_type(off, _places(off), "arvn_militia")


def test_ntnd_16_2_one_montagnard_per_friendly_region_of_laos_i_and_ii_corps():
    s = _reinforce()                                                     # I neutral, II pro-Communist, LA neutral
    assert not _by_type(s, _places(s), "montagnard")
    s = _reinforce(hm={"I": "pro_allied"})
    assert not _by_type(s, _places(s), "montagnard")                    # us-gb-1 at 1610: jungle
    s["units"]["us-gb-1"]["loc"] = "1611"                                # a mountain hex of I Corps
    assert _by_type(s, _places(s), "montagnard") == {"1611"}
    s, _ = play(s, ALLIED, cmd("place", unit=_mix(s, "montagnard"), location="1611"))
    assert not _by_type(s, _places(s), "montagnard")                    # the one of I Corps is in play


def test_ntnd_16_2_the_fourth_when_all_three_are_allied_controlled_or_laos_joins():
    from afteraction.engine.games.ntnd.arms import montagnards
    s = _reinforce(hm={"I": "allied_control", "II": "allied_control", "LA": "allied_control"})
    assert montagnards.limit(s) == 4
    s = _reinforce(hm={"I": "pro_allied", "II": "allied_control", "LA": "neutral"})
    assert montagnards.limit(s) == 2
    s["neutrality"] = {"joined": {"LA": {"side": "allied", "turn": 1, "rule": "NTND 10.5.2"}}}
    assert montagnards.limit(s) == 3
    # four raised where all three are controlled, none more
    s = _reinforce(hm={"I": "allied_control", "II": "allied_control", "LA": "allied_control"}, rp_us=6)
    s["units"]["us-gb-1"]["loc"] = "1611"
    for _ in range(4):
        s, _ = play(s, ALLIED, cmd("place", unit=_mix(s, "montagnard"), location="1611"))
        s["units"]["us-gb-1"]["loc"] = "1611"
        for u in s["units"].values():                                    # room for the next (stacking)
            if u["type"] == "montagnard" and u["status"] == "map":
                u["loc"] = "1409"
    assert sum(1 for u in s["units"].values() if u["type"] == "montagnard" and u["status"] == "map") == 4
    assert not _by_type(s, _places(s), "montagnard")


def test_ntnd_16_3_montagnards_are_raised_in_mountain_hexes_of_laos_i_and_ii_corps_only():
    s = _reinforce(hm={"I": "allied_control", "II": "allied_control", "LA": "allied_control"})
    s["units"]["us-gb-1"]["loc"] = "1611"                                # mountain, I Corps
    s["units"]["us-gb-3"]["loc"] = "0804"                                # mountain, Laos
    # us-gb-2 at 1816 (jungle, II), us-gb-4 at 1422 (III), us-gb-5 at 1124 (IV)
    assert _by_type(s, _places(s), "montagnard") == {"0804", "1611"}
    s["units"]["us-gb-4"]["loc"] = next(h for h, x in sorted(load_map().hexes.items())
                                        if x.terrain == "mountain" and x.country == "CA" and x.town is None)
    assert _by_type(s, _places(s), "montagnard") == {"0804", "1611"}     # Cambodian mountains: no


def test_ntnd_16_5_a_montagnard_costs_one_us_replacement_point_and_no_political_points():
    s = _reinforce(hm={"I": "pro_allied"}, rp_us=1)
    s["units"]["us-gb-1"]["loc"] = "1611"
    s["rp"].update({"SV": 5, "SEATO": 5, "INDOCHINESE": 5})
    pp = s["pp"]
    s, ev = play(s, ALLIED, cmd("place", unit=_mix(s, "montagnard"), location="1611"))
    assert s["rp"]["US"] == 0 and (s["rp"]["SV"], s["rp"]["SEATO"], s["rp"]["INDOCHINESE"]) == (5, 5, 5)
    (p,) = of(ev, "purchase")
    assert (p["pool"], p["pp"]) == ("US", 0) and s["pp"] == pp
    s = _reinforce(hm={"I": "pro_allied"}, rp_us=0)
    s["units"]["us-gb-1"]["loc"] = "1611"
    s["rp"].update({"SV": 5, "SEATO": 5, "INDOCHINESE": 5})
    assert not _by_type(s, _places(s), "montagnard")                    # no U.S. point: none


def test_ntnd_16_4_an_eliminated_montagnard_is_replaced_within_the_limit():
    s = _reinforce(hm={"I": "pro_allied"})
    s["units"]["us-gb-1"]["loc"] = "1611"
    for u in s["units"].values():
        if u["type"] == "montagnard":
            u["status"] = "dead"                                          # every counter eliminated
    p = _places(s)
    dead = [u for u in p if s["units"][u]["type"] == "montagnard"]
    assert len(dead) == 1 and s["units"][dead[0]]["status"] == "dead"
    pp = s["pp"]
    s, ev = play(s, ALLIED, cmd("place", unit=dead[0], location="1611"))
    assert s["units"][dead[0]]["status"] == "map" and s["pp"] == pp    # no 4.2.3 points for Montagnards
    assert not _by_type(s, _places(s), "montagnard")                    # 16.4: never more than 16.2 allows


def test_ntnd_16_6_the_communist_player_never_raises_montagnards():
    s = campaign(2)
    s["scenario"]["features"] = sorted(set(s["scenario"]["features"]) | {"montagnards"})
    s["hm"].update({"I": "allied_control", "II": "allied_control", "LA": "allied_control"})
    s, _ = at(s, "a_reinforce")
    s["turn"] = 3
    s, _ = at(s, "c_recruit")
    while s["decision"]["kind"] != "recruit":
        s, _ = play(s, "communist", cmd("done"))
    offered = legal(s, "communist")
    assert offered and not [c for c in offered if "montagnard" in str(c)]
    with pytest.raises(Rejection):
        RS.apply(snapshot.copy(s), "communist",
                 cmd("place", kind="montagnard", nationality="MTG", location="1611"), Context.for_tests())


def test_ntnd_15_1_15_2_16_and_28_reinforcements_show_the_allied_seat_nothing_of_the_markers():
    """Indistinguishability (leakcheck): with the campaign's inverted markers on the map, a Green
    Beret's placement hexes (15.1: not where Communist units stand), the militia and Montagnards it
    builds, withdrawals and the special units' purchases offer and do the same whatever the markers
    hold."""
    from .leakcheck import check_allied_commands, check_views, perturb
    s = campaign(6)
    s["scenario"]["features"] = sorted(set(s["scenario"]["features"]) | {"montagnards", "special_units", "fleet"})
    s["hm"].update({"I": "allied_control", "II": "allied_control", "LA": "allied_control"})
    s, _ = at(s, "a_reinforce")
    if s["decision"]["kind"] == "policy":
        s, _ = play(s, ALLIED, cmd("done"))
    s, _ = play(s, ALLIED, cmd("recall_green_beret", unit="us-gb-1"))
    s["units"]["us-gb-1"]["arrive"] = s["turn"]
    s["units"]["us-gb-2"]["loc"] = "1611"
    s["rp"]["US"] = 3
    assert s["markers"] and "us-gb-1" in _places(s)
    marked = {mk["loc"] for mk in s["markers"].values()}
    assert not marked & _places(s)["us-gb-1"]
    p = perturb(s)
    assert p is not None
    check_views(s, p)
    assert check_allied_commands(s, p)


def test_ntnd_16_1_montagnards_are_hill_tribesmen_fighting_for_the_allied_side():
    s = _reinforce(hm={"I": "pro_allied"})
    s["units"]["us-gb-1"]["loc"] = "1611"
    uid = _mix(s, "montagnard")
    s, _ = play(s, ALLIED, cmd("place", unit=uid, location="1611"))
    u = s["units"][uid]
    assert (u["side"], u["status"], u["loc"]) == (ALLIED, "map", "1611")   # an Allied unit on the map
    assert load_counters().type("montagnard").stacking_class == "militia"   # 16.3: they function as militia


def test_ntnd_5_6_1_cambodian_and_laotian_militia_only_where_a_green_beret_stands_in_their_country():
    """5.6.1: Cambodian and Laotian militia are placed (at once) in a hex of their country occupied by a U.S.
    Green Beret; only Green Berets raise militia there, and never in North Vietnam."""
    s = _reinforce()
    p = _places(s)
    assert not _by_type(s, p, "lao_militia") and not _by_type(s, p, "khmer_militia")   # no Green Beret there
    s["units"]["us-gb-3"]["loc"] = "0804"                                # a Green Beret in Laos
    p = _places(s)
    assert _by_type(s, p, "lao_militia") == {"0804"} and not _by_type(s, p, "khmer_militia")
    m = load_map()
    assert all(m.country_of(h) != "NV" for tid in ("lao_militia", "khmer_militia", "arvn_militia")
               for h in _by_type(s, p, tid))
    lao = _mix(s, "lao_militia")
    s, _ = play(s, ALLIED, cmd("place", unit=lao, location="0804"))
    assert s["units"][lao]["status"] == "map"                            # immediately available
