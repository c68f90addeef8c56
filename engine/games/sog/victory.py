"""SOG 5-5.1.1: victory points."""
from __future__ import annotations

PRISONER_BONUS = 10  # SOG 3.1.3, 5.1.1
ABORT_PENALTY = 10   # SOG 3.9, 5.1.1


def exit_bonus(s: dict) -> int:
    """SOG 5.1.1: +10 VP on exiting with a prisoner, only on a Prisoner Snatch."""
    if s["objective"] == "snatch" and s["team"]["prisoners"] > 0:
        return PRISONER_BONUS
    return 0


def outcome_by_vp(s: dict, reason: str) -> dict:
    """SOG 5: the player with the higher VP total wins (equal totals: a draw, the text is silent)."""
    a, b = s["vp"]["sog"], s["vp"]["nva"]
    winner = "sog" if a > b else "nva" if b > a else None
    return {"winner": winner, "reason": reason, "vp": {"sog": a, "nva": b}}
