"""GMV "Phase 3: Combat Actions -- VIETNAMESE": extra recruitment,
infiltration/re-infiltration, combat moves (hidden moves and attacks), and the
NVA's answers to American actions (hot LZ fire, units a patrol reveals).

Hidden moves are sealed commands (``GmvRuleset.is_private``); after each the
whole hidden board is re-committed (board.commit_hidden), so the log shows
that a hidden move happened and nothing else. Rejection messages of these
commands go to the NVA seat only.
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board, combat, noncombat
from . import us as us_actions
from .units import HIDEABLE, INFANTRY
from .versions import KEPT_REVEALS
from .zones import ZONES, adj, land_adj


def recruit(s: dict, seat: str, msg, ctx: Context) -> None:
    """1. Extra Recruitment: d3 <= the zone's R-rating adds a VC infantry unit.

    The recruiting unit is an exposed NVA/VC infantry unit (the project's reading:
    a hidden unit that recruits would have to show where it is)."""
    rule = "GMV Phase 3 NVA 1 extra recruitment"
    (u,) = board.get_units(s, [msg.unit_id], "nva", rule)
    if u["hidden"] or u["type"] not in INFANTRY:
        raise Rejection(Code.BAD_UNIT, f"{rule}: an exposed NVA or VC infantry unit recruits", rule=rule)
    if u["acted"]:
        raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already acted this turn", rule=rule)
    r = ZONES[u["zone"]]["r"]
    if r == 0:
        raise Rejection(Code.NO_R_RATING, f"{rule}: {u['zone']} has no R-rating", rule=rule)
    u["acted"] = True
    ok = ctx.roll("d3", f"{rule}: d3 <= R{r} in {u['zone']}").result <= r
    if ok:
        vid = board.new_unit(s, "vc", "nva", u["zone"])
        s["units"][vid]["acted"] = True
        ctx.emit({"t": "recruited", "id": vid, "type": "vc", "zone": u["zone"]})


def infiltrate(s: dict, seat: str, msg, ctx: Context) -> None:
    """2. Infiltration: exposed units go to the hidden board, then may make one
    (non-combat) move; no further action that turn; not in the turn they were
    revealed (they "wait 1 turn")."""
    rule = "GMV Phase 3 NVA 2 infiltration"
    us = board.get_units(s, msg.unit_ids, "nva", rule)
    z = us[0]["zone"]
    for u in us:
        if u["hidden"] or u["zone"] != z:
            raise Rejection(Code.BAD_UNIT, f"{rule}: infiltrating units are exposed and in one zone", rule=rule)
        if u["type"] not in HIDEABLE:
            raise Rejection(Code.CANNOT_INFILTRATE, f"{rule}: only infantry and artillery infiltrate (not {u['type']})", rule=rule)
        if u["acted"]:
            raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already acted this turn", rule=rule)
        if u["revealed"] is not None and u["revealed"] >= s["turn"]:
            raise Rejection(Code.MUST_WAIT, f"{rule}: {u['id']} was revealed this turn and must wait 1 turn", rule=rule)
    to = msg.to_zone
    board.check_zone(to, rule)
    if to != z and to not in land_adj(z):
        raise Rejection(Code.TOO_FAR, f"{rule}: after concealing, one move to an adjacent zone", rule=rule)
    for u in us:
        u["hidden"] = True
        u["acted"] = True
        u["zone"] = to
    s["hidden_moves"] += 1
    ctx.emit({"t": "infiltrated", "ids": board.sorted_ids(u["id"] for u in us), "from": z})
    board.commit_hidden(s, ctx)


def hidden_move(s: dict, seat: str, msg, ctx: Context) -> None:
    """3. Combat Move (and Phase 4): hidden infantry and artillery move 1 zone per
    turn through any zone, unseen. The project's reading: the hidden moves of a
    turn are one sealed order that ends the NVA's phase 4, given every turn even when no unit
    moves, so the log shows one order per turn and never whether or how many units moved (a
    hidden move in phase 3 could do nothing a phase-4 one cannot: a moved unit may not act)."""
    rule = "GMV Phase 3 NVA 3 hidden move"
    groups = ([(list(msg.unit_ids), msg.to_zone)] if msg.unit_ids or msg.to_zone else []) + \
        [(list(g.unit_ids), g.to_zone) for g in msg.groups]
    for ids, to in groups:
        us = board.get_units(s, ids, "nva", rule)
        z = us[0]["zone"]
        for u in us:
            if not u["hidden"] or u["zone"] != z:
                raise Rejection(Code.BAD_UNIT, f"{rule}: hidden units in one zone move together", rule=rule)
            if u["acted"]:
                raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already moved or acted this turn", rule=rule)
        board.check_zone(to, rule)
        if to not in land_adj(z):
            raise Rejection(Code.TOO_FAR, f"{rule}: one move per turn, to an adjacent land zone", rule=rule)
        for u in us:
            u["zone"] = to
            u["acted"] = True
    s["hidden_moves"] += 1
    ctx.emit({"t": "hidden-move", "n": s["hidden_moves"]})
    board.commit_hidden(s, ctx)


def attack(s: dict, seat: str, msg, ctx: Context) -> None:
    """3. Combat Move: Vietnamese units may make a combat move into any territory;
    attacking hidden units are revealed (they stay revealed until they can
    re-infiltrate next turn)."""
    _attack(s, list(msg.unit_ids), msg.zone, ctx)


def _attack(s: dict, ids: list[str], z: str, ctx: Context) -> None:
    rule = "GMV Phase 3 NVA 3 combat move"
    board.check_zone(z, rule)
    if ZONES[z]["kind"] == "sea":
        raise Rejection(Code.BAD_ZONE, f"{rule}: Vietnamese units fight on land", rule=rule)
    us = board.get_units(s, ids, "nva", rule)
    for u in us:
        if u["acted"]:
            raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already acted this turn", rule=rule)
        if u["zone"] != z and u["zone"] not in adj(z):
            raise Rejection(Code.TOO_FAR, f"{rule}: NVA units move 1 zone per turn", rule=rule)
        if u["type"] == "aa":
            raise Rejection(Code.BAD_UNIT, f"{rule}: AA does not attack", rule=rule)
    if not board.exposed(s, z, "us"):
        raise Rejection(Code.NO_ENEMY, f"{rule}: an attack needs American units in {z}", rule=rule)
    us = [s["units"][x] for x in board.alike_first(s, [u["id"] for u in us])]   # gmv/4: alike units are one
    for u in us:
        if u["hidden"]:
            board.reveal_entering(s, u, z, ctx, "attack")  # revealed in z, not where it stood
        u["zone"] = z
        u["acted"] = True
        u["revealed"] = s["turn"]
    ctx.emit({"t": "attack", "seat": "nva", "zone": z, "ids": board.sorted_ids(u["id"] for u in us)})
    combat.start(s, z, "nva", ctx, "attack")


def exposed_combat_move(s: dict, seat: str, msg, ctx: Context) -> None:
    """An exposed NVA move in Phase 3: into American units it is an attack."""
    rule = "GMV Phase 3 NVA 3 combat move"
    if len(msg.path) != 1:
        raise Rejection(Code.TOO_FAR, f"{rule}: NVA units move 1 zone per turn", rule=rule)
    z = msg.path[0]
    board.check_zone(z, rule)
    us = board.get_units(s, msg.unit_ids, "nva", rule)
    for u in us:
        if u["hidden"]:
            raise Rejection(Code.BAD_UNIT, f"{rule}: hidden units use hidden_move or attack", rule=rule)
    if board.exposed(s, z, "us"):
        return _attack(s, list(msg.unit_ids), z, ctx)
    noncombat.move_exposed_nva(s, us, z, rule, ctx)


def hot_lz_answer(s: dict, seat: str, msg, ctx: Context) -> None:
    """Hot LZ: hidden infantry in the drop zone may fire (d6 each, 1 hits)."""
    top = s["stack"][0]
    rule = "GMV Phase 3 US 3 hot LZ"
    ids = list(msg.unit_ids)
    firing = []
    for uid in ids:
        u = s["units"].get(uid)
        if (u is None or u["side"] != "nva" or not u["hidden"] or u["zone"] != top["zone"]
                or u["type"] not in INFANTRY or uid in [f["id"] for f in firing]):
            raise Rejection(Code.BAD_UNIT, f"{rule}: firing units are your hidden infantry in {top['zone']}", rule=rule)
        firing.append(u)
    firing = [s["units"][x] for x in board.alike_first(s, [u["id"] for u in firing])]   # gmv/4: alike units are one
    if KEPT_REVEALS.on(s):   # gmv/5: fire in an order of public facts (board.public_order)
        firing = [s["units"][x] for x in board.public_order(s, [u["id"] for u in firing])]
    s["stack"].pop(0)
    us_actions.hot_lz_resolve(s, top, firing, ctx)


def reveal_answer(s: dict, seat: str, msg, ctx: Context) -> None:
    """Patrol: the NVA reveals the number of hidden units the d3 says (all if fewer)."""
    top = s["stack"][0]
    rule = "GMV Phase 3 US 1 patrol"
    hid = [u["id"] for u in board.units(s, top["zone"], "nva", hidden=True)]
    need = min(top["n"], len(hid))
    ids = list(msg.unit_ids)
    if len(set(ids)) != len(ids) or len(ids) != need or any(i not in hid for i in ids):
        raise Rejection(Code.BAD_REVEAL, f"{rule}: reveal exactly {need} of your hidden units in {top['zone']}", rule=rule)
    s["stack"].pop(0)
    for uid in board.public_order(s, board.alike_first(s, ids)):            # gmv/4: alike units are one
        board.reveal(s, s["units"][uid], ctx, "patrol")
    us_actions.patrol_battle(s, top["zone"], ctx)
