"""NTND movement rules of part 1 on small positions: 8 (allowances, ZOC/ZOI and infiltration, sea and
amphibious moves, reaction, national limits, stacking), 9 (zones), 14.1.3 (patrolled rivers)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from afteraction.engine.games.ntnd.movement import ground as movement, reach as paths_reach, reaction
from afteraction.engine.games.ntnd.movement import national
from afteraction.engine.games.ntnd.movement import stacking
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.forces import operations, recruitment
from afteraction.engine.games.ntnd.movement.moves import _walk
from afteraction.engine.errors import Rejection
from afteraction.engine.ruleset import Context

from .test_ntnd_rules import _zoc_setup, blank, hide, put


def test_ntnd_8_5_2_infiltration_odds():
    m = movement.load_map()
    clear = next(h for h, x in sorted(m.hexes.items()) if x.is_land and x.is_clear)
    jungle = next(h for h, x in sorted(m.hexes.items()) if x.terrain == "jungle" and not x.town)
    town = next(h for h, x in sorted(m.hexes.items()) if x.town and x.terrain == "clear")
    assert paths_reach.infiltration_chance(clear) == Fraction(1, 3)    # 5 or 6
    assert paths_reach.infiltration_chance(jungle) == Fraction(1, 2)   # 4, 5 or 6
    assert paths_reach.infiltration_chance(town) == Fraction(1, 2)     # towns/cities count as non-clear
    assert paths_reach.infiltration_chance("HANOI") == Fraction(1, 2)  # 9.2 zones are non-clear


def test_ntnd_8_5_2_failed_infiltration_stops_and_flips_in_zoc():
    s, mid, start, zoc_hex = _zoc_setup()
    need = paths_reach.infiltration_target(zoc_hex)
    ctx = Context.for_tests(faces=[need - 1])
    _walk(s, "communist", mid, [zoc_hex], ctx)
    assert mid not in s["markers"]                      # flipped face up
    assert s["units"]["vc-qn"]["loc"] == start and not s["units"]["vc-qn"]["inv"]
    assert any(e["t"] == "open" for e, _ in ctx.events)  # identity opened publicly


def test_ntnd_8_5_2_successful_infiltration_enters():
    s, mid, start, zoc_hex = _zoc_setup()
    ctx = Context.for_tests(faces=[6])
    _walk(s, "communist", mid, [zoc_hex], ctx)
    assert s["markers"][mid]["loc"] == zoc_hex and s["units"]["vc-qn"]["inv"]


def test_ntnd_8_5_3_failed_infiltration_into_zoi_only_does_not_flip():
    s = blank()
    m = movement.load_map()
    put(s, "us-fb-pleiku", "1716")                      # firebase: ZOI 2, no ZOC
    ring2 = sorted(h for h in m.hexes_within("1716", 2) if m.distance(h, "1716") == 2 and m.hexes[h].is_land)
    ring3 = sorted(h for h in m.hexes_within(ring2[0], 1) if m.distance(h, "1716") == 3 and m.hexes[h].is_land)
    mid = hide(s, ["vc-qn"], ring3[0])
    ctx = Context.for_tests(faces=[1])
    _walk(s, "communist", mid, [ring2[0]], ctx)
    assert mid in s["markers"] and s["markers"][mid]["loc"] == ring3[0]


def test_ntnd_8_5_2_face_up_units_stop_on_entering_enemy_zoc():
    s, mid, start, zoc_hex = _zoc_setup()
    operations.flip_marker(s, mid, Context.for_tests(), "test")
    reach = paths_reach.reachable(s, "vc-qn")
    assert zoc_hex in reach
    for dest, path in reach.items():
        assert all(h not in zones.zoc_hexes(s, "allied") for h in path[:-1])


def test_ntnd_8_2_1_monsoon_halves_face_up_allowances_not_inverted():
    s = blank("May/June 1968")
    put(s, "nva-320", "1307")
    assert movement.allowance_q(s, movement.mover(s, "nva-320")) == 5 * movement.Q
    mid = hide(s, ["nva-324b"], "1309")
    assert movement.allowance_q(s, movement.mover(s, mid)) == 10 * movement.Q
    s["turn_label"] = "March/April 1968"
    assert movement.allowance_q(s, movement.mover(s, "nva-320")) == 10 * movement.Q


def test_ntnd_8_2_2_inverted_units_pay_one_mp_per_hex():
    s = blank()
    mid = hide(s, ["nva-324b"], "1309")
    reach = paths_reach.reachable(s, mid)
    assert max(len(p) for p in reach.values()) == 10
    m = movement.load_map()
    a, b = next((a, b) for a in sorted(m.hexes) for b in m.hex_neighbours(a)
                if m.hexes[b].terrain == "mountain" and m.hexes[a].is_land and not m.road_between(a, b)
                and not m.trail_between(a, b) and not m.river_between(a, b))
    assert movement._step_q("communist_ground", a, b) == 3 * movement.Q   # face up: the chart (authored)
    assert paths_reach._graph(("communist_ground",), True)[a]                 # inverted: flat 1 MP
    assert all(q == movement.Q for _, q in paths_reach._graph(("communist_ground",), True)[a])


def test_ntnd_8_9_1_guerrillas_stay_in_their_country():
    s = blank()
    put(s, "vc-iv-3", "0927")
    m = movement.load_map()
    assert all(m.country_of(d) == "SV" for d in paths_reach.reachable(s, "vc-iv-3"))


def test_ntnd_9_1_zone_moves_take_the_whole_move():
    s = blank()
    put(s, "nva-320", "CHINA")
    assert set(paths_reach.reachable(s, "nva-320")) == {"HANOI", "HAIPHONG", "LUANG_PRABANG"}
    put(s, "nva-324b", "HANOI")
    reach = paths_reach.reachable(s, "nva-324b")
    assert all(len(p) == 1 for p in reach.values()) and "0801" in reach and "CHINA" in reach


def test_ntnd_8_10_communist_moves_never_overstack():
    s = blank()
    put(s, "nva-320", "1307")
    for u in ("nva-324b", "nva-304"):
        put(s, u, "1308")
    assert "1308" not in paths_reach.reachable(s, "nva-320")


def test_ntnd_8_10_2_overstacked_allied_hex_is_found():
    s = blank()
    for u in ("us-1-1", "us-2-1", "us-3-1"):
        put(s, u, "1323")
    v = stacking.first_violation(s)
    assert v == {"seat": "allied", "loc": "1323", "count": 1, "eligible": ["us-1-1", "us-2-1", "us-3-1"]}
    s["units"]["us-3-1"]["loc"] = "1424"
    assert stacking.first_violation(s) is None


def test_ntnd_8_6_1_supply_units_move_by_sea_from_haiphong_and_8_6_2_die_past_the_fleet():
    s = blank()
    put(s, "sup-haiphong", "HAIPHONG")
    reach = paths_reach.reachable(s, "sup-haiphong")
    sea = {k: p for k, p in reach.items() if k.startswith("sea:")}
    m = movement.load_map()
    assert sea and all(p[0] == "sea" and (m.hexes[p[-1]].coastal or m.hexes[p[-1]].major_river)
                       for p in sea.values())
    assert all(len(p) - 1 <= 12 for p in sea.values())
    path = max(sea.values(), key=len)
    put(s, "us-fleet", next(n for n in m.hex_neighbours(path[1]) if m.hexes[n].is_sea))
    from afteraction.engine.games.ntnd.movement.moves import _sea_move
    _sea_move(s, "communist", "sup-haiphong", path[1:], Context.for_tests(faces=[3]))
    assert s["units"]["sup-haiphong"]["status"] == "mix"     # eliminated (returns to the mix)


def test_ntnd_8_6_4_amphibious_landing_moves_the_fleet_and_is_limited_to_two_units():
    s = blank()
    s["phase"] = {"id": "a_move"}
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")                                # Da Nang: a coastal city
    reach = paths_reach.reachable(s, "us-5mar")
    landing = sorted(k for k in reach if k.startswith("sea:"))
    assert landing
    from afteraction.engine.games.ntnd.movement.moves import _sea_move
    dest = reach[landing[-1]][-1]
    _sea_move(s, "allied", "us-5mar", [dest], Context.for_tests())
    assert s["units"]["us-5mar"]["loc"] == dest and s["units"]["us-fleet"]["loc"] == dest
    put(s, "us-7mar", "1810")
    assert set(k for k in paths_reach.reachable(s, "us-7mar") if k.startswith("sea:")) == {"sea:" + dest}
    _sea_move(s, "allied", "us-7mar", [dest], Context.for_tests())
    put(s, "us-1mar", "1810")
    assert not any(k.startswith("sea:") for k in paths_reach.reachable(s, "us-1mar"))


def test_ntnd_8_8_2_reaction_one_hex_and_8_8_2_2_allied_units_may_occupy_after_combat():
    from afteraction.engine.games.ntnd.movement.moves import occupy_options, react
    from afteraction.engine.games.ntnd.rules import cmd
    m = movement.load_map()
    s = blank()
    s["phase"] = {"id": "c_reaction"}
    s["flags"]["vacated"] = []
    put(s, "us-1-4", "1714")                       # II Corps brigade
    mid = hide(s, ["vc-dak-to"], "1814")           # II Corps hex next to it
    opts = reaction.communist_reaction_options(s)
    assert opts and all(m_ == mid and m.adjacent("1814", h) for m_, h in opts)
    away = next(h for _, h in opts if not m.adjacent(h, "1714"))
    react(s, "communist", cmd("move", piece=mid, path=[away]).ntnd.move, Context.for_tests())
    s["phase"] = {"id": "a_combat"}
    assert occupy_options(s) == [("us-1-4", "1814")]


def test_ntnd_14_1_3_communist_units_stop_on_rivers_near_patrol_boats():
    s = blank()
    m = movement.load_map()
    put(s, "us-pb-1", "1225")
    stop = movement.patrolled_river(s)
    assert stop and all(m.hexes[h].major_river for h in stop)
    start = next(h for h, x in sorted(m.hexes.items()) if x.is_land and x.country == "SV" and h not in stop
                 and any(n in stop for n in m.hex_neighbours(h)) and not x.town)
    put(s, "nva-9vc", start)
    for dest, path in paths_reach.reachable(s, "nva-9vc").items():
        assert all(h not in stop for h in path[:-1])


def test_ntnd_9_3_combat_in_a_zone_by_the_committed_units():
    from afteraction.engine.games.ntnd.combat import battles
    s = blank()
    s["phase"] = {"id": "a_combat"}
    put(s, "vc-iv-1", "HANOI")      # a face-up Communist unit in a zone (North Vietnam is not neutral)
    put(s, "us-199", "HANOI")
    assert ("HANOI", ("us-199",)) in battles.attack_options(s, "allied")


def test_ntnd_8_6_3_naval_search_destroys_unguarded_supply_units():
    from afteraction.engine.games.ntnd.movement.moves import _interdict, interdict_targets
    s = blank()
    m = movement.load_map()
    put(s, "us-pb-1", "1225")
    target = next(h for h in m.hex_neighbours("1225") if m.hexes[h].is_land
                  and (m.hexes[h].coastal or m.hexes[h].major_river))
    mid = hide(s, ["sup-353"], target)
    assert interdict_targets(s, "us-pb-1") == [target]
    _interdict(s, "us-pb-1", target, Context.for_tests(faces=[4]))
    assert s["units"]["sup-353"]["status"] == "mix" and mid not in s["markers"]
    assert interdict_targets(s, "us-pb-1") == []          # once a turn per target
    s2 = blank()
    put(s2, "us-pb-1", "1225")
    hide(s2, ["sup-353", "vc-iv-1"], target)              # guarded by a ground combat unit
    _interdict(s2, "us-pb-1", target, Context.for_tests(faces=[6]))
    assert s2["units"]["sup-353"]["status"] == "map"


def test_ntnd_8_7_units_retreat_onto_the_fleet_and_land_next_turn():
    from afteraction.engine.games.ntnd.combat import aftermath
    s = blank()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")                             # Da Nang is coastal
    assert aftermath.FLEET in aftermath.retreat_destinations(s, "us-5mar")
    s["battle"] = {"side": "communist", "plan": ["us-5mar"], "mode": "must"}
    aftermath.apply_retreat(s, "us-5mar", aftermath.FLEET, Context.for_tests())
    assert s["units"]["us-5mar"]["status"] == "afloat"
    put(s, "us-7mar", "1810")
    assert ("us-5mar", "1810") in recruitment.reinforcement_options(s)


def test_ntnd_8_9_1_guerrillas_left_abroad_after_their_movement_phase_are_eliminated():
    from afteraction.engine.games.ntnd.sequence.flow import stranded as _stranded
    s = blank()
    m = movement.load_map()
    lao = next(h for h, x in sorted(m.hexes.items()) if x.country == "LA" and x.is_land
               and any(m.hexes[n].country == "SV" for n in m.hex_neighbours(h)))
    put(s, "vc-iv-3", lao)
    assert all(m.country_of(d) == "SV" for d in paths_reach.reachable(s, "vc-iv-3"))   # it may step home
    _stranded(s, "communist", Context.for_tests())
    assert s["units"]["vc-iv-3"]["status"] == "mix" and s["pp"] == 100              # no points


def test_ntnd_8_6_4_1_marines_may_march_to_a_port_then_embark():
    s = blank()
    s["phase"] = {"id": "a_move"}
    m = movement.load_map()
    put(s, "us-fleet", "1709")
    inland = next(n for n in m.hex_neighbours("1810") if m.hexes[n].is_land and not m.hexes[n].town
                  and m.hexes[n].corps == "I")
    put(s, "us-5mar", inland)
    reach = paths_reach.reachable(s, "us-5mar")
    sea = [p for k, p in reach.items() if k.startswith("sea:")]
    assert sea and all(p.index("sea") >= 1 and m.hexes[p[p.index("sea") - 1]].town for p in sea)
    from afteraction.engine.games.ntnd.movement.moves import move as _move
    _move(s, "allied", "us-5mar", sea[0], Context.for_tests())
    assert s["units"]["us-5mar"]["loc"] == sea[0][-1] == s["units"]["us-fleet"]["loc"]


def test_ntnd_8_4_improved_trail_from_1971_within_laos_and_north_vietnam():
    s = blank("January/February 1971")
    m = movement.load_map()
    put(s, "sup-tchepone", "1101")                       # North Vietnam, north edge
    r71 = paths_reach.reachable(s, "sup-tchepone")
    s["turn_label"] = "January/February 1968"
    r68 = paths_reach.reachable(s, "sup-tchepone")
    new = set(r71) - set(r68)
    land68 = [p for k, p in r68.items() if not k.startswith("sea:")]
    assert new and max(len(p) for p in r71.values()) == 15 and max(len(p) for p in land68) == 12
    assert all(m.hex(h).country in ("LA", "NV") for d in new for h in r71[d])   # entirely in Laos/NV


def test_ntnd_8_6_4_1_landed_marines_move_inland_with_the_points_left():
    """8.6.4.1: "move to the coastal city or town, pay to embark, and then spend their remaining points
    to move inland": starting in the port, half the allowance is left after the landing; a second
    landing is not offered; a unit that marched to the port first has less left."""
    from afteraction.engine.games.ntnd.movement.moves import move as _move
    s = blank()
    s["phase"] = {"id": "a_move"}
    m = movement.load_map()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")                                # Da Nang
    full = movement.allowance_q(s, movement.mover(s, "us-5mar"))
    reach = paths_reach.reachable(s, "us-5mar")
    dest = sorted(p[-1] for k, p in reach.items() if k.startswith("sea:") and m.hexes[p[-1]].corps == "I"
                  and p[-1] != "1810")[0]
    _move(s, "allied", "us-5mar", reach["sea:" + dest], Context.for_tests())
    assert s["units"]["us-5mar"]["loc"] == dest
    assert s["phase"]["landed"] == {"us-5mar": full // 2}
    assert "us-5mar" not in s["phase"]["moved"]
    mv = movement.mover(s, "us-5mar")
    assert movement.allowance_q(s, mv) == full // 2
    inland = paths_reach.reachable(s, "us-5mar")
    assert inland and not any(k.startswith("sea:") for k in inland)
    far = max(inland.values(), key=len)
    _move(s, "allied", "us-5mar", far, Context.for_tests())
    assert s["units"]["us-5mar"]["loc"] == far[-1] and "us-5mar" in s["phase"]["moved"]
    with pytest.raises(Rejection):
        _move(s, "allied", "us-5mar", [dest], Context.for_tests())


def test_ntnd_8_6_4_1_no_inland_move_after_landing_in_an_enemy_zoc():
    from afteraction.engine.games.ntnd.movement.moves import move as _move
    s = blank()
    s["phase"] = {"id": "a_move"}
    m = movement.load_map()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")
    reach = paths_reach.reachable(s, "us-5mar")
    dest = sorted(p[-1] for k, p in reach.items() if k.startswith("sea:") and m.hexes[p[-1]].corps == "I"
                  and p[-1] != "1810")[0]
    foe = next(n for n in sorted(m.hex_neighbours(dest)) if m.hexes[n].is_land and n != "1810"
               and m.hexes[n].country == m.hexes[dest].country)
    put(s, "nva-3", foe)                                     # a face-up NVA division: a ZOC (8.5.1)
    assert dest in movement.Env(s).zoc("communist")
    _move(s, "allied", "us-5mar", paths_reach.reachable(s, "us-5mar")["sea:" + dest], Context.for_tests())
    assert s["units"]["us-5mar"]["loc"] == dest
    assert "us-5mar" in s["phase"]["moved"] and not s["phase"].get("landed")


def test_ntnd_8_6_4_3_marines_return_to_their_corps_when_the_fleet_leaves():
    """8.6.4.3: a corps-attached Marine unit may stay outside its corps while the fleet is in that
    zone; once the fleet has gone it must return: still outside at the end of the next Allied movement
    phase, it is eliminated (project reading, no points). Independent units are not bound."""
    from afteraction.engine.games.ntnd.movement.sea import forced_returns
    s = blank()
    ctx = Context.for_tests()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1524")                                # a III Corps hex
    s["units"]["us-5mar"]["corps"] = "I"
    fleet_corps = hexes.region_of("1709")
    assert hexes.region_of("1524") == "III" != fleet_corps
    put(s, "us-fleet", "1524")                               # the fleet is with it: it may stay
    forced_returns(s, ctx)
    forced_returns(s, ctx)
    assert s["units"]["us-5mar"]["status"] == "map" and s["flags"]["must_return"] == []
    put(s, "us-fleet", "1709")                               # the fleet left: one phase to return
    forced_returns(s, ctx)
    assert s["units"]["us-5mar"]["status"] == "map" and s["flags"]["must_return"] == ["us-5mar"]
    assert paths_reach.reachable(s, "us-5mar")                  # 5.3 does not pin it where it landed
    forced_returns(s, ctx)                                   # still outside: eliminated
    assert s["units"]["us-5mar"]["status"] == "dead"
    assert any(e["rule"] == "NTND 8.6.4.3" and e["pp"] == 0 for e, _ in ctx.events)
    put(s, "us-7mar", "1524")
    s["units"]["us-7mar"]["corps"] = None                    # independent
    forced_returns(s, ctx)
    forced_returns(s, ctx)
    assert s["units"]["us-7mar"]["status"] == "map"


def test_ntnd_8_6_4_3_forced_return_is_checked_when_the_allied_movement_phase_ends():
    from afteraction.engine.games.ntnd.phases import FLOW
    from afteraction.engine.games.ntnd.sequence.turns import PHASES
    s = blank()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1524")
    s["units"]["us-5mar"]["corps"] = "I"
    s["flags"]["must_return"] = ["us-5mar"]
    s["step"] = next(i for i, p in enumerate(PHASES) if p.id == "a_move")
    s["phase"] = {"id": "a_move"}
    ctx = Context.for_tests()
    FLOW.next_phase(s, ctx)
    assert s["units"]["us-5mar"]["status"] == "dead"


def _cost_q(s, piece, dest):
    env = movement.Env(s)
    paths_reach.reachable(s, piece, env)
    best = env.searches[tuple(movement.mover(s, piece)["uids"])][0]
    return best[dest][1] if dest in best else None


def test_ntnd_8_5_3_1_leaving_a_zoi_is_free_entering_another_zoi_hex_pays_double():
    """A face-up Communist unit that begins in a ZOI leaves it at the normal cost; each ZOI hex it
    enters (of that or any other unit) costs double (8.5.3)."""
    s = blank()
    m = movement.load_map()
    put(s, "us-fb-pleiku", "1716")
    zoi = zones.zoi_hexes(s)
    sv = {h for h, x in m.hexes.items() if x.country == "SV" and x.is_land}   # 8.9.1: VC stay at home
    zoi = zoi & sv
    start = next(h for h in sorted(zoi) if m.distance(h, "1716") == 2 and h in sv
                 and any(n not in zoi and n in sv for n in m.hex_neighbours(h))
                 and any(n in zoi and n != "1716" for n in m.hex_neighbours(h)))
    out_hex = next(n for n in sorted(m.hex_neighbours(start)) if n not in zoi and n in sv)
    in_hex = next(n for n in sorted(m.hex_neighbours(start)) if n in zoi and n != "1716")
    put(s, "vc-qn", start)
    with_fb = (_cost_q(s, "vc-qn", out_hex), _cost_q(s, "vc-qn", in_hex))
    s["units"]["us-fb-pleiku"].update(status="sched", loc=None)
    plain = (_cost_q(s, "vc-qn", out_hex), _cost_q(s, "vc-qn", in_hex))
    assert with_fb[0] == plain[0]                            # leaving: no penalty for the start hex
    assert with_fb[1] == 2 * plain[1]                        # entering another ZOI hex: double


def test_ntnd_8_9_3_allied_units_bound_by_corps_and_neutrality_5_6_support_units_free():
    s = blank()
    types = movement.load_counters()
    m = movement.load_map()
    i_corps = next(h for h, x in sorted(m.hexes.items()) if x.corps == "I" and x.is_land)
    iv_corps = next(h for h, x in sorted(m.hexes.items()) if x.corps == "IV" and x.is_land)
    laos = next(h for h, x in sorted(m.hexes.items()) if x.country == "LA" and x.is_land)
    inf = [types.type("us_infantry_brigade")]
    assert national.may_enter(s, inf, "allied", "I", i_corps) is None
    assert "5.3" in national.may_enter(s, inf, "allied", "I", iv_corps)
    assert "10.2" in national.may_enter(s, inf, "allied", "I", laos)
    for uid in ("arvn-mil-danang", "us-fb-khesanh", "us-gb-1", "us-pb-1", "us-fleet"):  # 5.6: no corps
        assert s["units"][uid]["corps"] is None, uid
    fb = [types.type("us_firebase")]
    assert national.may_enter(s, fb, "allied", None, i_corps) is None
    assert national.may_enter(s, fb, "allied", None, iv_corps) is None


def test_ntnd_4_3_2_withdrawn_units_are_never_bought_back():
    s = blank()
    s["turn"] = 2
    s["rp"] = {"US": 4, "SEATO": 4, "INDOCHINESE": 4, "SV": 4}
    s["units"]["us-2-1"].update(status="dead", loc=None)
    assert ("us-2-1", "") in recruitment.purchase_options(s)
    s["units"]["us-2-1"].update(status="out")               # withdrawn (4.3.3)
    assert all(u != "us-2-1" for u, _ in recruitment.purchase_options(s))
