"""NTND 25 South Vietnamese morale through the game's phases on campaign states."""
from __future__ import annotations

from afteraction.engine.games.ntnd.combat import battles, resolution as combat
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.sequence.answers import cmd
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.ruleset import Context

from .campaign_states import answer, at_phase, camp, clear_communists, free, of, put


def test_ntnd_25_1_fewer_than_50_points_at_a_player_turn_start_demoralizes_arvn():
    s = camp()
    s["pp"] = 49
    ev = at_phase(s, "c_recruit")
    assert s["sv_demoralized"] is True and of(ev, "sv-morale")[0]["demoralized"] is True
    s["pp"] = 50
    at_phase(s, "a_reinforce")
    assert s["sv_demoralized"] is False


def test_ntnd_25_2_demoralized_arvn_lose_one_morale_and_their_zoc():
    s = camp()
    from afteraction.engine.games.ntnd.components.pieces import load_counters
    arvn = next(u["id"] for u in sorted(s["units"].values(), key=lambda u: u["id"])
                if u["nat"] == "ARVN" and u["status"] == "map" and load_counters().type(u["type"]).has_printed_zoc)
    loc = s["units"][arvn]["loc"]
    for u in s["units"].values():                   # only the ARVN unit projects a ZOC
        if u["side"] == "allied" and u["status"] == "map" and u["id"] != arvn:
            u.update(status="dead", loc=None)
    up = combat.current_morale(battles.combat_unit(s, arvn), own_turn=False)[0]
    assert loc in zones.zoc_hexes(s, "allied")
    s["pp"] = 40
    at_phase(s, "c_recruit")
    down = combat.current_morale(battles.combat_unit(s, arvn), own_turn=False)
    assert down[0] == up - 1 and any(t.rule == "NTND 25.2" for t in down[1])
    assert loc not in zones.zoc_hexes(s, "allied")


def _two_cities_of_i_corps_fall(s):
    clear_communists(s)
    put(s, free(s, "vc_regiment"), "1609")          # Hue
    put(s, free(s, "vc_regiment"), "1810")          # Da Nang
    for u in s["units"].values():                   # the cities' defenders gone
        if u["side"] == "allied" and u["loc"] in ("1609", "1810"):
            u.update(status="dead", loc=None)


def test_ntnd_25_3_arvn_of_a_corps_with_two_fallen_cities_desert_on_a_roll_above_morale():
    s = camp()
    _two_cities_of_i_corps_fall(s)
    s["pp"] = 40
    m = load_map()
    i_corps = [u["id"] for u in sorted(s["units"].values(), key=lambda u: u["id"]) if u["status"] == "map"
               and u["nat"] == "ARVN" and m.corps_of(u["loc"]) == "I" and u["type"] != "arvn_firebase"]
    others = [u["id"] for u in s["units"].values() if u["status"] == "map" and u["nat"] == "ARVN"
              and m.corps_of(u["loc"]) != "I"]
    assert i_corps and any(u["nat"] == "US" and u["status"] == "map" for u in s["units"].values())
    pp = s["pp"]
    ev = at_phase(s, "a_reinforce", faces=[6] * len(i_corps))
    deserted = {e["unit"] for e in of(ev, "deserted")}
    assert deserted == set(i_corps) and all(s["units"][u]["status"] == "dead" for u in i_corps)
    assert all(s["units"][u]["status"] == "map" for u in others) and s["pp"] == pp   # no points for deserters
    s2 = camp()
    _two_cities_of_i_corps_fall(s2)
    s2["pp"] = 40
    ev = at_phase(s2, "a_reinforce", faces=[1] * len(i_corps))
    assert not of(ev, "deserted")                                       # rolls not above morale


def test_ntnd_25_3_a_deserting_division_leaves_a_communist_supply_unit():
    s = camp()
    _two_cities_of_i_corps_fall(s)
    s["pp"] = 40
    m = load_map()
    div = next(u for u in s["units"].values() if u["status"] == "map" and u["type"] == "arvn_infantry_division"
               and m.corps_of(u["loc"]) == "I")
    loc = div["loc"]
    n = sum(1 for u in s["units"].values() if u["status"] == "map" and u["nat"] == "ARVN"
            and m.corps_of(u["loc"]) == "I" and u["type"] != "arvn_firebase")
    at_phase(s, "a_reinforce", faces=[6] * n)
    assert any(u["type"] == "communist_supply" and u["loc"] == loc and u["status"] == "map" for u in s["units"].values())


def test_ntnd_25_3_1_not_rolled_while_arvn_is_not_demoralized():
    s = camp()
    _two_cities_of_i_corps_fall(s)
    ev = at_phase(s, "a_reinforce", faces=[6] * 30)
    assert not of(ev, "deserted") and not s["sv_demoralized"]


def _severe():
    s = camp()
    clear_communists(s)
    for u in s["units"].values():                   # 25.4: no U.S. ground units in South Vietnam
        if u["nat"] == "US" and u["status"] == "map":
            u.update(status="dead", loc=None)
    s["pp"] = 40
    m = load_map()
    arvn = "arvn-reg-42"
    loc = s["units"][arvn]["loc"]
    target = next(h for h in m.hex_neighbours(loc) if m.hex(h).country == "SV" and not m.hex(h).town
                  and not any(u["loc"] == h and u["status"] == "map" for u in s["units"].values()))
    vc = put(s, free(s, "vc_regiment"), target)
    at_phase(s, "a_reinforce", faces=[1] * 40)
    assert s["sv_demoralized"]
    return s, arvn, target, vc


def _attack(s, arvn, target, die):
    s["step"] = 12
    s["phase"] = {"id": "a_combat", "out_of_supply": [], "stack_check": False}
    s["decision"] = {"seat": "allied", "kind": "combat", "prompt": "NTND 19"}
    return answer(s, "allied", cmd("attack", target=target, attackers=[arvn]), faces=[die, 1, 1])


def test_ntnd_25_4_1_25_4_2_severe_demoralization_deserts_above_printed_morale_before_combat():
    s, arvn, target, vc = _severe()
    # the table: attacking -1; one unit a side (no advantage); II Corps pro-Communist (no control)
    ev = _attack(s, arvn, target, 6)                                    # 6 - 1 = 5 > printed morale 2: deserts
    roll = [e for e in ev if e["t"] == "roll" and "25.4.1" in e["rule"]]
    assert roll and roll[0]["faces"] == [6] and "-1" in roll[0]["rule"]
    assert s["units"][arvn]["status"] == "dead"
    assert any(e["t"] == "deserted" and e["unit"] == arvn and e["pp"] == 0 for e in ev)
    assert any(e["t"] == "attack-cancelled" for e in ev) and s["units"][vc]["status"] == "map"
    s, arvn, target, vc = _severe()
    ev = _attack(s, arvn, target, 3)                                    # 3 - 1 = 2: not above 2, it fights
    assert not of(ev, "deserted") and of(ev, "attack")[0]["attackers"] == [arvn]   # the battle is fought


def _ambushed(die):
    """A severely demoralized ARVN regiment (no U.S. ground unit in South Vietnam, 25.4) moves next
    to an inverted VC regiment in III Corps; the Communist player ambushes it with a die of ``die``
    for the regiment's 25.4.1 roll (the ambush's own dice 1, 1 after it)."""
    from .mapplay import play
    from .test_ntnd_neutrality import at, cblank
    from .test_ntnd_rules import hide
    s = cblank("campaign_short")
    arvn, vc = "arvn-reg-42", free(s, "vc_regiment")
    put(s, arvn, "1622")
    s["units"][arvn]["corps"] = "III"
    mid = hide(s, [vc], "1422")                    # two hexes from 1622, next to 1523
    s["pp"] = 40
    s = at(s, "a_move")
    s["sv_demoralized"] = True                     # 25.1 (fewer than 50 points), this player-turn
    s, _ = play(s, "allied", cmd("move", piece=arvn, path=["1523"]))
    assert s["decision"]["kind"] == "ambush"
    s, ev = play(s, "communist", cmd("ambush", markers=[mid]), faces=[die, 1, 1])
    return s, ev, arvn, vc


def test_ntnd_25_4_1_a_die_per_arvn_unit_before_an_ambush_too():
    # the table: defending 0, one unit a side 0, III Corps neutral 0: above printed morale 2 deserts
    s, ev, arvn, vc = _ambushed(3)
    (r,) = [e for e in ev if e["t"] == "roll" and "25.4.1" in e["rule"]]
    assert r["faces"] == [3] and arvn in r["rule"]
    assert s["units"][arvn]["status"] == "dead" and of(ev, "deserted")[0]["unit"] == arvn
    assert not [e for e in ev if e["t"] == "battle"]              # nobody left to ambush: no combat
    assert s["units"][vc]["status"] == "map" and not s["units"][vc]["inv"]   # the ambusher is face up (20.2)
    assert s["decision"]["kind"] == "advance" and s["decision"]["seat"] == "communist"   # 20.5: may enter
    s, ev, arvn, vc = _ambushed(2)                                 # 2: not above 2, the ambush is fought
    assert not of(ev, "deserted")
    (b,) = [e for e in ev if e["t"] == "battle"]
    assert b["ambush"] is True
