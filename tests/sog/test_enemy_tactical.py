"""SOG 4-4.2.1 (the enemy), the tactical action protocol, 3.2.4/3.8 (losses), 5-5.1.1 (victory)."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog import board, enemy
from afteraction.engine.games.sog.decisions import sample_results

from .util import RS, confirm, dispute, do, extraction, in_play, leader, move, of, panel, place_team, result


def _meeting(**kw):
    """An action in progress: the team entered 7-H (Broken) and rolled 7 + 1 = 8, One Patrol Contacted."""
    s = place_team(in_play(**kw), "7-G")
    s, ev = do(s, "sog", move("7-H"), faces=[7])
    assert RS.pending(s).kind == "action_result"
    return s


def test_sog_4_1_squad_compositions_as_printed():
    vc, nva = enemy.SQUADS["vc"], enemy.SQUADS["nva"]
    assert vc["impulse_action"] == "4/2" and vc["leaders"] == ["1S"]
    assert vc["weapons"] == {"LMG6": 1, "MPL19": 1, "MTR6": 1, "RFL1": 4, "RFL7": 1, "PST3": 1, "SMG4": 1}
    assert vc["equipment"] == {"HGN3": 19, "MPL19AMO": 3, "MTR6AMO": 4}
    assert nva["impulse_action"] == "4/3" and nva["leaders"] == ["1S", "1A"]
    assert nva["weapons"] == {"LMG21": 1, "MPL20": 1, "PST4": 1, "RFL1": 6}
    assert nva["equipment"] == {"NST": 1, "HGN3 and/or HGN5": 20, "MPL20AMO": 4}


def test_sog_4_1_1_leader_only_with_two_squads():
    c = enemy.composition("vc", leader=True)
    assert c["leaders"] == ["1S", "1C"] and c["weapons"]["PST4"] == 1 and c["men"] == 11
    s = _meeting()  # one squad: no add_leader decision was asked
    assert s["action"]["squad_types"] == ["vc"] and s["action"]["leader_squad"] == 0


def test_sog_4_1_2_eliminated_squad_removes_its_counter():
    s = _meeting()
    assert s["vc"] == [{"n": 1, "at": "7-H"}]
    s, _ = do(s, "sog", result(elim=[1], sog_vp=8))
    s, ev = do(s, "nva", confirm(), faces=[9])
    assert of(ev, "vc-removed")[0] == {"t": "vc-removed", "vc": 1, "rule": "SOG 4.1.2"}
    assert s["vc"] == [] and not of(ev, "vc-moved")


def test_sog_4_1_3_optional_random_composition():
    s = place_team(in_play(random_squads=True), "7-G")
    s, ev = do(s, "sog", move("7-H"), faces=[7, 6])  # contacted; the squad roll 6 -> NVA
    assert of(ev, "roll")[1]["rule"] == "SOG 4.1.3"
    assert s["action"]["squad_types"] == ["nva"]
    s = place_team(in_play(random_squads=True), "7-G")
    s, ev = do(s, "sog", move("7-H"), faces=[7, 5])
    assert s["action"]["squad_types"] == ["vc"]


def test_sog_4_2_random_movement_diagram():
    assert board.diagram_step("5-E", 1) == ("N", "4-E")
    assert board.diagram_step("5-E", 4) == ("SE", "6-F")
    assert board.diagram_step("5-E", 9) == ("stay", "5-E")
    assert board.diagram_step("5-E", 10) == ("stay", "5-E")
    assert board.diagram_step("1-A", 8) == ("NW", None)
    labels = [board.diagram()[str(i)][0] for i in range(1, 11)]
    assert labels == ["N", "NE", "E", "SE", "S", "SW", "W", "NW", "stay", "stay"]
    # 1-8: the eight neighbours, each once (the project's own diagram; SOG 4.2 fixes only 9-0)
    assert sorted(board.diagram_step("5-E", i)[1] for i in range(1, 9)) == sorted(board.neighbours("5-E"))


def test_sog_4_2_vc_move_after_each_american_move_and_leave_the_map():
    s = place_team(in_play(), "7-G")
    s["vc"] = [{"n": 1, "at": "1-A"}, {"n": 2, "at": "5-E"}]
    s2, ev = do(s, "sog", move("7-G"), faces=[7, 3])  # hold; VC 1 west off the map, VC 2 east
    assert s2["vc"] == [{"n": 2, "at": "5-F"}]
    assert [e["to"] for e in of(ev, "vc-moved")] == [None, "5-F"]
    assert enemy.pool_available(s2)


def test_sog_4_2_1_vc_entering_team_square_is_an_ambush():
    s = place_team(in_play(), "7-G")
    s["vc"] = [{"n": 5, "at": "6-G"}]
    s2, ev = do(s, "sog", move("7-G"), faces=[5])  # VC 5 moves south into 7-G
    d = RS.pending(s2)
    assert (d.seat, d.kind) == ("sog", "panel_choice")  # the SOG Team (defender) selects the panel
    s3, ev = do(s2, "sog", panel(2), faces=[2])
    a = of(ev, "action")[0]
    assert a["roles"]["sog"] == "defender" and "south" in a["entry"]
    assert [f["type"] for f in a["forces"]["nva"]] == ["vc"] and a["forces"]["nva"][0]["counter"] == 5
    assert s2["turn"] == s["turn"]  # the turn ends after the action
    s4, _ = do(s3, "sog", result())
    s5, _ = do(s4, "nva", confirm())
    assert s5["turn"] == s["turn"] + 1 and RS.pending(s5).kind == "abort_or_move"


def test_action_result_dispute_waits_for_a_corrected_result():
    s = _meeting()
    s, ev = do(s, "sog", result(sog_vp=50))
    assert of(ev, "action-result")[0]["result"]["sog_vp"] == 50
    d = RS.pending(s)
    assert (d.seat, d.kind) == ("nva", "confirm_result") and d.data["result"]["sog_vp"] == 50
    s, ev = do(s, "nva", dispute("no way"))
    assert of(ev, "action-result-disputed")[0]["reason"] == "no way"
    assert RS.pending(s).kind == "action_result" and RS.pending(s).data["disputes"] == 1
    assert s["action"]["result"] is None and RS.view(s, "nva")["action"]["result"] is None  # nothing stale shown
    assert s["vp"] == {"sog": 0, "nva": 0}
    s, _ = do(s, "sog", result(sog_vp=5))
    s, _ = do(s, "nva", confirm())
    assert s["vp"] == {"sog": 5, "nva": 0}


def test_action_result_validation():
    s = _meeting()
    for bad in (result(casualties=["Z"]), result(casualties=["A", "A"]), result(elim=[2]),
                result(lost_equipment=[("B", "RDO", 1)]), result(lost=1), result(taken=11),
                result(recovered=[("A", "B", "RDO", 1)]),
                result(casualties=["A", "B"], recovered=[("A", "B", "RDO", 1)])):  # 3.2.4: to a survivor only
        with pytest.raises(Rejection) as e:
            do(s, "sog", bad)
        assert e.value.code == "ILLEGAL_RESULT" and "SOG" in e.value.message
    with pytest.raises(Rejection) as e:
        do(s, "sog", move("7-I"))
    assert e.value.code == "ILLEGAL_COMMAND"


def test_sog_3_2_4_and_3_8_losses_carry_forward():
    s = _meeting()
    s, _ = do(s, "sog", result(casualties=["A", "D"], recovered=[("A", "B", "RDO", 1)],
                               lost_equipment=[("C", "GMG4", 1), ("B", "SMK", 1)], nva_vp=6))
    s, ev = do(s, "nva", confirm(), faces=[9])
    m = s["team"]["members"]
    assert sorted(m) == ["B", "C", "E", "F", "G", "H", "I", "J", "K", "L"]
    assert m["B"]["items"]["RDO"] == 1 and "SMK" not in m["B"]["items"]  # recovered radio; smoke used
    assert m["C"]["weapon"] == ""
    assert "SCP" not in str(s["team"])  # A's unrecovered scope is permanently removed
    assert s["vp"] == {"sog": 0, "nva": 6}
    # the smaller team changes the next contact drm (3.5.1): 10 men -> 0, then 9 men -> -1
    from afteraction.engine.games.sog import movement
    assert movement.contact_drm(s, "7-I")["team_size"] == 0


def test_sog_3_8_elimination_is_a_vietnamese_victory():
    s = _meeting()
    s["vp"]["sog"] = 40
    s, _ = do(s, "sog", result(casualties=sorted(s["team"]["members"]), nva_vp=1))
    s, ev = do(s, "nva", confirm())
    assert RS.pending(s) is None and of(ev, "team-eliminated")
    o = RS.outcome(s)
    assert o["winner"] == "nva" and "SOG 3.8" in o["reason"]


def test_sog_3_1_3_and_5_1_1_prisoner_bonus_on_exit():
    s = place_team(in_play(objective_face=10), "3-F")
    s, _ = do(s, "sog", move("2-F"), faces=[6, 6])  # located; 6 -> Base Camp Assault
    s, _ = do(s, "nva", leader(0))
    s, _ = do(s, "sog", result(taken=2, sog_vp=4, nva_vp=6))
    s, _ = do(s, "nva", confirm())
    assert s["team"]["prisoners"] == 2
    s2, _ = do(s, "sog", extraction(2))  # (walking: a later action where one prisoner is lost)
    s2, _ = do(place_team(s2, "7-G"), "sog", move("7-H"), faces=[7])
    s2, _ = do(s2, "sog", result(lost=1))
    s2, _ = do(s2, "nva", confirm())
    assert s2["team"]["prisoners"] == 1  # prisoners stay with the team for the campaign, less those lost
    s, _ = do(s, "sog", extraction(1), faces=[3, 6])  # PZ 3-F, next to the team
    s, ev = do(s, "sog", move("3-F"))
    assert of(ev, "team-exited")[0]["prisoner_bonus"] == 10
    assert RS.outcome(s) == {"winner": "sog", "reason": "SOG 3.7.3: the SOG Team exited the map",
                             "vp": {"sog": 14, "nva": 6}}


def test_sog_5_1_1_no_bonus_without_snatch_or_prisoner():
    from afteraction.engine.games.sog import victory
    s = in_play(objective_face=1)
    s["team"]["prisoners"] = 1
    assert victory.exit_bonus(s) == 0
    s["objective"] = "snatch"
    assert victory.exit_bonus(s) == 10
    s["team"]["prisoners"] = 0
    assert victory.exit_bonus(s) == 0


def test_sog_5_higher_vp_wins_equal_is_a_draw():
    from afteraction.engine.games.sog import victory
    s = in_play()
    s["vp"] = {"sog": 3, "nva": 3}
    assert victory.outcome_by_vp(s, "x")["winner"] is None
    s["vp"] = {"sog": 4, "nva": 3}
    assert victory.outcome_by_vp(s, "x")["winner"] == "sog"


def test_offered_results_are_all_legal():
    s = _meeting()
    for c in sample_results(s):
        do(s, "sog", c)
    assert RS.legal_commands(s, "nva") == []
