"""No Trumpets No Drums 22.4: the political points track and its bounds (24.2.10 under Full
Vietnamization), and the Vietnamization status as the track's rules read it (24.4.3)."""
from __future__ import annotations

from ..components.features import in_force


def bounds(s: dict) -> tuple[int, int] | None:
    """24.2.10: under Full Vietnamization the track may not go above 249 or below 1 before the end
    of the November/December 1968 turn (data: the campaign's victory.sudden_death bounds); None when
    no bound applies (always in the Tet scenario)."""
    if not in_force(s, "political_table"):
        return None
    sd = s["scenario"]["victory"]["sudden_death"]
    b = sd.get("bounds_before_turn_24_under_full_vietnamization", (1, 249))   # the rule's own numbers
    if vietnamization_in_effect(s) != "full" or s["turn"] >= 24:
        return None
    return b[0], b[1]


def add(s: dict, delta: int) -> int:
    """Move the track by ``delta`` within 24.2.10's bounds ("additional points ... are ignored");
    returns the change made. Outside the bounds' scope: ``s["pp"] += delta``."""
    b = bounds(s)
    new = s["pp"] + delta
    if b is not None:
        new = max(b[0], min(b[1], new)) if b[0] <= s["pp"] <= b[1] else s["pp"]
    got = new - s["pp"]
    s["pp"] = new
    return got


def vietnamization(s: dict) -> tuple[str | None, bool]:
    """(kind, reversed) of 24 as vietnamization.py records it: ``s["vietnamization"]`` None, "full" or
    "partial" (None again once reversed), ``s["vietnamization_reversed"]`` the kind that was reversed."""
    return s.get("vietnamization"), bool(s.get("vietnamization_reversed"))


def vietnamization_in_effect(s: dict) -> str | None:
    """"full" / "partial" while declared and not reversed (24.4), else None."""
    kind, rev = vietnamization(s)
    return None if rev else kind
