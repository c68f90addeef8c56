"""NTND 28.9 VC Bases on a short-campaign state, through the game's path (the Communist Operations
phase's "operations" decision, NtndRuleset.legal_commands / apply)."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.movement import reach
from afteraction.engine.games.ntnd.movement.ground import Env
from afteraction.engine.games.ntnd.movement.stacking import stacking_problem
from afteraction.engine.games.ntnd.movement.zones import zoc_hexes
from afteraction.engine.ruleset import Context

from .leakcheck import canon, owner_footprint
from .mapplay import RS, at, legal, play
from .test_ntnd_hearts import camp, first, hide, put

C = "communist"
CLEAR_III = "1324"


def cmd(action, **kw):
    from afteraction.engine.games.ntnd.rules import cmd as c
    return c(action, **kw)


def _actions(s, action):
    return [c for c in legal(s, C) if c.ntnd.WhichOneof("action") == action]


def base_site(s, loc="1523"):
    a, b = first(s, "communist_supply"), first(s, "communist_supply", 1)
    cad = first(s, "vc_cadre")
    for u in (a, b, cad):
        put(s, u, loc)
    return a, b, cad


def test_ntnd_28_9_3_two_supply_units_build_a_base_in_a_vc_held_jungle_hex():
    s = camp()
    a, b, cad = base_site(s)
    s = at(s, "c_ops")
    c = cmd("build_base", location="1523", supplies=sorted([a, b]))
    s, ev = play(s, C, c)
    (e,) = [e for e in ev if e["t"] == "base-built"]
    assert s["units"][e["unit"]]["type"] == "vc_base" and s["units"][e["unit"]]["loc"] == "1523"
    assert s["units"][a]["status"] == s["units"][b]["status"] == "mix"
    # one base a corps: another site in III Corps is not offered
    put(s, first(s, "communist_supply", 2), "1622")
    put(s, first(s, "communist_supply", 3), "1622")
    put(s, first(s, "vc_cadre", 1), "1622")
    assert not _actions(s, "build_base")


def test_ntnd_28_9_3_no_base_without_vc_or_out_of_the_terrain():
    s = camp()
    put(s, first(s, "communist_supply"), "1523")
    put(s, first(s, "communist_supply", 1), "1523")
    s = at(s, "c_ops")
    assert not _actions(s, "build_base")           # no VC unit there
    with pytest.raises(Rejection) as e:
        RS.apply(s, C, cmd("build_base", location="1523", supplies=[first(s, "communist_supply"),
                                                                     first(s, "communist_supply", 1)]),
                 Context.for_tests())
    assert e.value.code == "ILLEGAL_BASE"
    t = camp()
    base_site(t, CLEAR_III)                          # clear terrain
    assert not _actions(at(t, "c_ops"), "build_base")


def test_ntnd_28_9_3_hidden_supply_units_spent_are_not_named():
    """Building from inverted units: the public sees the marker re-formed and the base, not the supply
    units or what else the marker holds."""
    def pos(extra):
        s = camp()
        a, b = first(s, "communist_supply"), first(s, "communist_supply", 1)
        hide(s, [a, b, first(s, "vc_cadre"), first(s, extra)], "1523")
        return at(s, "c_ops"), a, b
    s1, a, b = pos("communist_dummy")
    s2, _, _ = pos("vc_regiment")
    c = cmd("build_base", location="1523", supplies=sorted([a, b]))
    f1, f2 = owner_footprint(s1, c), owner_footprint(s2, c)
    assert f1[0] == "accepted" and f1[1:] == f2[1:]
    assert a not in f1[1] and "communist_supply" not in f1[1]


def test_ntnd_28_9_1_bases_are_immobile_one_a_hex_outside_stacking_without_zoc():
    s = camp()
    a, b, cad = base_site(s)
    s = at(s, "c_ops")
    s, ev = play(s, C, cmd("build_base", location="1523", supplies=sorted([a, b])))
    base = next(e["unit"] for e in ev if e["t"] == "base-built")
    reg = put(s, first(s, "vc_regiment"), "1523")
    assert stacking_problem(s, C, "1523", []) is None                     # base + cadre + regiment
    other = next(u for u in sorted(s["units"]) if s["units"][u]["type"] == "vc_base" and s["units"][u]["status"] == "mix")
    assert stacking_problem(s, C, "1523", [other]) is not None   # a second base
    assert not {h for h in zoc_hexes(s, C)} - set(zoc_hexes(_without(s, base), C))
    s = at(s, "c_move")
    assert reach.reachable(s, base, Env(s)) == {} and reach.reachable(s, reg, Env(s))


def _without(s, uid):
    t = RS.copy_state(s)
    t["units"][uid].update(status="mix", loc=None)
    return t


def test_ntnd_28_9_7_a_regiment_and_a_cadre_on_a_base_become_an_nva_division_once_a_turn():
    s = camp()
    a, b, cad = base_site(s)
    s = at(s, "c_ops")
    s, _ = play(s, C, cmd("build_base", location="1523", supplies=sorted([a, b])))
    reg, cad2 = put(s, first(s, "vc_regiment"), "1523"), put(s, first(s, "vc_cadre", 1), "1523")
    sup, sup2 = put(s, first(s, "communist_supply", 2), "1523"), put(s, first(s, "communist_supply", 3), "1523")
    reg2 = put(s, first(s, "vc_regiment", 1), "1523")
    c = cmd("upgrade", regiment=reg, cadre=cad, supply=sup)
    s, ev = play(s, C, c)
    (p,) = [e for e in ev if e["t"] == "promoted"]
    assert p["type"] == "nva_division" and s["units"][p["unit"]]["loc"] == "1523"
    assert all(s["units"][x]["status"] == "mix" for x in (reg, cad, sup))
    assert not _actions(s, "upgrade")                 # one a turn
    del reg2, cad2, sup2


def test_ntnd_28_9_7_hidden_upgrade_keeps_the_division_in_the_marker():
    s = camp()
    s["units"][first(s, "vc_base")].update(status="map", loc="1523")
    reg, cad, sup = first(s, "vc_regiment"), first(s, "vc_cadre"), first(s, "communist_supply")
    mid = hide(s, [reg, cad, sup], "1523")
    s = at(s, "c_ops")
    ctx = Context.for_tests()
    s = RS.apply(s, C, cmd("upgrade", regiment=reg, cadre=cad, supply=sup), ctx)
    ev = [e for e, to in ctx.events if to is None]   # the public events
    assert [e["t"] for e in ev if e["t"] in ("marker-gone", "marker")] == ["marker-gone", "marker"]
    assert reg not in canon(ev) and "nva_division" not in canon(ev)
    (new,) = [m for m in s["markers"] if m != mid]
    assert [s["units"][x]["type"] for x in s["markers"][new]["units"]] == ["nva_division"]


def test_ntnd_28_9_4_a_battle_next_to_a_base_gives_the_communist_plus_one():
    from .mapplay import allied_attack, battle_of, term

    def fight(base_at):
        s = camp()
        reg = put(s, first(s, "vc_regiment"), "1523")
        if base_at:
            s["units"][first(s, "vc_base")].update(status="map", loc=base_at)
        inf = put(s, first(s, "us_infantry_brigade"), "1524")
        s["units"][inf]["corps"] = "III"
        s, ev = allied_attack(s, "1523", [inf], faces=[3, 3])
        return battle_of(ev)
    assert term(fight("1622")["defender"], "NTND 28.9.4") == 1       # next to the battle's hex
    assert term(fight("1523")["defender"], "NTND 28.9.4") == 1       # in it, with other units
    assert term(fight(None)["defender"], "NTND 28.9.4") == 0


def test_ntnd_28_9_5_a_base_may_not_attack():
    """28.9.5: a base next to an Allied unit is no attacker (nor with a regiment: the regiment attacks
    alone)."""
    s = camp()
    base = first(s, "vc_base")
    s["units"][base].update(status="map", loc="1523")
    reg = put(s, first(s, "vc_regiment"), "1523")
    inf = put(s, first(s, "us_infantry_brigade"), "1524")
    s["units"][inf]["corps"] = "III"
    s = at(s, "c_move")
    from afteraction.engine.games.ntnd.combat.battles import attack_options
    opts = attack_options(s, C)             # what the 3.1.4 announcement (answers "announce") offers
    assert opts == [("1524", (reg,))]


def _base_battle(faces, attackers=3, alone=False):
    from .mapplay import allied_attack, battle_of
    s = camp()
    base = first(s, "vc_base")
    s["units"][base].update(status="map", loc=CLEAR_III)
    cad = None if alone else put(s, first(s, "vc_cadre"), CLEAR_III)
    from afteraction.engine.games.ntnd.components.map import load_map
    near = [h for h in load_map().hex_neighbours(CLEAR_III) if h in load_map().hexes and load_map().hexes[h].is_land]
    units = sorted(u for u, x in s["units"].items() if x["type"] == "us_infantry_brigade")[:attackers]
    for u, h in zip(units, near):
        put(s, u, h)
        s["units"][u]["corps"] = "III"
    for fb, h in zip(sorted(u for u, x in s["units"].items() if x["type"] == "us_firebase"), near):
        put(s, fb, h)   # 19.2.2 fire support, to make a triple possible
    s, ev = allied_attack(s, CLEAR_III, None, faces=faces)
    return s, ev, base, cad, battle_of(ev)


def test_ntnd_28_9_6_a_triple_result_eliminates_the_base_and_every_unit_with_it():
    s, ev, base, cad, b = _base_battle([6, 1])
    a, d = (lambda t: t[0] / t[1])(b["attacker"]["total"]), (lambda t: t[0] / t[1])(b["defender"]["total"])
    assert a >= 3 * d, b
    assert [e for e in ev if e["t"] == "base-overrun"]
    assert s["units"][base]["status"] != "map" and s["units"][cad]["status"] != "map"


def test_ntnd_28_9_6_any_other_result_leaves_the_base():
    s, ev, base, cad, b = _base_battle([4, 4])
    a, d = (lambda t: t[0] / t[1])(b["attacker"]["total"]), (lambda t: t[0] / t[1])(b["defender"]["total"])
    assert a < 3 * d
    while s["decision"] and s["decision"]["kind"] in ("losses", "retreat", "advance"):
        seat = s["decision"]["seat"]
        s, _ = play(s, seat, legal(s, seat)[0])
    assert s["units"][base]["status"] == "map" and s["units"][base]["loc"] == CLEAR_III


def test_ntnd_28_10_a_base_upgrade_past_ten_divisions_after_the_declaration():
    """28.10/4.1.7: the ten-division cap holds "until the turn that a National Uprising has been
    declared; thereafter" it is gone, for 28.9.7's upgrades as for recruitment (one reading:
    recruitment.division_cap_holds). Five turns after the declaration (the uprising's four turns
    over) an eleventh division still comes from a base; before any declaration it does not."""
    def pos(uprising):
        s = camp()
        s["units"][first(s, "vc_base")].update(status="map", loc="1523")
        for d in sorted(u for u, x in s["units"].items() if x["type"] == "nva_division")[:10]:
            put(s, d, "HANOI")
        reg, cad, sup = (put(s, first(s, t), "1523") for t in ("vc_regiment", "vc_cadre", "communist_supply"))
        s["turn"] = 20
        if uprising:
            s["uprising"] = {"turn": 15}
        return at(s, "c_ops"), reg, cad, sup
    s, reg, cad, sup = pos(False)
    assert not _actions(s, "upgrade")
    with pytest.raises(Rejection) as e:
        RS.apply(s, C, cmd("upgrade", regiment=reg, cadre=cad, supply=sup), Context.for_tests())
    assert e.value.code == "ILLEGAL_BASE"
    s, reg, cad, sup = pos(True)
    assert _actions(s, "upgrade")
    s, _ = play(s, C, cmd("upgrade", regiment=reg, cadre=cad, supply=sup))
    assert sum(1 for u in s["units"].values() if u["type"] == "nva_division" and u["status"] == "map") == 11


def _finish(s):
    while s["decision"] and s["decision"]["kind"] in ("losses", "retreat", "advance"):
        seat = s["decision"]["seat"]
        s, _ = play(s, seat, legal(s, seat)[0])
    return s


def _ratio(b):
    return (lambda t: t[0] / t[1])(b["attacker"]["total"]), (lambda t: t[0] / t[1])(b["defender"]["total"])


def test_ntnd_28_9_6_a_base_defending_by_itself_is_attacked_and_eliminated_only_by_a_triple():
    """A base alone (project reading): it stands in as the hex's unit with morale 0, no 28.9.4 +1;
    a triple Allied total eliminates it; a lower winning total leaves it (no loss, no retreat:
    28.9.5) and the hex stays the Communist player's (no advance)."""
    from afteraction.engine.games.ntnd.components.map import load_map
    from .mapplay import term
    s = camp()
    s["units"][first(s, "vc_base")].update(status="map", loc=CLEAR_III)
    inf = put(s, first(s, "us_infantry_brigade"),
              next(h for h in load_map().hex_neighbours(CLEAR_III) if load_map().hexes[h].is_land))
    s["units"][inf]["corps"] = "III"
    s = at(s, "a_combat")
    assert [c for c in legal(s, "allied") if c.ntnd.WhichOneof("action") == "attack"
            and c.ntnd.attack.target == CLEAR_III]
    s, ev, base, _, b = _base_battle([6, 1], alone=True)
    a, d = _ratio(b)
    assert term(b["defender"], "NTND 28.9.4") == 0 and term(b["defender"], "NTND 19.2.1") == 0
    assert a >= 3 * d and [e for e in ev if e["t"] == "base-overrun"] and s["units"][base]["status"] != "map"
    s, ev, base, _, b = _base_battle([1, 4], attackers=1, alone=True)
    a, d = _ratio(b)
    assert d < a < 3 * d, b                                       # the Allied player wins, not triple
    assert b["losses"][0]["count"] == 0 and not [e for e in ev if e["t"] == "base-overrun"]
    s = _finish(s)
    assert s["units"][base]["status"] == "map" and s["units"][base]["loc"] == CLEAR_III
    assert not any(u["loc"] == CLEAR_III and u["side"] == "allied" for u in s["units"].values() if u["status"] == "map")


def test_ntnd_28_9_6_an_attack_a_lone_base_beats_costs_the_attackers_as_any_defence():
    """Other results "would eliminate other units normally": the lone base's total beating the attack
    costs the Allied attacker its 19.2.6 loss."""
    from .mapplay import allied_attack, battle_of
    s = camp()
    base = first(s, "vc_base")
    s["units"][base].update(status="map", loc="1523")               # jungle
    arvn = put(s, "arvn-reg-42", "1524")
    s["units"][arvn]["corps"] = "III"
    s, ev = allied_attack(s, "1523", [arvn], faces=[1, 6])
    b = battle_of(ev)
    a, d = _ratio(b)
    assert a < d, b
    (loss,) = b["losses"]
    assert loss["side"] == "allied" and loss["count"] >= 1
    s = _finish(s)
    assert s["units"][base]["status"] == "map"


def test_ntnd_28_9_2_a_base_supplies_no_north_vietnamese_unit_and_is_not_spent():
    """28.9.2: bases are supply sources for Viet Cong units in South Vietnam "but not North
    Vietnamese": an NVA division next to a base and six movement points from any other source is out
    of supply when its movement phase begins (18.2.1.3); a supply unit there supplies it. (Every Viet
    Cong counter is always in supply, 18.2.1.2, so for them the base adds nothing the game can see.)
    A base is never spent: the NVA attack's 18.6.2 supply is a supply unit's."""
    s = camp()
    base = first(s, "vc_base")
    s["units"][base].update(status="map", loc="1523")
    div = put(s, first(s, "nva_division"), "1622")
    t = at(RS.copy_state(s), "c_move")
    assert div in t["phase"]["out_of_supply"]
    sup = put(s, first(s, "communist_supply"), "1622")
    t = at(RS.copy_state(s), "c_move")
    assert div not in t["phase"]["out_of_supply"] and t["units"][base]["status"] == "map"
    assert t["units"][sup]["status"] == "map"      # movement supply spends nothing (18.6.2)


def test_ntnd_28_9_5_with_a_base_the_communist_survivors_do_not_retreat():
    """28.9.5 in a battle: the Allied player wins (not triple), the Communist player loses one unit and
    the other, which 19.2.6 would make retreat, stays with the base."""
    from .mapplay import allied_attack, battle_of
    s = camp()
    s["units"][first(s, "vc_base")].update(status="map", loc="1523")
    a, b = put(s, first(s, "vc_cadre"), "1523"), put(s, first(s, "vc_cadre", 1), "1523")
    inf = put(s, first(s, "us_infantry_brigade"), "1524")
    s["units"][inf]["corps"] = "III"
    s, ev = allied_attack(s, "1523", [inf], faces=[6, 1])
    bt = battle_of(ev)
    at_, dt = _ratio(bt)
    assert dt < at_ < 3 * dt and bt["winner"] == "allied", bt
    s = _finish(s)
    left = [x for x in (a, b) if s["units"][x]["status"] == "map"]
    assert len(left) == 1 and s["units"][left[0]]["loc"] == "1523"
    assert not [e for e in ev if e["t"] == "retreat"]


def test_ntnd_28_9_1_an_immobile_base_is_never_offered_a_retreat_even_on_a_tie():
    """A tie lets each side retreat (19.2.6 "may"); a base is immobile (28.9.1): it stays, and its
    owner is asked nothing."""
    from .mapplay import allied_attack, battle_of
    s = camp()
    base = first(s, "vc_base")
    s["units"][base].update(status="map", loc="1523")
    arvn = put(s, "arvn-reg-42", "1524")
    s["units"][arvn]["corps"] = "III"
    s, ev = allied_attack(s, "1523", [arvn], faces=[4, 3])
    assert battle_of(ev)["band"] == "tie"
    assert not (s["decision"] and s["decision"]["kind"] == "retreat")
    assert s["units"][base]["loc"] == "1523"
