"""SOG 3.7-3.7.3 (extraction by helicopter or on foot, the end of the campaign)
and 3.9 (abort)."""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from . import board, enemy, insertion, movement, search, tactical, victory

METHODS = {1: "helicopter", 2: "walk"}


def method_of(value: int) -> str:
    if value not in METHODS:
        raise Rejection(Code.ILLEGAL_EXTRACTION, "SOG 3.7: extraction is by helicopter pick-up (3.7.1) or walking out (3.7.2)", rule="SOG 3.7")
    return METHODS[value]


def choose(s: dict, method: str, ctx) -> None:
    """SOG 3.7.1 / 3.7.2: declare the extraction; a helicopter pick-up rolls the PZ
    at once (as 3.3) and commits the team to it."""
    s["extraction"] = method
    ctx.emit({"t": "extraction", "method": method, "rule": "SOG 3.7"})
    if method == "helicopter":
        s["pz"] = insertion.roll_square(ctx, "SOG 3.7.1")
        ctx.emit({"t": "pz-placed", "square": s["pz"], "rule": "SOG 3.7.1"})
        if s["team_at"] == s["pz"]:  # project reading: the team is already at the PZ
            exit_map(s, ctx, "SOG 3.7.1: picked up at the PZ")


def abort(s: dict, method: str, ctx) -> None:
    """SOG 3.9: before his next move, if the target has not been reached: the Target
    counter is removed, -10 VP (5.1.1), and the extraction is declared."""
    if s["reached_target"] or s["target"] is None:
        raise Rejection(Code.ILLEGAL_ABORT, "SOG 3.9: a mission may be aborted only before the team reaches the Target", rule="SOG 3.9")
    search.remove_target(s, ctx, "SOG 3.9 abort")
    s["aborted"] = True
    s["vp"]["sog"] -= victory.ABORT_PENALTY
    ctx.emit({"t": "abort", "vp": -victory.ABORT_PENALTY, "rule": "SOG 3.9, 5.1.1"})
    choose(s, method, ctx)


def exit_check(s: dict, ctx) -> dict | None:
    """SOG 3.7.2: on entering a column A or row 10 square while walking out, roll on
    the Enemy Contact table (if a VC counter is available); with no VC counter in the
    square the team leaves the map, otherwise no exit is possible and the action is
    played. Returns the action spec, if any."""
    sq = s["team_at"]
    spec = None
    if enemy.pool_available(s):
        result, counter, spec = movement.roll_contact(s, sq, ctx, "SOG 3.7.2")
    here = enemy.counters_in(s, sq)
    if not here:
        exit_map(s, ctx, "SOG 3.7.2: walked out")
        return None
    ctx.emit({"t": "exit-blocked", "square": sq, "vc": here, "rule": "SOG 3.7.2"})
    if spec is None:  # project reading: a VC counter in the square blocks the exit and brings a Meeting Engagement
        spec = tactical.spec(
            "meeting", "SOG 3.7.2: exit blocked by a VC counter", sq, ["vc"], here[:1],
            sog_role="Side A", nva_role="Side B", panel_by=None,
            panels="as the Meeting Engagement scenario (page 42) specifies",
            entry="as the Meeting Engagement scenario specifies",
            notes=["Victory Condition #1 is in effect (SOG 3.5)."])
    return spec


def exit_map(s: dict, ctx, rule: str) -> None:
    """SOG 3.7.3: the campaign ends when the team exits."""
    s["exited"] = True
    bonus = victory.exit_bonus(s)
    s["vp"]["sog"] += bonus
    ctx.emit({"t": "team-exited", "square": s["team_at"], "prisoners": s["team"]["prisoners"],
              "prisoner_bonus": bonus, "rule": rule})
    s["queue"] = []
    s["over"] = victory.outcome_by_vp(s, "SOG 3.7.3: the SOG Team exited the map")


def on_exit_square(s: dict, sq: str) -> bool:
    return s["extraction"] == "walk" and board.is_exit_square(sq)
