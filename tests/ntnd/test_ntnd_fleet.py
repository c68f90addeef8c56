"""NTND 14.2.2: the fleet mines Haiphong harbor (feature ``fleet``, switched on in the test's state:
every scenario but Tet lists it). Played through the ruleset: the fleet's move into the Haiphong zone, the
Allied "done" of the movement phase, the ``mine`` decision; then the Communist phases that feel it."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.movement import ground as movement, reach
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import ALLIED, RS, at, campaign, of, only_families
from .mapplay import legal


def _with(*features, turn=2) -> dict:
    s = campaign(turn)
    only_families(s, features)
    return s


def _apply(s, seat, command, faces=None):
    ctx = Context.for_tests(faces=faces)
    s = RS.apply(s, seat, command, ctx)
    return s, [e for e, _ in ctx.events]


def _fleet_to_haiphong(s) -> dict:
    s, _ = at(s, "a_move")
    path = reach.reachable(s, "us-fleet", movement.Env(s)).get("HAIPHONG")
    assert path is not None and path[-1] == "HAIPHONG"
    s, _ = _apply(s, ALLIED, cmd("move", piece="us-fleet", path=path))
    assert s["units"]["us-fleet"]["loc"] == "HAIPHONG"
    return s


def _mined(turn=2, roll=4) -> dict:
    s = _fleet_to_haiphong(_with("fleet", turn=turn))
    s, _ = _apply(s, ALLIED, cmd("done"))
    s, _ = _apply(s, ALLIED, cmd("mine_haiphong"), faces=[roll])
    return s


def test_ntnd_14_2_2_the_fleet_mines_haiphong_at_the_end_of_the_movement_phase_it_entered_the_zone():
    s = _fleet_to_haiphong(_with("fleet"))
    assert s["decision"]["kind"] == "move"                      # the phase goes on: mining is at its end
    s, _ = _apply(s, ALLIED, cmd("done"))
    assert s["decision"]["kind"] == "mine" and s["phase"]["id"] == "a_move"
    assert legal(s, ALLIED) == [cmd("mine_haiphong"), cmd("done")]
    pp = s["pp"]
    s, ev = _apply(s, ALLIED, cmd("mine_haiphong"), faces=[4])
    assert s["haiphong_mined"] is True and s["fleet"]["mined_turn"] == 2
    # (1) one Allied die of political points lost at once (adverse world reaction)
    assert s["pp"] == pp - 4
    (m,) = of(ev, "haiphong-mined")
    assert (m["roll"], m["rule"]) == (4, "NTND 14.2.2")
    assert [(e["item"], e["pp"]) for e in of(ev, "pp")] == [("haiphong-mined", -4)]
    assert s["phase"]["id"] != "a_move"                        # the movement phase is over
    for seat in (ALLIED, "communist", None):                      # the marker is public
        v = RS.view(s, seat)
        assert v["haiphong_mined"] is True and v["fleet"]["mined_turn"] == 2


def test_ntnd_14_2_2_the_allied_player_may_decline_and_nothing_changes():
    s = _fleet_to_haiphong(_with("fleet"))
    s, _ = _apply(s, ALLIED, cmd("done"))
    pp = s["pp"]
    s, ev = _apply(s, ALLIED, cmd("done"))
    assert not s.get("haiphong_mined") and s["pp"] == pp and not of(ev, "haiphong-mined")


def test_ntnd_14_2_2_not_offered_when_the_fleet_did_not_enter_haiphong_this_phase_and_only_once():
    s, _ = at(_with("fleet"), "a_move")
    s, _ = _apply(s, ALLIED, cmd("done"))
    assert s["phase"]["id"] != "a_move"                          # no mine question: the fleet stayed at sea
    s2 = _fleet_to_haiphong(_with("fleet"))
    s2["haiphong_mined"] = True                                 # already mined: not again
    s2, _ = _apply(s2, ALLIED, cmd("done"))
    assert s2["phase"]["id"] != "a_move"
    # a mine_haiphong out of place is refused and changes nothing
    s3 = _fleet_to_haiphong(_with("fleet"))
    before = snapshot.copy(s3)
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s3), ALLIED, cmd("mine_haiphong"), Context.for_tests())
    assert e.value.code == "ILLEGAL_COMMAND" and s3 == before


def test_ntnd_14_2_2_without_the_feature_the_fleet_does_not_enter_a_held_haiphong():
    s, _ = at(_with(), "a_move")                                # the campaign without the fleet feature
    assert any(u["loc"] == "HAIPHONG" and u["side"] == "communist" for u in s["units"].values())
    assert "HAIPHONG" not in reach.reachable(s, "us-fleet", movement.Env(s))


def test_ntnd_14_2_2_supplies_due_at_haiphong_are_placed_in_china_the_turn_following():
    s = _mined(turn=2)
    s["turn"] = 3
    s, ev = at(s, "c_recruit")
    placed = {e["loc"] for e in of(ev, "recruit") if e["type"] == "communist_supply"}
    assert placed == {"CHINA", "HANOI"}
    (d,) = of(ev, "supply-deferred")
    assert (d["from"], d["loc"], d["arrive"]) == ("HAIPHONG", "CHINA", 4)
    china = sum(1 for u in s["units"].values() if u["loc"] == "CHINA" and u["type"] == "communist_supply")
    s["turn"] = 4
    s, ev = at(s, "c_recruit")
    rec = [e for e in of(ev, "recruit") if e["type"] == "communist_supply"]
    assert [e["loc"] for e in rec if e["rule"] == "NTND 14.2.2"] == ["CHINA"]   # last turn's Haiphong supply
    assert sum(1 for u in s["units"].values() if u["loc"] == "CHINA" and u["type"] == "communist_supply") == china + 2
    assert s["fleet"]["deferred_supply"] == 1                   # this turn's, for the next


def test_ntnd_14_2_2_no_communist_sea_movement_out_of_a_mined_haiphong():
    s = _with("fleet", turn=2)
    sup = next(u["id"] for u in s["units"].values() if u["loc"] == "HAIPHONG" and u["type"] == "communist_supply")
    s, _ = at(s, "c_move")
    sea = [k for k in reach.reachable(s, sup, movement.Env(s)) if k.startswith("sea:")]
    assert sea                                                   # unmined: supply sails from Haiphong (8.6.1)
    s["haiphong_mined"] = True
    assert not [k for k in reach.reachable(s, sup, movement.Env(s)) if k.startswith("sea:")]


def test_ntnd_14_2_2_soviet_aid_roll_plus_one_when_haiphong_is_mined():
    s = _mined(turn=2, roll=1)
    s["turn"] = 6                                               # a January/February roll turn (27.1)
    s, ev = at(s, "c_recruit", faces=[3, 3])
    rolls = {e["source"]: e for e in of(ev, "aid") if e["event"] == "roll"}
    assert rolls["soviet"]["total"] == 4 and {"rule": "14.2.2", "change": 1} in rolls["soviet"]["modifiers"]
    assert rolls["china"]["total"] == 3 and not any(m["rule"] == "14.2.2" for m in rolls["china"]["modifiers"])
