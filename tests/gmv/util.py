"""Helpers for GMV rule tests: an empty board, units placed by hand, commands, dice."""
from __future__ import annotations

from afteraction.engine.games.gmv import board
from afteraction.engine.games.gmv.legal import _c as cmd  # noqa: F401  (re-exported)
from afteraction.engine.games.gmv.rules import GmvRuleset
from afteraction.engine.ruleset import Context

RS = GmvRuleset()


def plant(monkeypatch, module, name: str, fn) -> None:
    """Replace the rule function ``module.name`` by ``fn`` for one test, where the rules call it
    and where the decision table (decisions.py) names it as an answer's apply function."""
    orig = getattr(module, name)
    monkeypatch.setattr(module, name, fn)
    for kind in RS.decisions.kinds:
        for action, apply in kind.answers.items():
            if apply is orig:
                monkeypatch.setitem(kind.answers, action, fn)


def empty(side: str = "us", phase: int = 3, turn: int = 2) -> dict:
    """The setup state with every unit removed, at (turn, side, phase)."""
    s = RS.setup("1965", dict(RS.options), Context.for_tests())
    s["units"] = {}
    s["turn"], s["side"], s["phase"] = turn, side, phase
    s["money"] = {"us": {"ipc": 0, "rec": 0}, "nva": {"ipc": 0, "rec": 0}}
    # one far-away unit each, so that neither side has lost (victory: no units left)
    board.new_unit(s, "fighter", "us", "carrier")
    board.new_unit(s, "inf", "nva", "hanoi")
    return s


def add(s: dict, t: str, side: str, zone: str, n: int = 1, hidden: bool = False) -> list[str]:
    out = []
    for _ in range(n):
        uid = board.new_unit(s, t, side, zone, hidden)
        if hidden:
            s["units"][uid]["ref"] = [0, 1]
        out.append(uid)
    return out


def play(s: dict, seat: str, command, faces: list[int] | None = None) -> tuple[dict, Context]:
    """Apply on a copy (as the referee does); returns (new state, context with its events)."""
    ctx = Context.for_tests(faces=faces)
    return RS.apply(RS.copy_state(s), seat, command, ctx), ctx


def events(ctx: Context, t: str | None = None, private: bool | None = None) -> list[dict]:
    out = []
    for ev, to in ctx.events:
        if t is not None and ev["t"] != t:
            continue
        if private is not None and (to is not None) != private:
            continue
        out.append(ev)
    return out
