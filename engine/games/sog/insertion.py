"""SOG 3.3 (the target's location) and 3.4-3.4.4 (insertion on foot or by helicopter).

LZ counters are kept as ``s["lzs"]``: a list of ``{"n": number, "at": square}``.
Counters removed after a failed landing leave the list; the others (the one the
team landed on and any not tried) stay on the map for the rest of the campaign,
so entering their squares needs no Enemy Contact roll (3.5).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from . import board


def roll_square(ctx, rule: str) -> str:
    """SOG 3.3: two d10, the first read as the row, the second as the column (1 = A ... 0 = J)."""
    return board.from_2d10(ctx.roll("2d10", rule).faces)


def place_target(s: dict, ctx) -> None:
    s["target"] = roll_square(ctx, "SOG 3.3")
    s["target_home"] = s["target"]
    ctx.emit({"t": "target-placed", "square": s["target"], "rule": "SOG 3.3"})


def foot_rows(s: dict) -> list[int]:
    """SOG 3.4.1: rows of the column A squares neither on nor adjacent to the Target."""
    t = s["target"]
    return [r for r in board.ROWS if board.square(r, 1) != t and not board.adjacent(board.square(r, 1), t)]


def insert(s: dict, method: int, row: int, ctx) -> None:
    """SOG 3.4: on foot (3.4.1, method 1, at ``row`` of column A) or by helicopter (3.4.2, method 2)."""
    if method == 1:
        insert_foot(s, row, ctx)
    elif method == 2:
        insert_helicopter(s, ctx)
    else:
        raise Rejection(Code.ILLEGAL_INSERTION, "SOG 3.4: insertion is on foot (3.4.1) or by helicopter (3.4.2)",
                        rule="SOG 3.4", input=method)


def insert_foot(s: dict, row: int, ctx) -> None:
    if row not in foot_rows(s):
        raise Rejection(Code.ILLEGAL_INSERTION,
                        "SOG 3.4.1: a foot insertion enters a column A square (rows 1-10) not on or adjacent to the Target", rule="SOG 3.4.1")
    s["insertion"] = "foot"
    land(s, board.square(row, 1), ctx, "SOG 3.4.1")


def insert_helicopter(s: dict, ctx) -> None:
    """SOG 3.4.2 / 3.4.4: roll the LZs (three, or the optional 1-5), re-rolling any on the Target."""
    s["insertion"] = "helicopter"
    lzs = []
    for n in range(1, s["options"]["lz_count"] + 1):
        sq = roll_square(ctx, "SOG 3.4.2")
        while sq == s["target"]:
            ctx.emit({"t": "lz-reroll", "lz": n, "square": sq, "rule": "SOG 3.4.2: not on the Target"})
            sq = roll_square(ctx, "SOG 3.4.2")
        lzs.append({"n": n, "at": sq})
        ctx.emit({"t": "lz-placed", "lz": n, "square": sq, "rule": "SOG 3.4.2"})
    s["lzs"] = lzs
    if len(lzs) == 1:  # SOG 3.4.4: one LZ forces the landing there
        land(s, lzs[0]["at"], ctx, "SOG 3.4.4")
    else:
        s["phase"] = "lz"


def try_lz(s: dict, n: int, ctx) -> None:
    """SOG 3.4.3: d10 1-3 lands; otherwise the LZ counter is removed. When one LZ
    is left the team must land there."""
    lz = next((x for x in s["lzs"] if x["n"] == n), None)
    if lz is None:
        raise Rejection(Code.ILLEGAL_LZ, f"SOG 3.4.3: no LZ {n} on the map (LZs left: "
                        f"{', '.join(str(x['n']) for x in s['lzs'])})", rule="SOG 3.4.3")
    r = ctx.roll("d10", "SOG 3.4.3").result
    if r <= 3:
        land(s, lz["at"], ctx, "SOG 3.4.3")
        return
    s["lzs"] = [x for x in s["lzs"] if x["n"] != n]
    ctx.emit({"t": "lz-failed", "lz": n, "square": lz["at"], "rule": "SOG 3.4.3: LZ counter removed"})
    if len(s["lzs"]) == 1:
        land(s, s["lzs"][0]["at"], ctx, "SOG 3.4.3: the remaining LZ")


def land(s: dict, sq: str, ctx, rule: str) -> None:
    s["team_at"] = sq
    s["phase"] = "play"
    s["turn"] = 1
    ctx.emit({"t": "team-inserted", "square": sq, "method": s["insertion"], "rule": rule})


def lz_squares(s: dict) -> set[str]:
    return {x["at"] for x in s["lzs"]}
