"""No Trumpets No Drums: carrying out moves and the answers that move pieces (rules 8, 8.6,
8.8, 20.2, 20.5, 3.1.4); answers.py declares which decision each answers.

Moves are walked hex by hex here: 8.5.2 infiltration rolls for inverted stacks
entering Allied ZOC/ZOI hexes (a failure stops the stack, which flips face up if
the hex was in a ZOC), and 20.2 ambush opportunities whenever an Allied ground
unit enters a hex next to an inverted marker (asked whatever the marker holds,
so the question itself reveals nothing).
"""
from __future__ import annotations

from ....errors import Rejection
from ..combat import battles
from ..arms import fleet
from . import ground as movement, paths, reach, reaction, sea
from . import national
from . import zones
from . import hexes
from ..forces import operations
from ..components.map import load_map
from ..politics.victory import eliminate
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_MOVE
from ....codes import Code


def no_ambush(s: dict, ctx) -> None:
    """20.2: no ambush: the Allied unit goes on along the rest of its path (by land, then by sea)."""
    amb = s["ambush"]
    s["ambush"] = None
    ctx.emit({"t": "no-ambush", "unit": amb["unit"]})
    rest = list(amb["rest"])
    if sea.SEA in rest:
        i = rest.index(sea.SEA)
        if i:
            _walk(s, ALLIED, amb["unit"], rest[:i], ctx)
            if s["ambush"] is not None:
                s["ambush"]["rest"] = rest[i:]
                return
        _sea_move(s, ALLIED, amb["unit"], rest[i + 1:], ctx)
        return
    _walk(s, ALLIED, amb["unit"], rest, ctx)


def interdict(s: dict, target: str, ctx) -> None:
    """8.6.3: the naval unit that moved searches one adjacent hex; it may search again while targets remain."""
    unit = s["interdict"]["unit"]
    if target not in interdict_targets(s, unit):
        raise Rejection(Code.ILLEGAL_ATTACK, "NTND 8.6.3: an adjacent coastal or major-river hex with Communist "
                        "units, each once a turn", rule="NTND 8.6.3")
    _interdict(s, unit, target, ctx)
    if not interdict_targets(s, unit):
        s["interdict"] = None


def occupy(s: dict, msg, ctx) -> None:
    """8.8.2.2: an Allied unit next to a hex an inverted stack left occupies it."""
    if len(msg.path) != 1 or (msg.piece, msg.path[0]) not in occupy_options(s):
        raise Rejection(Code.ILLEGAL_MOVE, "NTND 8.8.2.2: a unit next to a hex an inverted stack left may occupy it", rule="NTND 8.8.2.2")
    frm = s["units"][msg.piece]["loc"]
    _set_loc(s, msg.piece, msg.path[0])
    s["flags"]["vacated"] = [v for v in s["flags"]["vacated"] if v["hex"] != msg.path[0]]
    s["phase"].setdefault("occupied", []).append(msg.piece)
    ctx.emit({"t": "move", "piece": msg.piece, "from": frm, "path": [msg.path[0]], "rule": "NTND 8.8.2.2"})


def go_on(s: dict, msg, ctx) -> None:
    """20.5: the ambushed unit survived and goes on along the rest of its move."""
    r = s["resume"]
    s["resume"] = None
    if list(msg.path) != resume_path(s, r) or msg.piece != r["unit"]:
        raise Rejection(Code.ILLEGAL_MOVE, "NTND 20.5: the ambushed unit may go on along the rest of its move", rule="NTND 20.5")
    _walk(s, ALLIED, r["unit"], list(msg.path), ctx)


def move(s, seat, piece, path, ctx):
    ph = s["phase"]
    moved = ph.setdefault("moved", [])
    side_ok = (piece in s["markers"] and seat == COMMUNIST) or \
        (piece in s["units"] and s["units"][piece]["side"] == seat and s["units"][piece]["status"] == "map"
         and not s["units"][piece]["inv"])
    if not side_ok:
        raise Rejection(Code.ILLEGAL_MOVE, f"NTND 8: {piece} is not a piece of yours on the map", rule="NTND 8")
    if piece in moved:
        raise Rejection(Code.ILLEGAL_MOVE, f"NTND 8: {piece} has already moved this phase", rule="NTND 8")
    env = movement.Env(s)   # this state's sets, for the check and the walk (no unit moves in between)
    err = paths.check_path(s, piece, path, env)
    if err:
        raise Rejection(Code.ILLEGAL_MOVE, err, rule=" ".join(err.split()[:2]).rstrip(":"))  # "NTND 8: ..."
    moved.append(piece)
    if seat == ALLIED:
        s["flags"]["allied_moved"].append(piece)
    if sea.SEA in path:
        i = path.index(sea.SEA)
        left = _inland_allowance(s, piece, path[i - 1] if i else None) if seat == ALLIED else 0
        if i:   # 8.6.4.1: by land to the port first
            _walk(s, seat, piece, path[:i], ctx)
            if s["ambush"] is not None:   # an ambush on the way: the landing waits for the answer
                s["ambush"]["rest"] = list(path[i:])
                return
        _sea_move(s, seat, piece, path[i + 1:], ctx)
        if seat == ALLIED and left > 0 and path[-1] not in movement.Env(s).zoc(COMMUNIST):
            # 8.6.4.1: "then spend their remaining points to move inland": one more move this phase
            # with what is left (not after landing in an enemy ZOC, 8.5.2; a second landing is not
            # offered: the landing pins the fleet to this hex, 8.6.4.2)
            moved.remove(piece)
            ph.setdefault("landed", {})[piece] = left
        return
    kind = movement.movement_kind(movement.mover(s, piece))
    if seat == ALLIED and kind == "airmobile":
        s["flags"].setdefault("air_entered", {})[piece] = s["turn"]  # 12.3
    _walk(s, seat, piece, path, ctx, env)
    if seat == ALLIED and kind in ("fleet", "patrol_boat") and interdict_targets(s, piece):
        s["interdict"] = {"unit": piece}


def _inland_allowance(s, piece, port) -> int:
    """8.6.4.1: quarter-MPs left after marching to ``port`` (None: starting there) and embarking,
    which costs half the allowance: allowance - march - allowance/2, rounded down."""
    env = movement.Env(s)
    reach.reachable(s, piece, env)
    best, _, allow = env.searches[tuple(movement.mover(s, piece)["uids"])]
    march = best[port][1] if port is not None and port in best else 0
    return max(0, (allow - 2 * march) // 2)


def _sea_move(s, seat, piece, path, ctx):
    """8.6.2: Communist supply by sea, infiltrating past Allied patrol boats and the fleet (4-6; failure:
    eliminated). 8.6.4: an amphibious landing; the fleet moves to the landing hex and stays (8.6.4.2)."""
    m = load_map()
    start = movement.mover(s, piece)["loc"]
    if seat == COMMUNIST:
        navy = [u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
                and u["type"] in ("us_fleet", "us_patrol_boat", "arvn_patrol_boat") and not m.is_zone(u["loc"])]
        walked = []
        for h in path:
            if any(m.adjacent(h, n) or h == n for n in navy):
                r = ctx.roll("d6", f"NTND 8.6.2 supply infiltration past Allied naval units into {h} (4-6)")
                if r.result < 4:
                    ctx.emit({"t": "move", "piece": piece, "from": start, "path": walked, "by": "sea"})
                    uids = movement.mover(s, piece)["uids"]
                    if piece in s["markers"]:
                        operations.flip_marker(s, piece, ctx, "NTND 8.6.2")
                    for u in uids:
                        eliminate(s, u, ctx, "NTND 8.6.2")
                    return
            _set_loc(s, piece, h)
            walked.append(h)
        ctx.emit({"t": "move", "piece": piece, "from": start, "path": walked, "by": "sea", "rule": "NTND 8.6.1"})
        return
    dest = path[-1]
    fleet = next(u for u in sorted(s["units"].values(), key=lambda x: x["id"])
                 if u["type"] == "us_fleet" and u["status"] == "map")
    amph = s["flags"].get("amphibious")
    if not amph or amph.get("turn") != s["turn"]:
        amph = s["flags"]["amphibious"] = {"turn": s["turn"], "units": [], "at": dest}
    amph["units"].append(piece)
    if fleet["loc"] != dest:
        ctx.emit({"t": "move", "piece": fleet["id"], "from": fleet["loc"], "path": [dest], "rule": "NTND 8.6.4.2"})
        fleet["loc"] = dest
    s["phase"].setdefault("moved", []).append(fleet["id"])
    _set_loc(s, piece, dest)
    ctx.emit({"t": "move", "piece": piece, "from": start, "path": [dest], "by": "amphibious", "rule": "NTND 8.6.4"})


def _set_loc(s, piece, loc):
    if piece in s["markers"]:
        s["markers"][piece]["loc"] = loc
        for uid in s["markers"][piece]["units"]:
            s["units"][uid]["loc"] = loc
    else:
        s["units"][piece]["loc"] = loc


def _walk(s, side, piece, path, ctx, env=None):
    """Walk ``path``: infiltration (8.5.2, 8.5.3) and ambush opportunities (20.2). ``env``: an Env of
    the state as it is now (one is made if not given)."""
    m = load_map()
    start = movement.mover(s, piece)["loc"]
    inv = piece in s["markers"]
    if inv:
        env = env or movement.Env(s)
    zoc = env.zoc(ALLIED) if inv else frozenset()
    zoi = env.zoi() if inv else frozenset()
    walked = []
    kind = movement.movement_kind(movement.mover(s, piece))
    for i, h in enumerate(path):
        if inv and (h in zoc or h in zoi):
            need = reach.infiltration_target(h)
            r = ctx.roll("d6", f"NTND 8.5.2 infiltration into {h} (success on {need}-6)")
            if r.result < need:
                ctx.emit({"t": "move", "piece": piece, "from": start, "path": walked})
                ctx.emit({"t": "infiltration-failed", "piece": piece, "hex": h,
                          "rule": "NTND 8.5.2" if h in zoc else "NTND 8.5.3"})
                if h in zoc:
                    operations.flip_marker(s, piece, ctx, "NTND 8.5.2")
                return
        _set_loc(s, piece, h)
        walked.append(h)
        if side == ALLIED and s["phase"]["id"] == A_MOVE and kind in ("ground", "airmobile", "immobile") \
                and (kind == "ground" or i == len(path) - 1) and not m.is_zone(h) \
                and battles.ambush_candidates(s, piece) \
                and hexes.utype(s["units"][piece]).is_ground_combat:
            ctx.emit({"t": "move", "piece": piece, "from": start, "path": walked})
            s["ambush"] = {"unit": piece, "rest": list(path[i + 1:])}
            return
    ctx.emit({"t": "move", "piece": piece, "from": start, "path": walked})
    if side == COMMUNIST and walked:
        fleet.entered(s, walked[-1], ctx)   # 14.2.1 (ntnd/5 on): the fleet there alone moves out to sea


def announce(s, msg, ctx):
    opts = battles.attack_options(s, COMMUNIST, msg.target)   # the named target's options only
    taken = {a["target"] for a in s["attacks"]}
    used = {x for a in s["attacks"] for x in a["attackers"]}
    att = list(msg.attackers)
    if msg.target in taken or not battles.attack_allowed(opts, msg.target, att) or any(a in used for a in att):
        raise Rejection(Code.ILLEGAL_ATTACK, "NTND 3.1.4 / 19.1: announce attacks by face-up units on adjacent "
                        "Allied-held hexes, each unit and hex once; artillery attacks only alone (19.2.1)", rule="NTND 3.1.4 / 19.1")
    s["attacks"].append({"target": msg.target, "attackers": att})
    ctx.emit({"t": "announce", "target": msg.target, "attackers": att, "rule": "NTND 3.1.4"})


def react(s, seat, msg, ctx):
    path = list(msg.path)
    opts = reaction.allied_reaction_options(s) if seat == ALLIED else reaction.communist_reaction_options(s)
    if len(path) != 1 or (msg.piece, path[0]) not in opts:
        raise Rejection(Code.ILLEGAL_MOVE, "NTND 8.8: reaction moves: airmobile units to a hex under announced "
                        "attack (8.8.1.1); inverted units next to Allied units one hex (8.8.2)", rule="NTND 8.8")
    frm = movement.mover(s, msg.piece)["loc"]
    if seat == ALLIED:
        s["flags"].setdefault("air_entered", {})[msg.piece] = s["turn"]  # 12.3
    if seat == COMMUNIST:
        # 8.8.2.2: Allied units next to the hex this inverted stack leaves may occupy it after combat
        m = load_map()
        near = sorted(u["id"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
                      and not m.is_zone(u["loc"]) and m.adjacent(u["loc"], frm))
        s["flags"].setdefault("vacated", []).append({"hex": frm, "units": near})
    _set_loc(s, msg.piece, path[0])
    s["phase"].setdefault("reacted", []).append(msg.piece)
    ctx.emit({"t": "move", "piece": msg.piece, "from": frm, "path": path,
              "rule": "NTND 8.8.1" if seat == ALLIED else "NTND 8.8.2"})


def resume_path(s: dict, r: dict) -> list[str]:
    """20.5: the rest of an ambushed unit's move, cut before an enemy-held hex and after the first
    enemy ZOC hex (8.5.2: the ambushers are face up now)."""
    m = load_map()
    u = s["units"].get(r["unit"])
    if u is None or u["status"] != "map":
        return []
    enemy = zones.enemy_locs(s, ALLIED)
    zoc = zones.zoc_hexes(s, COMMUNIST)
    out, here = [], u["loc"]
    for h in r["rest"]:
        if h in enemy or not m.adjacent(here, h):
            break
        out.append(h)
        here = h
        if h in zoc:
            break
    return out


def occupy_options(s: dict) -> list[tuple[str, str]]:
    """8.8.2.2: (unit, hex) for Allied units that were next to a hex an inverted stack left in the
    Communist reaction phase, if the hex is free of enemy units now (mobile units, within 5.3/8.9/8.10)."""
    m = load_map()
    enemy = zones.enemy_locs(s, ALLIED)
    done = set(s["phase"].get("occupied", ()))
    out = []
    for v in s["flags"].get("vacated", []):
        h = v["hex"]
        if h in enemy:
            continue
        for uid in v["units"]:
            u = s["units"][uid]
            if uid in done or u["status"] != "map" or m.is_zone(u["loc"]) or not m.adjacent(u["loc"], h):
                continue
            mv = movement.mover(s, uid)
            if movement.movement_kind(mv) not in ("ground", "airmobile"):
                continue
            if national.may_enter(s, mv["types"], ALLIED, mv["corps"], h) is None:
                out.append((uid, h))
    return sorted(set(out))


def interdict_targets(s: dict, unit: str) -> list[str]:
    """8.6.3: coastal or major-river hexes next to the naval unit holding Communist units (face up or
    inverted: the search is what finds out), not yet searched by this unit this turn."""
    m = load_map()
    u = s["units"][unit]
    if u["status"] != "map" or m.is_zone(u["loc"]):
        return []
    tried = set(s["flags"].get("searched", {}).get(f"{s['turn']}:{unit}", ()))
    com = {x["loc"] for x in s["units"].values() if x["status"] == "map" and x["side"] == COMMUNIST}
    return sorted(h for h in m.hex_neighbours(u["loc"]) if h in com and h not in tried and m.hexes[h].is_land
                  and (m.hexes[h].coastal or m.hexes[h].major_river))


def _interdict(s, unit, target, ctx):
    """8.6.3: on 4-6 a supply unit not accompanied by Communist ground combat units is destroyed
    (dummies do not accompany); otherwise nothing happens. An inverted stack searched successfully
    is turned face up (its supply unit found)."""
    key = f"{s['turn']}:{unit}"
    s["flags"].setdefault("searched", {}).setdefault(key, []).append(target)
    r = ctx.roll("d6", f"NTND 8.6.3 {unit} searches {target} for supply units (4-6)")
    here = [x for x in s["units"].values() if x["status"] == "map" and x["side"] == COMMUNIST and x["loc"] == target]
    counters = movement.load_counters()
    guarded = any(counters.type(x["type"]).is_ground_combat for x in here)
    sups = sorted((x for x in here if x["type"] == "communist_supply"), key=lambda x: (x["inv"], x["id"]))
    if r.result < 4 or guarded or not sups:
        ctx.emit({"t": "search", "unit": unit, "target": target, "found": False, "rule": "NTND 8.6.3"})
        return
    sup = sups[0]
    if sup["inv"]:
        operations.flip_marker(s, sup["mk"], ctx, "NTND 8.6.3")
    ctx.emit({"t": "search", "unit": unit, "target": target, "found": True, "rule": "NTND 8.6.3"})
    eliminate(s, sup["id"], ctx, "NTND 8.6.3")
