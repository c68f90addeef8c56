"""No Trumpets No Drums 23: the results of the American elections held so far, as the other rules
read them (``s["elections"]``, written by elections.py: one record per election, "won": "war" |
"peace")."""
from __future__ import annotations

WAR, PEACE = "war", "peace"


def peace_party(s: dict) -> bool:
    """Whether the peace party has won an election (23.3)."""
    return any(e["won"] == PEACE for e in s.get("elections", []) or [])


def decided(s: dict, year: int) -> bool:
    """Whether the election of ``year`` has been held."""
    return any(e["year"] == year for e in s.get("elections", []) or [])
