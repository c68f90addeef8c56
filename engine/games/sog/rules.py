"""MACV-SOG, a campaign variant for FIREPOWER (The GENERAL Vol. 26 No. 5):
the ruleset class, the decision state machine and the command dispatch.

Seats: ``sog`` (the SOG team leader, "the American player") and ``nva`` (the
Vietnamese player). The whole state is public (the text hides nothing between
the players; only future dice are unknown).

The state machine. ``pending`` answers from, in order: the game being over; an
action in progress (``panel_choice`` / ``add_leader`` / ``action_result`` /
``confirm_result``); an awaited SOG choice in the middle of a turn
(``extraction_choice``); otherwise the phase (``organise``, ``insertion``,
``lz_choice``, then ``abort_or_move`` until the team reaches the Target, then
``move``). A move builds the turn's queue of steps (contact, search, exit check,
VC movement, end of turn) and ``_advance`` runs the queue until a step needs a
decision; answering it resumes the queue.
"""
from __future__ import annotations

import pickle

from afteraction.v1 import command_pb2

from ...errors import Rejection
from ...ruleset import Context, Decision, Ruleset
from . import board, enemy, extraction, insertion, mission, movement, search, tactical, team as team_mod

# Decision kind -> the SogCommand actions that answer it.
ANSWERS = {
    "organise": ("organise",),
    "insertion": ("insert",),
    "lz_choice": ("choose_lz",),
    "abort_or_move": ("move", "abort"),
    "move": ("move",),
    "extraction_choice": ("choose_extraction",),
    "panel_choice": ("choose_panel",),
    "add_leader": ("add_leader",),
    "action_result": ("action_result",),
    "confirm_result": ("confirm", "dispute"),
}
# Decision kind -> the rule it answers (named in ILLEGAL_COMMAND rejections).
RULE_OF = {
    "organise": "SOG 3.2", "insertion": "SOG 3.4", "lz_choice": "SOG 3.4.3", "abort_or_move": "SOG 3.5/3.9",
    "move": "SOG 3.5", "extraction_choice": "SOG 3.7", "panel_choice": "SOG 3.1.1/3.5/4.2.1",
    "add_leader": "SOG 4.1.1", "action_result": "SOG 3.8/5.1", "confirm_result": "SOG 3.8/5.1",
}


def new_state(options: dict) -> dict:
    return {"options": dict(options), "phase": "organise", "turn": 0, "objective": None, "team": None,
            "target": None, "target_home": None, "target_found_at": None, "searching": False,
            "reached_target": False, "insertion": None, "lzs": [], "pz": None, "extraction": None,
            "team_at": None, "vc": [], "vp": {"sog": 0, "nva": 0}, "queue": [], "await": None, "action": None,
            "actions_fought": 0, "aborted": False, "exited": False, "over": None}


def _cmd() -> command_pb2.Command:
    return command_pb2.Command()


class SogRuleset(Ruleset):
    game = "sog"
    version = "1"
    seats = ("sog", "nva")
    scenarios = ("mission",)
    # lz_count: SOG 3.4.2 (3) / 3.4.4 optional (1 to 5); unlimited_vc: SOG 3.5.3; random_squads: SOG 4.1.3.
    options = {"lz_count": 3, "unlimited_vc": False, "random_squads": False}

    def check_options(self, scenario, options):
        out = super().check_options(scenario, options)
        if not 1 <= out["lz_count"] <= 5:
            raise Rejection("BAD_OPTION", "SOG 3.4.4: lz_count is 1 to 5 LZ counters")
        return out

    # -- setup ----------------------------------------------------------------
    def setup(self, scenario, options, ctx: Context):
        s = new_state(options)
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

    def legal_commands(self, s, seat):
        d = self.pending(s)
        if d is None or d.seat != seat:
            return []
        out = []
        k = d.kind
        if k == "organise":
            return [team_mod.organise_command(m) for _, m in sorted(team_mod.TEMPLATES.items())]
        if k == "insertion":
            for r in insertion.foot_rows(s):
                c = _cmd()
                c.sog.insert.method, c.sog.insert.row = 1, r
                out.append(c)
            c = _cmd()
            c.sog.insert.method = 2
            out.append(c)
        elif k == "lz_choice":
            for x in s["lzs"]:
                c = _cmd()
                c.sog.choose_lz.lz = x["n"]
                out.append(c)
        elif k in ("move", "abort_or_move"):
            for sq in movement.legal_destinations(s):
                c = _cmd()
                c.sog.move.square = sq
                out.append(c)
            if k == "abort_or_move":
                for m in (1, 2):
                    c = _cmd()
                    c.sog.abort.method = m
                    out.append(c)
        elif k == "extraction_choice":
            for m in (1, 2):
                c = _cmd()
                c.sog.choose_extraction.method = m
                out.append(c)
        elif k == "panel_choice":
            for p in (2, 3):
                c = _cmd()
                c.sog.choose_panel.panel = p
                out.append(c)
        elif k == "add_leader":
            for n in range(0, len(s["action"]["squad_types"]) + 1):
                c = _cmd()
                c.sog.add_leader.squad = n
                out.append(c)
        elif k == "action_result":
            out = sample_results(s)
        elif k == "confirm_result":
            c = _cmd()
            c.sog.confirm.SetInParent()
            out.append(c)
            c = _cmd()
            c.sog.dispute.reason = "the submitted outcome does not match the action as played"
            out.append(c)
        return out

    # -- apply ----------------------------------------------------------------
    def apply(self, s, seat, command, ctx: Context):
        if command.WhichOneof("game") != "sog":
            raise Rejection("WRONG_GAME_COMMAND", "this is a MACV-SOG campaign (SOG): send a SogCommand")
        action = command.sog.WhichOneof("action")
        d = self.pending(s)
        if d is None:
            raise Rejection("GAME_OVER", "SOG 3.7.3: the campaign game has ended")
        if action not in ANSWERS[d.kind]:
            raise Rejection("ILLEGAL_COMMAND", f"{RULE_OF[d.kind]}: the pending decision is {d.kind} "
                            f"(answered by {' or '.join(ANSWERS[d.kind])}), not {action or 'an empty SogCommand'}")
        msg = getattr(command.sog, action)
        getattr(self, "_do_" + action)(s, msg, ctx)
        self._advance(s, ctx)
        return s

    def _do_organise(self, s, msg, ctx):
        s["team"] = team_mod.team_from_command(msg)  # SOG 3.2-3.2.4
        ctx.emit({"t": "team-organised", "team": s["team"], "rule": "SOG 3.2"})
        insertion.place_target(s, ctx)  # SOG 3.3
        s["phase"] = "insertion"

    def _do_insert(self, s, msg, ctx):
        if msg.method == 1:
            insertion.insert_foot(s, msg.row, ctx)
        elif msg.method == 2:
            insertion.insert_helicopter(s, ctx)
        else:
            raise Rejection("ILLEGAL_INSERTION", "SOG 3.4: insertion is on foot (3.4.1) or by helicopter (3.4.2)")

    def _do_choose_lz(self, s, msg, ctx):
        insertion.try_lz(s, msg.lz, ctx)

    def _do_abort(self, s, msg, ctx):
        extraction.abort(s, extraction.method_of(msg.method), ctx)

    def _do_choose_extraction(self, s, msg, ctx):
        s["await"] = None
        extraction.choose(s, extraction.method_of(msg.method), ctx)

    def _do_choose_panel(self, s, msg, ctx):
        tactical.choose_panel(s, msg.panel, ctx)

    def _do_add_leader(self, s, msg, ctx):
        tactical.add_leader(s, msg.squad, ctx)

    def _do_action_result(self, s, msg, ctx):
        tactical.submit(s, tactical.result_from_command(s, msg), ctx)

    def _do_confirm(self, s, msg, ctx):
        tactical.confirm(s, ctx)

    def _do_dispute(self, s, msg, ctx):
        tactical.dispute(s, msg.reason, ctx)

    def _do_move(self, s, msg, ctx):
        """SOG 2.2, 3.5: move (or hold), then the turn's steps."""
        sq = movement.destination(s, msg.square)
        prev = s["team_at"]
        s["team_at"] = sq
        ctx.emit({"t": "team-moved", "turn": s["turn"], "from": prev, "to": sq, "rule": "SOG 3.5"})
        steps: list[dict] = []
        if sq != prev:
            if s["pz"] is not None and sq == s["pz"]:  # SOG 3.7.1: removed immediately
                extraction.exit_map(s, ctx, "SOG 3.7.1: picked up at the PZ")
                return
            if sq == s["target"]:
                s["reached_target"] = True
            contact = sq != s["target"] and sq not in insertion.lz_squares(s)  # SOG 3.5 exceptions
            if extraction.on_exit_square(s, sq):
                steps.append({"k": "exit_check"})
            else:
                if contact:
                    steps.append({"k": "contact"})
                if search.is_search_square(s, sq):
                    steps.append({"k": "search"})
        steps += [{"k": "vc_move"}, {"k": "end_turn"}]
        s["queue"] = steps

    # -- the turn's queue -----------------------------------------------------
    def _advance(self, s, ctx):
        while s["over"] is None and s["action"] is None and s["await"] is None and s["queue"]:
            step = s["queue"].pop(0)
            k = step["k"]
            front: list[dict] = []
            if k == "contact":
                sq = s["team_at"]
                if movement.contact_possible(s, sq):
                    _, _, sp = movement.roll_contact(s, sq, ctx)
                    if sp is not None:
                        front.append({"k": "action", "spec": sp})
                else:
                    ctx.emit({"t": "contact-suspended", "square": sq, "rule": "SOG 3.5.2: ten VC counters on the map"})
            elif k == "search":
                if s["target"] is not None:
                    front = search.search(s, ctx)
            elif k == "exit_check":
                sp = extraction.exit_check(s, ctx)
                if sp is not None:
                    front.append({"k": "action", "spec": sp})
            elif k == "vc_move":
                for n in enemy.move_all(s, ctx):  # SOG 4.2, 4.2.1
                    front.append({"k": "action", "spec": vc_ambush(s["team_at"], n)})
            elif k == "end_turn":
                s["turn"] += 1
            elif k == "remove_target":
                search.remove_target(s, ctx, "SOG 3.6.1: removed at the conclusion of the action")
            elif k == "extraction_choice":
                if s["extraction"] is None:
                    s["await"] = "extraction_choice"
            elif k == "action":
                tactical.start(s, step["spec"], ctx)
            s["queue"] = front + s["queue"]

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

    def is_private(self, s, seat, command):  # until SOG is on the decision table (next commit)
        return False

    def copy_state(self, s):
        return pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))


def vc_ambush(sq: str, counter: int) -> dict:
    """SOG 4.2.1: a VC counter entering the team's square: Ambush, the SOG Team defending
    (it picks panel 2 or 3, orientation rolled), one VC squad entering from the south."""
    return tactical.spec("ambush", f"SOG 4.2.1: VC {counter} entered the team's square", sq, ["vc"], [counter],
                         sog_role="defender", nva_role="attacker", panel_by="sog",
                         panels="map panel 2 or 3 (the SOG Team's choice)",
                         entry="the VC squad enters the map from the south", notes=[])


def sample_results(s) -> list:
    """A handful of plausible, complete outcomes for the pending action (the
    outcome space is combinatorial; ``apply`` validates any submitted outcome)."""
    a = s["action"]
    letters = sorted(s["team"]["members"])
    n_squads = len(a["squad_types"])
    snatch = s["objective"] == "snatch" and a["mission"]
    out = []

    def make(cas=(), elim=(), taken=0, lost_pr=0, sog_vp=0, nva_vp=0):
        c = _cmd()
        r = c.sog.action_result
        r.casualties.extend(cas)
        r.squads_eliminated.extend(elim)
        r.prisoners_taken, r.prisoners_lost, r.sog_vp, r.nva_vp = taken, lost_pr, sog_vp, nva_vp
        out.append(c)

    make(elim=range(1, n_squads + 1), taken=1 if snatch else 0, sog_vp=10)   # a clean success
    make(sog_vp=3, nva_vp=3)                                                # a stand-off
    for letter in letters:                                                  # one man lost
        make(cas=[letter], sog_vp=2, nva_vp=5)
    if s["team"]["prisoners"]:
        make(lost_pr=1, nva_vp=3)
    make(cas=letters, nva_vp=15)                                            # the team wiped out
    return out
