"""MACV-SOG's phases and when each decision is asked (engine/phases.py; the kinds, their answers
and legal lists: decisions.py).

The mission's phases (``s["phase"]``): ``organise`` (SOG 3.2), ``insertion`` (3.4), ``lz`` (3.4.3)
and ``play``, the turns (3.5-3.9). Each phase is ended by the rule its answer applies
(mission.organise, insertion.insert, insertion.try_lz set the next), not by the loop.

Asked before the phase's own question, in every phase (the interrupts): an action in progress
(SOG 3.8, 5.1: its map panel, the NVA's leader, the outcome, the NVA's confirmation), then the
extraction choice a turn's step awaits (3.7). Between answers the loop first runs the turn's queue
of steps (turn.run_queue: contact, search, exit check, VC movement, end of turn) until a step
needs a decision.
"""
from __future__ import annotations

from ...phases import Flow, Phase, ask
from . import insertion, mission, tactical, team as team_mod, turn


def _stage(stage: str):
    return lambda s: s["action"] is not None and s["action"]["stage"] == stage


def _confirming(s) -> bool:
    return s["action"] is not None and s["action"]["stage"] not in ("panel", "leader", "result")


def _may_abort(s) -> bool:
    """SOG 3.9: the team may abort until it has reached the Target (once there is one)."""
    return s["target"] is not None and not s["reached_target"]


def _turn(s) -> str:
    return f"turn {s['turn']}: move one square (or hold)"


INTERRUPTS = (
    ask("panel_choice", lambda s: s["action"]["panel_by"], lambda s: f"action {s['action']['id']}: choose map panel 2 or 3",
        lambda s: {"action": s["action"]["id"]}, when=_stage("panel"), rule="SOG 3.1.1/3.5/4.2.1"),
    ask("add_leader", "nva", "SOG 4.1.1: add 1C (PST4) to squad 1 or 2, or 0 for none",
        lambda s: {"action": s["action"]["id"]}, when=_stage("leader"), rule="SOG 4.1.1"),
    # the outcome space is combinatorial: described by the data, validated by the answer's rule
    ask("action_result", "sog", lambda s: f"action {s['action']['id']} ({s['action']['scenario']}): submit the outcome",
        lambda s: {"action": s["action"]["id"], "disputes": s["action"]["disputes"], **tactical.result_space(s)},
        when=_stage("result"), rule="SOG 3.8/5.1"),
    ask("confirm_result", "nva", lambda s: f"action {s['action']['id']}: confirm or dispute the submitted outcome",
        lambda s: {"action": s["action"]["id"], "result": s["action"]["result"]}, when=_confirming, rule="SOG 3.8/5.1"),
    ask("extraction_choice", "sog", "SOG 3.7: helicopter pick-up or walking out",
        when=lambda s: s["await"] == "extraction_choice", rule="SOG 3.7"),
)

FLOW = Flow("sog", (
    # the team space is combinatorial: described by the data (team.limits), validated by the answer
    Phase("organise", "SOG 3.2", "sog", (ask(
        "organise", "sog", lambda s: f"SOG 3.2: organise the team for {mission.OBJECTIVE_NAMES[s['objective']]}",
        lambda s: team_mod.limits()),)),
    Phase("insertion", "SOG 3.4", "sog", (ask(
        "insertion", "sog", "SOG 3.4: insertion on foot (column A) or by helicopter",
        lambda s: {"foot_rows": insertion.foot_rows(s)}),)),
    Phase("lz", "SOG 3.4.3", "sog", (ask(
        "lz_choice", "sog", "SOG 3.4.3: choose the LZ to try", lambda s: {"lzs": [x["n"] for x in s["lzs"]]}),)),
    Phase("play", "SOG 3.5-3.9", "sog", (
        ask("abort_or_move", "sog", lambda s: _turn(s) + ", or abort (SOG 3.9)", lambda s: {"at": s["team_at"]},
            when=_may_abort),
        ask("move", "sog", _turn, lambda s: {"at": s["team_at"]}))),
), phase_of=lambda s: s["phase"], over=lambda s: s["over"] is not None, interrupts=INTERRUPTS,
    settle=turn.run_queue)
