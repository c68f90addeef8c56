"""GMV's turn of phases (docs/rules/gmv.md "Turn order") as data (engine/phases.py): each turn the
Americans play the five phases (1 buy, 2 bombing, 3 combat actions, 4 non-combat moves,
5 placement), then the NVA the same five (it has no bombers: its phase 2 passes at once). A phase
asks ``phase1``..``phase5`` of the side playing and is ended by its ``end_phase`` answer (the NVA's
phase 4 by its hidden-move order); leaving phase 5 forfeits what was not placed and hands over to
the other side (after the NVA's the turn ends, and after the last turn the game: victory.final);
entering phase 1 readies the side's units and pays its income.

Asked before the phase's question (the interrupts): an answer the NVA owes (``stack``: hot LZ fire,
a patrol's reveal, bombing casualties), then a battle's (support, casualties, withdrawal). Between
answers the loop first runs ``settle``: battle rounds, casualties with no choice, the bombing marks
due, the immediate victory check."""
from __future__ import annotations

from ...decisions import Decision
from ...errors import Rejection
from ...codes import Code
from ...phases import Ask, Flow, Phase, ask
from ...ruleset import Context
from . import board, bombing, combat, economy, nva, victory

PHASES = {1: "buy", 2: "bombing", 3: "combat actions", 4: "non-combat moves", 5: "placement"}


def end_phase(s: dict, seat: str, msg, ctx: Context) -> None:
    """The answer that ends the phase (phase 5: once nothing purchased can be placed)."""
    if s["phase"] == 5 and economy.placeable(s, seat):
        raise Rejection(Code.MUST_PLACE, "GMV Phase 5: place your purchased units first", rule="GMV Phase 5")
    FLOW.next_phase(s, ctx)


def hidden_move_order(s: dict, seat: str, msg, ctx: Context) -> None:
    """The NVA's phase 4 ends with its one sealed hidden-move order (nva.hidden_move)."""
    nva.hidden_move(s, seat, msg, ctx)
    end_phase(s, seat, msg, ctx)


def _next(s: dict, ctx: Context) -> None:
    """The next phase, or after phase 5 the other side's phase 1 (after the NVA's, the next turn;
    after the last turn, the end of the game)."""
    if s["phase"] < 5:
        s["phase"] += 1
        return
    if s["side"] == "us":
        s["side"] = "nva"
    else:
        s["side"] = "us"
        s["turn"] += 1
        if s["turn"] > s["turns"]:
            s["turn"] = s["turns"]
            s["over"] = victory.final(s, ctx)
            ctx.emit({"t": "game-over", **s["over"]})
            return
    s["phase"] = 1


def _announce(s: dict, ctx: Context) -> bool:
    ctx.emit({"t": "phase", "turn": s["turn"], "side": s["side"], "phase": s["phase"]})
    return True


def _ready_units(s: dict, ctx: Context) -> None:
    side = s["side"]
    for u in s["units"].values():
        if u["side"] == side:
            u["acted"] = False


def _income(s: dict, ctx: Context) -> None:
    economy.income(s, s["side"], ctx)


def _no_bombers(s: dict, ctx: Context) -> None:
    if s["side"] == "nva":  # the NVA has no bombers: nothing to do
        FLOW.next_phase(s, ctx)


def _first_action(s: dict, ctx: Context) -> None:
    s["cursor"] = 0


def _forfeit(s: dict, ctx: Context) -> None:
    economy.forfeit(s, s["side"], ctx)


def settle(s: dict, ctx: Context) -> None:
    """The automatic steps between answers: battle rounds, casualties with no choice, the bombing
    marks due, the immediate victory check."""
    while s["over"] is None and not s["stack"]:
        b = s["battle"]
        if b is not None:
            if b["step"] == "round":
                combat.run_round(s, ctx)
                continue
            if b["step"] == "casualties":
                if combat.casualty_step(s, ctx):
                    return
                continue
            return
        if s["side"] == "us" and s["phase"] == 2 and bombing.due_marks(s):
            bombing.resolve_next(s, ctx)
            continue
        break
    if s["over"] is None:
        out = victory.immediate(s)
        if out is not None:
            s["over"] = out
            for u in board.units(s, hidden=True):
                board.reveal(s, u, ctx, "end of the game", mark=False)
            board.open_kept(s, ctx)
            ctx.emit({"t": "game-over", **out})


def _stacked(s: dict, ctx) -> Decision:
    top = s["stack"][0]
    return Decision(top["seat"], top["kind"], f"GMV: answer the {top['kind'].replace('_', ' ')} in {top['zone']}",
                    {"zone": top["zone"]})


def _battle(s: dict, ctx) -> Decision:
    b = s["battle"]
    return Decision(b["ask"], b["step"], f"GMV Combat in {b['zone']}, round {b['round']}: {b['step']}",
                    {"zone": b["zone"], "round": b["round"]})


def _side(s: dict) -> str:
    return s["side"]


def _phase(p: int, enter=(), leave=()) -> Phase:
    return Phase(p, f"GMV Phase {p}", _side, (ask(
        f"phase{p}", _side, lambda s: f"GMV turn {s['turn']}: {s['side']} phase {p} ({PHASES[p]})",
        lambda s: {"turn": s["turn"], "phase": p}),), enter=enter, leave=leave, title=PHASES[p])


FLOW = Flow("gmv", (
    _phase(1, enter=(_ready_units, _income)),
    _phase(2, enter=(_no_bombers,)),
    _phase(3, enter=(_first_action,)),
    _phase(4),
    _phase(5, leave=(_forfeit,)),
), phase_of=lambda s: s["phase"], over=lambda s: s["over"] is not None, interrupts=(
    Ask(("hot_lz", "reveal", "bomb_casualties"), _stacked, lambda s: bool(s["stack"]), "GMV Phase 2, 3"),
    Ask(("support", "casualties", "withdraw"), _battle, lambda s: s["battle"] is not None, "GMV Combat"),
), settle=settle, begin=_announce, next=_next)
