"""GMV "Phase 2: Bombing Missions": blind bombing, defoliation, and the AA rule
(also used for helicopters and supporting aircraft).

- Blind bombing: the bomber marks a zone (public marker); at the start of the
  next American Phase 2 the mission flies: every NVA AA in every zone flown
  over (shortest path from the bomber's base, target included) rolls 1 d6 per
  bomber, a 1 destroys it; a surviving bomber rolls 4 dice, each hitting on
  <= its attack (4). Hits fall on NVA units in the zone, hidden ones included;
  the NVA chooses which (always asked when there are hits, the answer sealed,
  so the question itself says nothing about what is there).
- Defoliation: after AA, roll a d12 and a d6 (option ``defoliation_2d6``:
  2d6 and a d6); the first must be lower than the d6: the zone's F-rating
  drops by 1.
- AA always fires: the text says the NVA "may choose to fire", but firing
  never costs anything and AA is always exposed, so the choice is moot
  (the project's reading, docs/rules/gmv.md).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board
from .units import attack
from .zones import ZONES, flight_path

BOMB_DICE = 4


def aa_fire(s: dict, ctx: Context, path: list[str], aircraft: list[str], rule: str) -> list[str]:
    """AA: each AA in each zone flown over rolls 1 d6 per aircraft; 1 hits. Returns the shot down."""
    down: list[str] = []
    for z in path:
        for aa in board.units(s, z, "nva", hidden=False):
            if aa["type"] != "aa":
                continue
            for a in aircraft:
                if a in down:
                    continue
                if ctx.roll("d6", f"{rule}: AA in {z} fires at {a}").result == 1:
                    down.append(a)
    return down


def _bomber(s: dict, uid: str, rule: str) -> dict:
    u = s["units"].get(uid)
    if u is None or u["side"] != "us" or u["type"] != "bomber":
        raise Rejection(Code.BAD_UNIT, f"{rule}: {uid!r} is not one of your bombers", rule=rule)
    if u["acted"] or u["mission"] is not None:
        raise Rejection(Code.ALREADY_ACTED, f"{rule}: bomber {uid} already flies a mission this turn", rule=rule)
    return u


def bomb(s: dict, seat: str, msg, ctx: Context) -> None:
    rule = "GMV Phase 2 blind bombing"
    u = _bomber(s, msg.bomber_id, rule)
    board.check_zone(msg.zone, rule)
    if ZONES[msg.zone]["kind"] == "sea":
        raise Rejection(Code.BAD_ZONE, f"{rule}: bomb a land zone", rule=rule)
    u["mission"] = msg.zone
    u["acted"] = True
    s["marks"].append({"bomber": u["id"], "zone": msg.zone, "turn": s["turn"]})
    ctx.emit({"t": "bomb-marked", "bomber": u["id"], "zone": msg.zone})


def defoliate(s: dict, seat: str, msg, ctx: Context) -> None:
    rule = "GMV Phase 2 defoliation"
    u = _bomber(s, msg.bomber_id, rule)
    board.check_zone(msg.zone, rule)
    z = msg.zone
    if ZONES[z]["kind"] == "sea" or s["zones"][z]["f"] == 0:
        raise Rejection(Code.BAD_ZONE, f"{rule}: the zone has no jungle (F0)", rule=rule)
    u["acted"] = True
    if aa_fire(s, ctx, flight_path(u["zone"], z), [u["id"]], rule):
        board.kill(s, u, ctx, "AA")
        return
    if s["opts"]["defoliation_2d6"]:
        a = ctx.roll("2d6", f"{rule} (alternative): 2d6 must be lower than the d6").result
    else:
        a = ctx.roll("d12", f"{rule}: the d12 must be lower than the d6").result
    b = ctx.roll("d6", f"{rule}: the d6").result
    ok = a < b
    if ok:
        s["zones"][z]["f"] -= 1
    ctx.emit({"t": "defoliation", "zone": z, "success": ok, "f": s["zones"][z]["f"]})


def due_marks(s: dict) -> list[dict]:
    return [m for m in s["marks"] if m["turn"] < s["turn"]]


def resolve_next(s: dict, ctx: Context) -> None:
    """Fly the first blind-bombing mission marked last turn."""
    m = due_marks(s)[0]
    s["marks"].remove(m)
    rule = "GMV Phase 2 blind bombing"
    u = s["units"].get(m["bomber"])
    if u is None:
        return
    u["mission"] = None
    z = m["zone"]
    if aa_fire(s, ctx, flight_path(u["zone"], z) if u["zone"] != z else [z], [u["id"]], rule):
        board.kill(s, u, ctx, "AA")
        return
    hits = 0
    for i in range(BOMB_DICE):
        if ctx.roll("d6", f"{rule}: bomb die {i + 1} on {z}, hits on <= {attack('bomber')}").result <= attack("bomber"):
            hits += 1
    ctx.emit({"t": "bombing", "zone": z, "hits": hits})
    if hits:
        s["stack"].append({"seat": "nva", "kind": "bomb_casualties", "zone": z, "hits": hits})


def pool(s: dict, zone: str) -> list[dict]:
    """Bombs fall on every NVA unit in the zone, hidden or not."""
    return board.units(s, zone, "nva")


def bomb_casualties(s: dict, seat: str, msg, ctx: Context) -> None:
    top = s["stack"][0]
    rule = "GMV Phase 2 blind bombing casualties"
    p = pool(s, top["zone"])
    need = min(top["hits"], len(p))
    ids = list(msg.unit_ids)
    if len(set(ids)) != len(ids) or len(ids) != need or any(i not in {u["id"] for u in p} for i in ids):
        raise Rejection(Code.BAD_CASUALTIES, f"{rule}: choose exactly {need} of your units in {top['zone']}", rule=rule)
    s["stack"].pop(0)
    for uid in board.public_order(s, board.alike_first(s, ids)):            # gmv/4: alike units are one
        board.kill(s, s["units"][uid], ctx, "bombing")
    ctx.emit({"t": "bomb-casualties", "zone": top["zone"], "count": need})
