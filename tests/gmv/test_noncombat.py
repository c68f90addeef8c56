"""GMV "Phase 4: Non-Combat Moves" and the unit table's movement notes
("*Only 1 move in swamp or allowable jungle zones. 2 moves in F0 zones";
"NVA ... Tanks and APC's may move 1 move per turn as well")."""
import pytest

from afteraction.engine import versions
from afteraction.engine.errors import Rejection

from .util import RS, add, cmd, empty, play


def test_gmv_phase4_only_units_that_did_not_act_in_the_combat_phase_move():
    s = empty(phase=3)
    (i,) = add(s, "inf", "us", "saigon")
    s, _ = play(s, "us", cmd("patrol", unit_ids=[i]), faces=[6])
    s["phase"] = 4
    with pytest.raises(Rejection, match="moved or acted in the combat phase"):
        play(s, "us", cmd("move", unit_ids=[i], path=["bien_hoa"]))


def test_gmv_phase4_move_does_not_result_in_combat():
    s = empty(phase=4)
    (i,) = add(s, "inf", "us", "saigon")
    add(s, "vc", "nva", "bien_hoa")
    with pytest.raises(Rejection, match="does not enter enemy units"):
        play(s, "us", cmd("move", unit_ids=[i], path=["bien_hoa"]))
    add(s, "vc", "nva", "vung_tau", hidden=True)  # hidden units do not stop a move (nor show)
    s2, _ = play(s, "us", cmd("move", unit_ids=[i], path=["vung_tau"]))
    assert s2["units"][i]["zone"] == "vung_tau" and s2["battle"] is None


def test_gmv_phase4_nva_exposed_move_does_not_enter_american_units():
    s = empty(side="nva", phase=4)
    (n,) = add(s, "inf", "nva", "bien_hoa")
    add(s, "inf", "us", "vung_tau")
    with pytest.raises(Rejection, match="is an attack"):
        play(s, "nva", cmd("move", unit_ids=[n], path=["vung_tau"]))


def test_gmv_airbase_aircraft_and_helicopters_must_end_on_an_airbase():
    s = empty(phase=4)
    (h,) = add(s, "heli", "us", "saigon")
    (f,) = add(s, "fighter", "us", "saigon")
    for u in (h, f):
        with pytest.raises(Rejection, match="end on an airbase"):
            play(s, "us", cmd("move", unit_ids=[u], path=["bien_hoa"]))
    s2, _ = play(s, "us", cmd("move", unit_ids=[f], path=["carrier"]))
    assert s2["units"][f]["zone"] == "carrier"
    s["zones"]["khe_sanh"]["airbase"] = True  # Khe Sanh is 5 flights from Tay Ninh: too far for a helicopter
    (h2,) = add(s, "heli", "us", "tay_ninh")
    with pytest.raises(Rejection, match="moves 4"):
        play(s, "us", cmd("move", unit_ids=[h2], path=["khe_sanh"]))


def test_gmv_units_star_tanks_2_moves_only_through_f0_1_move_in_jungle_or_swamp():
    s = empty(phase=3)
    (t,) = add(s, "armor", "us", "bien_hoa")
    s2, _ = play(s, "us", cmd("move", unit_ids=[t], path=["saigon", "vung_tau"]))  # F0, F0
    assert s2["units"][t]["zone"] == "vung_tau"
    with pytest.raises(Rejection, match="cannot move"):  # through a swamp (My Tho, F0 swamp)
        play(s, "us", cmd("move", unit_ids=[t], path=["saigon", "my_tho", "can_tho"]))
    (a,) = add(s, "apc", "us", "cam_ranh")
    with pytest.raises(Rejection, match="cannot move"):  # through jungle (Phan Thiet F1)
        play(s, "us", cmd("move", unit_ids=[a], path=["phan_thiet", "vung_tau"]))
    s3, _ = play(s, "us", cmd("move", unit_ids=[a], path=["phan_thiet"]))  # F1 "as combat": 1 move
    assert s3["units"][a]["zone"] == "phan_thiet"
    with pytest.raises(Rejection, match="cannot move"):  # 3 moves
        play(s, "us", cmd("move", unit_ids=[t], path=["saigon", "vung_tau", "bien_hoa"]))


@pytest.mark.parametrize("phase", [3, 4])
def test_gmv_units_star_armour_starting_in_a_swamp_or_jungle_gets_one_move(phase):
    """Units *: "Only 1 move in swamp or allowable jungle zones. 2 moves in F0 zones": a tank that
    starts in My Tho (F0, swamp) moves in the swamp: one move, offered and accepted; two refused
    (gmv/3 on; docs/rules/gmv.md "Choices where the text is silent")."""
    s = empty(phase=phase)
    (t,) = add(s, "armor", "us", "my_tho")
    (a,) = add(s, "apc", "us", "phan_thiet")              # F1 jungle
    offered = [c.gmv.move for c in RS.legal_commands(s, "us") if c.gmv.WhichOneof("action") == "move"]
    assert [list(m.path) for m in offered if list(m.unit_ids) == [t]]
    assert all(len(m.path) == 1 for m in offered if list(m.unit_ids) in ([t], [a]))
    for uid, path in ((t, ["saigon", "vung_tau"]), (a, ["vung_tau", "saigon"])):
        with pytest.raises(Rejection, match="cannot move"):
            play(s, "us", cmd("move", unit_ids=[uid], path=path))
    s2, _ = play(s, "us", cmd("move", unit_ids=[t], path=["saigon"]))
    assert s2["units"][t]["zone"] == "saigon"


def test_gmv_units_star_gmv_2_games_keep_two_moves_out_of_a_swamp():
    """gmv/2 (released, engine/games/gmv/versions.py SWAMP_START) counted only the zones entered: its
    games keep that reading, so their logs replay as they were played."""
    s = versions.stamp(empty(phase=3), "2")
    (t,) = add(s, "armor", "us", "my_tho")
    s2, _ = play(s, "us", cmd("move", unit_ids=[t], path=["saigon", "vung_tau"]))
    assert s2["units"][t]["zone"] == "vung_tau"


def test_gmv_nva_3_tanks_and_apcs_move_1_per_turn():
    s = empty(side="nva", phase=4)
    (t,) = add(s, "armor", "nva", "hanoi")
    with pytest.raises(Rejection, match="1 zone per turn"):
        play(s, "nva", cmd("move", unit_ids=[t], path=["thanh_hoa", "vinh"]))
    s["phase"] = 3
    with pytest.raises(Rejection, match="1 zone per turn"):
        play(s, "nva", cmd("move", unit_ids=[t], path=["thanh_hoa", "vinh"]))
