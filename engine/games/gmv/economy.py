"""GMV "R- and C-Ratings", "Phase 1: Buy Units" and "Phase 5: Place Units".

Income (at the start of each side's Phase 1):
- Americans: a flat 30 IPC (draft classes) for regular units, plus the R-ratings
  of every South Vietnamese zone with US-side units, for SV units only.
- NVA: the C-ratings of every North Vietnamese zone with no American units, plus
  the R-ratings of South Vietnamese zones with NVA units (hidden ones count),
  for VC units only. Because hidden units count, the NVA's income, money,
  purchases and purchase pool are private to the NVA seat (sealed).
Unspent IPC carry over (Axis & Allies; the project's reading).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board
from .units import BUY, NATIVE, cost
from .zones import NORTH, SAIGON, ZONES, us_can_be_in

US_FLAT = 30


def income(s: dict, side: str, ctx: Context) -> None:
    m = s["money"][side]
    rec = board.r_points(s, side)
    if side == "us":
        m["ipc"] += US_FLAT
        m["rec"] += rec
        ctx.emit({"t": "income", "seat": "us", "ipc": US_FLAT, "rec": rec,
                  "rule": "GMV Phase 1: flat 30 IPC; R-ratings for SV"})
    else:
        c = sum(ZONES[z]["c"] for z in NORTH if not board.us_present(s, z))
        m["ipc"] += c
        m["rec"] += rec
        ctx.emit({"t": "income", "seat": "nva", "ipc": c, "rec": rec, "money": dict(m)}, to="nva")
        ctx.emit({"t": "income", "seat": "nva"})


def buy(s: dict, seat: str, msg, ctx: Context) -> None:
    t = msg.unit_type
    if t not in BUY[seat]:
        raise Rejection(Code.BAD_UNIT_TYPE, f"GMV Phase 1: {seat} may buy {', '.join(BUY[seat])}", rule="GMV Phase 1")
    pool = "rec" if t == NATIVE[seat] else "ipc"
    m = s["money"][seat]
    if m[pool] < cost(t):
        what = "R-rating IPC (native units)" if pool == "rec" else "IPC"
        raise Rejection(Code.NOT_ENOUGH_IPC, f"GMV Phase 1: {t} costs {cost(t)} {what}; you have {m[pool]}", rule="GMV Phase 1")
    m[pool] -= cost(t)
    s["pool"][seat].append(t)
    if seat == "us":
        ctx.emit({"t": "bought", "seat": "us", "type": t})
    else:
        ctx.emit({"t": "bought", "seat": "nva", "type": t, "money": dict(m)}, to="nva")


def place_zones(s: dict, seat: str, t: str) -> list[str]:
    """Phase 5 placement rules, in map order."""
    out = []
    for z in ZONES:
        if _may_place(s, seat, t, z):
            out.append(z)
    return sorted(out, key=lambda z: ZONES[z]["order"])


def _may_place(s: dict, seat: str, t: str, z: str) -> bool:
    if seat == "nva":
        if t == "vc":  # VC: any territory with friendly units (hidden ones count)
            return ZONES[z]["kind"] != "sea" and board.side_present(s, z, "nva")
        return ZONES[z]["kind"] == "north"  # NVA forces: anywhere in North Vietnam
    if t == "sv":  # SV: any territory with friendly units
        return ZONES[z]["kind"] != "sea" and board.us_present(s, z)
    airbase = s["zones"][z]["airbase"]  # the carrier group counts as an airbase (project's own)
    if t in ("fighter", "bomber", "heli"):
        return airbase
    return (airbase or z == SAIGON) and us_can_be_in(s, t, z)


def place(s: dict, seat: str, msg, ctx: Context) -> None:
    t, z = msg.unit_type, msg.zone
    if t not in s["pool"][seat]:
        raise Rejection(Code.NOT_PURCHASED, f"GMV Phase 5: no purchased {t!r} waits to be placed", rule="GMV Phase 5")
    board.check_zone(z, "GMV Phase 5")
    if not _may_place(s, seat, t, z):
        raise Rejection(Code.BAD_PLACEMENT, "GMV Phase 5: NVA forces go anywhere in North Vietnam; VC or SV "
                        "where friendly units are; US forces in a zone with an airbase or in Saigon", rule="GMV Phase 5")
    s["pool"][seat].remove(t)
    hidden = seat == "nva" and t == "vc" and not board.exposed(s, z, "nva")
    uid = board.new_unit(s, t, seat, z, hidden=hidden)
    s["units"][uid]["acted"] = True
    if hidden:  # joins friendly units on the hidden board: the zone stays secret
        ctx.emit({"t": "placed", "seat": "nva", "id": uid, "type": t, "hidden": True})
        board.commit_hidden(s, ctx)
    else:
        ctx.emit({"t": "placed", "seat": seat, "id": uid, "type": t, "zone": z})


def placeable(s: dict, seat: str) -> list[str]:
    return [t for t in sorted(set(s["pool"][seat])) if place_zones(s, seat, t)]


def forfeit(s: dict, seat: str, ctx: Context) -> None:
    """Units that cannot be placed anywhere are lost (project's reading)."""
    n = len(s["pool"][seat])
    s["pool"][seat] = []
    if n:
        ev = {"t": "forfeit", "seat": seat, "count": n}
        ctx.emit(ev, to=None if seat == "us" else "nva")
