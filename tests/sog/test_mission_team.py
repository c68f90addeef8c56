"""SOG 3.1 (objective), 3.2-3.2.4 (team), 3.3 (target placement)."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog import board, mission, team as team_mod

from .util import RS, do, members, new, of, organise


@pytest.mark.parametrize("face,objective", [(1, "trail"), (4, "trail"), (5, "sanctuary"), (8, "sanctuary"),
                                            (9, "snatch"), (10, "snatch")])
def test_sog_3_1_objective_roll(face, objective):
    assert mission.objective_of(face) == objective
    s = new([face])
    assert s["objective"] == objective
    d = RS.pending(s)
    assert (d.seat, d.kind) == ("sog", "organise")


def test_sog_3_2_offered_teams_are_complete_and_legal():
    s = new([1])
    legal = RS.legal_commands(s, "sog")
    assert len(legal) == len(team_mod.TEMPLATES) >= 3
    assert RS.legal_commands(s, "nva") == []
    for c in legal:
        s2, ev = do(s, "sog", c)
        assert s2["team"]["impulse"] == 6 and s2["team"]["action"] == 3  # SOG 3.2: 6/3
        assert of(ev, "team-organised")
        assert s2["phase"] == "insertion"


def _reject(ms, match):
    s = new([1])
    with pytest.raises(Rejection) as e:
        do(s, "sog", team_mod.organise_command(ms))
    assert e.value.code == "ILLEGAL_TEAM"
    assert match in e.value.message
    return e.value


def test_sog_3_2_at_most_twelve_men():
    ms = members()
    extra = dict(ms[-1], letter="M", items={})
    _reject(ms + [extra], "SOG 3.2")


def test_sog_3_2_at_most_three_americans():
    ms = members()
    ms[5]["american"] = True
    _reject(ms, "three")


def test_sog_3_2_one_5_and_one_A():
    ms = members()
    ms[4]["rank"] = "5"
    _reject(ms, "\"5\"")
    ms = members()
    ms[4]["rank"] = "A"
    _reject(ms, "\"A\"")
    ms = members()
    ms[4]["rank"] = "S"
    _reject(ms, "rank")


def test_sog_3_2_1_radio_required():
    ms = members()
    ms[0]["items"].pop("RDO")
    _reject(ms, "SOG 3.2.1")


def test_sog_3_2_1_five_smoke_grenades():
    ms = members(2, 1)  # three men, one SMK each -> the template tops the leader up; remove it
    ms[0]["items"]["SMK"] = 1
    _reject(ms, "five smoke")
    ms[0]["items"]["SMK"] = 2  # four: still one short
    _reject(ms, "five smoke")
    ms[0]["items"]["SMK"] = 3
    s, _ = do(new([1]), "sog", team_mod.organise_command(ms))  # 3 + 1 + 1 = 5: legal
    assert len(s["team"]["members"]) == 3


def test_sog_3_2_2_allowed_weapons():
    ms = members()
    ms[3]["weapon"] = "LMG6"
    _reject(ms, "SOG 3.2.2")
    ms = members()
    ms[3]["weapon"] = ""  # unarmed is allowed ("may be armed")
    do(new([1]), "sog", team_mod.organise_command(ms))


@pytest.mark.parametrize("code,count,where", [("BPD", 3, 0), ("SHG", 2, 0), ("BNL", 2, 0), ("NST", 2, 0),
                                              ("SCP", 2, 1), ("LPL3", 6, 0), ("HGN3", 31, 0), ("HGN5", 21, 0)])
def test_sog_3_2_3_equipment_limits(code, count, where):
    ms = members()
    for m in ms:
        m["items"].pop(code, None)
        m["items"].pop("HGN3", None)
    ms[where]["items"][code] = count
    _reject(ms, "SOG 3.2.3")
    ms[where]["items"][code] = count - 1
    do(new([1]), "sog", team_mod.organise_command(ms))


def test_sog_3_2_3_hgn3_or_hgn5_and_bda_per_member():
    ms = members()
    ms[0]["items"]["HGN5"] = 1
    _reject(ms, "not both")
    ms = members()
    ms[0]["items"]["BDA"] = 2
    _reject(ms, "BDA")
    ms[0]["items"]["ZZZ"] = 1
    _reject(ms, "SOG 3.2.3")


def test_sog_3_2_4_every_item_assigned_to_a_letter():
    ms = members()
    ms[1]["letter"] = "A"
    _reject(ms, "twice")
    ms = members()
    ms[1]["letter"] = "ab"
    _reject(ms, "letter")
    s, _ = do(new([1]), "sog", organise())
    assert s["team"]["members"]["A"]["items"]["RDO"] == 1


def test_sog_3_3_target_example_2_6_is_2F():
    assert board.from_2d10((2, 6)) == "2-F"
    assert board.from_2d10((10, 10)) == "10-J"  # a "0" is row 10 / column J
    assert board.from_2d10((5, 1)) == "5-A"     # SOG 2: "5-A" is the fifth square down in the first column
    s, ev = do(new([1]), "sog", organise(), faces=[2, 6])
    assert s["target"] == "2-F"
    assert of(ev, "target-placed")[0]["square"] == "2-F"


def test_sog_2_1_authored_map_has_the_five_terrains():
    assert set(board.TERRAIN.values()) == set(board.TERRAINS)
    assert len(board.TERRAIN) == 100
