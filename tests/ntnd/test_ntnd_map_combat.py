"""NTND combat on the map, through the game's own path (announce, react, resolve; decisions answered
with the legal commands): fire support of the units in the attacked hex (19.2.2, 13.1.1, 13.1.3,
13.2.1, 14.1.1, 14.2), support units attacking alone (14.1.1, 19.2.1), the 19.2 worked example, and
the firebase left alone (13.1.2 / 19.3.7). The pure functions of combat.py are tested in
test_ntnd_combat.py; these tests check that the battles the game builds give the same totals."""
from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from .mapplay import allied_attack, attack_cmd, at, battle_of, blank, cmd, communist_attack, legal, play, put, term, terms


# --------------------------------------------------------------------------- the 19.2 worked example

def test_ntnd_19_2_1_to_19_2_6_worked_example_on_the_map():
    """The 19.2 example played on the map. Four Allied units attack: a U.S. brigade (4, in the U.S.
    Marine brigade's place: a III Corps brigade, so that it is in supply at Saigon), two ARVN
    divisions (2, 2) and an ARVN unit of morale 3 (the VNMC brigade in the armor regiment's place).
    The Communist stack is a VC regiment (3) and a VC cadre (2): printed morale 3 + 2, the example's
    "3 + 2 = 5/2" after its two ground support fighters (air operations, 11, are part 2). Artillery:
    one stacked with the stack, one adjacent. Allied support: a firebase within two hexes, the fleet
    within two hexes, a patrol boat adjacent. The map has no city on a swamp hex: the defender is in
    Saigon (city +2) and every attacker attacks across a minor river (+1), the example's +3."""
    s = blank()
    for u in ("us-1-1", "arvn-mar-1", "us-fb-laikhe"):
        put(s, u, "1524")                           # minor river to Saigon; the firebase supplies 1524
    for u in ("arvn-18div", "arvn-5div"):
        put(s, u, "1525")                           # minor river to Saigon; the fleet supplies 1525
    put(s, "us-fleet", "1526")                      # two hexes from Saigon
    put(s, "us-pb-1", "1425")                       # major river hex next to Saigon
    for u in ("vc-sgn-1", "vc-cadre-1", "nva-art-164"):
        put(s, u, "1424")                           # Saigon
    put(s, "nva-art-40", "1423")                    # adjacent to the stack
    attackers = ["arvn-18div", "arvn-5div", "arvn-mar-1", "us-1-1"]
    s, ev = allied_attack(s, "1424", attackers, faces=[3, 2])
    b = battle_of(ev)
    att, dfn = b["attacker"], b["defender"]
    # 19.2.1: 4 + 2 + 2 + 3 = 11/4 = 2.75; 3 + 2 = 5/2 = 2.5
    assert terms(att)[0] == ("NTND 19.2.1", Fraction(11, 4)) and att["units"] == 4
    assert terms(dfn)[0] == ("NTND 19.2.1", Fraction(5, 2)) and dfn["units"] == 2
    # 19.2.2: artillery stacked with and adjacent: +2 (4.5); firebase, fleet, patrol boat: +3 (5.75)
    assert term(dfn, "NTND 19.2.2") == 2 and Fraction(5, 2) + 2 == Fraction("4.5")
    assert term(att, "NTND 19.2.2") == 3 and Fraction(11, 4) + 3 == Fraction("5.75")
    # 19.2.3: +3 to the defender only (7.5)
    assert term(dfn, "NTND 19.2.3") == 3 and term(att, "NTND 19.2.3") == 0
    assert sum(v for r, v in terms(dfn) if r != "NTND 19.2.6") == Fraction("7.5")
    # 19.2.5: four against two: +1 (6.75)
    assert term(att, "NTND 19.2.4") == 1 and term(dfn, "NTND 19.2.4") == 0
    assert sum(v for r, v in terms(att) if r != "NTND 19.2.6") == Fraction("6.75")
    # 19.2.6: the Allied player rolls 3 (9.75), the Communist player 2 (9.5): the Allies win, not twice
    assert term(att, "NTND 19.2.6") == 3 and term(dfn, "NTND 19.2.6") == 2
    assert Fraction(*att["total"]) == Fraction("9.75") and Fraction(*dfn["total"]) == Fraction("9.5")
    assert (b["winner"], b["band"]) == ("allied", "higher")
    # "The Communist player must eliminate one ground combat unit (either the regiment or the division)"
    d = s["decision"]
    assert (d["seat"], d["kind"], d["count"]) == ("communist", "losses", 1)
    assert sorted(d["eligible"]) == ["vc-cadre-1", "vc-sgn-1"]
    s, _ = play(s, "communist", cmd("losses", units=["vc-cadre-1"]))
    assert s["units"]["vc-cadre-1"]["status"] != "map"
    # "... and retreat one hex from the battle with the remaining unit and the artillery counter"
    retreated = []
    while s["decision"]["kind"] == "retreat":
        d = s["decision"]
        assert d["seat"] == "communist" and d["mode"] == "must"
        s, _ = play(s, "communist", cmd("retreat", unit=d["unit"], to=sorted(d["to"])[0]))
        retreated.append(d["unit"])
    assert sorted(retreated) == ["nva-art-164", "vc-sgn-1"]
    assert s["decision"]["kind"] == "advance" and s["decision"]["seat"] == "allied"


# --------------------------------------------------------------------------- fire support in the attacked hex

def test_ntnd_19_2_2_artillery_stacked_with_the_attacked_stack_adds_one_on_the_map():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "vc-dak-to", "1814")
    put(s, "nva-art-40", "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4"], faces=[1, 1])
    assert term(battle_of(ev)["defender"], "NTND 19.2.2") == 1


def test_ntnd_13_1_1_firebase_stacked_with_an_attacked_brigade_adds_one_on_the_map():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-fb-pleiku", "1714")
    put(s, "vc-dak-to", "1814")
    s, ev = communist_attack(s, "1714", ["vc-dak-to"], faces=[1, 1])
    b = battle_of(ev)
    assert b["defender"]["side"] == "allied"
    assert term(b["defender"], "NTND 19.2.2") == 1
    assert term(b["defender"], "NTND 19.2.1") == 4          # the firebase is not averaged (19.2.1)


def test_ntnd_13_1_3_firebase_alone_defends_at_morale_one_with_its_own_fire_support_on_the_map():
    s = blank()
    put(s, "us-fb-pleiku", "1714")
    put(s, "vc-dak-to", "1814")
    s, ev = communist_attack(s, "1714", ["vc-dak-to"], faces=[1, 1])
    dfn = battle_of(ev)["defender"]
    assert term(dfn, "NTND 19.2.1") == 1 and term(dfn, "NTND 19.2.2") == 1 and dfn["units"] == 1


def test_ntnd_13_2_1_artillery_alone_defends_at_morale_one_with_its_own_fire_support_on_the_map():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "nva-art-40", "1814")
    s, ev = allied_attack(s, "1814", ["us-1-4"], faces=[1, 1])
    dfn = battle_of(ev)["defender"]
    assert term(dfn, "NTND 19.2.1") == 1 and term(dfn, "NTND 19.2.2") == 1 and dfn["units"] == 1


def test_ntnd_14_1_1_patrol_boat_stacked_with_an_attacked_unit_adds_one_on_the_map():
    s = blank()
    put(s, "us-3-9", "1126")                        # Can Tho, a major river hex
    put(s, "us-pb-1", "1126")
    put(s, "vc-iv-2", "1125")
    s, ev = communist_attack(s, "1126", ["vc-iv-2"], faces=[1, 1])
    dfn = battle_of(ev)["defender"]
    assert term(dfn, "NTND 19.2.2") == 1 and term(dfn, "NTND 19.2.1") == 4


def test_ntnd_14_2_fleet_stacked_with_an_attacked_unit_acts_as_a_firebase_on_the_map():
    s = blank()
    put(s, "us-5mar", "1810")                       # Da Nang, coastal
    put(s, "us-fleet", "1810")
    put(s, "vc-4nva", "1711")
    s, ev = communist_attack(s, "1810", ["vc-4nva"], faces=[1, 1])
    dfn = battle_of(ev)["defender"]
    assert term(dfn, "NTND 19.2.2") == 1 and term(dfn, "NTND 19.2.1") == 4


def test_ntnd_19_3_8_units_retreated_into_the_attacked_hex_give_no_fire_support_on_the_map():
    s = blank()
    put(s, "us-pb-1", "1225")                       # alone on the river next to Can Tho
    put(s, "us-3-9", "1126")                        # Can Tho
    put(s, "vc-iv-1", "1125")
    put(s, "vc-iv-2", "1125")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1225", ["vc-iv-1"]))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1126", ["vc-iv-2"]))
    s, ev = play(s, "communist", cmd("done"), faces=[6, 1])
    assert battle_of(ev)["winner"] == "communist"
    d = s["decision"]
    assert (d["kind"], d["unit"]) == ("retreat", "us-pb-1") and "1126" in d["to"]   # 14.1.2: it retreats
    s, _ = play(s, "allied", cmd("retreat", unit="us-pb-1", to="1126"))
    assert s["decision"]["kind"] == "advance"
    s, ev = play(s, "communist", cmd("done"), faces=[1, 1])          # the second announced battle
    b = battle_of(ev)
    assert b["target"] == "1126" and b["defender"]["units"] == 1
    assert term(b["defender"], "NTND 19.2.2") == 0      # "not even for fire support"


# --------------------------------------------------------------------------- support units attacking alone

def test_ntnd_14_1_1_lone_patrol_boat_attacks_with_its_own_morale_on_the_map():
    s = blank()
    put(s, "us-pb-1", "1126")
    put(s, "vc-iv-2", "1125")
    s, ev = allied_attack(s, "1125", ["us-pb-1"], faces=[6, 1])
    att = battle_of(ev)["attacker"]
    assert term(att, "NTND 19.2.1") == 3 and att["units"] == 1     # U.S. patrol boat: morale 3
    assert term(att, "NTND 19.2.2") == 0                            # "otherwise" it gives fire support


def test_ntnd_19_2_1_support_units_attack_alone_never_mixed_with_ground_units_on_the_map():
    s = blank()
    put(s, "us-3-9", "1126")
    put(s, "us-pb-1", "1126")
    put(s, "vc-iv-2", "1125")
    s = at(s, "a_combat")
    offered = sorted(tuple(sorted(c.ntnd.attack.attackers)) for c in legal(s, "allied")
                     if c.ntnd.WhichOneof("action") == "attack" and c.ntnd.attack.target == "1125")
    assert offered == [("us-3-9",), ("us-pb-1",)]
    from afteraction.engine.errors import Rejection
    import pytest
    with pytest.raises(Rejection):
        from .mapplay import RS
        from afteraction.engine.ruleset import Context
        RS.apply(s, "allied", cmd("attack", target="1125", attackers=["us-3-9", "us-pb-1"]), Context.for_tests())


# --------------------------------------------------------------------------- 13.1.2 / 19.3.7

def test_ntnd_13_1_2_firebase_left_alone_dies_only_when_the_communists_advance_on_the_map():
    s = blank()
    put(s, "arvn-23div", "2015")                    # clear, II Corps
    put(s, "us-fb-pleiku", "2015")
    put(s, "vc-qn", "1915")
    put(s, "vc-nt", "1915")
    # Communist 3 + 1 (two to one) + 6 = 10; Allied 2 + 1 (firebase) + 1 = 4: twice, two losses
    s, ev = communist_attack(s, "2015", ["vc-nt", "vc-qn"], faces=[6, 1])
    assert battle_of(ev)["band"] == "double"
    assert s["units"]["arvn-23div"]["status"] == "dead"                # the only ground unit: lost
    assert s["units"]["us-fb-pleiku"]["status"] == "map"               # not forced to retreat (13.1.2)
    assert s["decision"]["kind"] == "advance" and s["decision"]["seat"] == "communist"
    probe, _ = play(copy.deepcopy(s), "communist", cmd("done"))         # no advance: the firebase stays
    assert probe["units"]["us-fb-pleiku"]["status"] == "map" and probe["units"]["us-fb-pleiku"]["loc"] == "2015"
    s, ev = play(s, "communist", cmd("advance", units=["vc-qn"]))
    gone = [(e["unit"], e["rule"]) for e in ev if e["t"] == "eliminated"]
    assert gone == [("us-fb-pleiku", "NTND 13.1.2")]


def test_ntnd_19_3_7_firebase_forced_to_retreat_with_its_ground_units_is_eliminated_on_the_map():
    s = blank()
    put(s, "arvn-22div", "2015")
    put(s, "arvn-23div", "2015")
    put(s, "us-fb-pleiku", "2015")
    put(s, "vc-qn", "1915")
    put(s, "vc-nt", "1915")
    # Communist 3 + 6 = 9; Allied 2 + 1 (firebase) + 3 = 6: higher, one loss, the rest retreat
    s, ev = communist_attack(s, "2015", ["vc-nt", "vc-qn"], faces=[6, 3])
    assert battle_of(ev)["band"] == "higher"
    s, ev = play(s, "allied", cmd("losses", units=["arvn-22div"]))
    gone = [(e["unit"], e["rule"]) for e in ev if e["t"] == "eliminated"]
    assert ("us-fb-pleiku", "NTND 19.3.7") in gone
    assert s["decision"]["kind"] == "retreat" and s["decision"]["unit"] == "arvn-23div"


# --------------------------------------------------------------------------- 19.1.2

def test_ntnd_19_1_2_markers_next_to_allied_ground_units_flip_when_the_allied_combat_phase_begins():
    from .test_ntnd_rules import hide
    s = blank()
    put(s, "us-1-25", "1222")                       # III Corps, on the Cambodian border
    put(s, "us-fb-pleiku", "1716")                  # a firebase is not a ground combat unit
    near = hide(s, ["nva-9vc"], "1322")             # South Vietnam, adjacent: flips
    across = hide(s, ["nva-7"], "1122")             # Cambodia (neutral), adjacent across its border
    by_fb = hide(s, ["vc-bmt"], "1717")             # adjacent to the firebase only
    s = at(s, "a_combat")
    assert near not in s["markers"] and not s["units"]["nva-9vc"]["inv"]
    assert across in s["markers"] and by_fb in s["markers"]
    assert attack_cmd(s, "allied", "1322", ["us-1-25"]) is not None


# --------------------------------------------------------------------------- 8.10.2 / 28.9.1

def test_ntnd_8_10_2_an_overstacked_hex_loses_units_of_the_overfull_class_only_on_the_map():
    """The 8.10.2 losses at the start of a combat phase come from the class over its limit (8.10.1,
    28.9.1: one VC base a hex), never from a class without a limit (Communist supply units)."""
    s = blank()
    put(s, "us-1-4", "1714")
    for u in ("vc-base-1", "vc-base-2", "sup-353", "vc-dak-to"):
        put(s, u, "1814")
    s = at(s, "c_combat")
    d = s["decision"]
    assert (d["seat"], d["kind"], d["loc"], d["count"]) == ("communist", "losses", "1814", 1)
    assert d["eligible"] == ["vc-base-1", "vc-base-2"]
    s, ev = play(s, "communist", cmd("losses", units=["vc-base-2"]))
    assert s["units"]["sup-353"]["status"] == "map" and s["units"]["vc-base-2"]["status"] != "map"


# --------------------------------------------------------------------------- 20.7

def test_ntnd_20_7_supplied_sam_among_the_ambushers_of_an_airmobile_unit_adds_one_on_the_map():
    from .test_ntnd_rules import hide
    for supplied in (True, False):
        s = blank()
        put(s, "us-1-1cav", "1819")                     # airmobile, II Corps
        mk = hide(s, ["nva-3", "nva-sam-3"], "1814")    # an NVA division (20.7 may ambush) and a SAM
        if supplied:
            put(s, "sup-353", "1915")                   # their supply (20.6), next to them
        s = at(s, "a_move")
        s, _ = play(s, "allied", cmd("move", piece="us-1-1cav", path=["1714"]))
        assert s["decision"]["kind"] == "ambush" and s["decision"]["seat"] == "communist"
        s, ev = play(s, "communist", cmd("ambush", markers=[mk]), faces=[1, 1])
        att = battle_of(ev)["attacker"]
        assert att["side"] == "communist" and term(att, "NTND 20.7") == (1 if supplied else 0)
        assert term(att, "NTND 20.4.1") == 0            # flying: no terrain benefit


def test_ntnd_20_2_an_ambush_naming_one_marker_twice_is_refused_and_changes_nothing():
    """Found by the machine's mutated answers (tests/engine/test_machine_properties.py): a marker named
    twice flipped twice (KeyError) instead of being refused."""
    from afteraction.engine import snapshot
    from afteraction.engine.errors import Rejection
    from .test_ntnd_rules import hide
    s = blank()
    put(s, "us-1-1cav", "1819")
    mk = hide(s, ["nva-3"], "1814")
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece="us-1-1cav", path=["1714"]))
    assert s["decision"]["kind"] == "ambush"
    before = snapshot.digest(s)
    from afteraction.engine.ruleset import Context
    from .mapplay import RS
    with pytest.raises(Rejection) as e:
        RS.apply(RS.copy_state(s), "communist", cmd("ambush", markers=[mk, mk]), Context.for_tests(faces=[1, 1]))
    assert e.value.code == "ILLEGAL_AMBUSH" and snapshot.digest(s) == before
