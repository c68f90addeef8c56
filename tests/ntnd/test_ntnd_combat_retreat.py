"""NTND 19.3 (retreats) and 19.4 (advance after combat)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.combat import resolution as C
from afteraction.engine.games.ntnd.combat import retreat as R
from afteraction.engine.games.ntnd.combat.resolution import (ALLIED, ARTILLERY, COMMUNIST, FIREBASE, FLEET, CombatSituation,
                                                  CombatUnit)
from afteraction.engine.games.ntnd.combat.retreat import RetreatOption


def al(uid: str, morale: int = 4, **kw) -> CombatUnit:
    return CombatUnit(uid, ALLIED, morale=morale, **kw)


def co(uid: str, morale: int = 3, **kw) -> CombatUnit:
    return CombatUnit(uid, COMMUNIST, morale=morale, **kw)


def allied_wins(defenders=(co("c1"), co("c2"))):
    return C.resolve(CombatSituation((al("a1", 4), al("a2", 4, militia=True)), tuple(defenders)), 6, 1)


def communist_wins_against(defenders):
    return C.resolve(CombatSituation((co("c1", 4), co("c2", 4)), tuple(defenders)), 6, 1)


def test_ntnd_19_3_retreat_to_adjacent_hex_free_of_enemy_not_prohibited():
    u = co("c")
    assert R.retreat_verdict(u, RetreatOption()).legal
    assert not R.retreat_verdict(u, RetreatOption(adjacent=False)).legal
    assert not R.retreat_verdict(u, RetreatOption(enemy_units=True)).legal
    assert not R.retreat_verdict(u, RetreatOption(prohibited=True)).legal        # e.g. all-sea


def test_ntnd_19_3_1_stack_may_split():
    r = allied_wins()
    plan = R.retreat_plan(r, COMMUNIST, [co("c2"), CombatUnit("art", COMMUNIST, role=ARTILLERY, morale=1)])
    assert plan.retreat == ("c2", "art")   # each unit gets its own destination (one verdict per unit)
    into_a = R.retreat_verdict(co("c2"), RetreatOption())
    into_b = R.retreat_verdict(CombatUnit("art", COMMUNIST, role=ARTILLERY, morale=1), RetreatOption(crosses_border=True))
    assert into_a.legal and into_b.legal and into_a != into_b


def test_ntnd_19_3_2_overstacking_after_retreat_eliminates_excess():
    v = R.retreat_verdict(co("c"), RetreatOption(overstacked=True))
    assert v.legal and v.eliminate_overstack


def test_ntnd_19_3_3_retreat_across_border_must_leave():
    v = R.retreat_verdict(co("c"), RetreatOption(crosses_border=True))
    assert v.legal and v.must_leave_country


def test_ntnd_19_3_4_two_units_a_turn_to_the_fleet():
    opt = RetreatOption(kind=R.TO_FLEET, coastal_origin=True, fleet_used=1)
    assert R.retreat_verdict(al("a"), opt).legal
    assert not R.retreat_verdict(al("a"), RetreatOption(kind=R.TO_FLEET, coastal_origin=True, fleet_used=2)).legal
    assert not R.retreat_verdict(al("a"), RetreatOption(kind=R.TO_FLEET, coastal_origin=False)).legal
    assert not R.retreat_verdict(co("c"), opt).legal
    assert not R.retreat_verdict(CombatUnit("fb", ALLIED, role=FIREBASE, morale=1), opt).legal   # 8.7


def test_ntnd_19_3_5_airmobile_retreat_to_friendly_city_in_range():
    opt = RetreatOption(kind=R.AIRMOBILE_CITY, adjacent=False, friendly_city_in_range=True)
    assert R.retreat_verdict(al("am", airmobile=True), opt).legal
    assert not R.retreat_verdict(al("inf"), opt).legal
    assert not R.retreat_verdict(al("am", airmobile=True),
                                 RetreatOption(kind=R.AIRMOBILE_CITY, friendly_city_in_range=False)).legal


def test_ntnd_19_3_6_unable_to_retreat_is_eliminated():
    u = co("c")
    verdicts = [R.retreat_verdict(u, RetreatOption(enemy_units=True)),
                R.retreat_verdict(u, RetreatOption(prohibited=True))]
    assert R.unable_to_retreat(verdicts)
    assert not R.unable_to_retreat(verdicts + [R.retreat_verdict(u, RetreatOption())])
    assert R.unable_to_retreat([])


def test_ntnd_19_3_7_firebase_eliminated_if_forced_to_retreat():
    fb = CombatUnit("fb", ALLIED, role=FIREBASE, morale=1)
    r = communist_wins_against((al("a1", 2), fb))
    plan = R.retreat_plan(r, ALLIED, [al("a2", 2), fb])
    assert plan.eliminated == (("fb", "NTND 19.3.7"),) and plan.retreat == ("a2",)
    # 13.1.2: its ground units all eliminated, it is not forced to retreat: it stays (until an advance)
    alone = R.retreat_plan(r, ALLIED, [fb])
    assert alone.eliminated == () and alone.stay == (("fb", "NTND 13.1.2"),)
    tie = C.resolve(CombatSituation((co("c1", 2),), (al("a1", 2), fb)), 1, 1)
    assert tie.band == C.TIE
    assert R.retreat_plan(tie, ALLIED, [fb]).stay == (("fb", "NTND 19.3.7"),)   # may: it stays


def test_ntnd_15_2_3_1_green_beret_eliminated_if_forced_to_retreat():
    gb = al("gb", 2, green_beret=True)
    r = communist_wins_against((gb, al("a", 2)))
    assert R.retreat_plan(r, ALLIED, [gb]).eliminated == (("gb", "NTND 15.2.3.1"),)


def test_ntnd_19_3_8_retreat_into_hex_under_attack_is_inverted():
    v = R.retreat_verdict(co("c"), RetreatOption(under_attack=True))
    assert v.legal and v.invert and v.rule == "NTND 19.3.8"


def test_ntnd_19_3_9_units_in_zones_never_retreat():
    z = co("z", in_zone=True)
    r = allied_wins((z, co("c2")))
    plan = R.retreat_plan(r, COMMUNIST, [z])
    assert plan.stay == (("z", "NTND 19.3.9"),) and plan.retreat == ()
    assert not R.retreat_verdict(z, RetreatOption()).legal
    assert R.retreat_verdict(co("c"), RetreatOption(kind=R.ZONE)).legal    # from a hex next to a zone


def test_ntnd_14_2_fleet_never_affected():
    fl = CombatUnit("fl", ALLIED, role=FLEET)
    r = communist_wins_against((al("a"), fl))
    assert R.retreat_plan(r, ALLIED, [fl]).stay == (("fl", "NTND 14.2"),)
    assert "fl" not in r.losses[0].eligible


def test_ntnd_28_9_5_base_negates_communist_retreat():
    base = CombatUnit("b", COMMUNIST, role=C.BASE)
    r = allied_wins((co("c1"), base))
    plan = R.retreat_plan(r, COMMUNIST, [base])
    assert plan.mode == "none" and plan.retreat == ()
    tie = C.resolve(CombatSituation((al("a1", 3),), (co("c1", 3), base)), 1, 1)
    assert tie.band == C.TIE and R.retreat_plan(tie, COMMUNIST, [base, co("c1")]).mode == "may"


def test_ntnd_19_4_winner_advances_with_mobile_units_into_vacant_hex():
    r = allied_wins()
    attackers = (al("a1", 4), al("a2", 4, militia=True), al("a3", 4, militia=True, in_green_beret_zoi=True))
    adv = R.advance_rule(r, attackers, remaining_defenders=(), attacker_retreated=False)
    assert adv.allowed and adv.eligible == ("a1", "a3")   # militia only with Green Beret supervision
    assert not R.advance_rule(r, attackers, remaining_defenders=(co("c2"),), attacker_retreated=False).allowed


def test_ntnd_19_4_firebases_do_not_advance_loser_does_not_advance():
    lost = C.resolve(CombatSituation((co("c1", 2),), (al("x", 4),)), 1, 6)
    assert lost.winner == ALLIED
    assert not R.advance_rule(lost, (co("c1"),), (), attacker_retreated=False).allowed
    fb_only = C.resolve(CombatSituation((CombatUnit("fb", ALLIED, role=FIREBASE, morale=4),), (co("c", 1),)), 6, 1)
    adv = R.advance_rule(fb_only, (CombatUnit("fb", ALLIED, role=FIREBASE, morale=4),), (), False)
    assert not adv.allowed


def test_ntnd_19_4_tie_advance_only_if_attacker_stays():
    tie = C.resolve(CombatSituation((co("c1", 3), co("c2", 3)), (al("a", 3),)), 1, 2)
    assert tie.band == C.TIE
    assert R.advance_rule(tie, (co("c2"),), (), attacker_retreated=False).allowed
    assert not R.advance_rule(tie, (co("c2"),), (), attacker_retreated=True).allowed


def test_ntnd_13_1_2_firebase_eliminated_when_communists_advance():
    tie = C.resolve(CombatSituation((co("c1", 3), co("c2", 3)), (al("a", 3),)), 1, 2)
    fb, fl = CombatUnit("fb", ALLIED, role=FIREBASE, morale=1), CombatUnit("fl", ALLIED, role=FLEET)
    adv = R.advance_rule(tie, (co("c1"), co("c2")), (fb, fl), attacker_retreated=False)
    assert adv.allowed and adv.eliminated_on_entry == ("fb",) and adv.displaced == ("fl",)   # 14.2.1
