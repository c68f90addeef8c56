"""No Trumpets No Drums rule 6: the Communist Operations phase (promotion, break
down, inverting and flipping), and the hidden-marker mechanics every rule that
turns units face up or face down uses (4.1.1, 6.2, 8.5.2, 8.8.2.1, 17.2, 19.1.2, 20.2).

An inverted stack is a *marker*: its identity (the units inside) is committed in
a private event to the Communist seat when it is created, and opened with
``ctx.reveal`` when it flips face up (or at the end of the game).
"""
from __future__ import annotations

from ....errors import InternalValueError, Rejection
from ....codes import Code
from .dummies import is_dummy, remove_revealed
from ..components.map import load_map
from ..movement.stacking import _stack_verdict
from ..components.state import COMMUNIST, new_marker_id
from ..components.pieces import counter_id, counter_name, counter_order, load_counters
from ..versions import ALIKE_CHOICE, MIX_NAMES


def _ut(s, uid):
    return load_counters().type(s["units"][uid]["type"])


def make_marker(s: dict, uids: list[str], loc: str, ctx, why: str, drawn=()) -> str:
    """Invert ``uids`` (all at ``loc``) into one new marker; commit its identity privately. ``drawn``:
    those of ``uids`` just taken from the counter mix, named here after the marker (``name_hidden``).
    Returns the marker's id."""
    mid = new_marker_id(s)
    if drawn and MIX_NAMES.on(s):
        renamed = name_hidden(s, list(drawn), mid)
        uids = [renamed.get(x, x) for x in uids]
    for uid in uids:
        u = s["units"][uid]
        u["inv"], u["mk"], u["loc"], u["status"] = True, mid, loc, "map"
    ident = [{"id": uid, "type": s["units"][uid]["type"], "name": s["units"][uid]["name"]} for uid in sorted(uids)]
    ref = ctx.emit({"t": "marker-identity", "marker": mid, "loc": loc, "units": ident}, to=COMMUNIST)
    s["markers"][mid] = {"loc": loc, "units": sorted(uids), "ref": list(ref)}
    ctx.emit({"t": "marker", "marker": mid, "loc": loc, "rule": why})
    return mid


def flip_marker(s: dict, mid: str, ctx, why: str) -> list[str]:
    """Turn a marker face up: open its identity; dummies are destroyed (17.2). Returns the
    uids of the units now face up (dummies excluded)."""
    mk = s["markers"].pop(mid)
    ctx.reveal(tuple(mk["ref"]))
    ctx.emit({"t": "flip", "marker": mid, "loc": mk["loc"], "rule": why})
    up = []
    for uid in mk["units"]:
        u = s["units"][uid]
        u["inv"], u["mk"] = False, None
        if is_dummy(u):
            remove_revealed(s, uid, ctx)  # 17.2: eliminated, back to the mix, no points
        else:
            up.append(uid)
    return up


def reveal_all(s: dict, ctx, why: str = "end of game") -> None:
    """Open every remaining marker (the end of the game)."""
    for mid in sorted(s["markers"], key=lambda m: int(m[1:])):
        ctx.reveal(tuple(s["markers"][mid]["ref"]))
    for ref in s["sealed"]:
        ctx.reveal(tuple(ref))
    s["sealed"] = []
    ctx.emit({"t": "all-markers-opened", "rule": why})


def remove_from_marker(s: dict, uid: str | list[str], ctx, join: list[str] = (), rule: str = "NTND 6.1") -> str | None:
    """Units leave their marker without a flip (promotion spends an inverted cadre or supply, 6.1; a
    supply spent, 18.6.2; a unit eliminated by its owner, 19.3.2), and ``join`` (new units at the
    marker's hex, face down) enter it: the marker's commitment is kept to be opened at the end, and
    the rest and the new units are re-inverted into one new marker, so no stale identity remains and
    the public sees one marker replaced by one marker however many units it held. If
    nothing is left (the marker held only the leaving units and none join), the marker is gone.
    Returns the new marker's id or None."""
    leaving = [uid] if isinstance(uid, str) else list(uid)
    mid = s["units"][leaving[0]]["mk"]
    if mid is None:
        return None
    mk = s["markers"][mid]
    strays = sorted(x for x in leaving if s["units"][x]["mk"] != mid)
    if strays:  # a rules bug, not a player's error: every caller names units of one marker
        raise InternalValueError(f"remove_from_marker: {', '.join(strays)} are not in marker {mid} with {leaving[0]}")
    rest = [x for x in mk["units"] if x not in leaving] + list(join)
    s["sealed"].append(mk["ref"])
    del s["markers"][mid]
    ctx.emit({"t": "marker-gone", "marker": mid, "loc": mk["loc"], "rule": rule})
    for x in leaving:
        s["units"][x]["inv"], s["units"][x]["mk"] = False, None
    if rest:
        return make_marker(s, sorted(rest), mk["loc"], ctx, rule, drawn=join)
    return None


# ---------------------------------------------------------------------------
# 6.1 promotion and break down
# ---------------------------------------------------------------------------

PROMOTE = {"regiment": {"VC": "vc_regiment", "PL": "pl_regiment", "KR": "kr_regiment"},
           "sapper": {"VC": "vc_sapper"}}
CADRES = {"vc_cadre": "VC", "pl_cadre": "PL", "kr_cadre": "KR"}


def first_in_mix(s: dict, type_id: str) -> str | None:
    """The first counter of a type in the counter mix (4.4 / 6.1.4: the mix is a limit), numbers
    compared as numbers (units.counter_order)."""
    # the least of the matching ids (one pass, no sort: asked per option of every Operations and
    # recruitment list): min, like the stable sort it replaces, keeps the first of equal keys
    return min((uid for uid, u in s["units"].items() if u["type"] == type_id and u["status"] == "mix"),
               key=counter_order, default=None)


# ---------------------------------------------------------------------------
# 4.4 naming a counter taken from the mix (ntnd/5: versions.MIX_NAMES)
# ---------------------------------------------------------------------------

def sort_units(s: dict) -> None:
    """ntnd/5: ``s["units"]`` in the order of its ids, in place. Renaming moves records in the dict;
    in id order its iteration is the same in two positions that differ only in which counters of the
    mix hidden draws took (no rule's output may follow a private order)."""
    units = s["units"]
    items = sorted(units.items())
    units.clear()
    units.update(items)


def _rename(s: dict, old: str, new: str, name: str) -> None:
    """Give the counter ``old`` of the mix the id ``new``; a counter of the mix holding ``new`` takes
    ``old`` and its name in exchange (counters of one type are alike: which one is which is no fact).
    The units stay in id order (``sort_units``)."""
    units = s["units"]
    x = units[old]
    if new == old:
        x["name"] = name
        return
    y = units.get(new)
    if y is not None and (y["status"] != "mix" or y["type"] != x["type"]):   # a rules bug, never a player's
        raise InternalValueError(f"naming {old} {new}: {new} is a {y['type']} with status {y['status']}")
    old_name = x["name"]
    x.update(id=new, name=name)
    if y is None:
        del units[old]
        units[new] = x
        sort_units(s)
        return
    y.update(id=old, name=old_name)
    units[old], units[new] = y, x


def name_public(s: dict, uid: str) -> str:
    """ntnd/5: the counter ``uid`` just taken from the mix comes face up: it takes the next public name
    of its type, ``<type>-<n>`` with n counting the type's face-up draws (a public fact), whatever
    counter of the mix it was. Returns its id (``uid`` itself under ntnd/4)."""
    if not MIX_NAMES.on(s):
        return uid
    t = s["units"][uid]["type"]
    seq = s["meta"]["public_names"]   # setup: the scenario's own counters of each type
    n = seq[t]
    seq[t] = n + 1
    new = counter_id(t, n + 1)
    _rename(s, uid, new, counter_name(t, n + 1))
    return new


def enter_drawn(s: dict, uid: str, loc: str, inv: bool, ctx, rule: str) -> None:
    """A counter just drawn from the mix is placed at ``loc`` (4.1 recruits, 26.3 uprising units):
    inverted, under a new marker named after it; face up, under the next public name of its type
    (ntnd/5, 4.4), with a public ``recruit`` event."""
    s["units"][uid].update(status="map", loc=loc, inv=False, mk=None)
    if inv:
        make_marker(s, [uid], loc, ctx, rule, drawn=[uid])
        return
    uid = name_public(s, uid)
    ctx.emit({"t": "recruit", "unit": uid, "type": s["units"][uid]["type"], "loc": loc, "rule": rule})


def name_hidden(s: dict, uids: list[str], mid: str) -> dict[str, str]:
    """ntnd/5: counters just taken from the mix go inverted into marker ``mid``: each is named by its
    type and the marker (id ``vc-cadre-m7``, a second of one type ``-2``; name the type's, "Viet Cong
    cadre"), so its name, opened when the marker flips, tells only what the flip shows and that it
    entered with ``mid`` (public: the marker events link a marker to the one it is re-formed into).
    Returns old -> new."""
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    c = load_counters()
    for uid in sorted(uids, key=counter_order):
        t = s["units"][uid]["type"]
        seen[t] = seen.get(t, 0) + 1
        tail = "" if seen[t] == 1 else f"-{seen[t]}"
        new = f"{t.replace('_', '-')}-{mid.lower()}{tail}"
        _rename(s, uid, new, c.type(t).name)
        out[uid] = new
    return out


def _alike(u: dict) -> tuple:
    """What two inverted counters must share to be alike: every field but the id and the name."""
    return tuple(v for k, v in sorted(u.items()) if k not in ("id", "name"))


def alike_first(s: dict, uids: list[str]) -> list[str]:
    """ntnd/6 (``versions.ALIKE_CHOICE``, 6.2): the counters a hidden action spends, each
    named one replaced by the first (in id order) of the counters alike to it in its marker (one type,
    every field but the id and name the same) not already taken, so that which of alike counters the
    owner named leaves no trace a later flip or loss could show. Face-up units are public and stay as
    named. Under ntnd/4-5 ``uids`` unchanged. Call it after the command is validated: an alike counter
    passes every check the named one passes."""
    if not ALIKE_CHOICE.on(s):
        return list(uids)
    out: list[str] = []
    for uid in uids:
        u = s["units"].get(uid)
        mk = s["markers"].get(u["mk"]) if u is not None and u["inv"] else None
        if mk is None:
            out.append(uid)
            continue
        key = _alike(u)
        first = min((x for x in mk["units"] if x not in out and _alike(s["units"][x]) == key), key=counter_order)
        out.append(first)
    return out


def _types_in_mix(s: dict) -> frozenset:
    """The unit types with a counter in the mix (``first_in_mix`` is not None for exactly these), from
    one pass: the options below ask it per cadre, supply and division."""
    return frozenset(u["type"] for u in s["units"].values() if u["status"] == "mix")


def promotion_options(s: dict) -> list[tuple[str, str, str]]:
    """(cadre uid, supply uid, "regiment"|"sapper") per 6.1.1 / 6.1.2: a cadre with or adjacent to a
    supply unit; one supply unit promotes one unit."""
    m = load_map()
    units = [u for u in s["units"].values() if u["status"] == "map" and u["side"] == COMMUNIST]
    supplies = [u for u in units if u["type"] == "communist_supply"]
    mix = _types_in_mix(s)
    out = []
    for c in units:
        if c["type"] not in CADRES:
            continue
        nat = CADRES[c["type"]]
        for sup in supplies:
            if sup["loc"] == c["loc"] or m.adjacent(sup["loc"], c["loc"]):
                for to, table in sorted(PROMOTE.items()):
                    if nat in table and table[nat] in mix:   # first_in_mix(s, table[nat]) is not None
                        out.append((c["id"], sup["id"], to))
    return sorted(out)


def promote(s: dict, cadre: str, supply: str, to: str, ctx) -> None:
    if (cadre, supply, to) not in promotion_options(s):
        raise Rejection(Code.ILLEGAL_PROMOTION, "NTND 6.1.1/6.1.2: a cadre with or adjacent to a supply unit, "
               "and a counter in the mix (6.1.4)", rule="NTND 6.1.1/6.1.2")
    cadre, supply = alike_first(s, [cadre, supply])  # ntnd/6: alike counters are one (6.2)
    c = s["units"][cadre]
    nat = CADRES[c["type"]]
    new = first_in_mix(s, PROMOTE[to][nat])
    loc, was_inv = c["loc"], c["inv"]
    sup = s["units"][supply]
    n = s["units"][new]
    n.update(status="map", loc=loc, inv=False, mk=None)
    if not was_inv:
        new = name_public(s, new)                       # ntnd/5 (4.4): face up, the type's next public name
    if was_inv:
        # 6.1.1: "replace the cadre with a regiment": the regiment takes the cadre's place under the
        # same (re-committed) marker, with the supply too if it was there (one marker out,
        # one marker in, whatever else the marker held)
        here = [cadre] + ([supply] if sup["inv"] and sup["mk"] == c["mk"] else [])
        remove_from_marker(s, here, ctx, join=[new])
    if sup["inv"]:
        remove_from_marker(s, supply, ctx)
    for uid in (cadre, supply):
        s["units"][uid].update(status="mix", loc=None, inv=False, mk=None)
    if not was_inv:
        ctx.emit({"t": "promoted", "unit": new, "type": n["type"], "loc": loc, "rule": "NTND 6.1"})


def breakdown_options(s: dict) -> list[str]:
    """6.1.3: face-up or inverted NVA divisions in a country with guerrillas, if a cadre and a
    regiment of that nationality are in the mix."""
    m = load_map()
    out = []
    mix = None
    for u in s["units"].values():
        if u["status"] != "map" or u["type"] != "nva_division" or m.is_zone(u["loc"]):
            continue
        nat = {"SV": "VC", "LA": "PL", "CA": "KR"}.get(m.hex(u["loc"]).country)
        mix = _types_in_mix(s) if mix is None else mix
        if nat and f"{nat.lower()}_cadre" in mix and f"{nat.lower()}_regiment" in mix:   # first_in_mix
            here = [x["type"] for x in s["units"].values() if x["status"] == "map" and x["side"] == COMMUNIST
                    and x["loc"] == u["loc"] and x["id"] != u["id"]]
            if _stack_verdict(COMMUNIST, False, tuple(sorted(here + [f"{nat.lower()}_cadre",
                                                                     f"{nat.lower()}_regiment"]))) is None:
                out.append(u["id"])  # 8.10: the two new units must fit
    return sorted(out)


def break_down(s: dict, uid: str, ctx) -> None:
    if uid not in breakdown_options(s):
        raise Rejection(Code.ILLEGAL_BREAKDOWN, "NTND 6.1.3: an NVA division breaks down into a cadre and a regiment "
               "of the country it stands in (VC, PL, KR), if both are in the mix", rule="NTND 6.1.3")
    m = load_map()
    (uid,) = alike_first(s, [uid])                    # ntnd/6: alike counters are one (6.2)
    u = s["units"][uid]
    loc, was_inv = u["loc"], u["inv"]
    nat = {"SV": "VC", "LA": "PL", "CA": "KR"}[m.hex(loc).country].lower()
    new = [first_in_mix(s, f"{nat}_cadre"), first_in_mix(s, f"{nat}_regiment")]
    for x in new:
        s["units"][x].update(status="map", loc=loc, inv=False, mk=None)
    if not was_inv:
        new = [name_public(s, x) for x in new]          # ntnd/5 (4.4): face up, the types' next public names
    if was_inv:
        # the cadre and regiment replace the division under its (re-committed) marker
        remove_from_marker(s, uid, ctx, join=new, rule="NTND 6.1.3")
    u.update(status="mix", loc=None, inv=False, mk=None)
    if not was_inv:
        ctx.emit({"t": "broken-down", "unit": uid, "into": new, "loc": loc, "rule": "NTND 6.1.3"})


# ---------------------------------------------------------------------------
# 6.2 inverting and flipping
# ---------------------------------------------------------------------------

def invert_options(s: dict) -> list[tuple[str, tuple[str, ...]]]:
    """(location, uids): all face-up invertible Communist units of a location (6.2: tanks never)."""
    by_loc: dict[str, list[str]] = {}
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] == "map" and u["side"] == COMMUNIST and not u["inv"] and _ut(s, uid).can_invert:
            by_loc.setdefault(u["loc"], []).append(uid)
    return [(loc, tuple(v)) for loc, v in sorted(by_loc.items())]


def invert(s: dict, loc: str, uids: list[str], ctx) -> str:
    for uid in uids:
        u = s["units"].get(uid)
        if u is None or u["status"] != "map" or u["side"] != COMMUNIST or u["inv"] or u["loc"] != loc:
            raise Rejection(Code.ILLEGAL_INVERT, f"NTND 6.2: {uid} is not a face-up Communist unit at {loc}", rule="NTND 6.2")
        if not _ut(s, uid).can_invert:
            raise Rejection(Code.ILLEGAL_INVERT, "NTND 6.2: Communist armor (tank regiments) may never be inverted", rule="NTND 6.2")
    if not uids:
        raise Rejection(Code.ILLEGAL_INVERT, "NTND 6.2: name the units to invert", rule="NTND 6.2")
    if len(set(uids)) != len(uids):
        raise Rejection(Code.ILLEGAL_INVERT, "NTND 6.2: name each unit to invert once", rule="NTND 6.2")
    return make_marker(s, sorted(uids), loc, ctx, "NTND 6.2")
