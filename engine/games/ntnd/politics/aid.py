"""No Trumpets No Drums rule 27: Communist aid from China and the Soviet Union (campaign: the ``aid``
feature; the chart is authored, data/scenario_campaign.json ``communist_aid``,
docs/rules/ntnd-authoring/campaign.md).

27.1: in the Communist Recruitment phase of each roll turn (January/February) the Communist player
rolls one die per source whose aid has not begun, modified per 27.1.1 / 27.1.2 / 14.2.2 (the chart's
``modifiers``); on the chart's number aid begins and comes every turn for the rest of the game. 27.1.2:
Allied ground units entering North Vietnam roll at once (neutrality.entered). 27.2-27.4: each turn of
aid the Communist player chooses one unit of the source's list (the ``aid`` decision, sealed like every
Communist command): placed face up (public: its type) or inverted (a marker: the public sees where it
went, never what it is). Random events (21) add ``s["mods"]["aid_units"]`` (one unit of a source,
begun or not) and ``aid_suspended`` (no aid unit this phase), consumed here.

``s["aid"]``: {"begun": {source: turn}, "deferred": [{"type", "inverted"}]} (Soviet units due while
Haiphong is mined, placed in China the next turn, 27.3; private: the state is never shown whole).
"""
from __future__ import annotations

from functools import lru_cache

from ....decisions import DecisionKind
from ....errors import Rejection
from ..components.campaign_data import load_campaign
from ....codes import Code
from . import elections, vietnamization as V
from ..components.features import in_force
from ..forces.operations import first_in_mix, make_marker, name_public
from ..components.state import COMMUNIST
from ..sequence.turns import C_RECRUIT, phase_id
from ..components.pieces import load_counters

CADRES = ("vc_cadre", "pl_cadre", "kr_cadre")
AID_LIST = {"china": ("communist_supply", "nva_sam") + CADRES,                              # 27.2
            "soviet": ("communist_supply", "nva_sam", "nva_artillery", "nva_interceptor", "nva_tank_regiment")}
RULE = {"china": "NTND 27.2", "soviet": "NTND 27.3"}


@lru_cache(maxsize=1)
def chart() -> dict:
    """The authored Communist Aid chart (the campaign file; the short campaign is composed from it)."""
    return load_campaign("campaign")["communist_aid"]


def campaign_turn(s: dict) -> int:
    """The campaign turn of this turn (the chart's roll turns are campaign turns; a scenario starting later,
    scenario_data.py, numbers its turns from 1 and keeps ``campaign_turn`` in its turn record)."""
    t = s["scenario"]["turns"][s["turn"] - 1]
    return t.get("campaign_turn", t["number"])


def _st(s: dict) -> dict:
    return s.setdefault("aid", {"begun": {}, "deferred": []})


def haiphong_mined(s: dict) -> bool:
    """14.2.2 (air operations set ``s["haiphong_mined"]``; the scenario's starting value otherwise)."""
    return bool(s.get("haiphong_mined", False))


def election_withdrawal(s: dict) -> bool:
    """27.1.1 "an American withdrawal due to elections in progress": the peace party has won (23.3)
    and American units are still in play (the withdrawals go on each turn until none is left)."""
    return elections.peace_party(s) and bool(V.american_units_in_play(s))


def modifiers(s: dict, source: str, invasion: bool) -> list[dict]:
    """The chart's modifiers that apply to ``source``'s roll now (27.1.1, 27.1.2, 14.2.2)."""
    v = V.kind(s)                                              # 24: the Vietnamization in effect
    cond = {"27.1.1, 24.2.9": v == "full",
            "27.1.1, 24.3.4": v != "full" and (v == "partial" or election_withdrawal(s)),
            "27.1.2": invasion or _st_nv(s),
            "14.2.2": haiphong_mined(s)}
    return [{"rule": m["rule"], "change": m["change"]} for m in chart()["modifiers"]
            if cond.get(m["rule"]) and m.get("source", source) == source]


def _st_nv(s: dict) -> bool:
    n = s.get("neutrality")
    return bool(n and n.get("nv_entered") == s["turn"])


def roll(s: dict, ctx, invasion: bool = False) -> None:
    """27.1: one die per source whose aid has not begun; aid begins on the chart's number."""
    st = _st(s)
    for entry in chart()["chart"]:
        src = entry["source"]
        if src in st["begun"]:
            continue
        r = ctx.roll("d6", f"NTND 27.1 {src} aid roll")
        mods = modifiers(s, src, invasion)
        total = r.result + sum(m["change"] for m in mods)
        begun = total >= entry["aid_begins_if_at_least"]
        if begun:
            st["begun"][src] = s["turn"]
        ctx.emit({"t": "aid", "rule": "NTND 27.1.2" if invasion else "NTND 27.1", "source": src, "event": "roll",
                  "roll": r.result, "modifiers": mods, "total": total, "begun": begun})


def invasion_roll(s: dict, ctx) -> None:
    """27.1.2: Allied ground units entered North Vietnam: aid is rolled for at once (+2)."""
    if in_force(s, "aid"):
        roll(s, ctx, invasion=True)


def start(s: dict, ctx) -> None:
    """3.1.1: the aid roll of a roll turn, then the units due this phase (``s["phase"]["aid"]``)."""
    if not in_force(s, "aid"):
        return
    st = _st(s)
    mods = s.setdefault("mods", {})
    suspended = bool(mods.pop("aid_suspended", False))
    extra = list(mods.pop("aid_units", []))
    for d in st["deferred"]:                                   # 27.3: Haiphong mined last turn
        _place(s, "soviet", d["type"], "CHINA", d["inverted"], ctx)
    st["deferred"] = []
    if V.aid_at_once(s):                                       # 24.4.3: aid at once after a reversal
        for src in sorted(AID_LIST):
            if src not in st["begun"]:
                st["begun"][src] = s["turn"]
                ctx.emit({"t": "aid", "rule": "NTND 24.4.3", "source": src, "event": "begun"})
    if campaign_turn(s) in chart()["roll_turns"]:
        roll(s, ctx)
    due = [e["source"] for e in chart()["chart"] if e["source"] in st["begun"]] + [x for x in extra if x in AID_LIST]
    if suspended and due:
        ctx.emit({"t": "aid", "rule": "NTND 27.1", "event": "suspended", "sources": due})
        due = []
    s["phase"]["aid"] = due


def phase_decision(s: dict) -> dict | None:
    due = s["phase"].get("aid")
    if phase_id(s) == C_RECRUIT and due:
        return {"seat": COMMUNIST, "kind": "aid",
                "prompt": f"{RULE[due[0]]}: take this turn's {due[0]} aid unit (27.4: any of the list), or done"}
    return None


def _where(s: dict, source: str, kind: str) -> list[str]:
    if kind in CADRES:
        from ..forces.placement import cadre_hexes
        return cadre_hexes(s, load_counters().type(kind).nationality)   # 27.2: "as per other cadres" (4.1.1)
    if source == "china":
        return ["CHINA"]
    return ["HAIPHONG"]                                        # 27.3 (mined: China next turn, see ``take``)


def options(s: dict) -> list[dict]:
    """Every unit and placement the first due source allows now (27.2, 27.3), as NtndAid fields."""
    from ..movement.stacking import stacking_problem
    src = s["phase"]["aid"][0]
    out = []
    for kind in AID_LIST[src]:
        uid = first_in_mix(s, kind)
        if uid is None:
            continue                                            # 4.1.6: only what the mix holds
        inv_ok = load_counters().type(kind).can_invert
        for loc in _where(s, src, kind):
            if stacking_problem(s, COMMUNIST, loc, [uid]):
                continue
            for inv in ((True, False) if inv_ok else (False,)):
                out.append({"source": src, "kind": kind, "location": loc, "inverted": inv})
    return out


def take(s: dict, p: dict, ctx) -> None:
    """Answer of the ``aid`` decision: the chosen unit enters (27.2-27.4)."""
    if not s["phase"].get("aid") or p not in options(s):
        raise Rejection(Code.ILLEGAL_AID, "NTND 27.2-27.4: one unit of the due source's list from the counter mix, "
                        "placed in China (supply, SAM), Haiphong (Soviet aid) or as a cadre (4.1.1)", rule="NTND 27.2-27.4")
    src = s["phase"]["aid"].pop(0)
    if src == "soviet" and haiphong_mined(s):
        _st(s)["deferred"].append({"type": p["kind"], "inverted": p["inverted"]})
        ctx.emit({"t": "aid", "rule": "NTND 27.3", "source": src, "event": "deferred", "loc": "CHINA"})
        return
    _place(s, src, p["kind"], p["location"], p["inverted"], ctx)


def forfeit(s: dict, ctx) -> None:
    src = s["phase"]["aid"].pop(0)
    ctx.emit({"t": "aid", "rule": "NTND 4.1.6", "source": src, "event": "forfeited"})


def _place(s: dict, src: str, kind: str, loc: str, inverted: bool, ctx) -> None:
    uid = first_in_mix(s, kind)
    if uid is None:
        ctx.emit({"t": "aid", "rule": "NTND 4.1.6", "source": src, "event": "forfeited"})
        return
    s["units"][uid].update(status="map", loc=loc, inv=False, mk=None)
    if inverted:
        mid = make_marker(s, [uid], loc, ctx, RULE[src], drawn=[uid])   # ntnd/5 (4.4): named after its marker
        ctx.emit({"t": "aid", "rule": RULE[src], "source": src, "event": "unit", "marker": mid, "loc": loc})
    else:
        uid = name_public(s, uid)                                         # ntnd/5 (4.4): the next public name
        ctx.emit({"t": "aid", "rule": RULE[src], "source": src, "event": "unit", "unit": uid, "type": kind, "loc": loc})



# ---------------------------------------------------------------------------
# the decision (decisions.DECISIONS): sealed, like every Communist command
# ---------------------------------------------------------------------------

def _aid_legal(s, d) -> list:
    from ..sequence.kinds import _done, cmd
    return [cmd("aid", **p) for p in options(s)] + _done()


def _aid_aid(s, seat, msg, ctx) -> None:
    take(s, {"source": msg.source, "kind": msg.kind, "location": msg.location, "inverted": msg.inverted}, ctx)


def _aid_done(s, seat, msg, ctx) -> None:
    forfeit(s, ctx)


DECISIONS_AID = [
    DecisionKind("aid", "NTND 27.2-27.4", {"aid": _aid_aid, "done": _aid_done}, _aid_legal,
                 "one unit of the due source's aid list and its placement (face up or inverted), or done "
                 "(that source's unit is forfeited, 4.1.6)", seat=COMMUNIST, sealed=True),
]
