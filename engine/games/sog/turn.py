"""SOG 2.2, 3.5-3.7 and 4.2: one turn. The team moves one square (or holds); the move builds the
turn's queue of steps (contact or exit check, search, VC movement, end of turn) and ``advance``
runs the queue until a step needs a decision (an action, the extraction choice); answering that
decision resumes the queue (``run_queue``: the flow's automatic steps, phases.py, after every command)."""
from __future__ import annotations

from . import enemy, extraction, insertion, movement, search, tactical


def move(s: dict, square: str, ctx) -> None:
    """SOG 2.2, 3.5: move (or hold), then the turn's steps."""
    sq = movement.destination(s, square)
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


def run_queue(s: dict, ctx) -> None:
    """Run the turn's queue until a step needs a decision or the game is over."""
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


def vc_ambush(sq: str, counter: int) -> dict:
    """SOG 4.2.1: a VC counter entering the team's square: Ambush, the SOG Team defending
    (it picks panel 2 or 3, orientation rolled), one VC squad entering from the south."""
    return tactical.spec("ambush", f"SOG 4.2.1: VC {counter} entered the team's square", sq, ["vc"], [counter],
                         sog_role="defender", nva_role="attacker", panel_by="sog",
                         panels="map panel 2 or 3 (the SOG Team's choice)",
                         entry="the VC squad enters the map from the south", notes=[])
