"""NTND 19.1 - 19.2: who fights, the combat total, the die and the three result bands.

The 19.2 worked example of the rule text is followed step by step (19.2.1, 19.2.2, 19.2.3, 19.2.5,
19.2.6 examples) and then as one battle through ``fight`` with dice 3 (Allied) and 2 (Communist).
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.combat import resolution as C
from afteraction.engine.games.ntnd.combat import contact as CC
from afteraction.engine.games.ntnd.combat import retreat as R
from afteraction.engine.games.ntnd.combat.resolution import (ALLIED, ARTILLERY, COMMUNIST, DOUBLE, FIREBASE, FLEET, HIGHER,
                                                  PATROL_BOAT, SAM, SUPPLY, TIE, CombatSituation, CombatUnit,
                                                  FireSupporter)
from afteraction.engine.games.ntnd.combat.contact import Contact
from afteraction.engine.games.ntnd.components.pieces import load_counters
from afteraction.engine.ruleset import Context


def al(uid: str, morale: int = 4, **kw) -> CombatUnit:
    return CombatUnit(uid, ALLIED, morale=morale, **kw)


def co(uid: str, morale: int = 3, **kw) -> CombatUnit:
    return CombatUnit(uid, COMMUNIST, morale=morale, **kw)


# The 19.2 example: a U.S. Marine brigade (4), two ARVN divisions (2, 2) and an ARVN armor regiment (3)
# attack an NVA division (4) and a VC regiment (3) stacked with an artillery unit, in a city on a swamp.
EX_ALLIED = (al("usmc", 4), al("arvn_div1", 2, arvn=True), al("arvn_div2", 2, arvn=True),
             al("arvn_armor", 3, arvn=True, armor=True))
EX_COMMUNIST = (co("nva_div", 4, nva=True, division=True), co("vc_reg", 3, guerrilla=True),
                CombatUnit("art1", COMMUNIST, role=ARTILLERY, morale=1, nva=True),
                CombatUnit("sam1", COMMUNIST, role=SAM, nva=True),
                CombatUnit("sup1", COMMUNIST, role=SUPPLY, nva=True))
EX_SITUATION = CombatSituation(
    attackers=EX_ALLIED, defenders=EX_COMMUNIST, terrain="swamp", city=True,
    attacker_support=(FireSupporter("fb1", FIREBASE, 2), FireSupporter("fleet", FLEET, 2),
                      FireSupporter("pb1", PATROL_BOAT, 1)),
    defender_support=(FireSupporter("art1", ARTILLERY, 0), FireSupporter("art2", ARTILLERY, 1)),
    air_hits_on_defenders=2)


# --------------------------------------------------------------------------- the 19.2 worked example

def test_ntnd_19_2_1_example_allied_morale_11_over_4():
    avg, n, _ = C.morale_average(EX_ALLIED, own_turn=True, defending=False)
    assert (avg, n) == (Fraction(11, 4), 4)
    assert avg == Fraction("2.75")


def test_ntnd_19_2_1_example_communist_morale_after_ground_support():
    # two surviving ground support fighters, each reduces one unit by one: (3 + 2) / 2 = 2.5
    avg, n, terms = C.morale_average(EX_COMMUNIST, air_hits=2, own_turn=False, defending=True)
    assert (avg, n) == (Fraction(5, 2), 2)
    assert [t.rule for t in terms] == ["NTND 11.1.2"]


def test_ntnd_19_2_2_example_fire_support():
    assert C.fire_support(EX_SITUATION.defender_support, own_turn=False) == 2   # new morale 4.5
    assert C.fire_support(EX_SITUATION.attacker_support, own_turn=True) == 3    # new morale 5.75
    assert Fraction(5, 2) + 2 == Fraction("4.5") and Fraction(11, 4) + 3 == Fraction("5.75")


def test_ntnd_19_2_3_example_city_on_swamp_adds_3():
    assert C.terrain_modifier("swamp", True) == 3
    assert Fraction("4.5") + 3 == Fraction("7.5")


def test_ntnd_19_2_5_example_four_against_two_adds_one():
    assert C.numbers_bonus(4, 2) == 1 and C.numbers_bonus(2, 4) == 0
    assert Fraction("5.75") + 1 == Fraction("6.75")


def test_ntnd_19_2_6_example_battle_9_75_against_9_5():
    ctx = Context.for_tests(faces=[3, 2])
    r = C.fight(EX_SITUATION, ctx)
    assert r.attacker_total == Fraction("9.75") and r.defender_total == Fraction("9.5")
    assert [(t.rule, t.value) for t in r.attacker.terms] == [
        ("NTND 19.2.1", Fraction(11, 4)), ("NTND 19.2.2", 3), ("NTND 19.2.4", 1), ("NTND 19.2.6", 3)]
    assert [(t.rule, t.value) for t in r.defender.terms] == [
        ("NTND 19.2.1", Fraction(5, 2)), ("NTND 19.2.2", 2), ("NTND 19.2.3", 3), ("NTND 19.2.6", 2)]
    assert (r.winner, r.band) == (ALLIED, HIGHER)
    (loss,) = r.losses
    # "The Communist player must eliminate one ground combat unit (either the regiment or the division)"
    assert (loss.side, loss.count) == (COMMUNIST, 1)
    assert set(loss.eligible) >= {"nva_div", "vc_reg"} and "art1" not in loss.eligible
    assert r.retreat_order == ((COMMUNIST, "must"),)
    # "... and retreat one hex with the remaining unit and the artillery counter, along with any other
    # supply or SAM units in the stack."
    C.check_loss_choice(loss, ["vc_reg"])
    survivors = [u for u in EX_COMMUNIST if u.id != "vc_reg"]
    plan = R.retreat_plan(r, COMMUNIST, survivors)
    assert plan.mode == "must" and plan.retreat == ("nva_div", "art1", "sam1", "sup1")
    assert R.retreat_plan(r, ALLIED, EX_ALLIED).mode == "none"
    # the dice came through ctx.roll, one d6 per player, attacker first
    rolls = [e for e, _ in ctx.events if e["t"] == "roll"]
    assert [(e["die"], e["result"]) for e in rolls] == [("d6", 3), ("d6", 2)]
    assert rolls[0]["rule"].startswith("NTND 19.2.6 allied")
    ev = r.to_event()
    assert ev["attacker"]["total"] == [39, 4] and ev["defender"]["total"] == [19, 2]


# --------------------------------------------------------------------------- 19.1

def test_ntnd_19_1_combat_between_face_up_units():
    sit = CombatSituation((al("a"),), (co("c", face_up=False),))
    with pytest.raises(Rejection) as e:
        CC.validate_battle(sit)
    assert "19.1" in e.value.message
    with pytest.raises(Rejection):
        CC.validate_battle(CombatSituation((co("x", face_up=False),), (al("a"),)))
    CC.validate_battle(CombatSituation((al("a"),), (co("c"),)))


def test_ntnd_19_1_1_withheld_units_are_unaffected_defenders_all_defend():
    # only the committed attacker can be lost; every defender of the hex shares the result
    sit = CombatSituation((al("a1"),), (co("c1"), co("c2")))
    r = C.resolve(sit, 1, 6)
    assert r.winner == COMMUNIST and r.losses[0].eligible == ("a1",)
    r2 = C.resolve(sit, 6, 1)
    assert r2.losses[0].eligible == ("c1", "c2")


def test_ntnd_19_1_1_support_units_attack_only_alone():
    sit = CombatSituation((al("a1"), CombatUnit("fb", ALLIED, role=FIREBASE, morale=1)), (co("c1"),))
    with pytest.raises(Rejection):
        CC.validate_battle(sit)
    with pytest.raises(Rejection):
        CC.validate_battle(CombatSituation((CombatUnit("s", COMMUNIST, role=SAM),), (al("a"),)))


def test_ntnd_19_1_2_inverted_units_flip_unless_separated():
    assert CC.inverted_must_flip([Contact()])
    assert not CC.inverted_must_flip([Contact(CC.ALL_SEA)])
    assert not CC.inverted_must_flip([Contact(CC.ALL_LAKE_CAMBODIA), Contact(CC.NEUTRAL_BORDER)])
    assert CC.inverted_must_flip([Contact(CC.NEUTRAL_BORDER, allied_attacks_across_border=True)])
    assert CC.inverted_must_flip([Contact(CC.ALL_SEA), Contact(CC.OPEN)])
    assert not CC.inverted_must_flip([])


def test_ntnd_19_1_3_no_unit_attacks_or_is_attacked_twice():
    sit = CombatSituation((al("a1"),), (co("c1"),))
    with pytest.raises(Rejection) as e:
        CC.validate_battle(sit, attacked_before=["a1"])
    assert e.value.code == "NTND_COMBAT_TWICE" and "19.1.3" in e.value.message
    with pytest.raises(Rejection):
        CC.validate_battle(sit, defended_before=["c1"])
    CC.validate_battle(sit, attacked_before=["c1"], defended_before=["a1"])


def test_ntnd_14_2_1_fleet_alone_is_not_attacked():
    with pytest.raises(Rejection):
        CC.validate_battle(CombatSituation((co("c"),), (CombatUnit("fl", ALLIED, role=FLEET),)))


def test_ntnd_13_3_18_6_1_17_2_automatic_eliminations():
    sam, sup = CombatUnit("s", COMMUNIST, role=SAM), CombatUnit("u", COMMUNIST, role=SUPPLY)
    dummy = CombatUnit("d", COMMUNIST, role=C.DUMMY)
    assert CC.automatic_eliminations([sam, sup, dummy]) == ("s", "u", "d")
    assert CC.automatic_eliminations([sam, sup, dummy, co("r")]) == ("d",)
    art = CombatUnit("a", COMMUNIST, role=ARTILLERY, morale=1)
    assert CC.automatic_eliminations([sam, art]) == ()
    with pytest.raises(ValueError):
        C.resolve(CombatSituation((al("x"),), (sam, sup)), 3, 3)


# --------------------------------------------------------------------------- 19.2.1

def test_ntnd_19_2_1_fractions_retained():
    avg, n, _ = C.morale_average([co("a", 4), co("b", 3), co("c", 3)], own_turn=True, defending=False)
    assert avg == Fraction(10, 3) and isinstance(avg, Fraction) and n == 3


def test_ntnd_19_2_1_support_units_not_counted_unless_alone():
    fb = CombatUnit("fb", ALLIED, role=FIREBASE, morale=1)
    pb = CombatUnit("pb", ALLIED, role=PATROL_BOAT, morale=3)
    fleet = CombatUnit("fl", ALLIED, role=FLEET)
    assert C.morale_average([al("a", 4), fb, pb, fleet], own_turn=False, defending=True)[:2] == (4, 1)
    # 13.1.3: a firebase alone in a hex under attack has a defensive morale of one
    assert C.morale_average([fb], own_turn=False, defending=True)[:2] == (1, 1)
    # 13.2.1: so has Communist artillery alone
    art = CombatUnit("art", COMMUNIST, role=ARTILLERY, morale=3)
    assert C.morale_average([art], own_turn=False, defending=True)[0] == 1
    # 14.1.1: a patrol boat alone uses its intrinsic morale (US 3, ARVN 2 in counters.json)
    assert C.morale_average([pb, fleet], own_turn=False, defending=True)[:2] == (3, 1)
    types = load_counters().types
    assert (types["us_patrol_boat"].morale, types["arvn_patrol_boat"].morale) == (3, 2)


def test_ntnd_13_1_3_firebase_alone_adds_its_own_fire_support():
    fb = CombatUnit("fb", ALLIED, role=FIREBASE, morale=1)
    sit = CombatSituation((co("c1"),), (fb,), defender_support=(FireSupporter("fb", FIREBASE, 0),))
    r = C.resolve(sit, 1, 1)
    assert r.defender_total == 1 + 1 + 1


def test_ntnd_19_2_1_current_morale_modifiers():
    mil = al("m", 1, militia=True, in_green_beret_zoi=True, allied_controlled_area=True)
    assert C.current_morale(mil, own_turn=True)[0] == 3                      # 15.2.2 and 7.3.3
    assert C.current_morale(al("r", 3, in_green_beret_zoi=True), own_turn=True)[0] == 3  # only militia
    assert C.current_morale(al("sfm", 2, sfm5=True, in_green_beret_zoi=True), own_turn=True)[0] == 3  # 28.2.1
    assert C.current_morale(al("arvn", 2, arvn=True, demoralized=True), own_turn=False)[0] == 1    # 25.2
    # 18.2.1.4 out of supply: -1 in its own turn; 18.4 in supply for defence in the opponent's
    oos = co("c", 3, out_of_supply=True)
    assert C.current_morale(oos, own_turn=True)[0] == 2
    assert C.current_morale(oos, own_turn=False)[0] == 3
    sit = CombatSituation((oos,), (al("a", 3, out_of_supply=True),))
    r = C.resolve(sit, 1, 1)
    assert r.attacker.term("NTND 19.2.1") == 2 and r.defender.term("NTND 19.2.1") == 3


def test_ntnd_11_1_2_ground_support_one_point_per_unit_and_below_zero():
    units = [co("a", 1), co("b", 0)]
    avg, _, _ = C.morale_average(units, air_hits=3, own_turn=True, defending=False)
    assert avg == Fraction(1 - 1 + 0 - 1, 2)          # two units hit once each, third mission wasted
    assert avg < 0
    with pytest.raises(ValueError):                    # Allied air flies against Communist units only
        C.resolve(CombatSituation((al("a"),), (co("c"),), air_hits_on_attackers=1), 1, 1)


# --------------------------------------------------------------------------- 19.2.2

def test_ntnd_19_2_2_fire_support_ranges_and_supply():
    fs = C.fire_support
    assert fs([FireSupporter("a", ARTILLERY, 1), FireSupporter("b", ARTILLERY, 2)], own_turn=False) == 1
    assert fs([FireSupporter("f", FIREBASE, 2), FireSupporter("g", FIREBASE, 3)], own_turn=False) == 1
    assert fs([FireSupporter("p", PATROL_BOAT, 1), FireSupporter("q", PATROL_BOAT, 2)], own_turn=False) == 1
    assert fs([FireSupporter("fl", FLEET, 2)], own_turn=False) == 1
    # 13.4 / 18.3: out of supply in its own turn: no fire support; always supplied in the opponent's
    assert fs([FireSupporter("a", ARTILLERY, 0, supplied=False)], own_turn=True) == 0
    assert fs([FireSupporter("a", ARTILLERY, 0, supplied=False)], own_turn=False) == 1
    # 19.3.8 retreated into a hex under attack: no effect, not even fire support; inverted: none
    assert fs([FireSupporter("a", ARTILLERY, 0, retreated_into=True)], own_turn=False) == 0
    assert fs([FireSupporter("a", ARTILLERY, 0, face_up=False)], own_turn=False) == 0
    with pytest.raises(ValueError):
        FireSupporter("s", SAM, 0)


# --------------------------------------------------------------------------- 19.2.3

def test_ntnd_19_2_3_terrain_effects_chart_matches_text():
    # "City +2, Mountain +2, Jungle/Swamp +1, All Attackers on: Minor River +1, Major River +2"
    tm = C.terrain_modifier
    assert (tm("clear", True), tm("mountain", False), tm("jungle", False), tm("swamp", False)) == (2, 2, 1, 1)
    assert tm("clear", False) == 0
    assert tm("clear", False, ["minor"]) == 1 and tm("clear", False, ["major", "major"]) == 2
    assert tm("mountain", True, ["major"]) == 6                       # "All modifiers are cumulative"
    assert tm("clear", False, ["major", None]) == 0                   # not all attackers across a river
    assert tm("clear", False, ["major", "minor"]) == 1                # project reading: lowest applies
    assert tm("mountain", True, in_zone=True) == 0                    # 9.2 zones are clear for combat


def test_ntnd_19_2_3_terrain_goes_to_the_defender_only():
    sit = CombatSituation((co("c"),), (al("a"),), terrain="mountain")
    r = C.resolve(sit, 1, 1)
    assert r.defender.term("NTND 19.2.3") == 2 and r.attacker.term("NTND 19.2.3") == 0


def test_ntnd_19_2_3_2_and_12_3_aa_versus_airmobile_adds_one_to_communist():
    r = C.resolve(CombatSituation((al("a", airmobile=True),), (co("c"),), aa_vs_airmobile=True), 1, 1)
    assert r.defender.term("NTND 12.3") == 1 and r.attacker.term("NTND 12.3") == 0
    r = C.resolve(CombatSituation((co("c"),), (al("a", airmobile=True),), aa_vs_airmobile=True), 1, 1)
    assert r.attacker.term("NTND 12.3") == 1


# --------------------------------------------------------------------------- 19.2.4

def test_ntnd_19_2_4_numbers_bonus():
    nb = C.numbers_bonus
    assert (nb(2, 1), nb(3, 1), nb(5, 1), nb(5, 2), nb(6, 2), nb(1, 1), nb(1, 2)) == (1, 2, 2, 1, 2, 0, 0)
    r = C.resolve(CombatSituation((al("a"),), (co("c1"), co("c2"), co("c3"))), 1, 1)
    assert r.defender.term("NTND 19.2.4") == 2 and r.attacker.term("NTND 19.2.4") == 0


# --------------------------------------------------------------------------- 19.2.6

def test_ntnd_19_2_6_bands():
    assert C.band_of(Fraction(10), Fraction(5)) == (0, DOUBLE)      # "twice that of his opponent"
    assert C.band_of(Fraction(19, 2), Fraction(5)) == (0, HIGHER)
    assert C.band_of(Fraction(5), Fraction(10)) == (1, DOUBLE)
    assert C.band_of(Fraction(7), Fraction(7)) == (-1, TIE)


def test_ntnd_19_2_6_double_two_losses_rest_retreat():
    sit = CombatSituation((al("a1", 4), al("a2", 4)), (co("c1", 1), co("c2", 1), co("c3", 1)))
    r = C.resolve(sit, 6, 1)          # 4 + 6 = 10 against 1 + 1 = 2
    assert r.band == DOUBLE and r.losses[0].count == 2 and r.losses[0].side == COMMUNIST
    assert r.retreat_order == ((COMMUNIST, "must"),)
    r = C.resolve(CombatSituation((al("a1", 4),), (co("c1", 1),)), 6, 1)
    assert r.losses[0].count == 1                              # cannot lose more than it has


def test_ntnd_19_2_6_higher_one_loss_and_attacker_can_lose():
    r = C.resolve(CombatSituation((al("a1", 3), al("a2", 3)), (co("c1", 4),)), 1, 6)   # 3+1+1=5 vs 4+6=10
    assert (r.winner, r.band) == (COMMUNIST, DOUBLE) and r.losses[0].side == ALLIED
    r = C.resolve(CombatSituation((al("a1", 3),), (co("c1", 3),)), 3, 4)
    assert (r.winner, r.band, r.losses[0].count) == (COMMUNIST, HIGHER, 1)
    assert r.retreat_order == ((ALLIED, "must"),)


def test_ntnd_19_2_6_tie_each_loses_one_defender_chooses_retreat_first():
    r = C.resolve(CombatSituation((al("a1", 3),), (co("c1", 3),)), 4, 4)
    assert r.band == TIE and r.winner is None
    assert [(x.side, x.count) for x in r.losses] == [(COMMUNIST, 1), (ALLIED, 1)]
    assert r.retreat_order == ((COMMUNIST, "may"), (ALLIED, "may"))


def test_ntnd_19_2_6_losses_chosen_by_owner():
    req = C.LossRequirement(COMMUNIST, 1, ("c1", "c2"))
    C.check_loss_choice(req, ["c2"])
    for bad in (["c1", "c2"], [], ["x"], ["c1", "c1"]):
        with pytest.raises(Rejection):
            C.check_loss_choice(req, bad)


def test_ntnd_13_3_sam_can_be_taken_as_a_loss():
    req = C.loss_requirement(COMMUNIST, [co("c1"), CombatUnit("s", COMMUNIST, role=SAM)], 1,
                             enemy_armor_or_artillery=False)
    assert req.eligible == ("c1", "s")


def test_ntnd_14_1_2_patrol_boats_lose_only_to_armor_or_artillery():
    pb = CombatUnit("pb", ALLIED, role=PATROL_BOAT, morale=2)
    r = C.resolve(CombatSituation((co("c", 3),), (pb,)), 6, 1)
    assert r.losses[0].count == 0                     # it retreats instead
    assert R.retreat_plan(r, ALLIED, [pb]).retreat == ("pb",)
    r = C.resolve(CombatSituation((co("t", 4, armor=True),), (pb,)), 6, 1)
    assert r.losses[0].eligible == ("pb",) and r.losses[0].count == 1
    r = C.resolve(CombatSituation((co("c", 3),), (pb,),
                                  attacker_support=(FireSupporter("art", ARTILLERY, 1),)), 6, 1)
    assert r.losses[0].count == 1
    # in an exchange the Communist player still loses his unit and the boat retreats
    r = C.resolve(CombatSituation((co("c", 2),), (pb,)), 1, 1)
    assert r.band == TIE and r.losses[0].count == 0 and r.losses[1].count == 1
    assert R.retreat_plan(r, ALLIED, [pb]).mode == "must"


def test_ntnd_unit_from_type_maps_counters():
    t = load_counters().types
    assert C.unit_from_type("x", t["vc_sapper"]).sapper
    tank = C.unit_from_type("t", t["nva_tank_regiment"])
    assert tank.armor and tank.nva and tank.is_ground_combat and tank.morale == 4
    assert C.unit_from_type("f", t["us_firebase"]).role == FIREBASE
    assert C.unit_from_type("p", t["arvn_patrol_boat"]).role == PATROL_BOAT
    assert C.unit_from_type("fl", t["us_fleet"]).role == FLEET
    assert C.unit_from_type("m", t["montagnard"]).militia
    assert C.unit_from_type("g", t["arvn_phoenix"]).green_beret
    assert C.unit_from_type("i", t["us_infantry_brigade"], airmobile=True).airmobile
    assert C.unit_from_type("s", t["us_5sfm"], in_green_beret_zoi=True).in_green_beret_zoi
    with pytest.raises(ValueError):
        C.unit_from_type("w", t["us_fighter_wing"])
