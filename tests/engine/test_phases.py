"""Phases and decisions as data (engine/phases.py): every game declares its phases and when each
decision kind is asked, and the engine's one loop asks them; no game writes its own ``pending`` or
``advance``. The loop's rules (AGAIN, DONE, HOLD, enter and leave in order) on a toy flow."""
from __future__ import annotations

import ast
import dataclasses
import importlib
import pathlib

import pytest

from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.decisions import Decision, UndeclaredDecision
from afteraction.engine.local import LocalGame
from afteraction.engine.phases import AGAIN, DONE, HOLD, Ask, Flow, Phase, ask
from afteraction.engine.ruleset import Ruleset

GAMES = pathlib.Path(__file__).resolve().parents[2] / "engine" / "games"


@pytest.mark.parametrize("game", registry.games())
def test_every_game_declares_its_phases_and_leaves_pending_and_advance_to_the_engine(game):
    rs = registry.get(game)
    assert isinstance(type(rs).__dict__.get("flow"), Flow), f"{game} declares no flow"
    for name in ("pending", "advance"):
        assert getattr(type(rs), name) is getattr(Ruleset, name), f"{game} overrides Ruleset.{name}"
    assert rs.flow.phases, f"{game} declares no phase"


@pytest.mark.parametrize("game", registry.games())
def test_every_decision_kind_is_asked_somewhere_and_every_kind_asked_is_declared(game):
    rs = registry.get(game)
    declared = {k.name for k in rs.decisions.kinds}
    asked = rs.flow.kinds()
    assert asked - declared == set(), f"{game} asks kinds its decision table lacks"
    assert declared - asked == set(), f"{game} declares kinds no phase asks"
    for kind in sorted(declared):
        assert rs.flow.asked_in(kind), kind


@pytest.mark.parametrize("game", registry.games())
def test_every_game_but_the_one_file_duel_keeps_its_kinds_in_decisions_py_and_its_phases_in_phases_py(game):
    rs = registry.get(game)
    package = type(rs).__module__.rsplit(".", 1)[0]
    if game == "duel":   # the complete small example (docs/developers.md "Adding a game"): one file
        return
    assert importlib.import_module(package + ".decisions").DECISIONS is rs.decisions
    assert importlib.import_module(package + ".phases").FLOW is rs.flow


def test_no_game_module_defines_its_own_pending_or_advance():
    found = []
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("pending", "advance"):
                found.append(f"{path.relative_to(GAMES)}:{node.lineno} {node.name}")
    assert found == []


def test_the_pending_decision_is_a_frozen_value():
    d = Decision("a", "pick", "p")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.kind = "guess"


@pytest.mark.parametrize("game,commands", [("duel", 100), ("sog", 400), ("gmv", 400), ("ntnd", 250)])
def test_every_decision_a_game_reaches_is_asked_by_its_current_phase_or_an_interrupt(game, commands):
    g = LocalGame.create(game, seed=b"phases-as-data")
    g.handshake()
    rs = g.referee.ruleset
    choose = random_bot(b"phases-as-data")
    seen: set[str] = set()
    for _ in range(commands):
        s = g.referee.state
        d = rs.pending(s)
        if d is None:
            break
        phase = rs.flow.phase(s)   # the state's phase is a declared one
        where = rs.flow.asked_in(d.kind)
        assert "interrupt" in where or phase.id in where, (game, d.kind, phase.id, where)
        seen.add(d.kind)
        g.play(d.seat, choose(d.seat, rs.legal_commands(s, d.seat)))
    assert len(seen) >= 2


# -- the loop, on a toy flow ------------------------------------------------------------------------

def _toy(log: list, **kw) -> Flow:
    def step(name):
        return lambda s, ctx: log.append(name)

    def hold_once(s, ctx):
        log.append("hold?")
        if not s.get("held"):
            s["held"] = True
            return HOLD
        return None

    def nxt(s, ctx):
        s["phase"] += 1
        if s["phase"] > 2:
            s["over"] = True

    def work(s, ctx):   # an ask that does automatic work twice, then asks
        s["work"] += 1
        log.append(f"work{s['work']}")
        return AGAIN if s["work"] < 3 else Decision("a", "w", "")

    phases = (Phase(1, "R1", "a", (Ask("x", lambda s, ctx: DONE), Ask("never", lambda s, ctx: 1 / 0)),
                    enter=(step("enter1"),), leave=(step("leave1"), hold_once)),
              Phase(2, "R2", "a", (Ask("w", work, lambda s: s["work"] < 3), ask("y", "a", "y?")),
                    enter=(step("enter2"),)))
    return Flow("toy", phases, phase_of=lambda s: s["phase"], over=lambda s: s["over"], next=nxt,
                begin=lambda s, ctx: log.append("begin") or True, store="d", public=lambda d: d, **kw)


def test_the_loop_leaves_a_phase_that_asks_nothing_holds_it_when_a_leave_step_says_so_and_reasks_on_again():
    log: list = []
    f = _toy(log)
    s = {"phase": 1, "over": False, "work": 0}
    f.enter(s, None)
    f.advance(s, None)
    assert log == ["begin", "enter1", "leave1", "hold?", "leave1", "hold?", "begin", "enter2",
                   "work1", "work2", "work3"]
    assert s["d"].kind == "w" and f.pending(s).kind == "w"
    s["work"] = 3
    f.advance(s, None)
    assert s["d"].kind == "y"


def test_a_decision_its_ask_does_not_declare_is_a_ruleset_bug():
    f = Flow("toy", (Phase(1, "R", "a", (Ask("x", lambda s, ctx: Decision("a", "y", "")),)),),
             phase_of=lambda s: 1, over=lambda s: False)
    with pytest.raises(UndeclaredDecision):
        f.pending({})


def test_the_game_ends_when_a_phase_with_nothing_to_ask_meets_the_flows_end_check():
    log: list = []
    f = _toy(log, ends=lambda s, ctx: s.update(over=True) or True)
    s = {"phase": 1, "over": False, "work": 0}
    f.advance(s, None)
    assert s["d"] is None and f.pending(s) is None and log == []
