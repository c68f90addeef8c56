"""NTND 20 Ambushes, one test per sub-rule; the 20.4.1 terrain example is a test."""
from __future__ import annotations

from fractions import Fraction

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.combat import ambush as A
from afteraction.engine.games.ntnd.combat import resolution as C
from afteraction.engine.games.ntnd.combat.resolution import (ALLIED, ARTILLERY, COMMUNIST, FIREBASE, FLEET, PATROL_BOAT,
                                                  CombatUnit, FireSupporter)
from afteraction.engine.ruleset import Context


def al(uid: str, morale: int = 4, **kw) -> CombatUnit:
    return CombatUnit(uid, ALLIED, morale=morale, **kw)


def inv(uid: str, morale: int = 3, **kw) -> CombatUnit:
    return CombatUnit(uid, COMMUNIST, morale=morale, face_up=False, **kw)


VC = inv("vc", 3, guerrilla=True)
NVA = inv("nva", 4, nva=True, division=True)


def test_ntnd_20_4_1_example_mountain_adds_two_to_communist():
    # "Allied unit is in a mountain hex; the Communist player adds 2 (for mountains) to his total morale"
    sit = A.AmbushSituation((VC,), (al("us"),), terrain="mountain")
    assert A.ambush_terrain(sit) == 2
    r = A.resolve_ambush(sit, 1, 1)
    assert r.attacker.side == COMMUNIST
    assert r.attacker.term("NTND 20.4.1") == 2
    assert r.defender.term("NTND 19.2.3") == 0 and r.defender.term("NTND 20.4.1") == 0
    assert r.attacker_total == 3 + 1 + 2 + 1 and r.defender_total == 4 + 1


def test_ntnd_20_4_1_no_other_terrain_modifiers():
    sit = A.AmbushSituation((VC,), (al("us"),), terrain="jungle", city=True)
    assert A.ambush_terrain(sit) == 3          # the ambushed hex's city and jungle; no rivers at all
    assert A.ambush_terrain(A.AmbushSituation((VC,), (al("us"),), terrain="mountain", in_zone=True)) == 0


def test_ntnd_20_1_20_2_may_declare_when_allied_ground_unit_moves_adjacent():
    assert A.may_declare_ambush(al("us"), (VC,))
    assert not A.may_declare_ambush(al("us"), ())
    assert not A.may_declare_ambush(al("us"), (CombatUnit("vc", COMMUNIST, morale=3),))    # face up
    assert not A.may_declare_ambush(al("us"), (CombatUnit("d", COMMUNIST, role=C.DUMMY, face_up=False),))
    assert not A.may_declare_ambush(CombatUnit("fb", ALLIED, role=FIREBASE, morale=1), (VC,))


def test_ntnd_20_2_ambushers_flip_and_stay_face_up():
    r = A.resolve_ambush(A.AmbushSituation((VC, NVA), (al("us"),)), 3, 3)
    assert r.flips == ("vc", "nva")
    with pytest.raises(Rejection):
        A.validate_ambush(A.AmbushSituation((CombatUnit("vc", COMMUNIST, morale=3),), (al("us"),)))
    with pytest.raises(Rejection):
        A.validate_ambush(A.AmbushSituation((VC,), (CombatUnit("fb", ALLIED, role=FIREBASE, morale=1),)))


def test_ntnd_20_3_all_adjacent_inverted_units_may_join():
    r = A.resolve_ambush(A.AmbushSituation((VC, NVA, inv("vc2", 2, guerrilla=True)), (al("us"),)), 1, 1)
    assert r.attacker.units == 3 and r.attacker.term("NTND 19.2.1") == 3
    assert r.attacker.term("NTND 19.2.4") == 2           # 3:1, numbers as in combat


def test_ntnd_20_4_2_allied_support_only_from_the_ambushed_hex():
    sup = (FireSupporter("fb_in", FIREBASE, 0), FireSupporter("fb_near", FIREBASE, 1),
           FireSupporter("pb_in", PATROL_BOAT, 0), FireSupporter("fl_near", FLEET, 2))
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us"),), allied_support=sup), 1, 1)
    assert r.defender.term("NTND 19.2.2") == 2
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us"),), air_hits_in_hex=1), 1, 1)
    assert r.attacker.term("NTND 19.2.1") == 2


def test_ntnd_20_4_3_only_ambushing_artillery_supports():
    art = inv("art", 1, role=ARTILLERY, nva=True)
    r = A.resolve_ambush(A.AmbushSituation((VC, art), (al("us"),)), 1, 1)
    assert r.attacker.term("NTND 19.2.2") == 1 and r.attacker.units == 1   # artillery is no ground unit
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us"),)), 1, 1)
    assert r.attacker.term("NTND 19.2.2") == 0


def test_ntnd_20_4_4_surprise_adds_one():
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us"),)), 2, 2)   # 3 + 1 + 2 against 4 + 2
    assert r.attacker.term("NTND 20.4.4") == 1
    assert r.attacker_total == r.defender_total == Fraction(6)
    assert r.band == C.TIE


def test_ntnd_20_5_aftermath():
    after = A.ambush_aftermath(1)
    assert after.allied_may_continue and after.communist_must_retreat and not after.communist_may_enter
    after = A.ambush_aftermath(0)
    assert after.communist_may_enter and not after.communist_must_retreat
    assert after.ambushers_stay_face_up
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us", 1),)), 6, 1)
    assert r.winner == COMMUNIST and r.retreat_order == ()      # no 19.2.6 retreat for the Allied unit


def test_ntnd_20_6_unsupplied_nva_and_artillery():
    art = inv("art", 1, role=ARTILLERY, nva=True)
    r = A.resolve_ambush(A.AmbushSituation((NVA, art), (al("us"),), unsupplied=("nva", "art")), 1, 1)
    assert r.attacker.term("NTND 19.2.1") == 3 and r.attacker.term("NTND 19.2.2") == 0
    r = A.resolve_ambush(A.AmbushSituation((NVA, art), (al("us"),)), 1, 1)
    assert r.attacker.term("NTND 19.2.1") == 4 and r.attacker.term("NTND 19.2.2") == 1
    r = A.resolve_ambush(A.AmbushSituation((VC,), (al("us"),), unsupplied=("vc",)), 1, 1)
    assert r.attacker.term("NTND 19.2.1") == 3                     # guerrillas need no supplies


def test_ntnd_20_7_airmobile_targets():
    am = al("cav", 4, airmobile=True)
    assert not A.may_declare_ambush(am, (VC,))
    assert A.may_declare_ambush(am, (VC, NVA))
    with pytest.raises(Rejection):
        A.validate_ambush(A.AmbushSituation((VC,), (am,)))
    with pytest.raises(Rejection):
        A.validate_ambush(A.AmbushSituation((VC, NVA), (am,)))   # guerrillas may not take part
    tank = inv("tank", 4, nva=True, armor=True)
    sit = A.AmbushSituation((tank, inv("art", 1, role=ARTILLERY, nva=True)), (am,), terrain="mountain",
                            sam_supplied=True)
    r = A.resolve_ambush(sit, 1, 1)
    assert r.attacker.term("NTND 20.4.1") == 0                     # flying: no terrain benefit
    assert r.attacker.term("NTND 20.7") == 1 and r.attacker.term("NTND 19.2.2") == 1


def test_ntnd_20_ambush_dice_through_ctx():
    ctx = Context.for_tests(faces=[5, 2])
    r = A.fight_ambush(A.AmbushSituation((VC,), (al("us"),), terrain="mountain"), ctx)
    assert r.attacker.term("NTND 19.2.6") == 5 and r.defender.term("NTND 19.2.6") == 2
    rolls = [e for e, _ in ctx.events if e["t"] == "roll"]
    assert [e["die"] for e in rolls] == ["d6", "d6"] and "communist" in rolls[0]["rule"]


def test_ntnd_17_2_dummy_in_ambushing_stack_does_not_fight():
    d = CombatUnit("d", COMMUNIST, role=C.DUMMY, face_up=False)
    r = A.resolve_ambush(A.AmbushSituation((VC, d), (al("us"),)), 1, 1)
    assert r.attacker.units == 1 and any("17.2" in n for n in r.notes)
    with pytest.raises(Rejection):
        A.validate_ambush(A.AmbushSituation((d,), (al("us"),)))
