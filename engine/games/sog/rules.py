"""MACV-SOG, a campaign variant for FIREPOWER (The GENERAL Vol. 26 No. 5): the ruleset class.
The decision kinds, what answers each and the rule each answer applies are declared once in
decisions.py; the phases and when each kind is asked in phases.py; the engine validates,
dispatches, copies and asks (engine/decisions.py, engine/phases.py, engine/snapshot.py).

Seats: ``sog`` (the SOG team leader, "the American player") and ``nva`` (the
Vietnamese player). The whole state is public (the text hides nothing between
the players; only future dice are unknown).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context, Ruleset
from ...versions import stamp
from .versions import VERSIONS
from . import board, mission
from .decisions import DECISIONS
from .phases import FLOW


def new_state(options: dict) -> dict:
    return {"options": dict(options), "phase": "organise", "turn": 0, "objective": None, "team": None,
            "target": None, "target_home": None, "target_found_at": None, "searching": False,
            "reached_target": False, "insertion": None, "lzs": [], "pz": None, "extraction": None,
            "team_at": None, "vc": [], "vp": {"sog": 0, "nva": 0}, "queue": [], "await": None, "action": None,
            "actions_fought": 0, "aborted": False, "exited": False, "over": None}


class SogRuleset(Ruleset):
    game = "sog"
    versions = VERSIONS  # versions.py: every version, the development ones and each change of play
    seats = ("sog", "nva")
    scenarios = ("mission",)
    # lz_count: SOG 3.4.2 (3) / 3.4.4 optional (1 to 5); unlimited_vc: SOG 3.5.3; random_squads: SOG 4.1.3.
    options = {"lz_count": 3, "unlimited_vc": False, "random_squads": False}
    decisions = DECISIONS
    flow = FLOW

    def scenario_info(self, scenario):
        """The one mission of the text (docs/rules/sog.md), for ListRulesets and `aar scenarios`."""
        return {"title": "MACV-SOG: a recon team's mission", "turns": 0,
                "description": "Operation 35 in Laos: the objective roll, insertion on foot or by helicopter, "
                               "the search for the Target against VC and NVA squads, and extraction."}

    def check_options(self, scenario, options):
        out = super().check_options(scenario, options)
        if not 1 <= out["lz_count"] <= 5:
            raise Rejection(Code.BAD_OPTION, "SOG 3.4.4: lz_count is 1 to 5 LZ counters", rule="SOG 3.4.4")
        return out

    # -- setup ----------------------------------------------------------------
    def setup(self, scenario, options, ctx: Context):
        s = stamp(new_state(options), self.version)
        mission.roll_objective(s, ctx)  # SOG 3.1
        return s

    # -- views and outcome ----------------------------------------------------
    def view(self, s, seat):
        """The full public state (SOG has no hidden information between the seats)."""
        d = self.pending(s)
        a = s["action"]
        return {
            "objective": s["objective"], "phase": s["phase"], "turn": s["turn"],
            "team": s["team"], "team_at": s["team_at"], "target": s["target"], "target_home": s["target_home"],
            "searching": s["searching"], "reached_target": s["reached_target"], "insertion": s["insertion"],
            "lzs": [dict(x) for x in s["lzs"]], "pz": s["pz"], "extraction": s["extraction"],
            "vc": [dict(x) for x in s["vc"]], "vp": dict(s["vp"]), "aborted": s["aborted"],
            "exited": s["exited"], "actions_fought": s["actions_fought"],
            "action": None if a is None else {k: a[k] for k in sorted(a)},
            "pending": None if d is None else d.as_dict(),
            "options": dict(s["options"]), "terrain": [
                "".join(board.TERRAIN[board.square(r, c)][0].upper() for c in range(1, 11)) for r in board.ROWS],
            "outcome": self.outcome(s),
        }

    def outcome(self, s):
        return None if s["over"] is None else dict(s["over"])

    def demo_bot(self, seed, view_of):
        """The sensible bot: heads for the target, searches, extracts (bots.py)."""
        from .bots import sensible_bot
        return sensible_bot(seed, view_of)
