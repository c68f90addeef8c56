"""No Trumpets No Drums: what each seat sees.

Allied seat and spectators: every face-up unit, every inverted marker by its
public marker id and location only (never what it holds, how many units, or the
Communist counter mix), the turn, phase, political points, the pending decision.
Communist seat: the same plus the contents of each marker, the counter mix and
the phase's quotas.
"""
from __future__ import annotations

import copy

from ..components.features import in_force
from ..sequence.turns import phase_of
from ..components.state import ALLIED, COMMUNIST
from ..politics.track import bounds

_PUBLIC_DECISION_KEYS = ("seat", "kind", "prompt", "count", "eligible", "unit", "mode", "to")
#: A Communist decision's options ("to": the retreat hexes, "eligible": the units that may be lost,
#: inverted ones among them for 19.3.2) are the Communist seat's alone (the retreat hexes depended on
#: hidden stacks before 19.3.2 offered over-stacking hexes; found by tests/ntnd/leakcheck.py).
_COMMUNIST_ONLY_DECISION_KEYS = ("to", "eligible")


def _unit_view(u: dict) -> dict:
    return {"id": u["id"], "type": u["type"], "name": u["name"], "nat": u["nat"], "side": u["side"],
            "loc": u["loc"], "corps": u["corps"], "status": u["status"]}


#: 19.3.2: how many units a retreat's over-stacking costs depends on what the hex's markers hold.
_COMMUNIST_ONLY_OVERSTACK_KEYS = ("count",)


def decision_view(d: dict, seat: str | None) -> dict:
    """What ``seat`` (None: anyone, e.g. the service's public Decision data) may see of a decision."""
    hidden = _COMMUNIST_ONLY_DECISION_KEYS + (_COMMUNIST_ONLY_OVERSTACK_KEYS if d.get("kind") == "overstack_losses" else ())
    return {k: d[k] for k in _PUBLIC_DECISION_KEYS if k in d and not (
        d.get("seat") == COMMUNIST and seat != COMMUNIST and k in hidden)}


#: the public keys of a decision that are its data (``Decision.data``: not seat, kind or prompt)
_DATA_KEYS = tuple(k for k in _PUBLIC_DECISION_KEYS if k not in ("seat", "kind", "prompt"))


def decision_data(d: dict) -> dict:
    """``decision_view(d, None)`` less seat, kind and prompt, in one pass (the pending decision's
    public data, asked once per command)."""
    if d.get("seat") != COMMUNIST:
        return {k: d[k] for k in _DATA_KEYS if k in d}
    hidden = _COMMUNIST_ONLY_DECISION_KEYS + (_COMMUNIST_ONLY_OVERSTACK_KEYS if d.get("kind") == "overstack_losses" else ())
    return {k: d[k] for k in _DATA_KEYS if k in d and k not in hidden}


def build_view(s: dict, seat: str | None) -> dict:
    ph = phase_of(s)
    d = s.get("decision")
    units = [_unit_view(u) for uid, u in sorted(s["units"].items()) if u["status"] == "map" and not u["inv"]]
    markers = [{"id": mid, "loc": mk["loc"]} for mid, mk in sorted(s["markers"].items(), key=lambda x: int(x[0][1:]))]
    v = {
        "scenario": s["scenario"]["id"],
        "turn": s["turn"],
        "turn_label": s["turn_label"],
        "turns": len(s["scenario"]["turns"]),
        "phase": ph.id,
        "phase_title": ph.title,
        "rule": "NTND " + ph.rule,
        "pp": s["pp"],
        "replacement_points": dict(s.get("rp", {})),
        "neutral": list(s["neutral"]),
        "units": units,
        "markers": markers,
        "allied_pending": [_unit_view(u) | {"arrive": u["arrive"]} for uid, u in sorted(s["units"].items())
                           if u["side"] == ALLIED and u["status"] in ("sched", "afloat")],
        "allied_dead": sorted(uid for uid, u in s["units"].items() if u["side"] == ALLIED and u["status"] == "dead"),
        "attacks": [dict(a) for a in s["attacks"]],
        "battle": None if s["battle"] is None else {"side": s["battle"]["side"], "target": s["battle"]["target"]},
        "decision": None if d is None else decision_view(d, seat),
        "outcome": s.get("outcome"),
    }
    # the campaign's Allied political war (23, 24, 4.2.6, 4.5.3): public, present only where set
    # 14.2.2 the mine counter and its deferred supplies (fleet.py): public, present only once laid
    for k in ("rp_half", "vietnamization", "vietnamization_reversed", "elections", "draft", "haiphong_mined", "fleet"):
        if k in s:
            v[k] = copy.deepcopy(s[k])
    if seat == COMMUNIST:
        v["hidden"] = {mid: [_unit_view(s["units"][x]) for x in mk["units"]]
                       for mid, mk in sorted(s["markers"].items())}
        mix: dict[str, int] = {}
        for u in s["units"].values():
            if u["side"] == COMMUNIST and u["status"] == "mix":
                mix[u["type"]] = mix.get(u["type"], 0) + 1
        v["mix"] = dict(sorted(mix.items()))
        v["quotas"] = {k: s["phase"][k] for k in ("cadres", "extra", "nva", "dummies", "uprising") if k in s["phase"]}
    _political_war(s, v)
    return v


def _political_war(s: dict, v: dict) -> None:
    """The public state of rules 7, 21, 22.4/24.2.10, 25, 26 and 14.2.2 where they are in force (absent
    keys: Tet's view unchanged). The Hearts and Minds markers, the track's bounds and the Haiphong
    mine counter stand on the map in the open."""
    if "air" in s:                                                          # 11, 12 (air_war): all public
        from ..air import pieces as air
        a = s["air"]
        v["air"] = {"units": [_unit_view(u) for uid, u in sorted(s["units"].items())
                              if u["status"] == "air" and u["side"] == ALLIED],
                    "available": air.available(s), "unavailable": air.unavailable(s),
                    "support": copy.deepcopy(a["support"]), "supplied": copy.deepcopy(a["supplied"]),
                    "attached": dict(sorted(a["attached"].items())), "pending": copy.deepcopy(a["pending"]),
                    "bombed": copy.deepcopy(a["bombed"])}
    if "hm" in s and in_force(s, "hearts_and_minds"):
        v["hm"] = dict(sorted(s["hm"].items()))                             # 7
    b = bounds(s)
    if b is not None:
        v["track_bounds"] = [b[0], b[1]]                                    # 24.2.10
    if s.get("haiphong_mined"):
        v["haiphong_mined"] = True                                          # 14.2.2
    if "random_events" in s:
        v["random_events"] = {"occurred": list(s["random_events"]["used"]), "ended": list(s["random_events"]["ended"])}
    if "sv_demoralized" in s:
        v["arvn_demoralized"] = bool(s["sv_demoralized"])                 # 25.1
    if s.get("uprising"):
        from ..politics.uprising import turns_in
        v["uprising"] = {"declared": s["uprising"]["turn"], "turn_of_uprising": turns_in(s)}   # 26
