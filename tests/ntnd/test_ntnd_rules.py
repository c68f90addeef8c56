"""NTND rules of part 1 on small positions built from the Tet set-up (rules 3, 4, 5, 6, 8, 9, 17, 18)."""
from __future__ import annotations


import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.forces import corps, operations, recruitment
from afteraction.engine.games.ntnd.movement import ground as movement, reach as paths_reach
from afteraction.engine.games.ntnd.supply import lines as supply
from afteraction.engine.games.ntnd.sequence.turns import PHASES
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context


def blank(turn_label="January/February 1968"):
    """The Tet state with every unit off the map (Communist units in the mix, Allied scheduled far ahead)."""
    s = initial_state("tet", Context.for_tests())
    s["markers"] = {}
    for u in s["units"].values():
        u.update(loc=None, inv=False, mk=None)
        u["status"] = "mix" if u["side"] == "communist" or u["status"] == "mix" else "sched"
        if u["side"] == "allied":
            u["arrive"] = 99
    s["turn_label"] = turn_label
    s["phase"] = {"id": "c_move"}
    return s


def put(s, uid, loc):
    s["units"][uid].update(status="map", loc=loc, inv=False, mk=None)
    return uid


def hide(s, uids, loc, ctx=None):
    for u in uids:
        put(s, u, loc)
    return operations.make_marker(s, list(uids), loc, ctx or Context.for_tests(), "test")


# --- 3 -------------------------------------------------------------------------

def test_ntnd_3_turn_sequence_seven_communist_and_eight_allied_phases():
    assert [p.rule for p in PHASES if p.player == "communist" and p.rule.startswith("3.1")] == \
        ["3.1.1", "3.1.2", "3.1.3", "3.1.4", "3.1.6", "3.1.7"]
    assert [p.rule for p in PHASES if p.rule.startswith("3.1")] == [f"3.1.{i}" for i in range(1, 8)]
    assert [p.rule for p in PHASES if p.rule.startswith("3.2")] == [f"3.2.{i}" for i in range(1, 9)]
    assert {p.id for p in PHASES if p.part == 2} == {"c_hearts", "a_hearts", "a_air", "a_random"}


def test_ntnd_3_part2_phases_are_steps_that_say_they_do_nothing_yet():
    from afteraction.engine.games.ntnd.phases import FLOW
    _enter = FLOW.enter
    s = blank()
    s["step"] = [p.id for p in PHASES].index("c_hearts")
    ctx = Context.for_tests()
    _enter(s, ctx)
    skipped = [e for e, _ in ctx.events if e["t"] == "phase-skipped"]
    assert skipped and "part 2" in skipped[0]["note"] and s["phase"]["done"]


# --- 8.5.2 infiltration ----------------------------------------------------------

def _zoc_setup():
    """A US brigade (morale 4: ZOC) at 1715 (Kontum) and a hidden VC regiment two hexes away."""
    s = blank()
    m = movement.load_map()
    put(s, "us-1-4", "1715")
    pairs = [(z, n) for z in m.hex_neighbours("1715") if m.hexes[z].country == "SV" and not m.hexes[z].town
             for n in m.hex_neighbours(z) if m.hexes[n].country == "SV" and m.distance(n, "1715") == 2]
    zoc_hex, start = pairs[0]
    mid = hide(s, ["vc-qn"], start)
    return s, mid, start, zoc_hex


# --- 8.2 allowances --------------------------------------------------------------

def test_ntnd_18_2_1_3_out_of_supply_halves_movement():
    s = blank()
    put(s, "nva-320", "1307")
    s["phase"]["out_of_supply"] = ["nva-320"]
    assert movement.allowance_q(s, movement.mover(s, "nva-320")) == 5 * movement.Q


# --- 8.9, 5.3, 9.1, 8.10 -------------------------------------------------------------

def test_ntnd_5_3_corps_units_stay_within_their_corps():
    s = blank()
    put(s, "us-1-1", "1323")
    m = movement.load_map()
    assert all(m.hex(d).corps == "III" for d in paths_reach.reachable(s, "us-1-1"))
    put(s, "us-199", "1424")  # independent brigade (5.5): may leave the corps
    assert any(m.hex(d).corps != "III" for d in paths_reach.reachable(s, "us-199"))


# --- 6 and 17 -------------------------------------------------------------------------

def test_ntnd_6_2_tanks_never_invert():
    s = blank()
    put(s, "nva-202tk", "1309")
    put(s, "nva-304", "1309")
    opts = operations.invert_options(s)
    assert opts == [("1309", ("nva-304",))]
    with pytest.raises(Rejection):
        operations.invert(s, "1309", ["nva-202tk"], Context.for_tests())


def test_ntnd_6_2_invert_commits_identity_privately_and_flip_opens_it():
    s = blank()
    put(s, "nva-304", "1309")
    ctx = Context.for_tests()
    mid = operations.invert(s, "1309", ["nva-304"], ctx)
    private = [(e, to) for e, to in ctx.events if to is not None]
    public = [e for e, to in ctx.events if to is None]
    assert private and private[0][1] == "communist" and private[0][0]["units"][0]["id"] == "nva-304"
    assert "nva-304" not in repr(public)
    ctx2 = Context.for_tests()
    up = operations.flip_marker(s, mid, ctx2, "NTND 6.2")
    assert up == ["nva-304"] and any(e["t"] == "open" for e, _ in ctx2.events)


def test_ntnd_17_2_dummies_are_destroyed_when_turned_face_up():
    s = blank()
    mid = hide(s, ["communist-dummy-1", "vc-dak-to"], "1813")
    up = operations.flip_marker(s, mid, Context.for_tests(), "test")
    assert up == ["vc-dak-to"]
    assert s["units"]["communist-dummy-1"]["status"] == "mix" and s["units"]["communist-dummy-1"]["loc"] is None
    assert s["pp"] == 100  # no points (17.2)


def test_ntnd_6_1_1_promotion_needs_an_adjacent_supply_unit():
    s = blank()
    put(s, "vc-cadre-1", "1812")
    assert operations.promotion_options(s) == []
    put(s, "sup-ashau", "1812")
    opts = operations.promotion_options(s)
    assert ("vc-cadre-1", "sup-ashau", "regiment") in opts and ("vc-cadre-1", "sup-ashau", "sapper") in opts
    operations.promote(s, "vc-cadre-1", "sup-ashau", "regiment", Context.for_tests())
    assert s["units"]["vc-cadre-1"]["status"] == "mix" and s["units"]["sup-ashau"]["status"] == "mix"
    assert any(u["type"] == "vc_regiment" and u["loc"] == "1812" for u in s["units"].values())


def test_ntnd_6_1_3_break_down_in_laos_gives_pathet_lao_units():
    s = blank()
    m = movement.load_map()
    lao = next(h for h, x in sorted(m.hexes.items()) if x.country == "LA" and x.is_land)
    put(s, "nva-320", lao)
    operations.break_down(s, "nva-320", Context.for_tests())
    here = sorted(u["type"] for u in s["units"].values() if u["loc"] == lao)
    assert here == ["pl_cadre", "pl_regiment"]


# --- 4 and 5 ----------------------------------------------------------------------------

def test_ntnd_4_1_1_cadres_avoid_clear_towns_and_allied_units():
    s = blank()
    put(s, "us-1-4", "1714")
    m = movement.load_map()
    hexes = recruitment.cadre_hexes(s, "VC")
    assert hexes and all(m.hex(h).country == "SV" and m.hex(h).terrain != "clear" and not m.hex(h).town
                         for h in hexes)
    assert "1714" not in hexes and not set(m.hex_neighbours("1714")) & set(hexes)


def test_ntnd_4_1_3_two_nva_units_to_china_and_4_1_7_division_cap():
    s = blank()
    s["phase"] = {"id": "c_recruit", "cadres": 0, "extra": {}, "nva": 2, "dummies": False}
    opts = recruitment.place_options(s)
    assert {o["kind"] for o in opts} == {"nva_artillery", "nva_division", "nva_sam"}
    assert all(o["location"] == "CHINA" for o in opts)
    for i, u in enumerate(x for x in sorted(s["units"]) if s["units"][x]["type"] == "nva_division"):
        if i < 10:
            put(s, u, "HANOI")
    assert "nva_division" not in {o["kind"] for o in recruitment.place_options(s)}


def test_ntnd_4_1_4_supply_units_appear_in_the_three_zones():
    s = blank()
    s["phase"] = {"id": "c_recruit"}
    recruitment.start_communist_recruitment(s, Context.for_tests())
    locs = sorted(u["loc"] for u in s["units"].values() if u["type"] == "communist_supply" and u["status"] == "map")
    assert locs == ["CHINA", "HAIPHONG", "HANOI"]
    assert s["phase"]["cadres"] == 3 and s["phase"]["nva"] == 2


def test_ntnd_4_5_1_additional_recruits_roll_per_corps():
    s = blank()
    put(s, "vc-sgn-2", "1609")  # Hue: a city (2 points) in I Corps, face up
    s["phase"] = {"id": "c_recruit"}
    ctx = Context.for_tests(faces=[1])
    recruitment.start_communist_recruitment(s, ctx)
    assert s["phase"]["extra"] == {"I": 1}


def test_ntnd_5_4_reinforcements_enter_at_their_corps_headquarters():
    s = blank()
    put(s, "us-5mar", "1609")          # 5.3.2: a Marine unit in I Corps: the others return there
    s["units"]["us-4mar"].update(status="sched", arrive=1)
    s["turn"] = 1
    assert recruitment.reinforcement_options(s) == [("us-4mar", "1810")]  # Da Nang, I Corps HQ
    s["units"]["us-3-1cav"].update(status="sched", arrive=1)   # airmobile: independent (5.5)
    opts = [loc for u, loc in recruitment.reinforcement_options(s) if u == "us-3-1cav"]
    assert opts == ["1227", "1424", "1810", "2121"]


def test_ntnd_5_4_enemy_held_headquarters_sends_units_elsewhere():
    s = blank()
    s["units"]["us-4mar"].update(status="sched", arrive=1)
    put(s, "us-5mar", "1609")          # 5.3.2: bound to I Corps
    put(s, "vc-6nva", "1810")
    opts = [loc for u, loc in recruitment.reinforcement_options(s)]
    m = movement.load_map()
    assert "1810" not in opts and all(m.hex(h).corps == "I" and m.hex(h).town.is_city for h in opts)


def test_ntnd_5_8_one_us_firebase_relocation_per_turn():
    s = blank()
    put(s, "us-fb-pleiku", "1716")
    put(s, "us-1-4", "1714")
    s["phase"] = {"id": "a_reinforce"}
    assert ("us-fb-pleiku", "1714") in corps.relocate_options(s)
    corps.relocate(s, "us-fb-pleiku", "1714", Context.for_tests())
    assert s["units"]["us-fb-pleiku"]["loc"] == "1714" and corps.relocate_options(s) == []


# --- 18 ---------------------------------------------------------------------------------

def test_ntnd_18_1_2_communist_supply_within_six_mp():
    s = blank()
    put(s, "nva-320", "1307")   # North Vietnam: in supply
    assert supply.in_supply(s, s["units"]["nva-320"])
    put(s, "nva-304", "1321")   # deep south, no supply unit
    assert not supply.in_supply(s, s["units"]["nva-304"])
    put(s, "sup-353", "1221")
    ok, used = supply.communist_supply_trace(s, s["units"]["nva-304"])
    assert ok and used == "sup-353"


def test_ntnd_18_1_1_allied_supply_traces_to_a_held_city_not_through_enemy_zoc():
    s = blank()
    put(s, "us-1-1", "1323")
    assert not supply.in_supply(s, s["units"]["us-1-1"])   # no held HQ, city or firebase
    put(s, "us-199", "1424")                               # Saigon held: III Corps HQ and a city
    assert supply.in_supply(s, s["units"]["us-1-1"])
    m = movement.load_map()
    ring = [h for h in m.hex_neighbours("1323") if m.hexes[h].is_land]
    pool = sorted(u for u, x in s["units"].items() if x["type"] in ("nva_division", "vc_regiment"))
    for h, u in zip(ring, pool):                           # enemy units (and ZOC) all around
        put(s, u, h)
    assert not supply.in_supply(s, s["units"]["us-1-1"])


def test_ntnd_4_2_7_purchased_firebases_are_placed_at_once_other_units_next_turn():
    s = blank()
    s["turn"] = 2
    s["rp"] = {"US": 2, "SEATO": 1, "INDOCHINESE": 1, "SV": 1}
    put(s, "us-1-1", "1323")
    s["units"]["us-2-1"].update(status="dead", loc=None)
    opts = recruitment.purchase_options(s)
    fb = next((u, loc) for u, loc in opts if s["units"][u]["type"] == "us_firebase")
    assert fb[1] == "1323"                                  # 5.6.2: with a U.S. ground combat unit
    recruitment.purchase(s, fb[0], fb[1], Context.for_tests())
    assert s["units"][fb[0]]["status"] == "map" and s["units"][fb[0]]["loc"] == "1323"
    assert ("us-2-1", "") in recruitment.purchase_options(s)
    recruitment.purchase(s, "us-2-1", "", Context.for_tests())
    assert s["units"]["us-2-1"]["status"] == "sched" and s["units"]["us-2-1"]["arrive"] == 3
    assert s["pp"] == 98 and s["rp"]["US"] == 0            # 4.2.3: -2 political points per U.S. unit
    assert recruitment.purchase_options(s) == [] or all(
        recruitment._payer(s, s["units"][u]["nat"]) for u, _ in recruitment.purchase_options(s))


def test_ntnd_state_is_state_data_and_the_engines_copy_of_it_is_independent():
    """The one copy (engine/snapshot.py) covers every key: the old hand list of keys shared
    neutral, the scenario and the political points between the live state and the copy a command was applied to."""
    from afteraction.engine import snapshot
    from afteraction.engine.games.ntnd.rules import NtndRuleset
    s = initial_state("tet", Context.for_tests())
    s["battle"] = {"todo": ["advance"]}
    before = snapshot.digest(s)
    c = NtndRuleset().copy_state(s)
    assert snapshot.digest(c) == before
    c["battle"]["todo"].pop()
    c["units"]["us-1-1"]["loc"] = "0101"
    c["phase"]["x"] = 1
    c["scenario"]["id"] = "other"
    c["neutral"].append("XX")
    c["flags"]["x"] = 1
    assert snapshot.digest(s) == before and s["units"]["us-1-1"]["loc"] == "1323"


def test_ntnd_5_3_units_in_another_corps_zone_are_out_of_supply():
    s = blank()
    put(s, "us-199", "1424")
    put(s, "us-1-1", "1423")
    assert supply.in_supply(s, s["units"]["us-1-1"])
    s["units"]["us-1-1"]["corps"] = "II"
    assert not supply.in_supply(s, s["units"]["us-1-1"])


def test_ntnd_5_7_a_group_changing_corps_keeps_away_from_enemy_units():
    s = blank()
    s["phase"] = {"id": "a_reinforce"}
    for u in ("us-1-1", "us-2-1", "us-3-1"):
        put(s, u, {"us-1-1": "1323", "us-2-1": "1423", "us-3-1": "1322"}[u])
    assert ("1st Infantry Div", "II") in corps.reassign_options(s)
    corps.reassign(s, "1st Infantry Div", "II", Context.for_tests())
    assert s["units"]["us-2-1"]["corps"] == "II"
    put(s, "nva-7", "1624")
    s["phase"] = {"id": "a_move"}
    m = movement.load_map()
    assert all(not m.adjacent(d, "1624") for d in paths_reach.reachable(s, "us-2-1") if not d.startswith("sea:"))


def test_ntnd_19_1_3_a_defending_stack_is_attacked_once():
    from afteraction.engine.games.ntnd.combat import battles
    s = blank()
    s["phase"] = {"id": "a_combat", "defended": ["vc-dak-to"]}
    put(s, "us-1-4", "1714")
    put(s, "vc-dak-to", "1713")
    assert battles.attack_options(s, "allied") == []


def test_ntnd_19_3_5_airmobile_units_may_retreat_to_a_held_town_in_range():
    from afteraction.engine.games.ntnd.combat import aftermath
    s = blank()
    put(s, "us-1-1cav", "1509")
    put(s, "us-5mar", "1810")            # Da Nang held by the Allies, not adjacent, in range (I Corps)
    dests = aftermath.retreat_destinations(s, "us-1-1cav")
    assert not movement.load_map().adjacent("1509", "1810") and "1810" in dests
    put(s, "us-1-4", "1714")
    s["units"]["us-1-4"]["corps"] = "II"
    assert "1810" not in aftermath.retreat_destinations(s, "us-1-4")   # not airmobile


def test_ntnd_12_3_airmobile_arrival_next_to_communist_aa_helps_the_communist_total():
    from afteraction.engine.games.ntnd.combat import battles
    s = blank()
    put(s, "us-1-1cav", "1509")
    m = movement.load_map()
    put(s, "nva-art-164", next(n for n in m.hex_neighbours("1509") if m.hexes[n].is_land))
    s["flags"]["air_entered"] = {"us-1-1cav": s["turn"]}
    assert battles._aa_vs_airmobile(s, ["us-1-1cav"])
    s["flags"]["air_entered"] = {}
    assert not battles._aa_vs_airmobile(s, ["us-1-1cav"])


def test_ntnd_19_3_8_retreat_into_a_hex_under_attack_has_no_effect_there():
    from afteraction.engine.games.ntnd.combat import aftermath, battles
    m = movement.load_map()
    s = blank()
    s["phase"] = {"id": "c_combat"}
    put(s, "us-2-4", "1715")
    target = "1716"
    assert m.adjacent("1715", target)
    put(s, "us-3-4", target)
    s["attacks"] = [{"target": target, "attackers": []}]
    assert target in aftermath.retreat_destinations(s, "us-2-4")
    s["battle"] = {"side": "communist", "plan": ["us-2-4"], "mode": "must"}
    aftermath.apply_retreat(s, "us-2-4", target, Context.for_tests())
    assert s["phase"]["retreated_into"] == {target: ["us-2-4"]}
    put(s, "vc-qn", next(n for n in m.hex_neighbours(target) if n not in ("1715",) and m.hexes[n].is_land
                         and m.hexes[n].country == "SV"))
    s["phase"]["attacked"], s["phase"]["defended"] = [], []
    ctx = Context.for_tests(faces=[1, 1])
    battles.start_battle(s, "communist", target, ["vc-qn"], ctx)
    attack = next(e for e, _ in ctx.events if e["t"] == "attack")
    assert attack["defenders"] == ["us-3-4"]


def test_ntnd_15_2_3_2_militia_go_with_their_green_beret():
    from afteraction.engine.games.ntnd.politics.victory import eliminate
    s = blank()
    m = movement.load_map()
    put(s, "us-gb-3", "1717")
    field = next(h for h in m.hex_neighbours("1717") if m.hexes[h].is_land and not m.hexes[h].town)
    put(s, "arvn-mil-danang", field)
    eliminate(s, "us-gb-3", Context.for_tests(), "test")
    assert s["units"]["arvn-mil-danang"]["status"] == "mix" and s["pp"] == 99   # the militia costs nothing


def test_ntnd_15_2_1_militia_move_freely_inside_a_green_beret_zoi():
    s = blank()
    m = movement.load_map()
    put(s, "us-gb-3", "1717")
    field = next(h for h in m.hex_neighbours("1717") if m.hexes[h].is_land and m.hexes[h].country == "SV")
    put(s, "arvn-mil-danang", field)
    reach = paths_reach.reachable(s, "arvn-mil-danang")
    assert reach and all(m.distance(d, "1717") <= 2 and m.hex(d).country == "SV" for d in reach)
    s["units"]["us-gb-3"].update(status="dead", loc=None)
    assert paths_reach.reachable(s, "arvn-mil-danang") == {}
