"""No Trumpets No Drums: the air war's decisions (engine/decisions.py), declared as data like the rest of
answers.py's table, where ``air_war`` is in force:

    fly         (Allied) Air Operations (3.2.5): missions (NtndFly), then done. The Allied Reaction
                (3.1.5, 8.8.1.2) takes ``fly`` too (answers.py's "reaction" kind): defensive ground support.
    aa_fire     (Communist, sealed) the inverted AA units that fire at a mission over their stacks (12.1).
    air_losses  (Communist, sealed) the unit a bombing hit destroys (11.1.1.2), answered by ``losses``.

The legal lists are representative (complete=False): per target, the first free air units of each
mission shape; any other mission the rules allow is accepted (air_missions.validate).
"""
from __future__ import annotations

from ....errors import Rejection
from . import pieces as air, missions as am
from . import antiaircraft as aa
from ..sequence.kinds import _allied, _communist, _done, cmd
from ..components.map import load_map
from ..components.state import ALLIED
from ..sequence.turns import A_REACTION


def _try(s: dict, kind: str, target: str, units: list[str]) -> bool:
    try:
        am.validate(s, kind, target, units)
        return True
    except Rejection:
        return False


def _shapes(s: dict, free: list[str], kind: str) -> list[list[str]]:
    by: dict[str, list[str]] = {}
    for x in free:
        key = air.role(air.type_of(s, x)) + "/" + ("US" if air.nationality(s, x) == "US" else "ARVN")
        by.setdefault(key, []).append(x)
    out = []
    if kind == "bomb":
        out += [v[:1] for k, v in sorted(by.items()) if k.startswith(("sac/", "soa/"))]
        out += [v[:2] for k, v in sorted(by.items()) if k.startswith("fighter/") and len(v) >= 2]
        sacs = by.get("sac/US", [])
        if len(sacs) >= 2:
            out.append(sacs[:2])                                                 # 11.8
    elif kind == "support":
        out += [v[:2] for k, v in sorted(by.items()) if k.startswith(("fighter/", "helicopter/"))]
        out += [v[:1] for k, v in sorted(by.items()) if k.startswith(("helicopter/", "soa/"))]
    else:
        out += [v[:1] for k, v in sorted(by.items())]
    return out


def fly_options(s: dict) -> list[tuple[str, str, list[str]]]:
    """(mission, target, air) missions the Allied seat may fly now (a representative set)."""
    if not air.active(s):
        return []
    free = air.available(s)
    if not free:
        return []
    ph = s["phase"]["id"]
    out = []
    if ph == A_REACTION:
        for h in am.attacker_hexes(s):
            out += [("support", h, u) for u in _shapes(s, free, "support") if _try(s, "support", h, u)]
        return out
    m = load_map()
    pieces = sorted({v["loc"] for v in s["markers"].values()} |
                    {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] != ALLIED
                     and not u["inv"] and u["type"] != air.INTERCEPTOR})
    allied = sorted({u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED})
    near = set()
    for h in allied:
        near.update(m.neighbours(h))
    for t in pieces:
        out += [("bomb", t, u) for u in _shapes(s, free, "bomb") if _try(s, "bomb", t, u)]
        if t in near:
            out += [("support", t, u) for u in _shapes(s, free, "support") if _try(s, "support", t, u)]
    helis = [x for x in free if air.role(air.type_of(s, x)) in ("helicopter", "soa")]
    for h in helis[:2]:                                                            # 11.1.4: a few units each
        got = 0
        for uid in sorted(s["units"]):
            if got >= 3:
                break
            u = s["units"][uid]
            if u["status"] == "map" and u["side"] == ALLIED and _try(s, "transport", uid, [h]):
                out.append(("transport", uid, [h]))
                got += 1
    from ..supply.lines import out_of_supply
    short = sorted({s["units"][x]["loc"] for x in out_of_supply(s, ALLIED) if s["units"][x]["loc"]})
    for t in short:
        out += [("supply", t, u) for u in _shapes(s, free, "supply")[:2] if _try(s, "supply", t, u)]
    return out


def fly_commands(s: dict) -> list:
    return [cmd("fly", mission=k, target=t, air=u) for k, t, u in fly_options(s)]


def _fly_legal(s, d) -> list:
    return fly_commands(s) + _done()


def _fly(s, seat, msg, ctx) -> None:
    am.fly(s, msg.mission, msg.target, list(msg.air), ctx)


def _fly_done(s, seat, msg, ctx) -> None:
    s["phase"]["done"] = True


def _aa_legal(s, d) -> list:
    p = air.st(s)["pending"]
    units = aa.most_that_fire(s, p) if p else []
    return [cmd("aa_fire", units=units)] + ([cmd("aa_fire", units=[])] if units else [])


def _aa_fire(s, seat, msg, ctx) -> None:
    am.answer_aa(s, list(msg.units), ctx)


def _loss_legal(s, d) -> list:
    p = air.st(s)["pending"]
    return [cmd("losses", units=[u]) for u in am.loss_candidates(s, p["hits"][0], p["target"])]


def _loss(s, seat, msg, ctx) -> None:
    am.answer_loss(s, list(msg.units), ctx)


DECISIONS_AIR = [
    _allied("fly", "NTND 3.2.5/11", {"fly": _fly, "done": _fly_done}, _fly_legal,
            "per target, the first free air units of each mission shape (bombing, ground support next to Allied "
            "units, supply to units out of supply, a few transports per helicopter); any mission the rules allow "
            "is accepted; then done",
            complete=False),
    _communist("aa_fire", "NTND 12.1", {"aa_fire": _aa_fire}, _aa_legal,
               "every inverted AA unit under the mission fires, or none (any subset is accepted)", complete=False),
    _communist("air_losses", "NTND 11.1.1.2", {"losses": _loss}, _loss_legal,
               "the unit the bombing hit destroys, one of the eligible ones"),
]
