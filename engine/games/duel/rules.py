"""Duel: the toy ruleset of SPEC.md's worked example (not a Vietnam game).

Three rounds. Each round seat ``a`` picks a number 1-6 in secret (the command is
sealed and the pick is a private event committed to ``a``); seat ``b`` guesses;
the pick is revealed; a right guess scores 2 for b, otherwise a d6 is rolled and
scores 1 for a on 4-6, 1 for b on 1-3. Highest score wins; ties are draws.
"""
from __future__ import annotations

from afteraction.v1 import command_pb2

from ...decisions import DecisionKind, DecisionTable
from ...errors import Rejection
from ...codes import Code
from ...phases import Flow, Phase, ask
from ...ruleset import Context, Ruleset
from ...versions import stamp
from .versions import VERSIONS

ROUNDS = 3


def _cmd(action: str, number: int) -> command_pb2.Command:
    c = command_pb2.Command()
    getattr(c.duel, action).number = number
    return c


def _number(n: int) -> int:
    if not 1 <= n <= 6:
        raise Rejection(Code.ILLEGAL_COMMAND, "DUEL: numbers are 1-6", rule="DUEL", input=n)
    return n


def pick(s, seat, msg, ctx: Context) -> None:
    """a picks a number in secret: a private event committed to a, a public "picked"."""
    n = _number(msg.number)
    s["pick"] = n
    s["pick_ref"] = ctx.emit({"t": "pick", "round": s["round"], "number": n}, to="a")
    ctx.emit({"t": "picked", "round": s["round"]})


def guess(s, seat, msg, ctx: Context) -> None:
    """b guesses; the pick is revealed; 2 for b if right, else a d6: 1 for a on 4-6, for b on 1-3."""
    n = _number(msg.number)
    revealed = ctx.reveal(tuple(s["pick_ref"]))
    ctx.emit({"t": "guess", "round": s["round"], "number": n})
    if n == revealed["number"]:
        s["score"]["b"] += 2
    elif ctx.roll("d6", "DUEL tie-break").result >= 4:
        s["score"]["a"] += 1
    else:
        s["score"]["b"] += 1
    s["round"] += 1
    s["pick"] = s["pick_ref"] = None


def _numbers(action: str):
    return lambda s, d: [_cmd(action, n) for n in range(1, 7)]


DECISIONS = DecisionTable("duel", "the duel (DUEL)", [
    DecisionKind("pick", "DUEL", {"pick": pick}, _numbers("pick"), "a number 1-6, sealed", sealed=True),
    DecisionKind("guess", "DUEL", {"guess": guess}, _numbers("guess"), "a number 1-6"),
])

# the two phases of a round (engine/phases.py): a picks, then b guesses; each answer moves the
# phase itself (pick sets the pick, guess clears it and counts the round)
FLOW = Flow("duel", (
    Phase("pick", "DUEL", "a", (ask("pick", "a", lambda s: f"round {s['round']}: pick a number 1-6 in secret"),)),
    Phase("guess", "DUEL", "b", (ask("guess", "b", lambda s: f"round {s['round']}: guess a's number"),)),
), phase_of=lambda s: "pick" if s["pick"] is None else "guess", over=lambda s: s["round"] > s["rounds"])


class DuelRuleset(Ruleset):
    game = "duel"
    versions = VERSIONS  # versions.py: every version, the development ones and each change of play
    seats = ("a", "b")
    scenarios = ("standard",)
    options = {"rounds": ROUNDS}
    # SPEC.md 6.5: a pick envelope pads to 164 bytes at the largest counters (2^21), 92 left for the
    # envelope to grow; the pick event to 77 with a 32-bit round (tests/engine/test_sealed_lengths.py)
    sealed_sizes = {"command": {"a": 256}, "event": {"a": 80}}
    decisions = DECISIONS
    flow = FLOW

    def setup(self, scenario, options, ctx: Context):
        return stamp({"round": 1, "rounds": options["rounds"], "score": {"a": 0, "b": 0},
                      "pick": None, "pick_ref": None}, self.version)

    def view(self, s, seat):
        v = {"round": s["round"], "score": dict(s["score"]), "picked": s["pick"] is not None}
        if seat == "a" and s["pick"] is not None:
            v["pick"] = s["pick"]
        return v

    def outcome(self, s):
        if s["round"] <= s["rounds"]:
            return None
        a, b = s["score"]["a"], s["score"]["b"]
        return {"winner": "a" if a > b else "b" if b > a else None, "score": {"a": a, "b": b},
                "reason": "three rounds played"}
