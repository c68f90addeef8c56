"""GMV "Phase 4: Non-Combat Moves": any unit that has not moved or taken an
action in the combat phase may make a move that does not result in combat,
movement restrictions permitting.

- American ground units enter only zones their F-rating allows normally ("yes";
  "as combat" and "airlift" entries need a combat action); tanks/APCs move 2
  only through open zones.
- Aircraft and helicopters fly up to their moves and end on an airbase (the
  carrier group counts as one); helicopters rebase without cargo (airlift is a
  combat action).
- NVA units move 1 zone per turn; exposed units may not end where exposed
  American units are (that is an attack); hidden units move with hidden_move.
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board
from .units import FLYING, moves
from .versions import SWAMP_START
from .zones import ZONES, dist, land_adj, swamp, us_entry


def move(s: dict, seat: str, msg, ctx: Context) -> None:
    """A Phase 4 move (Phase 3 moves are us.combat_move and nva.exposed_combat_move)."""
    rule = "GMV Phase 4 non-combat move"
    us = board.get_units(s, msg.unit_ids, seat, rule)
    path = list(msg.path)
    if not path:
        raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: give the zones entered", rule=rule)
    for z in path:
        board.check_zone(z, rule)
    z0 = us[0]["zone"]
    for u in us:
        if u["hidden"]:
            raise Rejection(Code.BAD_UNIT, f"{rule}: hidden units use hidden_move", rule=rule)
        if u["zone"] != z0:
            raise Rejection(Code.BAD_UNIT, f"{rule}: units moving together start in one zone", rule=rule)
        if u["acted"]:
            raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} moved or acted in the combat phase", rule=rule)
    if seat == "nva":
        if len(path) != 1:
            raise Rejection(Code.TOO_FAR, f"{rule}: NVA units move 1 zone per turn", rule=rule)
        return move_exposed_nva(s, us, path[0], rule, ctx)
    flying = [u for u in us if u["type"] in FLYING]
    if flying and len(flying) != len(us):
        raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: aircraft and ground units move separately", rule=rule)
    dest = path[-1]
    if flying:
        if len(path) != 1:
            raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: aircraft give only their destination", rule=rule)
        for u in us:
            if not s["zones"][dest]["airbase"]:
                raise Rejection(Code.NO_AIRBASE, f"{rule}: aircraft and helicopters end on an airbase (or the carrier)", rule=rule)
            if dist(z0, dest) > moves(u["type"]):
                raise Rejection(Code.TOO_FAR, f"{rule}: {u['type']} moves {moves(u['type'])}", rule=rule)
    else:
        for u in us:
            if not ground_path_ok(s, u["type"], z0, path, ("yes",)):
                raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: {u['type']} cannot move {z0} -> {' -> '.join(path)} "
                                "without a combat action (F-ratings, swamp, moves)", rule=rule)
        if any(board.exposed(s, z, "nva") for z in path):
            raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: a non-combat move does not enter enemy units", rule=rule)
    for u in us:
        u["zone"] = dest
        u["acted"] = True
    ctx.emit({"t": "move", "seat": "us", "ids": [u["id"] for u in us], "path": path, "combat": False})


def ground_path_ok(s: dict, t: str, start: str, path: list[str], allowed: tuple[str, ...]) -> bool:
    """The American ground path rule of Phase 3 combat moves (``allowed`` entries "yes", "combat")
    and Phase 4 moves ("yes"): tanks/APCs 2 moves only through open (F0, non-swamp) zones; others 1.
    From gmv/3 on (``SWAMP_START``) a tank or APC starting in a swamp or jungle zone has one move."""
    if not path or len(path) > moves(t):
        return False
    if len(path) > 1 and SWAMP_START.on(s) and _slow(s, start):
        return False   # Units *: "Only 1 move in swamp or allowable jungle zones"
    prev = start
    for i, z in enumerate(path):
        if z not in land_adj(prev) or us_entry(s, t, z) not in allowed:
            return False
        if i < len(path) - 1 and (_slow(s, z) or board.exposed(s, z, "nva")):
            return False
        prev = z
    return True


def _slow(s: dict, z: str) -> bool:
    """Units *: a swamp or jungle (F1+) zone, where tanks and APCs have one move."""
    return s["zones"][z]["f"] > 0 or swamp(z)


def move_exposed_nva(s: dict, us: list[dict], z: str, rule: str, ctx: Context) -> None:
    z0 = us[0]["zone"]
    for u in us:
        if u["zone"] != z0 or u["hidden"]:
            raise Rejection(Code.BAD_UNIT, f"{rule}: exposed units from one zone", rule=rule)
        if u["acted"]:
            raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already moved or acted", rule=rule)
    if z not in land_adj(z0):
        raise Rejection(Code.TOO_FAR, f"{rule}: NVA units move 1 zone per turn, to an adjacent land zone", rule=rule)
    if board.exposed(s, z, "us"):
        raise Rejection(Code.ILLEGAL_MOVE, f"{rule}: moving into American units is an attack (Phase 3)", rule=rule)
    for u in us:
        u["zone"] = z
        u["acted"] = True
    ctx.emit({"t": "move", "seat": "nva", "ids": [u["id"] for u in us], "path": [z],
              "combat": s["phase"] == 3})


def ground_targets(s: dict, seat: str, u: dict) -> list[list[str]]:
    """Legal paths (representative: 1-step, and 2-step for tanks) for ``u`` in Phase 4."""
    out = []
    for a in land_adj(u["zone"]):
        if seat == "nva":
            if not board.exposed(s, a, "us"):
                out.append([a])
            continue
        if ground_path_ok(s, u["type"], u["zone"], [a], ("yes",)) and not board.exposed(s, a, "nva"):
            out.append([a])
            if moves(u["type"]) >= 2:
                for b in land_adj(a):
                    if b != u["zone"] and ground_path_ok(s, u["type"], u["zone"], [a, b], ("yes",)) \
                            and not board.exposed(s, b, "nva"):
                        out.append([a, b])
    return out


def air_targets(s: dict, u: dict) -> list[str]:
    out = []
    for z in sorted(ZONES, key=lambda x: ZONES[x]["order"]):
        if z == u["zone"] or dist(u["zone"], z) > moves(u["type"]):
            continue
        if s["zones"][z]["airbase"]:
            out.append(z)
    return out
