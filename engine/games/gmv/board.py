"""The two boards: the map both seats see, and the NVA strategic board only the
NVA seat sees (3. Infiltration). Shared helpers for every phase module.

Hidden board, verifiably: each hidden unit's zone and composition is committed
to the NVA seat (``ctx.emit(..., to="nva")``) whenever the hidden board
changes. All hidden units are re-committed together, in id order, so the
number of sealed events per record is always the number of hidden units (a
public fact: the US saw them infiltrate) and says nothing about which unit
moved. A reveal opens the latest commitment of that unit (``ctx.reveal``).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from .versions import ALIKE_CHOICE, FRESH_IDS, KEPT_REVEALS
from .zones import SOUTH, ZONES


def uid_key(uid: str) -> int:
    return int(uid[1:])


def sorted_ids(ids) -> list[str]:
    return sorted(ids, key=uid_key)


def new_unit(s: dict, t: str, side: str, zone: str, hidden: bool = False) -> str:
    uid = f"u{s['next']}"
    s["next"] += 1
    s["units"][uid] = {"id": uid, "type": t, "side": side, "zone": zone, "hidden": hidden,
                       "acted": False, "revealed": None, "ref": None, "mission": None}
    return uid


def units(s: dict, zone: str | None = None, side: str | None = None, hidden: bool | None = None) -> list[dict]:
    """Units in id order, filtered. ``s["units"]`` is kept in id order: units are
    only ever added with the next id (new_unit) or deleted, and copies keep order."""
    return [u for u in s["units"].values() if (zone is None or u["zone"] == zone)
            and (side is None or u["side"] == side) and (hidden is None or u["hidden"] == hidden)]


def exposed(s: dict, zone: str, side: str) -> list[dict]:
    return units(s, zone, side, hidden=False)


def other(side: str) -> str:
    return "nva" if side == "us" else "us"


def get_units(s: dict, ids, seat: str, rule: str) -> list[dict]:
    """The named units, all of ``seat``'s side; the US may only name exposed units.

    Rejection messages never say whether an id is a hidden NVA unit."""
    out = []
    seen = set()
    for uid in ids:
        u = s["units"].get(uid)
        if u is None or u["side"] != seat or (seat == "us" and u["hidden"]) or uid in seen:
            raise Rejection(Code.BAD_UNIT, f"{rule}: {uid!r} is not one of your units (or is named twice)", rule=rule)
        seen.add(uid)
        out.append(u)
    if not out:
        raise Rejection(Code.NO_UNITS, f"{rule}: name at least one unit", rule=rule)
    return out


def _alike(u: dict) -> tuple:
    return tuple(v for k, v in sorted(u.items()) if k not in ("id", "ref"))


def alike_first(s: dict, ids: list[str]) -> list[str]:
    """gmv/4 (``versions.ALIKE_CHOICE``): each named hidden unit replaced by the first (in id
    order) of the hidden units alike to it (one side, type and zone, every field but the id and the
    commitment the same) not already taken; exposed units and unknown ids as named. Under gmv/2-3
    ``ids`` unchanged. Call it after the command is validated: an alike unit passes every check the
    named one passes."""
    if not ALIKE_CHOICE.on(s):
        return list(ids)
    out: list[str] = []
    for uid in ids:
        u = s["units"].get(uid)
        if u is None or not u["hidden"]:
            out.append(uid)
            continue
        key = _alike(u)
        out.append(next(x["id"] for x in units(s, u["zone"], u["side"], hidden=True)
                        if x["id"] not in out and _alike(x) == key))
    return out


def check_zone(z: str, rule: str) -> None:
    if z not in ZONES:
        raise Rejection(Code.BAD_ZONE, f"{rule}: no zone {z!r} on the map", rule=rule)


def commit_hidden(s: dict, ctx: Context) -> None:
    """Re-commit every hidden unit's zone and composition to the NVA seat."""
    for u in units(s, hidden=True):
        ref = ctx.emit({"t": "hidden", "id": u["id"], "type": u["type"], "zone": u["zone"]}, to="nva")
        u["ref"] = list(ref)


def public_order(s: dict, ids) -> list[str]:
    """The order in which the units ``ids`` of one action are revealed or lost. gmv/2-4: id order. From
    gmv/5 (``KEPT_REVEALS``) exposed units first in id order, then the hidden ones by type (what the
    reveal shows), so the order of the events does not tell which infiltrated id has which type."""
    if not KEPT_REVEALS.on(s):
        return sorted_ids(ids)
    return sorted(ids, key=lambda i: (s["units"][i]["hidden"], s["units"][i]["type"] if s["units"][i]["hidden"] else "",
                                      uid_key(i)))


def reveal(s: dict, u: dict, ctx: Context, why: str, mark: bool = True) -> None:
    """Put a hidden unit on the map where it stands. gmv/2-4, and at the end of the game (``mark``
    False): its latest commitment is opened. From gmv/5 (``KEPT_REVEALS``) during play it is revealed as
    a unit entering its own zone (``reveal_entering``): a fresh id, the commitment kept for the end."""
    if not u["hidden"]:
        return
    if mark and KEPT_REVEALS.on(s):
        reveal_entering(s, u, u["zone"], ctx, why)
        return
    ctx.reveal(tuple(u["ref"]))
    u["hidden"] = False
    u["ref"] = None
    if mark:
        u["revealed"] = s["turn"]
    ctx.emit({"t": "revealed", "id": u["id"], "type": u["type"], "zone": u["zone"], "why": why})


def reveal_entering(s: dict, u: dict, zone: str, ctx: Context, why: str) -> None:
    """A hidden unit leaves the hidden board into ``zone`` (an attack, or infantry entering a battle as
    support): it is revealed there, by the rules ("all attacking units ... are revealed", text 004
    Phase 3 NVA 3), but where it stood on the hidden board is not: its latest commitment
    is not opened now but kept to be opened at the end of the game (``open_kept``), when the verifier
    replays the game from every opening. The referee checked the move's legality during play."""
    if not u["hidden"]:
        u["zone"] = zone
        return
    s["kept"].append(list(u["ref"]))
    u["hidden"] = False
    u["ref"] = None
    u["revealed"] = s["turn"]
    u["zone"] = zone
    if KEPT_REVEALS.on(s) and s["side"] != u["side"]:
        u["acted"] = False  # the flag of its last turn would tell whether it made the last hidden move
    if FRESH_IDS.on(s):
        renumber(s, u)
    ctx.emit({"t": "revealed", "id": u["id"], "type": u["type"], "zone": zone, "why": why})


def renumber(s: dict, u: dict) -> None:
    """gmv/4 (``FRESH_IDS``): ``u`` takes the next free id, so an id given when it was public
    before it hid (``infiltrated``) does not follow it out of the hidden board. The next id is the
    largest: moved to the end, ``s["units"]`` stays in id order."""
    del s["units"][u["id"]]
    u["id"] = f"u{s['next']}"
    s["next"] += 1
    s["units"][u["id"]] = u


def open_kept(s: dict, ctx: Context) -> None:
    """The end of the game: open the commitments kept by ``reveal_entering``, in the order kept."""
    kept, s["kept"] = s["kept"], []
    for ref in kept:
        ctx.reveal(tuple(ref))
    if kept:
        ctx.emit({"t": "origins-opened", "n": len(kept)})


def kill(s: dict, u: dict, ctx: Context, why: str) -> None:
    if u["hidden"]:
        reveal(s, u, ctx, why)
    ctx.emit({"t": "destroyed", "id": u["id"], "type": u["type"], "zone": u["zone"], "why": why})
    del s["units"][u["id"]]


def move_unit(s: dict, u: dict, zone: str) -> None:
    u["zone"] = zone


def side_present(s: dict, zone: str, side: str) -> bool:
    return any(u["zone"] == zone and u["side"] == side for u in s["units"].values())


def us_present(s: dict, zone: str) -> bool:
    return side_present(s, zone, "us")


def r_points(s: dict, side: str) -> int:
    """R-ratings of the South Vietnamese zones where ``side`` has units (hidden ones count)."""
    return sum(ZONES[z]["r"] for z in SOUTH if side_present(s, z, side))


def pub_unit(u: dict) -> dict:
    return {"id": u["id"], "type": u["type"], "side": u["side"], "zone": u["zone"],
            "acted": u["acted"], "revealed": u["revealed"], "mission": u["mission"]}
