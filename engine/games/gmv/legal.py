"""The legal-answer enumerators of GMV's decision kinds (decisions.py), one per kind: each takes
(state, pending Decision) and returns Commands. Used by bots and clients (ListLegalCommands).

The spaces of some decisions are large (which units move together, which
casualties); for those this returns a representative legal subset, and
``apply`` accepts every legal command (docs/rules/gmv.md, "legal_commands"):
- moves, infiltrations and hidden moves: single units, plus each zone's whole
  eligible group; tanks also their 2-step paths;
- airlifts: one helicopter with no cargo or a full load from its own zone, to
  every reachable drop zone, landing on the nearest reachable airbase;
- attacks: all eligible units, and the exposed-only / hidden-only groups;
- casualties and reveals: cheapest-first, dearest-first, first and last by id;
- support: none, each single unit, all candidates;
- hot LZ: hold fire, each single hidden infantry, all of them.
Every list answers the pending decision and is never empty. Buying, bombing, placement and the
withdrawal choice are listed completely.
"""
from __future__ import annotations

from afteraction.v1 import command_pb2, gmv_pb2

from . import board, combat, economy
from .units import BUY, HIDEABLE, INFANTRY, NATIVE, cost, heli_capacity, moves
from .zones import LAND, ORDER, ZONES, dist, land_adj, order, us_airlift_ok, us_entry
from .noncombat import air_targets, ground_targets


#: GmvCommand action -> its message class
_MSG = {f.name: getattr(gmv_pb2, f.message_type.name) for f in gmv_pb2.GmvCommand.DESCRIPTOR.oneofs_by_name["action"].fields}


def _c(action: str, **kw) -> command_pb2.Command:
    """A Command carrying one GmvCommand action with these fields (built by the constructors)."""
    return command_pb2.Command(gmv=gmv_pb2.GmvCommand(**{action: _MSG[action](**kw)}))


def _subsets(ids: list[str], n: int, s: dict) -> list[list[str]]:
    keyed = [sorted(ids, key=lambda i: (cost(s["units"][i]["type"]), board.uid_key(i))),
             sorted(ids, key=lambda i: (-cost(s["units"][i]["type"]), board.uid_key(i))),
             list(ids), list(reversed(ids))]
    out: list[list[str]] = []
    for k in keyed:
        c = board.sorted_ids(k[:n])
        if c not in out:
            out.append(c)
    return out


# -- the interruptions ------------------------------------------------------------------------
def hot_lz(s: dict, d) -> list:
    """Hold fire, each single hidden infantry, all of them."""
    z = s["stack"][0]["zone"]
    hid = [u["id"] for u in board.units(s, z, "nva", hidden=True) if u["type"] in INFANTRY]
    opts = [[]] + [[h] for h in hid] + ([hid] if len(hid) > 1 else [])
    return [_c("hot_lz", unit_ids=o) for o in opts]


def reveal(s: dict, d) -> list:
    top = s["stack"][0]
    hid = [u["id"] for u in board.units(s, top["zone"], "nva", hidden=True)]
    return [_c("reveal", unit_ids=o) for o in _subsets(hid, min(top["n"], len(hid)), s)]


def bomb_casualties(s: dict, d) -> list:
    top = s["stack"][0]
    p = [u["id"] for u in board.units(s, top["zone"], "nva")]
    return [_c("casualties", unit_ids=o) for o in _subsets(p, min(top["hits"], len(p)), s)]


def support(s: dict, d) -> list:
    seat = d.seat
    cand = combat.support_candidates(s, seat)
    opts = [[]] + [[c] for c in cand] + ([cand] if len(cand) > 1 else [])
    for h in cand:  # helicopters carrying infantry in ("carried in by helicopter")
        u = s["units"][h]
        if u["type"] == "heli":
            inf = [x["id"] for x in board.units(s, u["zone"], "us") if x["type"] in INFANTRY
                   and x["id"] not in cand and not (s["side"] == "us" and x["acted"])
                   and x["id"] not in s["battle"]["in"]["us"]]
            if inf:
                opts.append(board.sorted_ids([h] + inf[:2]))
    return [_c("support", unit_ids=o) for o in opts]


def casualties(s: dict, d) -> list:
    return [_c("casualties", unit_ids=o) for o in combat.casualty_options(s, d.seat)]


def withdraw(s: dict, d) -> list:
    out = [_c("battle_choice", withdraw=False)]
    for t in combat.withdraw_targets(s, d.seat):
        out.append(_c("battle_choice", withdraw=True, to_zone=t))
    return out


# -- the phases ----------------------------------------------------------------------------------
def buy(s: dict, d) -> list:
    seat = d.seat
    m = s["money"][seat]
    return [_c("buy", unit_type=t) for t in BUY[seat] if m["rec" if t == NATIVE[seat] else "ipc"] >= cost(t)] + [_c("end_phase")]


def bombing(s: dict, d) -> list:
    return _bombing(s) + [_c("end_phase")]


def us_actions(s: dict, d) -> list:
    return _us_actions(s) + [_c("end_phase")]


def nva_actions(s: dict, d) -> list:
    return _nva_actions(s) + [_c("end_phase")]


def us_moves(s: dict, d) -> list:
    return _moves4(s, "us") + [_c("end_phase")]


def nva_moves(s: dict, d) -> list:
    return _moves4(s, "nva")  # phase 4 ends with the hidden-move order


def placement(s: dict, d) -> list:
    seat = d.seat
    out = [_c("place", unit_type=t, zone=z) for t in economy.placeable(s, seat) for z in economy.place_zones(s, seat, t)]
    return out or [_c("end_phase")]  # GMV Phase 5: what can be placed must be (MUST_PLACE)


def _fresh(s, seat, zone=None, hidden=False):
    return [u for u in board.units(s, zone, seat, hidden=hidden) if not u["acted"]]


def _bombing(s):
    out = []
    for b in _fresh(s, "us"):
        if b["type"] != "bomber" or b["mission"] is not None:
            continue
        for z in LAND:
            out.append(_c("bomb", bomber_id=b["id"], zone=z))
            if s["zones"][z]["f"] > 0:
                out.append(_c("defoliate", bomber_id=b["id"], zone=z))
    return out


def _us_actions(s):
    out = []
    cur = s["cursor"]
    fresh = _fresh(s, "us")
    by_zone: dict[str, list[dict]] = {}
    for u in fresh:
        by_zone.setdefault(u["zone"], []).append(u)
    airbases = [z for z in ORDER if s["zones"][z]["airbase"]]
    for z in sorted(by_zone, key=order):
        us = by_zone[z]
        inf = [u["id"] for u in us if u["type"] in ("inf", "sv")]
        if inf and order(z) >= cur:
            out.append(_c("patrol", unit_ids=inf))
            if len(inf) > 1:
                out.append(_c("patrol", unit_ids=inf[:1]))
            zs = s["zones"][z]
            if ZONES[z]["kind"] != "sea":
                if not zs["lz"]:
                    out.append(_c("build", unit_id=inf[0], improvement=1))
                if not zs["positions"]:
                    out.append(_c("build", unit_id=inf[0], improvement=2))
                if not zs["airbase"] and (zs["started"] is None or zs["started"] < s["turn"]):
                    out.append(_c("build", unit_id=inf[0], improvement=3))
        for u in us:
            if u["type"] == "heli":
                out += _airlifts(s, u, us, airbases, cur)
            elif u["type"] not in ("fighter", "bomber"):
                for a in land_adj(z):
                    if us_entry(s, u["type"], a) in ("yes", "combat") and order(a) >= cur:
                        out.append(_c("move", unit_ids=[u["id"]], path=[a]))
    return out


def _airlifts(s, h, here, airbases, cur):
    out = []
    loads = [[]]
    inf = [u for u in here if u["type"] in INFANTRY and u["zone"] == h["zone"]]
    art = [u for u in here if u["type"] == "art"]
    if inf:
        loads.append([u["id"] for u in inf])
    if art:
        loads.append([art[0]["id"]])
    a = h["zone"]
    for d in LAND:
        if order(d) < cur or dist(a, d) > moves("heli"):
            continue
        bases = [b for b in airbases if dist(a, d) + dist(d, b) <= moves("heli")]
        if not bases:
            continue
        base = min(bases, key=lambda b: (dist(d, b), order(b)))
        for ld in loads:
            if ld:
                t = s["units"][ld[0]]["type"]
                if not us_airlift_ok(s, t, d):
                    continue
                ld = ld[:heli_capacity(t, s["zones"][d]["lz"])]
            c = command_pb2.Command()
            al = c.gmv.airlift
            x = al.loads.add()
            x.helicopter_id = h["id"]
            x.cargo_ids.extend(ld)
            al.drop_zone = d
            al.base_zone = base
            al.helicopters_stay = True
            out.append(c)
    return out


def _nva_actions(s):
    out = []
    fresh = _fresh(s, "nva")
    hidden = _fresh(s, "nva", hidden=True)
    for u in fresh:
        if u["type"] in INFANTRY and ZONES[u["zone"]]["r"] > 0:
            out.append(_c("recruit", unit_id=u["id"]))
    by_zone: dict[str, list[dict]] = {}
    for u in fresh:
        if u["type"] in HIDEABLE and (u["revealed"] is None or u["revealed"] < s["turn"]):
            by_zone.setdefault(u["zone"], []).append(u)
    for z in sorted(by_zone, key=order):
        ids = [u["id"] for u in by_zone[z]]
        for t in [z] + land_adj(z):
            out.append(_c("infiltrate", unit_ids=ids, to_zone=t))
        if len(ids) > 1:
            out.append(_c("infiltrate", unit_ids=ids[:1], to_zone=z))
    for z in LAND:
        if not board.exposed(s, z, "us"):
            continue
        near = [u for u in fresh + hidden if u["type"] != "aa" and (u["zone"] == z or u["zone"] in land_adj(z))]
        groups = [near, [u for u in near if not u["hidden"]], [u for u in near if u["hidden"]]]
        seen = []
        for g in groups:
            ids = board.sorted_ids(u["id"] for u in g)
            if ids and ids not in seen:
                seen.append(ids)
                out.append(_c("attack", unit_ids=ids, zone=z))
    for u in fresh:
        for a in land_adj(u["zone"]):
            if not board.exposed(s, a, "us"):
                out.append(_c("move", unit_ids=[u["id"]], path=[a]))
    return out


def _hidden_moves(hidden):
    """Phase 4's sealed order (nva.hidden_move): no move, each single unit, each zone's whole group."""
    out = [_c("hidden_move")]
    by_zone: dict[str, list[str]] = {}
    for u in hidden:
        by_zone.setdefault(u["zone"], []).append(u["id"])
    for z in sorted(by_zone, key=order):
        if len(by_zone[z]) > 1:
            out += [_c("hidden_move", unit_ids=by_zone[z], to_zone=a) for a in land_adj(z)]
    for u in hidden:
        for a in land_adj(u["zone"]):
            out.append(_c("hidden_move", unit_ids=[u["id"]], to_zone=a))
    return out


def _moves4(s, seat):
    out = []
    for u in _fresh(s, seat):
        if u["type"] in ("heli", "fighter", "bomber"):
            if u["mission"] is None:
                for z in air_targets(s, u):
                    out.append(_c("move", unit_ids=[u["id"]], path=[z]))
            continue
        for path in ground_targets(s, seat, u):
            out.append(_c("move", unit_ids=[u["id"]], path=path))
    if seat == "nva":
        out += _hidden_moves(_fresh(s, "nva", hidden=True))
    return out


