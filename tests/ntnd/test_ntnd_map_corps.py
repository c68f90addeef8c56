"""NTND corps command and reaction rules on the map, through the game's own path: 5.3 (combat across
corps borders), 5.3.2 (the corps of a returning unit), 5.6 (naval units enter at sea), 8.8.1.1
(reaction moves may not over-stack), 8.9.1 (militia attack at home), 15.2.3 (Green Berets attack)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.sequence.turns import INDEX

from .mapplay import allied_attack, at, attack_cmd, blank, cmd, communist_attack, legal, play, put

HQS = {"1810", "2121", "1424", "1227"}   # Da Nang (I), Nha Trang (II), Saigon (III), Soc Trang (IV)


def _places(s, uid):
    return sorted(c.ntnd.place.location for c in legal(s, "allied")
                  if c.ntnd.WhichOneof("action") == "place" and c.ntnd.place.unit == uid)


def _bought_back(s, uid):
    """An eliminated unit bought back with a replacement point (4.2.3) in this turn's reinforcement
    phase; it is offered for entry in the next turn's (4.2.7)."""
    s["units"][uid].update(status="dead", loc=None)
    s = at(s, "a_reinforce")
    s, ev = play(s, "allied", cmd("place", unit=uid, location=""))
    assert s["units"][uid]["status"] == "sched"
    s["turn"] += 1
    return at(s, "a_reinforce")


# --------------------------------------------------------------------------- 5.3

def test_ntnd_5_3_a_corps_unit_advances_across_its_corps_border_after_combat_on_the_map():
    s = blank()
    put(s, "us-1-4", "1620")                        # II Corps brigade
    put(s, "vc-bmt", "1521")                        # III Corps
    s, ev = allied_attack(s, "1521", ["us-1-4"], faces=[6, 1])
    assert s["units"]["vc-bmt"]["status"] != "map"
    d = s["decision"]
    assert (d["seat"], d["kind"], d["eligible"]) == ("allied", "advance", ["us-1-4"])
    s, _ = play(s, "allied", cmd("advance", units=["us-1-4"]))
    assert s["units"]["us-1-4"]["loc"] == "1521" and s["units"]["us-1-4"]["corps"] == "II"


def test_ntnd_5_3_a_corps_unit_retreats_across_its_corps_border_after_combat_on_the_map():
    s = blank()
    put(s, "us-1-4", "1620")                        # II Corps brigades
    put(s, "us-2-4", "1620")
    put(s, "vc-bmt", "1720")
    put(s, "vc-nt", "1720")
    # Communist 3 + 6 = 9, Allied 4 + 1 (jungle) + 1 = 6: higher, one loss, the other retreats
    s, ev = communist_attack(s, "1620", ["vc-bmt", "vc-nt"], faces=[6, 1])
    s, _ = play(s, "allied", cmd("losses", units=["us-1-4"]))
    d = s["decision"]
    assert d["kind"] == "retreat" and d["unit"] == "us-2-4" and "1521" in d["to"]   # a III Corps hex
    s, _ = play(s, "allied", cmd("retreat", unit="us-2-4", to="1521"))
    assert s["units"]["us-2-4"]["loc"] == "1521" and s["units"]["us-2-4"]["corps"] == "II"


# --------------------------------------------------------------------------- 5.3.2

def test_ntnd_5_3_2_a_replaced_arvn_division_may_enter_in_any_corps_on_the_map():
    s = _bought_back(blank(), "arvn-18div")         # III Corps division
    assert set(_places(s, "arvn-18div")) == HQS
    s, ev = play(s, "allied", cmd("place", unit="arvn-18div", location="2121"))
    assert s["units"]["arvn-18div"]["loc"] == "2121" and s["units"]["arvn-18div"]["corps"] == "II"


def test_ntnd_5_3_2_a_replaced_brigade_with_no_brigade_of_its_division_in_its_corps_enters_anywhere():
    s = blank()
    put(s, "us-2-4", "1424")                        # a brigade of its division, but not in II Corps
    s = _bought_back(s, "us-1-4")                   # 4th Infantry Division, II Corps
    assert set(_places(s, "us-1-4")) == HQS
    s, _ = play(s, "allied", cmd("place", unit="us-1-4", location="1810"))
    # 5.2.2: all brigades of a division in the same corps: the division goes with it
    assert {s["units"][u]["corps"] for u in ("us-1-4", "us-2-4", "us-3-4")} == {"I"}


def test_ntnd_5_3_2_a_replaced_brigade_returns_to_its_parent_corps_if_its_division_is_there():
    s = blank()
    put(s, "us-2-4", "1715")                        # II Corps zone
    s = _bought_back(s, "us-1-4")
    assert _places(s, "us-1-4") == ["2121"]


# --------------------------------------------------------------------------- 5.6

def test_ntnd_5_6_a_bought_back_patrol_boat_enters_at_a_corps_city_or_any_sea_hex():
    from afteraction.engine.games.ntnd.components.map import load_map
    s = _bought_back(blank(), "us-pb-1")
    places = set(_places(s, "us-pb-1"))
    assert places == HQS | set(load_map().sea_hexes())
    s, _ = play(s, "allied", cmd("place", unit="us-pb-1", location="1526"))
    assert s["units"]["us-pb-1"]["loc"] == "1526"


# --------------------------------------------------------------------------- 8.8.1.1

def _reaction_targets(s):
    return sorted((c.ntnd.move.piece, c.ntnd.move.path[0]) for c in legal(s, "allied")
                  if c.ntnd.WhichOneof("action") == "move")


def test_ntnd_8_8_1_1_airmobile_reaction_may_not_overstack_the_attacked_hex():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-2-4", "1714")                        # two ground combat units: the limit (8.10.1)
    put(s, "us-1-1cav", "1819")                     # airmobile, II Corps
    put(s, "vc-dak-to", "1814")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1714"))
    s, ev = play(s, "communist", cmd("done"), faces=[1, 1])
    # the reaction phase (3.1.5) asks nothing: the only airmobile unit may not join the full hex, so
    # the game goes on to the Communist combat phase and its battle
    assert s["step"] > INDEX["a_reaction"]
    assert any(e["t"] == "battle" and e["target"] == "1714" for e in ev)


def test_ntnd_8_8_1_1_airmobile_reaction_into_a_hex_with_room_is_offered():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-1-1cav", "1819")
    put(s, "vc-dak-to", "1814")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    s, _ = play(s, "communist", attack_cmd(s, "communist", "1714"))
    s, _ = play(s, "communist", cmd("done"))
    assert s["decision"]["kind"] == "reaction" and ("us-1-1cav", "1714") in _reaction_targets(s)
    s, _ = play(s, "allied", cmd("move", piece="us-1-1cav", path=["1714"]))
    assert s["units"]["us-1-1cav"]["loc"] == "1714"


# --------------------------------------------------------------------------- 8.9.1 / 15.2.3 readings

def test_ntnd_8_9_1_militia_attack_at_home_on_the_map():
    s = blank()
    put(s, "arvn-mil-danang", "1810")
    put(s, "vc-4nva", "1711")
    s = at(s, "a_combat")
    assert attack_cmd(s, "allied", "1711", ["arvn-mil-danang"]) is not None


def test_ntnd_15_2_3_green_berets_may_attack_on_the_map():
    s = blank()
    put(s, "us-gb-1", "1510")
    put(s, "vc-6nva", "1610")
    s = at(s, "a_combat")
    assert attack_cmd(s, "allied", "1610", ["us-gb-1"]) is not None


# --------------------------------------------------------------------------- 4.2.3 reading

def _firebase_buys(s):
    return [(c.ntnd.place.unit, c.ntnd.place.location) for c in legal(s, "allied")
            if c.ntnd.WhichOneof("action") == "place" and s["units"][c.ntnd.place.unit]["type"] == "us_firebase"]


def test_ntnd_4_2_3_a_new_firebase_costs_no_political_points_one_from_the_dead_pile_two():
    s = blank()
    put(s, "us-1-1", "1323")
    s["units"]["us-fb-laikhe"].update(status="dead", loc=None)      # eliminated earlier
    s = at(s, "a_reinforce")
    assert _firebase_buys(s) == [("us-firebase-4", "1323")]          # the counter mix first
    pp = s["pp"]
    s, _ = play(s, "allied", cmd("place", unit="us-firebase-4", location="1323"))
    assert s["pp"] == pp and s["units"]["us-firebase-4"]["loc"] == "1323"
    put(s, "us-2-1", "1322")
    assert _firebase_buys(s) == [("us-fb-laikhe", "1322")]           # the mix is empty: the pile
    s, _ = play(s, "allied", cmd("place", unit="us-fb-laikhe", location="1322"))
    assert s["pp"] == pp - 2                                         # "replaced from the pile"


# --------------------------------------------------------------------------- 8.2 / 8.5.2 reading

def test_ntnd_8_5_2_airmobile_units_fly_over_enemy_zoc_reading_on_the_map():
    from afteraction.engine.games.ntnd.movement import zones
    s = blank()
    put(s, "us-1-1cav", "1819")
    put(s, "vc-bmt", "1818")                        # morale 3: a ZOC around 1818 (8.5.1)
    s = at(s, "a_move")
    zoc = zones.zoc_hexes(s, "communist")
    assert "1819" in zoc and "1716" not in zoc
    moves = {tuple(c.ntnd.move.path) for c in legal(s, "allied")
             if c.ntnd.WhichOneof("action") == "move" and c.ntnd.move.piece == "us-1-1cav"}
    assert ("1716",) in moves                       # flown: the path is the destination, no ZOC stop
    s, _ = play(s, "allied", cmd("move", piece="us-1-1cav", path=["1716"]))
    assert s["units"]["us-1-1cav"]["loc"] == "1716"


def test_ntnd_19_4_militia_advance_only_under_green_beret_supervision_on_the_map():
    for gb, advance in ((False, []), (True, ["arvn-mil-danang"])):
        s = blank()
        put(s, "arvn-mil-danang", "1810")
        put(s, "vc-cadre-1", "1711")
        if gb:
            put(s, "us-gb-2", "1610")                   # two hexes from 1810: its ZOI covers it (15.2.1)
        s, ev = allied_attack(s, "1711", ["arvn-mil-danang"], faces=[6, 1])
        assert s["units"]["vc-cadre-1"]["status"] != "map"
        d = s["decision"] or {}
        assert (d.get("eligible", []) if d.get("kind") == "advance" else []) == advance


def test_ntnd_8_9_1_guerrillas_attack_only_into_their_own_country_reading_on_the_map():
    s = blank()
    put(s, "us-9mar", "1408")                       # South Vietnam
    put(s, "pl-cadre-1", "1309")                    # Pathet Lao, at home in Laos, next to 1408
    put(s, "vc-6nva", "1409")                       # Viet Cong, at home in South Vietnam, next to 1408
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    offered = [sorted(c.ntnd.attack.attackers) for c in legal(s, "communist")
               if c.ntnd.WhichOneof("action") == "attack" and c.ntnd.attack.target == "1408"]
    assert offered == [["vc-6nva"]]                 # 8.9.1: no attack "in foreign countries"


def test_ntnd_8_9_1_and_9_3_guerrillas_attack_in_a_zone_only_in_their_own_country_on_the_map():
    """The 8.9.1 reading holds in off-board zones too (9.3 combat by the units in the zone). Part 1
    keeps Allied units out of North Vietnam, so the position is built, not reached."""
    s = blank()
    put(s, "us-199", "HANOI")
    put(s, "vc-6nva", "HANOI")                      # a VC regiment abroad
    put(s, "nva-320", "HANOI")
    s = at(s, "c_move")
    s, _ = play(s, "communist", cmd("done"))
    offered = [sorted(c.ntnd.attack.attackers) for c in legal(s, "communist")
               if c.ntnd.WhichOneof("action") == "attack" and c.ntnd.attack.target == "HANOI"]
    assert offered == [["nva-320"]]
