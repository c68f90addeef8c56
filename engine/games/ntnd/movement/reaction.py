"""No Trumpets No Drums 8.8 (reaction movement) and the contact checks that flip hidden stacks
(8.8.2.1, 19.1.2)."""
from __future__ import annotations

from ..combat import contact as checks
from . import neutrality
from ..optional import special_units
from ..components.map import load_map
from .ground import Env, mover
from .national import may_enter
from .stacking import stacking_problem
from .hexes import utype
from .reach import _airmobile_reach
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters


def allied_reaction_options(s: dict) -> list[tuple[str, str]]:
    """8.8.1 / 8.8.1.1: airmobile units that did not move in the previous Allied movement phase and
    are not under announced attack may fly to a hex holding Allied units that the Communist player
    announced he will attack, within their airmobile range, without over-stacking."""
    targets = sorted({a["target"] for a in s["attacks"]})
    if not targets:
        return []
    counters = load_counters()
    allied_at = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED}
    moved = set(s["flags"].get("allied_moved", ())) | set(s["phase"].get("reacted", ()))
    env = Env(s)
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != ALLIED or uid in moved or u["loc"] in targets:
            continue
        if not counters.type(u["type"]).airmobile and not mover(s, uid).get("airmobile"):   # 11.1.4
            continue
        reach = _airmobile_reach(s, mover(s, uid), env)
        for t in targets:
            # 8.8.1.1: "Airmobile units may not over-stack" (8.10.1; 8.10.1.2 three in Saigon)
            if t in reach and t in allied_at and stacking_problem(s, ALLIED, t, [uid]) is None \
                    and special_units.reaction_ok(s, uid, t):          # 28.2.1 (special_units)
                out.append((uid, t))
    return out


def communist_reaction_options(s: dict) -> list[tuple[str, str]]:
    """8.8.2 / 3.2.4: inverted units adjacent to an Allied unit may move one hex in any direction,
    irrespective of ZOC and ZOI, within the other movement and stacking rules (each marker once)."""
    m = load_map()
    allied_at = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
                 and utype(u).category != "air"}
    done = set(s["phase"].get("reacted", ()))
    out = []
    for mid in markers_in_contact(s):
        mk = s["markers"][mid]
        if mid in done:
            continue
        mv = mover(s, mid)
        for n in m.hex_neighbours(mk["loc"]):
            if n in allied_at or not m.hexes[n].is_land:
                continue
            if may_enter(s, mv["types"], COMMUNIST, None, n) is None and stacking_problem(s, COMMUNIST, n, mv["uids"]) is None:
                out.append((mid, n))
    return out


def markers_in_contact(s: dict, ground_only: bool = False) -> list[str]:
    """Markers adjacent to Allied units (8.8.2.1), or to Allied ground combat units (19.1.2).
    Project reading of 19.1.2's exceptions: contact across a neutral border does not count (the
    Allied player may not attack across it in part 1); there are no all-sea hexsides on the map."""
    m = load_map()
    neutral = set(s["neutral"])
    allied_at = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
                 and not m.is_zone(u["loc"]) and utype(u).category != "air"
                 and (not ground_only or (utype(u).is_ground_combat and neutrality.may_flip(s, u)))}
    out = []
    for mid, mk in s["markers"].items():
        if m.is_zone(mk["loc"]):
            continue
        c1 = m.hex(mk["loc"]).country
        contacts = []
        # one Contact per adjacent hex holding such units (every unit there gives the same one, and
        # inverted_must_flip asks whether any contact counts): the marker's six neighbours, not every unit
        for n in m.hex_neighbours(mk["loc"]):
            if n in allied_at:
                c2 = m.hexes[n].country
                border = c1 != c2 and (c1 in neutral or c2 in neutral)
                contacts.append(checks.Contact(checks.NEUTRAL_BORDER if border else checks.OPEN))
        # one implementation of the exceptions: combat_checks.inverted_must_flip (19.1.2), also for 8.8.2.1
        if checks.inverted_must_flip(contacts):
            out.append(mid)
    return sorted(out, key=lambda x: int(x[1:]))
