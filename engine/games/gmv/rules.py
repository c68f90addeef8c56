"""Good Morning, Vietnam! (rule text 004): the ruleset. The decision kinds and their answers are
declared in decisions.py, the phases and when each kind is asked in phases.py; the engine
validates, dispatches, copies and asks (engine/decisions.py, engine/phases.py, engine/snapshot.py).

Turn order (the project's choice, docs/rules/gmv.md): each turn the Americans
play the five phases (1 buy, 2 bombing, 3 combat actions, 4 non-combat moves,
5 placement), then the NVA plays the same five phases. US first means a unit
the US reveals in its turn cannot re-infiltrate until the NVA's next turn
("must wait 1 turn"). Interruptions (battles, the NVA's answers to patrols,
hot LZs and bombing) are decisions pushed in front of the phase decision.
"""
from __future__ import annotations

import json
import pathlib

from ... import snapshot
from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context, Ruleset
from ...versions import stamp
from .versions import VERSIONS
from . import board
from .decisions import DECISIONS
from .phases import FLOW
from .zones import ZONES

_SETUP = json.loads((pathlib.Path(__file__).resolve().parent / "data" / "setup.json").read_text(encoding="utf-8"))


def _battle_view(b: dict | None, seat: str | None) -> dict | None:
    """The battle as ``seat`` sees it: a support entry's ``from`` (the zone a hidden infantry unit
    entered the battle from, combat.call_support) is its own side's alone; the others saw it revealed
    entering the battle zone, never where it stood on the hidden board (docs/rules/gmv.md
    "What the opponent can see"). A view only: the battle in the state and the events are unchanged."""
    if b is None:
        return None
    v = snapshot.copy(b)
    v["sup"] = [e if e["side"] == seat else {k: x for k, x in e.items() if k != "from"} for e in v["sup"]]
    return v


class GmvRuleset(Ruleset):
    game = "gmv"
    versions = VERSIONS  # versions.py: every version, the development ones and each change of play
    seats = ("us", "nva")
    scenarios = ("1965",)
    options = {"turns": _SETUP["turns"], "defoliation_2d6": False}
    # SPEC.md 6.5, docs/rules/gmv.md "Padded sizes": every private event for the NVA (hidden, income,
    # bought, forfeit) pads to 128 bytes (the largest: 112, an income with 32-bit amounts); every sealed
    # NVA order to 768 (the largest of 75 bot games: 195; an order naming 60 units of the longest ids
    # fits, with room for the envelope to grow; a larger one is refused with COMMAND_TOO_LARGE)
    sealed_sizes = {"command": {"nva": 768}, "event": {"nva": 128}}
    decisions = DECISIONS
    flow = FLOW

    def scenario_info(self, scenario):
        """The game's one set-up (docs/rules/gmv.md), for ListRulesets and `aar scenarios`; its length
        is the default of the ``turns`` option."""
        return {"title": "Good Morning, Vietnam! 1965", "turns": _SETUP["turns"],
                "description": "the U.S. has just committed to South Vietnam: carriers offshore, bombing raids "
                               "and heliborne landings against the NVA, both sides recruiting native units."}

    def check_options(self, scenario, options):
        # checked at CreateGame and again by the verifier at genesis (SPEC.md 10 B.6)
        out = super().check_options(scenario, options)
        if not 1 <= out["turns"] <= 50:
            raise Rejection(Code.BAD_OPTION, "GMV: turns is 1..50")
        return out

    # -- setup ----------------------------------------------------------------
    def setup(self, scenario, options, ctx: Context):
        s = {"turn": 1, "turns": options["turns"], "side": "us", "phase": 1,
             "opts": {"defoliation_2d6": options["defoliation_2d6"]}, "next": 1, "units": {},
             "zones": {z: {"f": ZONES[z]["f"], "airbase": ZONES[z]["airbase"], "started": None,
                           "lz": False, "positions": False} for z in ZONES},
             "money": snapshot.copy(_SETUP["money"]), "pool": {"us": [], "nva": []},
             "marks": [], "cursor": 0, "stack": [], "battle": None, "over": None, "hidden_moves": 0,
             "kept": []}
        stamp(s, self.version)
        for key, side, hidden in (("us", "us", False), ("nva", "nva", False), ("nva_hidden", "nva", True)):
            for z, t, n in _SETUP[key]:
                for _ in range(n):
                    board.new_unit(s, t, side, z, hidden)
        board.commit_hidden(s, ctx)
        ctx.emit({"t": "setup", "hidden": len(board.units(s, hidden=True))})
        FLOW.enter(s, ctx)   # the US's phase 1 (phases.py)
        return s

    # -- interface --------------------------------------------------------------
    def view(self, s, seat):
        v = {"turn": s["turn"], "turns": s["turns"], "side": s["side"], "phase": s["phase"],
             "zones": {z: dict(s["zones"][z]) for z in sorted(s["zones"])},
             "units": [board.pub_unit(u) for u in board.units(s, hidden=False)],
             "hidden_count": len(board.units(s, hidden=True)), "hidden_moves": s["hidden_moves"],
             "marks": [dict(m) for m in s["marks"]], "money": {"us": dict(s["money"]["us"])},
             "pool": {"us": list(s["pool"]["us"])}, "stack": [dict(x) for x in s["stack"]],
             "battle": _battle_view(s["battle"], seat), "over": s["over"]}
        d = self.pending(s)
        v["pending"] = d.as_dict() if d else None
        if seat == "nva":
            v["money"]["nva"] = dict(s["money"]["nva"])
            v["pool"]["nva"] = list(s["pool"]["nva"])
            v["hidden"] = [board.pub_unit(u) for u in board.units(s, hidden=True)]
        return v

    def outcome(self, s):
        return s["over"]
