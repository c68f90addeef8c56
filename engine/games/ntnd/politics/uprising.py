"""No Trumpets No Drums rule 26: the National Uprising, where ``uprising`` is in force.

26.1: once a campaign game, not before the January/February 1967 turn (the turn record's; data
scenario_campaign.json national_uprising.earliest_turn agrees, a test checks it): the Communist player is asked at the
start of each Communist Recruitment phase from then on (decision ``uprising``, sealed; asked every
eligible turn so that the question says nothing) and declares it with ``declare_uprising``.
The declaration is public (an "uprising" event): its effects are.
26.6: it lasts four turns, the declaration's turn being the first; nothing calls it off.
26.2: no basic cadres (4.1.1) in those four turns; aid and NVA recruits (4.1.3) still come.
26.3: turns 1-2, three cadres and one regiment in each South Vietnamese corps zone; turns 3-4, one
regiment or two cadres in each (Viet Cong: placed as 4.1.1 places cadres, in that corps; reading).
26.4: Hearts and Minds and 4.5.1 town/city recruits still come (the extra quotas are untouched).
26.5: six turns of at most one Viet Cong basic cadre, then at most two for the rest of the game.
26.7: the Allied Reinforcement phase two turns after the declaration: one die of South Vietnamese
replacement points. 26.8: under Full Vietnamization or in an Allied Controlled corps each uprising
unit rolls a die when placed: 5-6 and it goes back to the mix, no points.
4.1.7: from the declaration on, the ten-division cap is lifted.

``s["uprising"] = {"turn": n}`` once declared (absent before: nothing changes in Tet).
"""
from __future__ import annotations

from ....decisions import DecisionKind
from ....errors import Rejection
from ..components.features import in_force
from ..components.map import load_map
from ..forces.operations import enter_drawn, first_in_mix
from ..components.state import COMMUNIST
from ....codes import Code

SV_CORPS = ("I", "II", "III", "IV")
TURNS = 4          # 26.2, 26.6
POOR_TURNS = 6     # 26.5


def declared(s: dict) -> bool:
    return bool(s.get("uprising"))


def active(s: dict) -> bool:
    """26.2, 26.6: one of the four turns of the uprising."""
    u = s.get("uprising")
    return bool(u) and u["turn"] <= s["turn"] < u["turn"] + TURNS


def turns_in(s: dict) -> int:
    """1-4 during the uprising (the declaration's turn is 1), else 0."""
    return s["turn"] - s["uprising"]["turn"] + 1 if active(s) else 0


def can_declare(s: dict) -> bool:
    """26.1: once, from the data's earliest turn (January/February 1967)."""
    return in_force(s, "uprising") and not declared(s) and s["turn"] >= earliest_turn(s)


def earliest_turn(s: dict) -> int:
    """26.1: the January/February 1967 turn of the scenario's turn record (campaign: 12, as
    scenario_campaign.json national_uprising.earliest_turn says), or the first turn of a scenario that
    starts after it; a scenario that ends before it: never."""
    for t in s["scenario"]["turns"]:   # a scenario starting later (scenario_data.py): its first turn
        if t["year"] > 1967 or (t["months"], t["year"]) == ("January/February", 1967):
            return t["number"]
    return 10 ** 6


def vc_basic_cap(s: dict) -> int:
    """26.5: how many of the basic cadres may be Viet Cong (3: no limit)."""
    u = s.get("uprising")
    if not u or s["turn"] < u["turn"] + TURNS:
        return 3
    return 1 if s["turn"] < u["turn"] + TURNS + POOR_TURNS else 2


def start_recruitment(s: dict, ctx) -> None:
    """At the start of the Communist Recruitment phase (after 4.1's quotas are set)."""
    if not in_force(s, "uprising"):
        return
    if active(s):
        _quotas(s, ctx)
    elif can_declare(s):
        s["phase"]["uprising_q"] = True


def _quotas(s: dict, ctx) -> None:
    n = turns_in(s)
    ph = s["phase"]
    ph["cadres"] = 0                                            # 26.2
    q = {"cadres": 3, "regiments": 1} if n <= 2 else {"cadres": 2, "regiments": 1, "either": True}
    ph["uprising"] = {c: dict(q) for c in SV_CORPS}             # 26.3
    ctx.emit({"t": "uprising", "rule": "NTND 26.2, 26.3", "turn_of_uprising": n, "per_corps": q})


def declare(s: dict, seat, msg, ctx) -> None:
    if not s["phase"].get("uprising_q") or not can_declare(s):
        raise Rejection(Code.ILLEGAL_DECLARATION, "NTND 26.1: once a game, from January/February 1967", rule="NTND 26.1")
    del s["phase"]["uprising_q"]
    s["uprising"] = {"turn": s["turn"]}
    ctx.emit({"t": "uprising", "rule": "NTND 26.1", "declared": s["turn"], "label": s["turn_label"],
              "ends_after": s["turn"] + TURNS - 1})
    _quotas(s, ctx)


def _decline(s, seat, msg, ctx) -> None:
    s["phase"].pop("uprising_q", None)


def decision(s: dict) -> dict | None:
    if s["phase"].get("uprising_q"):
        return {"seat": COMMUNIST, "kind": "uprising",
                "prompt": "NTND 26.1: declare the National Uprising now, or done (not this turn)"}
    return None


def _legal(s, d) -> list:
    from afteraction.v1 import command_pb2
    a, b = command_pb2.Command(), command_pb2.Command()
    a.ntnd.declare_uprising.SetInParent()
    b.ntnd.done.SetInParent()
    return [a, b]


# --------------------------------------------------------------------------- placement (26.3, 26.8)

def _hexes(s: dict, corps: str) -> list[str]:
    from ..forces.placement import cadre_hexes
    m = load_map()
    return [h for h in cadre_hexes(s, "VC") if m.corps_of(h) == corps]


def place_options(s: dict) -> list[dict]:
    """The uprising placements open now: VC cadres and regiments in each corps with quota left."""
    from ..movement.ground import Env
    from ..movement.stacking import stacking_problem
    q = s["phase"].get("uprising")
    if not q:
        return []
    env = Env(s)
    out = []
    for corps in SV_CORPS:
        left = q.get(corps, {})
        for kind, tid, key in (("cadre", "vc_cadre", "cadres"), ("vc_regiment", "vc_regiment", "regiments")):
            uid = first_in_mix(s, tid)
            if left.get(key, 0) <= 0 or uid is None:
                continue
            for hid in _hexes(s, corps):
                if not stacking_problem(s, COMMUNIST, hid, [uid], env):
                    for inv in (True, False):
                        out.append({"kind": kind, "nationality": "VC", "location": hid, "inverted": inv})
    return out


def takes(s: dict, kind: str, nat: str, loc: str) -> bool:
    """Whether a placement of ``kind`` at ``loc`` is one of the uprising's (26.3)."""
    q = s["phase"].get("uprising")
    if not q or nat != "VC" or kind not in ("cadre", "vc_regiment"):
        return False
    corps = load_map().corps_of(loc) if loc in load_map().hexes else None
    return q.get(corps, {}).get("cadres" if kind == "cadre" else "regiments", 0) > 0


def place(s: dict, p: dict, ctx) -> None:
    """Place one uprising unit (26.3), rolling for it where 26.8 inhibits placement."""
    from ..movement.stacking import stacking_problem
    from . import track
    kind, loc, inv = p["kind"], p["location"], p["inverted"]
    corps = load_map().corps_of(loc)
    if not takes(s, kind, p["nationality"], loc) or loc not in _hexes(s, corps):
        raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 26.3: uprising units go to their corps zone as 4.1.1 places "
                        "cadres, within the turn's quota", rule="NTND 26.3")
    uid = first_in_mix(s, "vc_cadre" if kind == "cadre" else "vc_regiment")
    prob = stacking_problem(s, COMMUNIST, loc, [uid])
    if prob:
        raise Rejection(Code.OVERSTACKED, prob, rule=" ".join(prob.split()[:2]).rstrip(":"))  # "NTND 8.10...: ..."
    left = s["phase"]["uprising"][corps]
    if kind == "cadre":
        left["cadres"] -= 1
        if left.get("either"):
            left["regiments"] = 0
    else:
        left["regiments"] -= 1
        if left.pop("either", False):
            left["cadres"] = 0
    full = track.vietnamization_in_effect(s) == "full"
    if full or s.get("hm", {}).get(corps) == "allied_control":
        r = ctx.roll("d6", f"NTND 26.8 uprising placement in corps {corps} (5-6: not placed)").result
        if r >= 5:
            ctx.emit({"t": "uprising-placement", "corps": corps, "placed": False, "rule": "NTND 26.8", "pp": 0})
            return
    enter_drawn(s, uid, loc, inv, ctx, "NTND 26.3")


# --------------------------------------------------------------------------- 26.7

def rally(s: dict, ctx) -> None:
    """26.7: two turns after the declaration, at the Allied Reinforcement phase (after 4.2.2's
    award): one die of South Vietnamese replacement points."""
    u = s.get("uprising")
    if not in_force(s, "uprising") or not u or s["turn"] != u["turn"] + 2:
        return
    r = ctx.roll("d6", "NTND 26.7 South Vietnamese rally: replacement points").result
    rp = s.setdefault("rp", {})
    rp["SV"] = rp.get("SV", 0) + r
    ctx.emit({"t": "uprising", "rule": "NTND 26.7", "rally": r, "pool": "SV", "rp": dict(rp)})


DECISIONS_UP = [
    DecisionKind("uprising", "NTND 26.1", {"declare_uprising": declare, "done": _decline}, _legal,
                 "declare the National Uprising, or done (not this turn)", seat=COMMUNIST, sealed=True),
]
