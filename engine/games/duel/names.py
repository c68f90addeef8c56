"""Duel's commands and events in words (engine/names.py)."""
from __future__ import annotations

from ...names import Label, Namer as _Base


class Namer(_Base):
    def command(self, action, msg, decision) -> Label:
        if action == "pick":
            return Label(f"Pick {msg.number} in secret", "Pick a number")
        if action == "guess":
            return Label(f"Guess {msg.number}", "Guess the number")
        return super().command(action, msg, decision)

    def event(self, ev: dict) -> str | None:
        t = ev.get("t")
        if t == "pick":
            return f"Round {ev.get('round')}: a picked {ev.get('number')}"
        if t == "picked":
            return f"Round {ev.get('round')}: a picks a number in secret"
        if t == "guess":
            return f"Round {ev.get('round')}: b guesses {ev.get('number')}"
        return super().event(ev)
