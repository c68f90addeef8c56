"""Victory (not in the text; the project's own rule, docs/rules/gmv.md).

- Immediate: the NVA wins when it holds Saigon (exposed NVA units there and no
  US-side units); the US wins when the NVA has no unit left anywhere (the
  number of hidden units is public, so this says nothing hidden); the NVA
  wins when the US side has no unit left.
- At the end of the last turn every hidden unit is revealed (its commitment
  opened), then South Vietnamese zones count for the side with units there
  and the other side with none. The US wins if it holds Saigon and controls
  more R-points than the NVA; the NVA wins if it holds Saigon or controls more
  R-points; otherwise the game is a draw.
"""
from __future__ import annotations

from ...ruleset import Context
from . import board
from .zones import SAIGON, SOUTH, ZONES


def holder(s: dict, z: str) -> str | None:
    us, nva = board.side_present(s, z, "us"), board.side_present(s, z, "nva")
    return "us" if us and not nva else "nva" if nva and not us else None


def immediate(s: dict) -> dict | None:
    if board.exposed(s, SAIGON, "nva") and not board.side_present(s, SAIGON, "us"):
        return {"winner": "nva", "reason": "the NVA holds Saigon", "turn": s["turn"]}
    sides = {u["side"] for u in s["units"].values()}
    if "nva" not in sides:
        return {"winner": "us", "reason": "no NVA or VC unit is left", "turn": s["turn"]}
    if "us" not in sides:
        return {"winner": "nva", "reason": "no US or SV unit is left", "turn": s["turn"]}
    return None


def final(s: dict, ctx: Context) -> dict:
    for u in board.units(s, hidden=True):
        board.reveal(s, u, ctx, "end of the game", mark=False)
    board.open_kept(s, ctx)
    pts = {"us": 0, "nva": 0}
    for z in SOUTH:
        h = holder(s, z)
        if h:
            pts[h] += ZONES[z]["r"]
    saigon = holder(s, SAIGON)
    if saigon == "nva":
        w, why = "nva", "the NVA holds Saigon at the end"
    elif saigon == "us" and pts["us"] > pts["nva"]:
        w, why = "us", "the US holds Saigon and more R-points"
    elif pts["nva"] > pts["us"]:
        w, why = "nva", "the NVA controls more R-points"
    else:
        w, why = None, "neither side met its victory condition"
    return {"winner": w, "reason": why, "r_points": pts, "saigon": saigon, "turn": s["turns"]}
