"""NTND state machine: a battle's aftermath as its owners' decisions (19.2.6, 19.3, 19.4), ambush
opportunities (20.2), and rejections through the referee (nothing changes, nothing leaks)."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.combat import aftermath, battles
from afteraction.engine.games.ntnd.movement.moves import _walk
from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
from afteraction.engine.local import LocalGame
from afteraction.engine.ruleset import Context

from .test_ntnd_rules import blank, hide, put


def test_ntnd_19_2_6_losses_then_retreat_then_advance_are_decisions_of_their_owners():
    s = blank()
    s["phase"] = {"id": "a_combat"}
    put(s, "us-1-4", "1714")
    put(s, "us-2-4", "1715")
    put(s, "vc-dak-to", "1814")
    put(s, "vc-bmt", "1814")
    # Allied die 6, Communist die 1: the Allies win "higher" or "double"
    ctx = Context.for_tests(faces=[6, 1])
    battles.start_battle(s, "allied", "1814", ["us-1-4", "us-2-4"], ctx)
    d = aftermath.next_decision(s, ctx)
    assert d["seat"] == "communist" and d["kind"] in ("losses", "retreat")
    if d["kind"] == "losses":                          # higher: the owner picks one of two
        assert d["count"] == 1 and sorted(d["eligible"]) == ["vc-bmt", "vc-dak-to"]
        aftermath.apply_loss(s, ["vc-bmt"], ctx)
        d = aftermath.next_decision(s, ctx)
        assert d["kind"] == "retreat" and d["unit"] == "vc-dak-to" and d["mode"] == "must" and d["to"]
        with pytest.raises(Rejection):
            aftermath.apply_retreat(s, "vc-dak-to", None, ctx)       # the loser must retreat
        aftermath.apply_retreat(s, "vc-dak-to", d["to"][0], ctx)
        d = aftermath.next_decision(s, ctx)
    assert d["kind"] == "advance" and d["seat"] == "allied" and set(d["eligible"]) <= {"us-1-4", "us-2-4"}
    aftermath.apply_advance(s, [d["eligible"][0]], ctx)
    assert aftermath.next_decision(s, ctx) is None and s["battle"] is None
    assert s["units"][d["eligible"][0]]["loc"] == "1814"


def test_ntnd_20_2_an_allied_move_next_to_a_marker_pauses_for_the_ambush_question():
    s = blank()
    s["phase"] = {"id": "a_move"}
    put(s, "us-1-4", "1715")
    mid = hide(s, ["communist-dummy-1"], "1813")                 # a dummy: the question is asked all the same
    _walk(s, "allied", "us-1-4", ["1714"], Context.for_tests())
    assert s["ambush"] == {"unit": "us-1-4", "rest": []}
    assert battles.ambush_candidates(s, "us-1-4") == [mid]
    assert not battles.ambush_allowed(s, "us-1-4", [mid])   # a dummy has no combat value


def _game():
    g = LocalGame.create("ntnd", seed=b"tests/ntnd/flow")
    g.handshake()
    return g


def test_ntnd_a_rejected_command_changes_nothing():
    g = _game()
    before = (g.referee.seq, repr(g.referee.state["units"]), repr(g.referee.state["markers"]))
    d = g.referee.pending()
    assert d.seat == "communist" and d.kind == "recruit"
    with pytest.raises(Rejection) as e:
        g.play("communist", cmd("place", kind="cadre", nationality="VC", location="1424", inverted=True))
    assert "4.1.1" in str(e.value)
    with pytest.raises(Rejection):
        g.play("communist", cmd("move", piece="M1", path=["1310"]))   # not the pending decision
    assert (g.referee.seq, repr(g.referee.state["units"]), repr(g.referee.state["markers"])) == before


def test_ntnd_allied_rejections_name_no_hidden_unit():
    g = _game()
    rs = NtndRuleset()
    bot_pick = 0
    while g.referee.pending().seat != "allied" or g.referee.pending().kind != "move":
        d = g.referee.pending()
        legal = rs.legal_commands(g.referee.state, d.seat)
        g.play(d.seat, legal[-1] if d.kind != "recruit" else legal[bot_pick])   # mostly "done"
    s = g.referee.state
    hidden = {u for mk in s["markers"].values() for u in mk["units"]}
    mk, where = next((m, v["loc"]) for m, v in sorted(s["markers"].items()) if not v["loc"].isalpha())
    ally = next(u["id"] for u in s["units"].values() if u["status"] == "map" and u["side"] == "allied"
                and u["type"] == "us_infantry_brigade")
    with pytest.raises(Rejection) as e:
        g.play("allied", cmd("move", piece=ally, path=[where]))
    assert not any(h in str(e.value) for h in hidden)
