"""NTND 7 Hearts and Minds (and 3.1.2, 3.2.2, 4.1.5, 8.3, 15.3, 28.4.2) on a short-campaign state,
through the game's path: flow.enter/advance put the game at the phase, every answer goes through
NtndRuleset.legal_commands / apply (mapplay.play), dice fixed per command."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.combat import battles, resolution as combat
from afteraction.engine.games.ntnd.politics import hearts
from afteraction.engine.games.ntnd.movement import reach
from afteraction.engine.games.ntnd.movement.ground import Env
from afteraction.engine.games.ntnd.forces.operations import make_marker
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

from .leakcheck import canon, owner_footprint
from .mapplay import RS, at, done, legal, play
from .test_ntnd_rules import blank

C, A = "communist", "allied"


def camp() -> dict:
    """The short campaign with every unit off the map (Communist units in the mix, Allied ones far
    in the future) and every marker neutral."""
    s = initial_state("campaign_short", Context.for_tests())
    s["markers"] = {}
    for u in s["units"].values():
        u.update(loc=None, inv=False, mk=None)
        u["status"] = "mix" if u["side"] == C or u["status"] == "mix" else "sched"
        if u["side"] == A:
            u["arrive"] = 99
    s["hm"] = {a: "neutral" for a in s["hm"]}
    return s


def phoenix(s) -> str:
    """A Phoenix unit's record as 28.4.1's mobilization makes it (allied_specials.record; the set-up
    has none), in the mix: the test puts it on the map."""
    from afteraction.engine.games.ntnd.optional.allied_specials import record
    s["units"]["arvn-phoenix-1"] = record(s, "arvn-phoenix-1", "arvn_phoenix")
    return "arvn-phoenix-1"


def first(s, type_id, n=0):
    return sorted(uid for uid, u in s["units"].items() if u["type"] == type_id)[n]


def put(s, uid, loc):
    s["units"][uid].update(status="map", loc=loc, inv=False, mk=None)
    return uid


def hide(s, uids, loc):
    for u in uids:
        put(s, u, loc)
    return make_marker(s, list(uids), loc, Context.for_tests(), "test")


def of(events, t):
    return [e for e in events if e["t"] == t]


def cmd(action, **kw):
    from afteraction.engine.games.ntnd.rules import cmd as c
    return c(action, **kw)


# --- 3.1.2, 3.2.2, 7.1 -----------------------------------------------------------------

def test_ntnd_7_1_both_hearts_and_minds_phases_are_played_in_the_campaign_only():
    s = at(camp(), "c_hearts")
    assert s["decision"]["kind"] == "hearts" and s["decision"]["seat"] == C
    s = at(camp(), "a_hearts")
    assert s["decision"]["kind"] == "hearts" and s["decision"]["seat"] == A
    t = blank()
    t["step"] = 1   # Tet: skipped
    t = at(t, "c_hearts")
    assert t["phase"]["id"] != "c_hearts" or t["phase"].get("done")


def test_ntnd_3_1_2_communist_phase_ends_with_done():
    s = at(camp(), "c_hearts")
    s, ev = play(s, C, done())
    assert s["phase"]["id"] == "c_ops"


# --- 7.4, 15.3 ------------------------------------------------------------------------

def test_ntnd_7_4_expended_cadre_moves_marker_toward_communist_control_and_returns_to_mix():
    s = camp()
    cad = put(s, first(s, "vc_cadre"), "1522")   # III Corps (town hex: any hex of the area)
    pp = s["pp"]
    s = at(s, "c_hearts")
    s, ev = play(s, C, cmd("expend", unit=cad))
    assert s["hm"]["III"] == "pro_communist"
    assert s["units"][cad]["status"] == "mix" and s["pp"] == pp   # no Allied political points
    assert of(ev, "hearts")[0]["rule"] == "NTND 7.4"


def test_ntnd_7_4_allied_control_box_each_unit_rolls_1_to_3_no_effect():
    s = camp()
    s["hm"]["III"] = "allied_control"
    a, b = put(s, first(s, "communist_supply"), "1522"), put(s, first(s, "communist_supply", 1), "1522")
    s = at(s, "c_hearts")
    s, ev = play(s, C, cmd("expend", unit=a), faces=[3])
    assert s["hm"]["III"] == "allied_control" and of(ev, "hearts-no-effect")
    s, ev = play(s, C, cmd("expend", unit=b), faces=[4])
    assert s["hm"]["III"] == "pro_allied"


def test_ntnd_7_4_a_cadre_abroad_is_no_terror_squad_8_9_1():
    s = camp()
    cad = put(s, first(s, "vc_cadre"), "0907")   # a Laotian hex
    s = at(s, "c_hearts")
    assert cmd("expend", unit=cad) not in legal(s, C)
    with pytest.raises(Rejection) as e:
        RS.apply(s, C, cmd("expend", unit=cad), Context.for_tests())
    assert e.value.code == "ILLEGAL_EXPEND"


def test_ntnd_15_3_green_berets_make_the_first_units_of_the_turn_roll():
    s = camp()
    put(s, first(s, "us_green_beret"), "1424")
    a, b = put(s, first(s, "vc_cadre"), "1522"), put(s, first(s, "vc_cadre", 1), "1522")
    s = at(s, "c_hearts")
    s, ev = play(s, C, cmd("expend", unit=a), faces=[2])
    assert s["hm"]["III"] == "neutral" and of(ev, "hearts-no-effect")[0]["rule"] == "NTND 15.3"
    s, ev = play(s, C, cmd("expend", unit=b))   # one Green Beret: only the first unit rolls
    assert not of(ev, "roll") and s["hm"]["III"] == "pro_communist"


def test_ntnd_7_4_an_expended_inverted_unit_is_never_named_in_public():
    """The public learns the area (its marker moves) and which marker was re-formed, as for any unit
    leaving a hidden stack (6.1, 18.6.2): not the unit, not whether it was a supply unit or a cadre,
    not what the stack still holds (leak check by indistinguishability)."""
    def pos(kind):
        s = camp()
        uid = first(s, kind)
        mid = hide(s, [uid, first(s, "communist_dummy")], "1522")
        return at(s, "c_hearts"), uid, mid
    s1, u1, _ = pos("communist_supply")
    s2, u2, _ = pos("vc_cadre")
    f1, f2 = owner_footprint(s1, cmd("expend", unit=u1)), owner_footprint(s2, cmd("expend", unit=u2))
    assert f1[0] == f2[0] == "accepted"
    assert f1[1:] == f2[1:]
    assert u1 not in f1[1] and "communist_supply" not in f1[1] and "communist_dummy" not in f1[1]
    n = RS.apply(s1, C, cmd("expend", unit=u1), Context.for_tests())
    assert n["hm"]["III"] == "pro_communist"
    assert u1 not in canon(RS.view(n, A)) and "communist_dummy" not in canon(RS.view(n, None))


# --- 7.2, 7.2.1, 7.2.2, 28.4.2 ---------------------------------------------------------

def allied_phase(rp, **hm):
    s = camp()
    s["hm"].update(hm)
    s = at(s, "a_hearts")
    s["rp"] = dict(rp)
    return s


def test_ntnd_7_2_2_each_point_moves_the_marker_one_box():
    s = allied_phase({"US": 2, "SEATO": 1, "INDOCHINESE": 1})
    s, _ = play(s, A, cmd("allocate", pool="US", area="II", points=2))
    assert s["rp"]["US"] == 0
    s, ev = play(s, A, done(), faces=[6])   # 7.2.1: no corruption
    assert s["hm"]["II"] == "allied_control" and [e["rule"] for e in of(ev, "hearts")] == ["NTND 7.2.2"] * 2
    assert s["phase"]["id"] == "a_move"


def test_ntnd_7_2_2_in_the_communist_control_box_each_point_rolls():
    s = allied_phase({"US": 2}, I="communist_control")
    s, _ = play(s, A, cmd("allocate", pool="US", area="I", points=2))
    s, ev = play(s, A, done(), faces=[6, 3, 2])   # corruption die 6; each point rolls: 3 and 2, both lost
    assert s["hm"]["I"] == "communist_control" and len(of(ev, "hearts-no-effect")) == 2
    s = allied_phase({"US": 2}, I="communist_control")
    s, _ = play(s, A, cmd("allocate", pool="US", area="I", points=2))
    s, ev = play(s, A, done(), faces=[6, 4])   # the first point moves it out: the second needs no roll
    assert s["hm"]["I"] == "neutral"


def test_ntnd_7_2_1_pools_influence_only_their_areas():
    s = allied_phase({"US": 1, "SEATO": 1, "INDOCHINESE": 1, "SV": 1})
    offered = {(c.ntnd.allocate.pool, c.ntnd.allocate.area) for c in legal(s, A)
               if c.ntnd.WhichOneof("action") == "allocate"}
    assert {a for p, a in offered if p == "INDOCHINESE"} == {"CA", "LA"}
    assert {a for p, a in offered if p == "SV"} == {"I", "II", "III", "IV"}
    assert {a for p, a in offered if p == "US"} == {a for p, a in offered if p == "SEATO"} == set(hearts.SV_CORPS) | {"CA", "LA"}
    for bad in (cmd("allocate", pool="INDOCHINESE", area="I", points=1), cmd("allocate", pool="SV", area="LA", points=1),
                cmd("allocate", pool="US", area="I", points=2)):
        with pytest.raises(Rejection) as e:
            RS.apply(RS.copy_state(s), A, bad, Context.for_tests())
        assert e.value.code == "ILLEGAL_ALLOCATION"


def test_ntnd_7_2_1_corruption_loses_half_rounded_up_the_allied_player_chooses():
    s = allied_phase({"US": 1, "SV": 2})
    s, _ = play(s, A, cmd("allocate", pool="US", area="I", points=1))
    s, _ = play(s, A, cmd("allocate", pool="SV", area="II", points=2))
    s, ev = play(s, A, done(), faces=[2])
    assert of(ev, "hm-corruption")[0]["lost"] == 2 and s["decision"]["kind"] == "corruption"
    assert cmd("allocate", pool="US", area="I", points=2) not in legal(s, A)
    s, ev = play(s, A, cmd("allocate", pool="SV", area="II", points=2))
    assert s["hm"]["I"] == "pro_allied" and s["hm"]["II"] == "neutral" and s["phase"]["id"] == "a_move"


def test_ntnd_7_2_points_come_from_the_replacement_points_left():
    s = allied_phase({"US": 0, "SEATO": 1})
    pools = {c.ntnd.allocate.pool for c in legal(s, A) if c.ntnd.WhichOneof("action") == "allocate"}
    assert pools == {"SEATO"}


def test_ntnd_28_4_2_phoenix_unit_expended_moves_the_marker_on_3_to_6():
    s = camp()
    ph = put(s, phoenix(s), "1522")
    s = at(s, "a_hearts")
    s["rp"] = {}
    s, ev = play(s, A, cmd("expend", unit=ph), faces=[3])
    assert s["hm"]["III"] == "pro_allied" and s["units"][ph]["status"] == "mix"
    s = camp()
    s["hm"]["III"] = "communist_control"
    ph = put(s, phoenix(s), "1522")
    s = at(s, "a_hearts")
    s, ev = play(s, A, cmd("expend", unit=ph), faces=[3])
    assert s["hm"]["III"] == "communist_control"   # Communist Controlled: 4-6 only


def test_ntnd_15_3_phoenix_units_restrict_the_communist_like_green_berets():
    s = camp()
    put(s, phoenix(s), "1424")
    cad = put(s, first(s, "vc_cadre"), "1522")
    s = at(s, "c_hearts")
    s, ev = play(s, C, cmd("expend", unit=cad), faces=[1])
    assert s["hm"]["III"] == "neutral"


# --- 7.3, 7.3.2, 7.4.2 (the political phases) ------------------------------------------

def test_ntnd_7_3_occupation_of_every_town_moves_the_marker_at_the_allied_political_phase():
    s = camp()
    inf = sorted(uid for uid, u in s["units"].items() if u["side"] == A and u["type"].endswith(("brigade", "regiment")))
    assert len(inf) >= len(hearts.towns_of("LA"))
    for uid, h in zip(inf, hearts.towns_of("LA")):
        put(s, uid, h)
    s = at(s, "a_politics")
    assert s["hm"]["LA"] == "pro_allied"
    s2 = camp()
    for uid, h in zip(inf, hearts.towns_of("LA")[:-1]):
        put(s2, uid, h)
    s2 = at(s2, "a_politics")
    assert s2["hm"]["LA"] == "neutral"


def test_ntnd_7_3_2_and_7_4_2_track_points_at_the_political_phases():
    s = camp()
    s["hm"].update(I="pro_allied", II="allied_control", III="pro_communist", IV="communist_control")
    from .campaign_states import at_phase

    def track(ev):   # the Hearts and Minds items' moves (the rest of 22.4's table scores too)
        return {(e["rule"], e["area"]): e["pp"] for e in ev if e["t"] == "pp" and e["item"] == "hearts-and-minds"}
    assert track(at_phase(s, "c_politics")) == {("NTND 7.4.2", "III"): -1, ("NTND 7.4.2", "IV"): -2}
    assert track(at_phase(s, "a_politics")) == {("NTND 7.3.2", "I"): 1, ("NTND 7.3.2", "II"): 2,
                                                ("NTND 7.4.2", "III"): -1, ("NTND 7.4.2", "IV"): -2}


# --- 7.3.3 ---------------------------------------------------------------------------

def test_ntnd_7_3_3_militia_morale_plus_one_in_an_allied_controlled_corps():
    s = camp()
    s["hm"]["III"] = "allied_control"
    mil = put(s, first(s, "arvn_militia"), "1522")
    s = at(s, "a_combat")
    m, terms = combat.current_morale(battles.combat_unit(s, mil), own_turn=True)
    assert "NTND 7.3.3" in [t.rule for t in terms]
    s["hm"]["III"] = "neutral"   # what counts is the start of the combat phase
    m2, _ = combat.current_morale(battles.combat_unit(s, mil), own_turn=True)
    assert m2 == m
    t = camp()
    put(t, mil, "1522")
    t = at(t, "a_combat")
    m3, _ = combat.current_morale(battles.combat_unit(t, mil), own_turn=True)
    assert m3 == m - 1


# --- 7.3.4, 7.4.1, 4.1.5 (Communist recruitment) ----------------------------------------

def _placements(s):
    return [c.ntnd.place for c in legal(s, C) if c.ntnd.WhichOneof("action") == "place"]


def test_ntnd_7_3_4_no_guerrillas_recruited_into_an_allied_controlled_corps():
    from afteraction.engine.games.ntnd.politics.hearts import area_of
    s = camp()
    s["hm"]["III"] = "allied_control"
    s = at(s, "c_recruit")
    assert not [p for p in _placements(s) if p.kind in ("cadre", "dummy") and area_of(p.location) == "III"]
    assert [p for p in _placements(s) if p.kind == "cadre" and area_of(p.location) == "II"]


def test_ntnd_7_3_4_during_a_national_uprising_each_guerrilla_rolls_5_6_eliminated():
    from afteraction.engine.games.ntnd.politics.hearts import area_of
    s = camp()
    s["hm"]["III"] = "allied_control"
    s["uprising"] = {"turn": s["turn"]}                                  # declared this turn (uprising.declare)
    s = at(s, "c_recruit")
    p = next(p for p in _placements(s) if p.kind == "cadre" and p.nationality == "VC" and area_of(p.location) == "III")
    c = cmd("place", kind="cadre", nationality="VC", location=p.location, inverted=False)
    n, ev = play(RS.copy_state(s), C, c, faces=[5])
    # in the uprising's turns the VC cadres are the uprising's (26.2, 26.3): 7.3.4's exception roll is
    # 26.8's, one die for the unit (uprising.place), not two
    assert len(of(ev, "roll")) == 1 and of(ev, "uprising-placement")[0]["placed"] is False
    assert not [u for u in n["units"].values() if u["loc"] == p.location]
    n, ev = play(RS.copy_state(s), C, c, faces=[4])
    assert [u for u in n["units"].values() if u["loc"] == p.location]


def test_ntnd_7_4_1_extra_regiment_cadre_and_supply_per_communist_controlled_area():
    from afteraction.engine.games.ntnd.politics.hearts import area_of
    s = camp()
    s["hm"]["LA"] = "communist_control"
    s = at(s, "c_recruit")
    got = {(p.kind, p.nationality) for p in _placements(s) if area_of(p.location) == "LA"}
    assert {("regiment", "PL"), ("supply", "PL"), ("cadre", "PL")} <= got
    assert s["phase"]["extra"]["LA"] >= 1
    p = next(p for p in _placements(s) if p.kind == "regiment")
    n, ev = play(s, C, cmd("place", kind="regiment", nationality="PL", location=p.location, inverted=False))
    assert [u["type"] for u in n["units"].values() if u["loc"] == p.location] == ["pl_regiment"]
    assert not [q for q in _placements(n) if q.kind == "regiment"]


def test_ntnd_4_1_5_no_extra_units_without_communist_control():
    s = at(camp(), "c_recruit")
    assert not [p for p in _placements(s) if p.kind in ("regiment", "supply")]


# --- 8.3, 7.4.3 ---------------------------------------------------------------------------

def test_ntnd_8_3_and_7_4_3_allied_moves_in_a_communist_controlled_corps_pay_more():
    def reach_of(control):
        s = camp()
        s["hm"]["II"] = control
        uid = put(s, first(s, "us_infantry_brigade"), "1916")   # a town of II Corps
        s["units"][uid]["corps"] = "II"
        s = at(s, "a_move")
        return set(reach.reachable(s, uid, Env(s))), s
    free, _ = reach_of("neutral")
    slow, s = reach_of("communist_control")
    assert s["phase"]["local_vc"] == ["II"]
    assert slow < free


def test_ntnd_8_3_local_vc_step_costs():
    from afteraction.engine.games.ntnd.components.map import load_map
    m = load_map()
    a, b = next((a, b) for a in sorted(m.hexes) for b in m.hex_neighbours(a)
                if m.hexes[a].is_land and b in m.hexes and m.road_between(a, b) and m.hexes[b].terrain == "jungle"
                and not m.river_between(a, b))
    from afteraction.engine.games.ntnd.movement.ground import _step_q
    assert _step_q("allied_ground", a, b) == 2              # road: 1/2 MP (quarters)
    assert hearts.local_vc_step_q("allied_ground", a, b) > _step_q("allied_ground", a, b)
    assert hearts.local_vc_step_q("airmobile", a, b) == _step_q("airmobile", a, b)   # 7.4.3 exception


# --- 7.5 ----------------------------------------------------------------------------------

def test_ntnd_7_5_strategic_bombing_moves_the_area_marker_toward_communist_control():
    """Air operations (11) are not implemented: the function is ready for them."""
    s = camp()
    ctx = Context.for_tests()
    assert hearts.strategic_bombing(s, "IV", ctx) == "pro_communist"
    assert s["hm"] == {**{a: "neutral" for a in s["hm"]}, "IV": "pro_communist"}


# --- leaks: the Allied side of the Hearts and Minds phases -------------------------------

def _hidden_position(phase):
    s = camp()
    s["hm"].update(I="communist_control", III="allied_control")
    hide(s, [first(s, "communist_supply"), first(s, "vc_cadre")], "1523")
    hide(s, [first(s, "communist_dummy")], "1622")
    hide(s, [first(s, "vc_regiment"), first(s, "communist_dummy", 1)], "1412")
    put(s, first(s, "us_green_beret"), "1424")
    return at(s, phase)


@pytest.mark.parametrize("phase", ["c_hearts", "a_hearts", "c_recruit"])
def test_ntnd_7_hearts_and_minds_phases_show_the_allied_seat_nothing_of_the_markers(phase):
    """Indistinguishability (leakcheck): the markers' contents rotated, the Allied and spectator views,
    the public decision, the Allied legal commands and the public effects of Allied commands in the
    Hearts and Minds phases (and 7.3.4/7.4.1 recruitment) are the same."""
    from .leakcheck import check_allied_commands, check_views, perturb
    s = _hidden_position(phase)
    if phase == "a_hearts":
        s["rp"] = {"US": 2, "SV": 1}
    p = perturb(s)
    assert p is not None
    check_views(s, p)
    assert check_allied_commands(s, p)


def test_ntnd_7_2_random_event_moves_come_in_the_next_allied_hearts_and_minds_phase():
    """s["mods"]["hm_next"] (written by a random event, 21): a named area's marker moves on entering
    the phase; "allied_choice_sv" waits for the Allied player to name a corps (done is not offered
    until he has); the die of 7.2.2 is not rolled (random_events.json: not an expenditure)."""
    s = camp()
    s["hm"]["I"] = "communist_control"
    s["mods"] = {"hm_next": [{"area": "LA", "boxes": 1, "toward": "communist"},
                             {"area": "allied_choice_sv", "boxes": 1, "toward": "allied"}]}
    s = at(s, "a_hearts")
    assert s["hm"]["LA"] == "pro_communist" and "hm_next" not in s["mods"]
    assert done() not in legal(s, A)
    s, ev = play(s, A, cmd("allocate", pool="EVENT", area="I", points=1))
    assert s["hm"]["I"] == "pro_communist" and not of(ev, "roll") and done() in legal(s, A)
