"""Match data (SPEC.md 1.3, genesis's optional ``match`` key, format v >= 2): which match a game
is, as its organiser names it. One definition of its shape and bounds, used when a game is
created (a Rejection) and when a log is verified (step 4)."""
from __future__ import annotations

import datetime
import re

MAX_LABEL = 128   # characters of a match label
MAX_PLAYER = 64   # characters of a player's name
MATCH_KEYS = frozenset({"label", "players", "date"})
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _text(v, most: int) -> bool:
    return type(v) is str and 1 <= len(v) <= most and v.isprintable() and v == v.strip()


def _date(v) -> bool:
    if type(v) is not str or not _DATE.fullmatch(v):
        return False
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def match_problem(m, seats) -> str | None:
    """Why ``m`` is not a genesis ``match`` value for a game of ``seats``, or None: a map of at
    least one of label (1-128 printable characters, no surrounding spaces), players (a non-empty
    map seat -> name, each seat of the game, each name 1-64 such characters) and date (YYYY-MM-DD,
    a calendar date), and no other key."""
    if type(m) is not dict or not m or not set(m) <= MATCH_KEYS:
        return "match is a map of at least one of label, players, date and no other key"
    if "label" in m and not _text(m["label"], MAX_LABEL):
        return f"match label: 1-{MAX_LABEL} printable characters without surrounding spaces"
    if "players" in m:
        p = m["players"]
        if type(p) is not dict or not p:
            return "match players: a non-empty map of seat to name"
        for seat, name in p.items():
            if seat not in seats:
                return f"match players: {str(seat)[:64]!r} is not a seat of this game"
            if not _text(name, MAX_PLAYER):
                return f"match players: {seat}'s name: 1-{MAX_PLAYER} printable characters without surrounding spaces"
    if "date" in m and not _date(m["date"]):
        return "match date: YYYY-MM-DD, a calendar date"
    return None


def match_value(label: str = "", players: dict | None = None, date: str = "") -> dict | None:
    """The genesis ``match`` value of what CreateGame was given (empty fields left out), or None."""
    m: dict = {}
    if label:
        m["label"] = label
    if players:
        m["players"] = dict(players)
    if date:
        m["date"] = date
    return m or None
