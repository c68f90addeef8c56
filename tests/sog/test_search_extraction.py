"""SOG 3.6-3.6.3 (target search), 3.7-3.7.3 (extraction), 3.9 (abort)."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog import search

from .util import (RS, abort, confirm, do, extraction, in_play, leader, move, of, panel, place_team, result)


def _searching():
    s = place_team(in_play(), "3-F")  # target 2-F
    s, ev = do(s, "sog", move("2-F"), faces=[3])
    return s, ev


@pytest.mark.parametrize("face,res", [(1, "not_located"), (5, "not_located"), (6, "located"), (9, "located"),
                                      (10, "faulty")])
def test_sog_3_6_target_search_table(face, res):
    assert search.search_result(face) == res


def test_sog_3_6_2_not_located_search_continues_around():
    s, ev = _searching()
    assert of(ev, "target-search")[0]["result"] == "not_located"
    assert s["searching"] and s["reached_target"] and s["target"] == "2-F"
    assert RS.pending(s).kind == "move"  # no abort once the target is reached (3.9)
    # a square not adjacent to the target: contact only, no search roll
    s2, ev = do(place_team(s, "4-F"), "sog", move("4-G"), faces=[1])
    assert of(ev, "contact") and not of(ev, "target-search")
    # an adjacent square: contact roll, then the search roll; located -> the target counter goes
    s2, ev = do(s, "sog", move("2-G"), faces=[1, 8])
    assert [e["t"] for e in ev if e["t"] in ("contact", "target-search")] == ["contact", "target-search"]
    assert s2["target"] is None and of(ev, "target-removed")
    a = of(ev, "action-called")[0]
    assert a["square"] == "2-G" and "Trail Interdiction" in a["cause"]


def test_sog_3_6_2_adjacent_squares_searched_only_after_a_failed_search():
    s = place_team(in_play(), "4-G")  # target 2-F, no search made yet
    s, ev = do(s, "sog", move("3-G"), faces=[1])  # adjacent to the target: contact only
    assert of(ev, "contact") and not of(ev, "target-search") and s["target"] == "2-F"


def test_sog_3_6_1_located_plays_the_mission_then_target_removed():
    s = place_team(in_play(objective_face=2), "3-F")  # Trail Interdiction
    s, ev = do(s, "sog", move("2-F"), faces=[7])
    assert not of(ev, "contact") and s["target"] == "2-F"
    assert (RS.pending(s).seat, RS.pending(s).kind) == ("sog", "panel_choice")  # 3.1.1: the American chooses
    s, ev = do(s, "sog", panel(2), faces=[1])
    assert (RS.pending(s).seat, RS.pending(s).kind) == ("nva", "add_leader")  # 4.1.1: two squads
    s, ev = do(s, "nva", leader(2))
    a = of(ev, "action")[0]
    assert a["scenario"] == "Ambush (Scenario Three)" and a["page"] == 45
    assert a["orientation"] == "north edge to the north" and a["roles"]["sog"] == "defender"
    assert [f["type"] for f in a["forces"]["nva"]] == ["vc", "nva"]
    assert "1C" in a["forces"]["nva"][1]["leaders"] and a["forces"]["nva"][1]["men"] == 10
    assert "north" in a["entry"]
    s, _ = do(s, "sog", result(sog_vp=12, nva_vp=4))
    s, ev = do(s, "nva", confirm())
    assert s["target"] is None and of(ev, "target-removed")
    assert s["vp"] == {"sog": 12, "nva": 4}
    assert RS.pending(s).kind == "extraction_choice"
    assert not of(ev, "vc-moved")  # VC movement waits for the extraction choice
    s, ev = do(s, "sog", extraction(2))
    assert s["extraction"] == "walk" and RS.pending(s).kind == "move"


def test_sog_3_1_2_sanctuary_base_camp_assault():
    s = place_team(in_play(objective_face=6), "3-F")
    s, ev = do(s, "sog", move("2-F"), faces=[6])
    assert RS.pending(s).kind == "add_leader"  # no panel choice: the Vietnamese lays out three panels
    s, ev = do(s, "nva", leader(0))
    a = of(ev, "action")[0]
    assert a["scenario"].startswith("Base Camp Assault") and a["page"] == 46
    assert a["roles"] == {"sog": "attacker", "nva": "defender"}
    assert [f["type"] for f in a["forces"]["nva"]] == ["vc", "vc"]
    assert any("no fortifications" in n for n in a["notes"])


@pytest.mark.parametrize("face,kind", [(5, "ambush"), (6, "base_camp")])
def test_sog_3_1_3_snatch_roll(face, kind):
    s = place_team(in_play(objective_face=9), "3-F")
    s, ev = do(s, "sog", move("2-F"), faces=[6, face])
    assert s["action"]["kind"] == kind


def test_sog_3_6_3_faulty_intelligence():
    s = place_team(in_play(), "3-F")
    s2, ev = do(s, "sog", move("2-F"), faces=[10])
    assert s2["target"] is None and s2["vp"] == {"sog": 0, "nva": 0}
    assert RS.pending(s2).kind == "extraction_choice"
    assert not of(ev, "vc-moved") and s2["turn"] == s["turn"]


def test_sog_3_7_1_pz_exit_immediately_regardless_of_vc():
    s, _ = _searching()
    s, _ = do(s, "sog", move("2-G"), faces=[1, 10])  # faulty
    s, ev = do(s, "sog", extraction(1), faces=[3, 8])
    assert s["pz"] == "3-H" and of(ev, "pz-placed")
    s["vc"] = [{"n": 1, "at": "3-H"}]
    s2, ev = do(s, "sog", move("3-H"))
    assert s2["exited"] and RS.pending(s2) is None
    assert RS.outcome(s2)["reason"].startswith("SOG 3.7.3")
    assert not of(ev, "contact")


def test_sog_3_7_1_pz_on_the_team_square():
    s, _ = _searching()
    s, _ = do(s, "sog", move("2-G"), faces=[1, 10])
    s2, ev = do(s, "sog", extraction(1), faces=[2, 7])
    assert s2["exited"] and RS.outcome(s2) is not None


def test_sog_3_7_1_committed_to_the_helicopter():
    """Once the PZ is placed the team must exit by helicopter: an edge square is no exit,
    entering it is an ordinary 3.5 contact roll, and no other extraction can be chosen."""
    s, _ = _searching()
    s, _ = do(s, "sog", move("2-G"), faces=[1, 10])  # faulty intelligence
    s, _ = do(s, "sog", extraction(1), faces=[9, 10])  # PZ 9-J
    s = place_team(s, "5-B")
    s2, ev = do(s, "sog", move("5-A"), faces=[1])
    assert of(ev, "contact") and not s2["exited"] and not of(ev, "exit-blocked")
    assert RS.pending(s2).kind == "move"
    with pytest.raises(Rejection) as e:
        do(s2, "sog", extraction(2))
    assert e.value.code == "ILLEGAL_COMMAND"


def _walking(at):
    s, _ = _searching()
    s, _ = do(s, "sog", move("2-G"), faces=[1, 10])
    s, _ = do(s, "sog", extraction(2))
    return place_team(s, at)


def test_sog_3_7_2_walk_out_west_or_south_edge():
    s = _walking("5-B")
    s2, ev = do(s, "sog", move("5-A"), faces=[1])  # contact roll on the edge: no contact -> exit
    assert of(ev, "contact") and s2["exited"]
    s = _walking("9-E")
    s2, ev = do(s, "sog", move("10-E"), faces=[2])
    assert s2["exited"]
    s2, ev = do(s, "sog", move("9-F"), faces=[2, 9])
    assert not s2["exited"]


def test_sog_3_7_2_vc_counter_blocks_the_exit():
    s = _walking("5-B")
    s["vc"] = [{"n": 3, "at": "5-A"}]
    s2, ev = do(s, "sog", move("5-A"), faces=[1, 9])
    assert not s2["exited"] and of(ev, "exit-blocked")
    assert s2["action"]["kind"] == "meeting" and s2["action"]["counters"] == [3]
    # a patrol evaded on the exit roll places a counter: blocked too
    s = _walking("5-B")
    s2, ev = do(s, "sog", move("5-A"), faces=[8])  # 8 - 2 (jungle) = 6
    assert of(ev, "vc-placed") and of(ev, "exit-blocked") and not s2["exited"]


def test_sog_3_7_2_no_roll_without_available_counter():
    s = _walking("5-B")
    s["vc"] = [{"n": n, "at": f"1-{c}"} for n, c in zip(range(1, 11), "ABCDEFGHIJ")]
    s2, ev = do(s, "sog", move("5-A"))
    assert not of(ev, "contact") and s2["exited"]
    s["vc"][0]["at"] = "5-A"  # ten on the map, one of them in the exit square: no roll, but blocked
    s2, ev = do(s, "sog", move("5-A"), faces=[9] * 10)
    assert not of(ev, "contact") and of(ev, "exit-blocked") and not s2["exited"]
    assert s2["action"]["kind"] == "meeting" and s2["action"]["counters"] == [1]


def test_sog_3_9_abort():
    s = in_play()
    assert RS.pending(s).kind == "abort_or_move"
    kinds = [c.sog.WhichOneof("action") for c in RS.legal_commands(s, "sog")]
    assert kinds.count("abort") == 2
    s2, ev = do(s, "sog", abort(2))
    assert s2["target"] is None and s2["vp"]["sog"] == -10 and s2["aborted"]
    assert s2["extraction"] == "walk" and RS.pending(s2).kind == "move"
    s3, _ = do(s2, "sog", move("9-A"), faces=[1])
    assert s3["exited"] and RS.outcome(s3) == {"winner": "nva", "reason": "SOG 3.7.3: the SOG Team exited the map",
                                               "vp": {"sog": -10, "nva": 0}}


def test_sog_3_9_no_abort_after_reaching_target():
    s, _ = _searching()
    with pytest.raises(Rejection) as e:
        do(s, "sog", abort(1))
    assert e.value.code == "ILLEGAL_COMMAND"
    st = RS.copy_state(s)
    st["searching"] = False
    from afteraction.engine.games.sog import extraction as ex
    with pytest.raises(Rejection) as e:
        ex.abort(st, "walk", None)
    assert e.value.code == "ILLEGAL_ABORT" and "SOG 3.9" in e.value.message
