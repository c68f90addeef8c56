"""SOG 2.2 and 3.5-3.5.3: movement and Enemy Contact."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog import board, enemy, movement

from .util import RS, do, in_play, move, of, place_team, panel


def test_sog_3_5_one_square_per_turn():
    s = place_team(in_play(), "7-H")
    with pytest.raises(Rejection) as e:
        do(s, "sog", move("5-H"))
    assert (e.value.code, e.value.message) == ("ILLEGAL_MOVE", "SOG 3.5 allows one square per turn")
    with pytest.raises(Rejection) as e:
        do(place_team(s, "10-A"), "sog", move("11-A"))
    assert e.value.code == "ILLEGAL_MOVE" and "SOG 2.2" in e.value.message
    dests = sorted(c.sog.move.square for c in RS.legal_commands(s, "sog") if c.sog.WhichOneof("action") == "move")
    assert dests == sorted(["7-H"] + board.neighbours("7-H")) and len(dests) == 9
    assert len([c for c in RS.legal_commands(place_team(s, "1-A"), "sog") if c.sog.HasField("move")]) == 4


def test_sog_2_2_hold_in_place_makes_no_contact_roll():
    s = place_team(in_play(), "7-H")
    s["vc"] = [{"n": 1, "at": "3-C"}]
    s2, ev = do(s, "sog", move("7-H"), faces=[3])
    assert not of(ev, "contact") and s2["turn"] == s["turn"] + 1
    assert of(ev, "vc-moved")[0]["to"] == "3-D"  # holding is the American move: VC still move (4.2)
    s = place_team(in_play(), "2-F")  # in the Target square: holding makes no search roll (3.6.2 acts on entering)
    s2, ev = do(s, "sog", move("2-F"))
    assert not of(ev, "target-search")


def test_sog_3_5_1_drm_example():
    """A SOG Team of seven members enters a Mountain square: drm +1 (-1 for a group of three less, +2 terrain)."""
    s = place_team(in_play(team="seven (3 Americans, 4 Nung)"), "7-H")
    assert board.TERRAIN["7-I"] == "mountain"
    assert movement.contact_drm(s, "7-I") == {"vc_counters": 0, "team_size": -1, "terrain": 2, "total": 1}
    s2, ev = do(s, "sog", move("7-I"), faces=[5, 9])  # a 5 becomes 6: One Patrol Evaded
    c = of(ev, "contact")[0]
    assert (c["roll"], c["modified"], c["result"]) == (5, 6, "evaded")
    assert s2["vc"] == [{"n": 1, "at": "7-I"}]


@pytest.mark.parametrize("men,drm", [(12, 0), (11, 0), (10, 0), (9, -1), (7, -1), (6, -2), (3, -3), (1, -3)])
def test_sog_3_5_1_groups_of_three_less_than_12(men, drm):
    assert movement.group_drm(men) == drm


def test_sog_3_5_1_terrain_and_vc_modifiers():
    s = in_play()
    assert movement.TERRAIN_DRM == {"clear": 3, "elephant_grass": -1, "jungle": -2, "mountain": 2, "broken": 1}
    s["vc"] = [{"n": 1, "at": "4-E"}, {"n": 2, "at": "4-E"}]
    assert movement.contact_drm(s, "4-E") == {"vc_counters": 2, "team_size": 0, "terrain": 3, "total": 5}


@pytest.mark.parametrize("modified,result", [(-3, "none"), (1, "none"), (5, "none"), (6, "evaded"), (7, "evaded"),
                                             (8, "contacted"), (9, "contacted"), (10, "ambush"), (14, "ambush")])
def test_sog_3_5_enemy_contact_table(modified, result):
    assert movement.contact_result(modified) == result


def test_sog_3_5_contacted_plays_meeting_engagement():
    s = place_team(in_play(), "7-G")  # 7-H is Broken (+1): 7 -> 8
    s2, ev = do(s, "sog", move("7-H"), faces=[7])
    a = of(ev, "action")[0]
    assert a["scenario"] == "Meeting Engagement" and a["page"] == 42
    assert a["roles"] == {"sog": "Side A", "nva": "Side B"}
    assert [f["type"] for f in a["forces"]["nva"]] == ["vc"] and a["forces"]["nva"][0]["counter"] == 1
    assert "Victory Condition #1" in a["notes"][0]
    assert a["terrain"] == "broken" and "Hills are height \"2\"" in a["terrain_rules"]
    assert RS.pending(s2).kind == "action_result" and RS.pending(s2).seat == "sog"
    assert not of(ev, "vc-moved")  # VC movement waits for the action


def test_sog_3_5_ambush_nva_defender_chooses_panel():
    s = place_team(in_play(), "7-G")
    s2, ev = do(s, "sog", move("7-H"), faces=[9])  # 9 + 1 = 10: Ambush
    assert of(ev, "contact")[0]["result"] == "ambush" and s2["vc"] == [{"n": 1, "at": "7-H"}]
    d = RS.pending(s2)
    assert (d.seat, d.kind) == ("nva", "panel_choice")
    with pytest.raises(Rejection) as e:
        do(s2, "nva", panel(1))
    assert e.value.code == "ILLEGAL_PANEL"
    s3, ev = do(s2, "nva", panel(3), faces=[7])
    a = of(ev, "action")[0]
    assert a["scenario"].startswith("Ambush") and a["page"] == 45
    assert a["orientation"] == "north edge to the south" and "map panel 3" in a["panels"]
    assert a["roles"]["nva"] == "defender" and "south" in a["entry"]
    assert [f["type"] for f in a["forces"]["nva"]] == ["nva"]


def test_sog_3_5_no_contact_roll_in_target_or_lz_square():
    s = place_team(in_play(), "3-F")  # target 2-F
    s["lzs"] = [{"n": 2, "at": "3-G"}]
    s2, ev = do(s, "sog", move("3-G"))
    assert not of(ev, "contact")
    s2, ev = do(s, "sog", move("2-F"), faces=[3])
    assert not of(ev, "contact") and of(ev, "target-search")


def test_sog_3_5_2_place_only_if_none_present():
    s = place_team(in_play(), "7-G")
    s["vc"] = [{"n": 4, "at": "7-H"}]
    s2, ev = do(s, "sog", move("7-H"), faces=[4, 9])  # 4 + 1 (broken) + 1 (VC) = 6: evaded
    assert of(ev, "contact")[0]["modified"] == 6
    assert not of(ev, "vc-placed") and s2["vc"] == [{"n": 4, "at": "7-H"}]


def test_sog_1_2_vc_counters_take_the_lowest_free_number():
    s = in_play()
    s["vc"] = [{"n": 1, "at": "1-A"}, {"n": 3, "at": "1-C"}]
    assert enemy.place(s, "5-E", _Ctx()) == 2
    assert [c["n"] for c in s["vc"]] == [1, 2, 3]


def test_sog_3_5_2_no_counter_in_target_square():
    s = in_play()
    assert enemy.place(s, s["target"], _Ctx()) is None


class _Ctx:
    def emit(self, e, to=None):
        pass


def _ten(s):
    s["vc"] = [{"n": n, "at": board.square(1, n)} for n in range(1, 11)]
    return s


def test_sog_3_5_2_ten_counters_suspend_contact_rolls():
    s = _ten(place_team(in_play(), "7-G"))
    s2, ev = do(s, "sog", move("7-H"), faces=[9] * 10)
    assert not of(ev, "contact") and of(ev, "contact-suspended")
    # ...unless the team moves into a square containing a VC counter
    s = _ten(place_team(in_play(), "2-B"))
    s2, ev = do(s, "sog", move("1-B"), faces=[1] + [9] * 10)
    assert of(ev, "contact")
    # a counter leaving the map re-institutes the roll
    s = _ten(place_team(in_play(), "7-G"))
    s2, ev = do(s, "sog", move("7-H"), faces=[1] + [9] * 9)  # VC 1 at 1-A moves north: off the map
    assert len(s2["vc"]) == 9
    s3, ev = do(s2, "sog", move("7-I"), faces=[1] + [9] * 9)
    assert of(ev, "contact")


def test_sog_3_5_3_optional_unlimited_counters():
    s = _ten(place_team(in_play(unlimited_vc=True), "7-G"))
    s2, ev = do(s, "sog", move("7-H"), faces=[5] + [9] * 11)
    assert of(ev, "contact") and of(ev, "vc-placed")[0]["vc"] == 11
    assert len(s2["vc"]) == 11
