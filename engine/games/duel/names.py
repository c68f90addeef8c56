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
