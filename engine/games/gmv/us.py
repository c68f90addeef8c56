"""GMV "Phase 3: Combat Actions -- AMERICANS": patrol, build, airlift (with AA
and hot LZ) and combat move. Actions go from north to south (each action's
zone -- patrolled, built in, dropped into, moved into -- is not north of the
previous one's: the project's reading of "starting farther north and moving
south"); every unit takes at most one action per turn.
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board, combat, noncombat
from .bombing import aa_fire
from .units import FLYING, cargo_class, heli_capacity, moves
from .zones import ZONES, dist, flight_path, order, us_airlift_ok

IMPROVEMENT = {1: "lz", 2: "positions", 3: "airbase"}


def check_order(s: dict, z: str, rule: str) -> None:
    if order(z) < s["cursor"]:
        raise Rejection(Code.NORTH_TO_SOUTH, f"{rule}: American actions go from north to south; "
                        f"{z} is north of the previous action", rule=rule)
    s["cursor"] = order(z)


def _fresh(units: list[dict], rule: str) -> None:
    for u in units:
        if u["acted"]:
            raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already acted (all actions are exclusive)", rule=rule)


def patrol(s: dict, seat: str, msg, ctx: Context) -> None:
    """1. Patrol: d6 per patrolling unit, <= 5-F reveals; d3 per success says how
    many; "none here" is decided by the engine from the hidden board."""
    rule = "GMV Phase 3 US 1 patrol"
    us = board.get_units(s, msg.unit_ids, "us", rule)
    z = us[0]["zone"]
    for u in us:
        if u["zone"] != z or u["type"] not in ("inf", "sv"):
            raise Rejection(Code.BAD_UNIT, f"{rule}: infantry in one zone patrol", rule=rule)
    _fresh(us, rule)
    check_order(s, z, rule)
    f = s["zones"][z]["f"]
    for u in us:
        u["acted"] = True
    succ = sum(1 for u in us if ctx.roll("d6", f"{rule}: {u['id']} reveals on d6 <= 5-F = {5 - f}").result <= 5 - f)
    hidden = board.units(s, z, "nva", hidden=True)
    if not hidden:  # NOTE: the NVA must reveal that there are none (the engine decides: no lying)
        ctx.emit({"t": "patrol", "zone": z, "result": "none here"})
        return patrol_battle(s, z, ctx)
    if succ == 0:
        ctx.emit({"t": "patrol", "zone": z, "result": "no contact"})
        return patrol_battle(s, z, ctx)
    n = sum(ctx.roll("d3", f"{rule}: how many reveal themselves").result for _ in range(succ))
    ctx.emit({"t": "patrol", "zone": z, "result": "contact", "n": n})
    s["stack"].append({"seat": "nva", "kind": "reveal", "zone": z, "n": n})


def patrol_battle(s: dict, z: str, ctx: Context) -> None:
    if board.exposed(s, z, "nva") and board.exposed(s, z, "us"):
        combat.start(s, z, "us", ctx, "patrol")


def build(s: dict, seat: str, msg, ctx: Context) -> None:
    """2. Build: LZ, artillery positions, or airbase (started one turn, finished
    by infantry the next)."""
    rule = "GMV Phase 3 US 2 build"
    (u,) = board.get_units(s, [msg.unit_id], "us", rule)
    if u["type"] not in ("inf", "sv"):
        raise Rejection(Code.BAD_UNIT, f"{rule}: infantry build", rule=rule)
    _fresh([u], rule)
    imp = IMPROVEMENT.get(msg.improvement)
    if imp is None:
        raise Rejection(Code.BAD_IMPROVEMENT, f"{rule}: build an LZ, artillery positions or an airbase", rule=rule)
    z = u["zone"]
    zs = s["zones"][z]
    check_order(s, z, rule)
    if imp == "airbase":
        if zs["airbase"]:
            raise Rejection(Code.ALREADY_BUILT, f"{rule}: {z} already has an airbase", rule=rule)
        if zs["started"] is None:
            zs["started"] = s["turn"]
            ev = "airbase-started"
        elif zs["started"] >= s["turn"]:
            raise Rejection(Code.TWO_TURNS, f"{rule}: an airbase takes two turns; finish it next turn", rule=rule)
        else:
            zs["airbase"] = True
            zs["started"] = None
            ev = "airbase-finished"
    else:
        if zs[imp]:
            raise Rejection(Code.ALREADY_BUILT, f"{rule}: {z} already has {imp}", rule=rule)
        zs[imp] = True
        ev = f"{imp}-built"
    u["acted"] = True
    ctx.emit({"t": ev, "zone": z, "by": u["id"]})


def airlift(s: dict, seat: str, msg, ctx: Context) -> None:
    """3. Airlift: helicopters fly at most 4 moves (loading/unloading free) and
    land on an airbase; AA fires on the way; the NVA may fire at the drop (hot LZ)."""
    rule = "GMV Phase 3 US 3 airlift"
    d, base = msg.drop_zone, msg.base_zone
    board.check_zone(d, rule)
    board.check_zone(base, rule)
    if ZONES[d]["kind"] == "sea":
        raise Rejection(Code.BAD_ZONE, f"{rule}: drop on land", rule=rule)
    if not s["zones"][base]["airbase"]:
        raise Rejection(Code.NO_AIRBASE, f"{rule}: helicopters must land on an airbase", rule=rule)
    if not msg.loads:
        raise Rejection(Code.NO_UNITS, f"{rule}: name at least one helicopter", rule=rule)
    lz = s["zones"][d]["lz"]
    plan = []
    seen: set[str] = set()
    for load in msg.loads:
        (h,) = board.get_units(s, [load.helicopter_id], "us", rule)
        if h["type"] != "heli" or h["id"] in seen:
            raise Rejection(Code.BAD_UNIT, f"{rule}: {h['id']} is not a helicopter (or is named twice)", rule=rule)
        seen.add(h["id"])
        cargo = board.get_units(s, load.cargo_ids, "us", rule) if load.cargo_ids else []
        _fresh([h] + cargo, rule)
        p = cargo[0]["zone"] if cargo else h["zone"]
        classes = {cargo_class(c["type"]) for c in cargo}
        for c in cargo:
            if c["id"] in seen or c["zone"] != p or cargo_class(c["type"]) is None:
                raise Rejection(Code.BAD_CARGO, f"{rule}: cargo is infantry or artillery from one zone", rule=rule)
            if not us_airlift_ok(s, c["type"], d):
                raise Rejection(Code.BAD_CARGO, f"{rule}: {c['type']} cannot be based in {d} (F-rating/positions)", rule=rule)
            seen.add(c["id"])
        if len(classes) > 1:
            raise Rejection(Code.BAD_CARGO, f"{rule}: a helicopter carries either infantry or artillery", rule=rule)
        if cargo and len(cargo) > heli_capacity(cargo[0]["type"], lz):
            raise Rejection(Code.OVER_CAPACITY, f"{rule}: 2 infantry or 1 artillery per helicopter (+1 with an LZ)", rule=rule)
        if dist(h["zone"], p) + dist(p, d) + dist(d, base) > moves("heli"):
            raise Rejection(Code.TOO_FAR, f"{rule}: helicopters move 4 times in total", rule=rule)
        plan.append((h, cargo, p))
    check_order(s, d, rule)
    landed = []
    for h, cargo, p in plan:
        h["acted"] = True
        for c in cargo:
            c["acted"] = True
        if aa_fire(s, ctx, flight_path(h["zone"], p), [h["id"]], rule) or \
                aa_fire(s, ctx, flight_path(p, d), [h["id"]], rule):
            for u in [h] + cargo:
                board.kill(s, u, ctx, "AA")
            continue
        for u in [h] + cargo:
            u["zone"] = d
        landed.append({"heli": h["id"], "cargo": [c["id"] for c in cargo]})
    ctx.emit({"t": "airlift", "drop": d, "base": base, "loads": landed})
    if landed:  # always asked, so the question reveals nothing about the zone
        s["stack"].append({"seat": "nva", "kind": "hot_lz", "zone": d, "loads": landed, "base": base,
                           "stay": bool(msg.helicopters_stay)})


def hot_lz_resolve(s: dict, top: dict, firing: list[dict], ctx: Context) -> None:
    rule = "GMV Phase 3 US 3 hot LZ"
    d = top["zone"]
    loads = [ld for ld in top["loads"] if ld["heli"] in s["units"]]
    if firing:
        for u in firing:
            board.reveal(s, u, ctx, "hot LZ")
        hits = sum(1 for u in firing if ctx.roll("d6", f"{rule}: {u['id']} fires, 1 hits").result == 1)
        for ld in loads[:hits]:  # hits fall on the helicopters in the order of the airlift
            for uid in [ld["heli"]] + ld["cargo"]:
                if uid in s["units"]:
                    board.kill(s, s["units"][uid], ctx, "hot LZ")
        loads = loads[hits:]
        if not loads:  # all choppers 1-hit killed: the firing units re-infiltrate at once
            for u in firing:
                u["hidden"] = True
                u["revealed"] = None
            ctx.emit({"t": "reinfiltrated", "zone": d, "ids": [u["id"] for u in firing]})
            board.commit_hidden(s, ctx)
            return
    else:
        ctx.emit({"t": "hot-lz", "zone": d, "fire": False})
    helis = [ld["heli"] for ld in loads]
    fight = bool(board.exposed(s, d, "nva"))
    if not (fight and top["stay"]):
        combat.heli_return(s, helis, d, top["base"], ctx)
    if fight:
        combat.start(s, d, "us", ctx, "hot LZ", heli={"ids": helis, "base": top["base"]} if top["stay"] else None)


def combat_move(s: dict, seat: str, msg, ctx: Context) -> None:
    """4. Combat Move: into a zone the F-ratings allow (as combat), attacking revealed units there."""
    rule = "GMV Phase 3 US 4 combat move"
    us = board.get_units(s, msg.unit_ids, "us", rule)
    z0 = us[0]["zone"]
    path = list(msg.path)
    for z in path:
        board.check_zone(z, rule)
    _fresh(us, rule)
    for u in us:
        if u["zone"] != z0 or u["type"] in FLYING:
            raise Rejection(Code.BAD_UNIT, f"{rule}: ground units from one zone (aircraft support, helicopters airlift)", rule=rule)
        if not noncombat.ground_path_ok(s, u["type"], z0, path, ("yes", "combat")):
            raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: {u['type']} cannot move {z0} -> {' -> '.join(path)} "
                            "(F-ratings, swamp, moves)", rule=rule)
    dest = path[-1]
    check_order(s, dest, rule)
    for u in us:
        u["zone"] = dest
        u["acted"] = True
    ctx.emit({"t": "move", "seat": "us", "ids": [u["id"] for u in us], "path": path, "combat": True})
    if board.exposed(s, dest, "nva"):
        combat.start(s, dest, "us", ctx, "combat move")


