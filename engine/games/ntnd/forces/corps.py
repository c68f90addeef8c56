"""No Trumpets No Drums rule 5: corps command.

5.1 headquarters (map.json corps_hq), 5.2/5.3 attachment and corps boundaries
(the boundary itself is enforced by national.may_enter), 5.4 entry at the
headquarters, 5.5 independent units, 5.6 units free of corps, 5.7 reassignment
of a divisional group, 5.8 firebase relocation.
"""
from __future__ import annotations

from ....errors import Rejection
from ..components.map import load_map
from ..movement.ground import Env
from ..movement.stacking import stacking_problem
from ..movement.zones import enemy_locs
from ..components.state import ALLIED
from ..components.pieces import load_counters
from ....codes import Code

SV_CORPS = ("I", "II", "III", "IV")


def is_independent(u: dict) -> bool:
    """5.5 / 5.6: airmobile units, ARVN regiments, independent brigades, support units and the
    fleet are not attached to a corps; the scenario marks them with corps null."""
    return u.get("corps") is None


def free_corps_choice(s: dict, u: dict) -> bool:
    """5.3.2: a unit of a South Vietnamese corps returning or entering play "must return to their parent
    corps if any other units of its type (i.e. other U.S. Marine brigades, other brigades of the same
    division) are present in the parent corps zone. Otherwise (as in the case of a South Vietnamese
    division or the first brigade of the ROK units to arrive) it may be assigned to any corps in South
    Vietnam." Units of its type: the other units of its divisional group (5.2.2, ``groups``)."""
    if u.get("corps") not in SV_CORPS:
        return False
    m = load_map()
    for x in s["units"].values():
        if x["id"] != u["id"] and x["side"] == ALLIED and x["status"] == "map" and u.get("group") \
                and x.get("group") == u["group"] and m.corps_of(x["loc"]) == u["corps"]:
            return False
    return True


def entry_assignments(s: dict, u: dict) -> list[tuple[str, str | None]]:
    """(location, corps it enters for) pairs. 5.4: a unit of a corps enters at its corps HQ; if the HQ
    is enemy occupied, at another friendly or vacant city of the corps zone; if none, at Saigon. 5.3.2:
    with no other unit of its group in its parent corps zone, at those of any South Vietnamese corps.
    Independent units (5.5) enter at any corps HQ of South Vietnam (corps None). 5.6: the fleet and
    river patrol units "may enter at any corps city or at any sea hex" (the four HQ cities, and every
    all-sea hex). Stacking (8.10.2) may be violated during the reinforcement phase."""
    m = load_map()
    enemy = enemy_locs(s, ALLIED)
    if load_counters().type(u["type"]).category == "naval":
        hqs = [m.corps_hq_of(c).location for c in SV_CORPS]
        return sorted({(h, None) for h in hqs + list(m.sea_hexes()) if h not in enemy})
    corps = u.get("corps")
    if corps in ("CA", "LA"):
        corps_list = [corps]
    elif corps in SV_CORPS and not free_corps_choice(s, u):
        corps_list = [corps]
    else:
        corps_list = list(SV_CORPS)
    out = set()
    for c in corps_list:
        hq = m.corps_hq_of(c).location
        if hq not in enemy:
            cands = [hq]
        else:
            cands = [t.hex for t in m.towns() if t.is_city and m.hexes[t.hex].corps == c and t.hex not in enemy]
            if not cands and "1424" not in enemy:
                cands = [m.town("Saigon").hex]
        out.update((h, c if corps is not None else None) for h in cands)
    return sorted(out, key=lambda x: (x[0], x[1] or ""))


def entry_locations(s: dict, u: dict) -> list[str]:
    """The locations of ``entry_assignments``."""
    return sorted({loc for loc, _ in entry_assignments(s, u)})


def assign_on_entry(s: dict, u: dict, loc: str, ctx) -> None:
    """5.3.2: a unit free to choose its corps is attached to the corps it enters for (its parent corps
    if the location serves it); the rest of its divisional group goes with it (5.2.2: all brigades of
    a division in the same corps, as in a 5.7 reassignment)."""
    old = u.get("corps")
    if old not in SV_CORPS:
        return
    cs = [c for h, c in entry_assignments(s, u) if h == loc]
    if not cs or old in cs:
        return
    new = cs[0]
    members = [x for x in sorted(s["units"]) if s["units"][x]["side"] == ALLIED and u.get("group")
               and s["units"][x].get("group") == u["group"]] or [u["id"]]
    for x in members:
        s["units"][x]["corps"] = new
    ctx.emit({"t": "reassign", "group": u.get("group") or u["id"], "corps": new, "units": members,
              "rule": "NTND 5.3.2"})


# ---------------------------------------------------------------------------
# 5.7 corps reassignment
# ---------------------------------------------------------------------------

def groups(s: dict) -> dict[str, list[str]]:
    """Divisional groups (5.2.2): brigades of one division, all US Marines, all ROK, all Thai."""
    out: dict[str, list[str]] = {}
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["side"] == ALLIED and u.get("group") and u["corps"] in SV_CORPS:
            out.setdefault(u["group"], []).append(uid)
    return out


def reassign_options(s: dict) -> list[tuple[str, str]]:
    if s["phase"].get("reassigned"):
        return []
    out = []
    for g, uids in sorted(groups(s).items()):
        cur = s["units"][uids[0]]["corps"]
        if not _clear_of_enemy(s, uids):
            continue
        for c in SV_CORPS:
            if c != cur:
                out.append((g, c))
    return out


def _clear_of_enemy(s, uids):
    m = load_map()
    enemy = enemy_locs(s, ALLIED)
    for uid in uids:
        u = s["units"][uid]
        if u["status"] == "map" and not m.is_zone(u["loc"]) and any(n in enemy for n in m.neighbours(u["loc"])):
            return False
    return True


def reassign(s: dict, group: str, corps: str, ctx) -> None:
    """5.7: the whole group changes corps; its units must begin and end the turn's moves away from
    enemy units. Project reading: the moves of this turn may then cross into the new corps (the
    group is attached to the new corps at once); one reassignment per reinforcement phase."""
    if (group, corps) not in reassign_options(s):
        raise Rejection(Code.ILLEGAL_REASSIGN, "NTND 5.7: a divisional group not adjacent to enemy units may change "
                        "to another corps of South Vietnam (one group per reinforcement phase)", rule="NTND 5.7")
    g = groups(s)[group]
    for uid in g:
        s["units"][uid]["corps"] = corps
    s["phase"]["reassigned"] = group
    s["flags"]["reassigned"] = {"group": group, "turn": s["turn"], "units": g}
    ctx.emit({"t": "reassign", "group": group, "corps": corps, "units": g, "rule": "NTND 5.7"})


# ---------------------------------------------------------------------------
# 5.8 / 13.1 firebase relocation
# ---------------------------------------------------------------------------

def _fb_class(u: dict) -> str:
    return "US" if u["type"] == "us_firebase" else "OTHER"


def relocate_options(s: dict, only: str | None = None) -> list[tuple[str, str]]:
    """One U.S. and one ARVN or SEATO firebase a turn, to a hex with a non-militia ground combat unit
    of its nationality (SEATO firebases: any SEATO unit). ``only``: the options of that firebase alone
    (the referee's check of one relocation)."""
    counters = load_counters()
    done = s["phase"].get("relocated", [])
    out = []
    env = None   # the Allied units per location, from one pass over the units (movement.Env)
    for fb in sorted(s["units"]) if only is None else [only] if only in s["units"] else []:
        f = s["units"][fb]
        if f["status"] != "map" or counters.type(f["type"]).stacking_class != "firebase" or _fb_class(f) in done:
            continue
        nats = {"us_firebase": ("US",), "arvn_firebase": ("ARVN",),
                "seato_firebase": ("ROK", "ANZAC", "THAI", "SEATO")}[f["type"]]
        env = env or Env(s)
        zones = load_map().zones
        dests = []
        for loc, here in env.types_at(ALLIED).items():
            if loc == f["loc"] or loc in zones:
                continue
            for _, typ in here:
                t = counters.type(typ)
                if t.is_ground_combat and t.stacking_class == "ground_combat" and t.nationality in nats:
                    dests.append(loc)
                    break
        for d in sorted(dests):
            if stacking_problem(s, ALLIED, d, [fb], env) is None:
                out.append((fb, d))
    return out


def relocate(s: dict, fb: str, to: str, ctx) -> None:
    if (fb, to) not in relocate_options(s, fb):
        raise Rejection(Code.ILLEGAL_RELOCATION, "NTND 5.8: one U.S. and one ARVN/SEATO firebase a turn, to a hex "
                        "with a non-militia ground combat unit of its nationality", rule="NTND 5.8")
    f = s["units"][fb]
    frm = f["loc"]
    f["loc"] = to
    s["phase"].setdefault("relocated", []).append(_fb_class(f))
    ctx.emit({"t": "relocate", "unit": fb, "from": frm, "to": to, "rule": "NTND 5.8"})
