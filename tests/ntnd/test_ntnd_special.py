"""NTND 28.7 VC Sappers and 28.8 NVA Armor Shock as they modify combat."""
from __future__ import annotations

from afteraction.engine.games.ntnd.combat import resolution as C
from afteraction.engine.games.ntnd.optional import sappers_armor as S
from afteraction.engine.games.ntnd.combat.resolution import ALLIED, COMMUNIST, CombatSituation, CombatUnit
from afteraction.engine.games.ntnd.components.pieces import load_counters


def al(uid: str, morale: int = 4, **kw) -> CombatUnit:
    return CombatUnit(uid, ALLIED, morale=morale, **kw)


def co(uid: str, morale: int = 3, **kw) -> CombatUnit:
    return CombatUnit(uid, COMMUNIST, morale=morale, **kw)


SAPPER = co("sap", 3, sapper=True, guerrilla=True)
TANK = co("tank", 4, armor=True, nva=True)


def test_ntnd_28_7_1_sapper_acts_as_vc_regiment():
    t = load_counters().types
    sap, reg = t["vc_sapper"], t["vc_regiment"]
    assert (sap.morale, sap.movement_class, sap.nationality, sap.guerrilla) == \
        (reg.morale, reg.movement_class, reg.nationality, reg.guerrilla)
    assert C.unit_from_type("s", sap).sapper and not C.unit_from_type("r", reg).sapper


def test_ntnd_28_7_2_sapper_cancels_defender_terrain_incl_city():
    sit = CombatSituation((SAPPER, co("r")), (al("a"),), terrain="swamp", city=True)
    r = C.resolve(sit, 1, 1)
    assert r.defender.term("NTND 19.2.3") == 0 and any("28.7.2" in n for n in r.notes)
    plain = C.resolve(CombatSituation((co("r2"), co("r")), (al("a"),), terrain="swamp", city=True), 1, 1)
    assert plain.defender.term("NTND 19.2.3") == 3


def test_ntnd_28_7_2_river_modifier_also_cancelled_project_reading():
    r = C.resolve(CombatSituation((SAPPER,), (al("a"),), attacker_rivers=("major",)), 1, 1)
    assert r.defender.term("NTND 19.2.3") == 0


def test_ntnd_28_7_2_no_more_than_one_sapper_applies():
    two = C.resolve(CombatSituation((SAPPER, co("s2", 3, sapper=True)), (al("a"),), terrain="mountain"), 1, 1)
    one = C.resolve(CombatSituation((SAPPER, co("r", 3)), (al("a"),), terrain="mountain"), 1, 1)
    assert two.defender_total == one.defender_total and two.attacker_total == one.attacker_total


def test_ntnd_28_7_2_no_effect_on_defense():
    r = C.resolve(CombatSituation((al("a"),), (SAPPER,), terrain="jungle"), 1, 1)
    assert r.defender.term("NTND 19.2.3") == 1
    assert not S.sapper_cancels_terrain([SAPPER], COMMUNIST)


def test_ntnd_28_8_armor_shock_first_tank_attack_turn_only():
    shock = S.armor_shock_trigger(None, 5, [co("r")], scenario_start_year=1968, campaign=False)
    assert shock is None                                          # no tank, no shock yet
    shock = S.armor_shock_trigger(None, 6, [TANK, co("r")], scenario_start_year=1968, campaign=False)
    assert shock == 6 and S.armor_shock_active(shock, 6) and not S.armor_shock_active(shock, 7)
    assert S.armor_shock_trigger(shock, 9, [TANK], scenario_start_year=1968, campaign=False) == 6
    assert S.armor_shock_bonus([TANK, co("r")], active=True) == 1
    assert S.armor_shock_bonus([co("r")], active=True) == 0       # only attacks involving a tank
    assert S.armor_shock_bonus([TANK], active=False) == 0


def test_ntnd_28_8_armor_shock_in_combat():
    on = C.resolve(CombatSituation((TANK,), (al("a"),), armor_shock=True), 1, 1)
    off = C.resolve(CombatSituation((TANK,), (al("a"),)), 1, 1)
    assert on.attacker.term("NTND 28.8") == 1 and on.attacker_total == off.attacker_total + 1
    defending = C.resolve(CombatSituation((al("a"),), (TANK,), armor_shock=True), 1, 1)
    assert defending.defender.term("NTND 28.8") == 0 and defending.attacker.term("NTND 28.8") == 0


def test_ntnd_28_8_only_scenarios_starting_1965_to_1968():
    for year in (1965, 1966, 1967, 1968):
        assert S.armor_shock_available(year, False, None)
    assert not S.armor_shock_available(1969, False, None)
    assert not S.armor_shock_available(1975, False, None)
    assert S.armor_shock_trigger(None, 3, [TANK], scenario_start_year=1975, campaign=False) is None


def test_ntnd_28_8_campaign_declared_once_per_game():
    assert S.armor_shock_trigger(None, 3, [TANK], scenario_start_year=1965, campaign=True) is None
    t = S.armor_shock_trigger(None, 3, [TANK], scenario_start_year=1965, campaign=True, declare=True)
    assert t == 3
    assert S.armor_shock_trigger(t, 20, [TANK], scenario_start_year=1965, campaign=True, declare=True) == 3
    assert not S.armor_shock_available(1965, True, t)
