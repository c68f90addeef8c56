"""MACV-SOG, a campaign variant for FIREPOWER (The GENERAL Vol. 26 No. 5):
the ruleset class and its decision state machine (``pending``). The decision kinds, what
answers each and the rule each answer applies are declared once in decisions.py; the engine
validates, dispatches and copies (engine/decisions.py, engine/snapshot.py).

Seats: ``sog`` (the SOG team leader, "the American player") and ``nva`` (the
Vietnamese player). The whole state is public (the text hides nothing between
the players; only future dice are unknown).

The state machine. ``pending`` answers from, in order: the game being over; an
action in progress (``panel_choice`` / ``add_leader`` / ``action_result`` /
``confirm_result``); an awaited SOG choice in the middle of a turn
(``extraction_choice``); otherwise the phase (``organise``, ``insertion``,
``lz_choice``, then ``abort_or_move`` until the team reaches the Target, then
``move``). A move builds the turn's queue of steps (contact, search, exit check,
VC movement, end of turn) and ``advance`` (turn.py) runs the queue until a step
needs a decision; answering it resumes the queue.
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context, Decision, Ruleset
from ...versions import stamp
from .versions import VERSIONS
from . import board, insertion, mission, tactical, team as team_mod, turn
from .decisions import DECISIONS


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

    # -- decisions ------------------------------------------------------------
    def pending(self, s) -> Decision | None:
        if s["over"] is not None:
            return None
        a = s["action"]
        if a is not None:
            if a["stage"] == "panel":
                return Decision(a["panel_by"], "panel_choice", f"action {a['id']}: choose map panel 2 or 3",
                                {"action": a["id"]})
            if a["stage"] == "leader":
                return Decision("nva", "add_leader", "SOG 4.1.1: add 1C (PST4) to squad 1 or 2, or 0 for none",
                                {"action": a["id"]})
            if a["stage"] == "result":  # the outcome space is combinatorial: described here, validated by apply
                return Decision("sog", "action_result", f"action {a['id']} ({a['scenario']}): submit the outcome",
                                {"action": a["id"], "disputes": a["disputes"], **tactical.result_space(s)})
            return Decision("nva", "confirm_result", f"action {a['id']}: confirm or dispute the submitted outcome",
                            {"action": a["id"], "result": a["result"]})
        if s["await"] == "extraction_choice":
            return Decision("sog", "extraction_choice", "SOG 3.7: helicopter pick-up or walking out")
        ph = s["phase"]
        if ph == "organise":
            return Decision("sog", "organise", f"SOG 3.2: organise the team for {mission.OBJECTIVE_NAMES[s['objective']]}",
                            team_mod.limits())  # the team space is combinatorial: described here, validated by apply
        if ph == "insertion":
            return Decision("sog", "insertion", "SOG 3.4: insertion on foot (column A) or by helicopter",
                            {"foot_rows": insertion.foot_rows(s)})
        if ph == "lz":
            return Decision("sog", "lz_choice", "SOG 3.4.3: choose the LZ to try",
                            {"lzs": [x["n"] for x in s["lzs"]]})
        if self._may_abort(s):
            return Decision("sog", "abort_or_move", f"turn {s['turn']}: move one square (or hold), or abort (SOG 3.9)",
                            {"at": s["team_at"]})
        return Decision("sog", "move", f"turn {s['turn']}: move one square (or hold)", {"at": s["team_at"]})

    @staticmethod
    def _may_abort(s) -> bool:
        return s["target"] is not None and not s["reached_target"]

    def advance(self, s, ctx):
        turn.advance(s, ctx)

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
