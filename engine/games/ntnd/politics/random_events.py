"""No Trumpets No Drums rule 21: random events (the 3.2.8 phase), where ``random_events`` is in force.

21.1: each player rolls his die, the Communist die the tens and the Allied die the ones. Both are
``ctx.roll`` d6 rolls (SPEC.md 5.5 "roll" events, rules "NTND 21.1 (Communist die, tens)" and
"NTND 21.1 (Allied die, ones)", in that order: data procedure.dice): the dice key mixes every seat's committed entropy
(SPEC.md 5), so neither player nor the server can bias either die; "each player rolls his die" is
kept as which die counts as whose. 11-36: the entry of data/random_events.json (authored, see
docs/rules/ntnd-authoring/random-events.md); otherwise no event.

21.2: an entry with ``once`` occurs at most once a game (rolled again: no event); an entry whose
``superseded_if`` holds, or that an ``end_event`` op ended, does not occur (no event, not used up).

Every op of an entry's ``effects`` is applied in order: "now" ops here (political points through
politics.score, Hearts and Minds through hearts.move, a marker revealed through operations.flip_marker,
a neutral state joining the Allies through neutrality.join_allies), later ops as
one-shot modifiers in ``s["mods"]`` (docs: NTND2 interface) consumed by the phase that uses them;
"persistent" ops in ``s["random_events"]["persistent"]``. An op that needs an Allied choice (the
corps of ``allied_choice_sv``, the marker of ``reveal_marker``) stops at the Allied decision
``random_choice`` (public: the options are public facts).
"""
from __future__ import annotations

from afteraction.v1 import command_pb2

from ....decisions import DecisionKind
from ....errors import InternalValueError, Rejection
from . import hearts, victory as politics
from ..movement import neutrality
from ..components.campaign_data import load_random_events
from ..forces.operations import first_in_mix, flip_marker, name_public
from ..components.map import load_map
from ..components.state import ALLIED
from ....codes import Code

SV_CORPS = ("I", "II", "III", "IV")


def _book(s: dict) -> dict:
    """The game's record of rule 21 (created in force only)."""
    return s.setdefault("random_events", {"used": [], "ended": [], "persistent": []})


def _mods(s: dict) -> dict:
    return s.setdefault("mods", {})


def superseded(s: dict, entry) -> bool:
    """21.2: the entry's conditions (data ``conditions``) hold, or an earlier event ended it."""
    if entry.id in _book(s)["ended"]:
        return True
    for c in entry.superseded_if:
        if c == "cambodia_not_neutral" and "CA" not in s["neutral"]:
            return True
    return False


def start(s: dict, ctx) -> None:
    """3.2.8 / 21.1: roll, look the entry up, apply it (or stop at its Allied choice)."""
    table = load_random_events()
    tens, ones = table.procedure["dice"]                             # data: Communist tens, Allied ones
    c = ctx.roll(tens["die"], tens["rule"]).result
    a = ctx.roll(ones["die"], ones["rule"]).result
    roll = 10 * c + a
    entry = table.lookup(c, a)
    ev = {"t": "random-event", "rule": "NTND 21.1", "turn": s["turn"], "roll": roll, "communist_die": c,
          "allied_die": a}
    book = _book(s)
    if entry is None:
        ctx.emit({**ev, "entry": "no_event", "name": "no random event", "status": "none"})
        s["phase"]["done"] = True
        return
    if entry.once and entry.id in book["used"]:
        ctx.emit({**ev, "entry": entry.id, "name": entry.name, "status": "once-only: already occurred, no event",
                  "rule": "NTND 21.2"})
        s["phase"]["done"] = True
        return
    if superseded(s, entry):
        ctx.emit({**ev, "entry": entry.id, "name": entry.name, "status": "superseded: no event",
                  "rule": "NTND 21.2"})
        s["phase"]["done"] = True
        return
    book["used"].append(entry.id)
    ctx.emit({**ev, "entry": entry.id, "name": entry.name, "status": "occurs"})
    s["phase"]["event"] = {"roll": roll, "next": 0}
    resume(s, ctx)


def _entry(s: dict):
    return load_random_events().entries[s["phase"]["event"]["roll"]]


def resume(s: dict, ctx) -> None:
    """Apply the current entry's ops from ``next`` on until one needs an Allied choice or all are done."""
    entry = _entry(s)
    st = s["phase"]["event"]
    while st["next"] < len(entry.effects):
        fx = entry.effects[st["next"]]
        opts = choice_options(s, fx)
        if opts is not None:
            if opts:
                st["choice"] = opts
                return
            ctx.emit({"t": "random-event-op", "entry": entry.id, "op": fx["op"], "rule": "NTND 21",
                      "note": "nothing to choose: no effect"})
        else:
            apply_op(s, entry, fx, None, ctx)
        st["next"] += 1
    s["phase"]["done"] = True


def choice_options(s: dict, fx: dict) -> list[str] | None:
    """The Allied player's options for an op that needs his choice (None: the op needs none)."""
    if fx["op"] == "hearts_and_minds" and fx["area"] == "allied_choice_sv":
        return list(SV_CORPS)
    if fx["op"] == "reveal_marker" and fx["chooser"] == ALLIED:
        return sorted(s["markers"], key=lambda x: int(x[1:]))
    return None


def apply_op(s: dict, entry, fx: dict, choice: str | None, ctx) -> None:
    op, when = fx["op"], fx["when"]
    rule = "NTND 21 " + entry.id
    mods = _mods(s)
    if op == "political_points":
        total = sum(ctx.roll("d6", f"{rule}: political points ({fx['roller']} die {i + 1} of {fx['dice']})").result
                    for i in range(fx["dice"]))
        politics.score(s, ctx, fx["sign"] * total, "NTND 21, 22.3", entry.id, roll=total)
    elif op == "hearts_and_minds":
        area = choice if fx["area"] == "allied_choice_sv" else fx["area"]
        if when == "now":
            hearts.move(s, area, fx["toward"], fx["boxes"], ctx, rule)
        else:
            mods.setdefault("hm_next", []).append({"area": area, "boxes": fx["boxes"], "toward": fx["toward"],
                                                   "rule": rule})
    elif op == "reveal_marker":
        flip_marker(s, choice, ctx, rule + " (6.2, 8.8.2.1)")
    elif op == "neutral_joins_allies":
        _join_allies(s, fx["country"], ctx, rule)
    elif op == "end_event":
        book = _book(s)
        book["ended"].append(fx["event"])
        book["persistent"] = [p for p in book["persistent"] if p["event"] != fx["event"]]
    elif op == "persistent_supply":
        _book(s)["persistent"].append({"event": entry.id, "op": op, "country": fx["country"], "town": fx["town"],
                                       "while_neutral": fx["while_neutral"]})
    elif op == "replacement_points":
        rp = mods.setdefault("rp", {})
        rp[fx["pool"]] = rp.get(fx["pool"], 0) + fx["change"]
    elif op == "no_sv_replacement_points":
        mods["no_sv_rp"] = True
    elif op == "arvn_demoralized":
        mods["arvn_demoralized_turn"] = s["turn"] + 1
    elif op in ("basic_cadres", "nva_recruits"):
        mods[op] = mods.get(op, 0) + fx["change"]
    elif op == "communist_recruits":
        mods.setdefault("communist_recruits", []).append({"type": fx["type"], "count": fx["count"],
                                                          "place": fx["place"]})
    elif op == "aid_unit":
        mods.setdefault("aid_units", []).append(fx["source"])
    elif op == "aid_suspended":
        mods["aid_suspended"] = True
    else:                                    # campaign_data validates ops: unreachable with the shipped table
        raise InternalValueError(f"random event op {op!r}")
    if op not in ("political_points", "hearts_and_minds", "reveal_marker"):
        ctx.emit({"t": "random-event-op", "entry": entry.id, "op": op, "when": when, "rule": rule})


def _join_allies(s: dict, country: str, ctx, rule: str) -> None:
    """10.5, 10.6: the country joins the Allies as after a coup, at no political cost (neutrality.py)."""
    neutrality.join_allies(s, ctx, country, rule + " (10.5, 10.6)")


def persistent_recruits(s: dict, ctx) -> None:
    """At the start of the Communist Recruitment phase: the persistent ops in force (21, 4.1.5):
    ``persistent_supply``: one supply unit from the mix in the named town while its country is neutral."""
    if "random_events" not in s:
        return
    m = load_map()
    for p in s["random_events"]["persistent"]:
        if p["op"] != "persistent_supply" or (p["while_neutral"] and p["country"] not in s["neutral"]):
            continue
        uid = first_in_mix(s, "communist_supply")
        hid = m.town(p["town"]).hex
        if uid is None:
            ctx.emit({"t": "recruit-forfeit", "what": "supply", "loc": hid, "rule": "NTND 4.1.6"})
            continue
        s["units"][uid].update(status="map", loc=hid, inv=False, mk=None)
        uid = name_public(s, uid)                                    # ntnd/5 (4.4)
        ctx.emit({"t": "recruit", "unit": uid, "type": "communist_supply", "loc": hid,
                  "rule": f"NTND 4.1.5, 21 {p['event']}"})


def decision(s: dict) -> dict | None:
    """The pending Allied choice of the phase's entry, if any."""
    ch = s["phase"].get("event", {}).get("choice")
    if not ch:
        return None
    e = _entry(s)
    fx = e.effects[s["phase"]["event"]["next"]]
    what = "a South Vietnamese corps zone" if fx["op"] == "hearts_and_minds" else "an inverted marker to reveal"
    return {"seat": ALLIED, "kind": "random_choice", "prompt": f"NTND 21 {e.name}: choose {what}",
            "options": list(ch)}


def _choose(s, seat, msg, ctx) -> None:
    st = s["phase"].get("event", {})
    if msg.choice not in st.get("choice", ()):
        raise Rejection(Code.ILLEGAL_CHOICE, f"NTND 21: choose one of {', '.join(st.get('choice', ()))}", rule="NTND 21")
    entry = _entry(s)
    apply_op(s, entry, entry.effects[st["next"]], msg.choice, ctx)
    del st["choice"]
    st["next"] += 1
    resume(s, ctx)


def _choose_legal(s, d) -> list:
    out = []
    for x in s["phase"]["event"]["choice"]:
        c = command_pb2.Command()
        c.ntnd.choose.choice = x
        out.append(c)
    return out


DECISIONS_RE = [
    DecisionKind("random_choice", "NTND 21", {"choose": _choose}, _choose_legal,
                 "each corps zone or marker the event offers", seat=ALLIED),
]
