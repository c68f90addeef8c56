"""SOG 3.6-3.6.3: locating the target."""
from __future__ import annotations

from . import board, mission


def search_result(d10: int) -> str:
    """SOG 3.6 Target Search table (no modifiers): 1-5 not located, 6-9 located, 0 faulty intelligence."""
    if d10 <= 5:
        return "not_located"
    if d10 <= 9:
        return "located"
    return "faulty"


def is_search_square(s: dict, sq: str) -> bool:
    """SOG 3.6 / 3.6.2: the Target square, and once a search has failed (1-5) the
    eight squares around it, where the search roll is made again."""
    t = s["target"]
    if t is None:
        return False
    return sq == t or (s["searching"] and board.adjacent(t, sq))


def search(s: dict, ctx) -> list[dict]:
    """Roll on the Target Search table in the team's square; returns the queue steps that follow."""
    sq = s["team_at"]
    r = ctx.roll("d10", "SOG 3.6").result
    result = search_result(r)
    ctx.emit({"t": "target-search", "square": sq, "roll": r, "result": result, "rule": "SOG 3.6"})
    if result == "not_located":  # SOG 3.6.2
        s["searching"] = True
        return []
    if result == "faulty":  # SOG 3.6.3: no VP lost; head for home
        remove_target(s, ctx, "SOG 3.6.3 Faulty Intelligence")
        return [{"k": "extraction_choice"}]
    # SOG 3.6.1 / 3.6.2: the mission's action, then the Target counter is removed.
    if sq != s["target"]:
        remove_target(s, ctx, "SOG 3.6.2: target located in an adjacent square")
        s["target_found_at"] = sq
        return [{"k": "action", "spec": mission.target_action(s, sq, ctx)}, {"k": "extraction_choice"}]
    s["target_found_at"] = sq
    return [{"k": "action", "spec": mission.target_action(s, sq, ctx)}, {"k": "remove_target"},
            {"k": "extraction_choice"}]


def remove_target(s: dict, ctx, rule: str) -> None:
    if s["target"] is None:
        return
    ctx.emit({"t": "target-removed", "square": s["target"], "rule": rule})
    s["target"] = None
    s["searching"] = False
