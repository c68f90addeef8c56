"""GMV's turn of phases (docs/rules/gmv.md "Turn order"): each turn the Americans play the five
phases (1 buy, 2 bombing, 3 combat actions, 4 non-combat moves, 5 placement), then the NVA the
same five (it has no bombers: its phase 2 passes at once). Ending phase 5 forfeits what was not
placed and hands over to the other side; after the NVA's the turn ends, and after the last turn
the game (victory.final). ``advance`` runs the automatic steps after every answer: battle rounds,
casualties with no choice, the bombing marks due, the immediate victory check."""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board, bombing, combat, economy, nva, victory

PHASES = {1: "buy", 2: "bombing", 3: "combat actions", 4: "non-combat moves", 5: "placement"}


def end_phase(s: dict, seat: str, msg, ctx: Context) -> None:
    p = s["phase"]
    if p == 5:
        if economy.placeable(s, seat):
            raise Rejection(Code.MUST_PLACE, "GMV Phase 5: place your purchased units first", rule="GMV Phase 5")
        economy.forfeit(s, seat, ctx)
        return next_side(s, ctx)
    s["phase"] = p + 1
    ctx.emit({"t": "phase", "turn": s["turn"], "side": s["side"], "phase": p + 1})
    if s["phase"] == 2 and s["side"] == "nva":  # the NVA has no bombers: nothing to do
        s["phase"] = 3
        ctx.emit({"t": "phase", "turn": s["turn"], "side": "nva", "phase": 3})
    if s["phase"] == 3:
        s["cursor"] = 0


def hidden_move_order(s: dict, seat: str, msg, ctx: Context) -> None:
    """The NVA's phase 4 ends with its one sealed hidden-move order (issue 26, nva.hidden_move)."""
    nva.hidden_move(s, seat, msg, ctx)
    end_phase(s, seat, msg, ctx)


def next_side(s: dict, ctx: Context) -> None:
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
    begin_side(s, ctx)


def begin_side(s: dict, ctx: Context) -> None:
    side = s["side"]
    for u in s["units"].values():
        if u["side"] == side:
            u["acted"] = False
    ctx.emit({"t": "phase", "turn": s["turn"], "side": side, "phase": 1})
    economy.income(s, side, ctx)


def advance(s: dict, ctx: Context) -> None:
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
