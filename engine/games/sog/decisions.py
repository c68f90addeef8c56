"""MACV-SOG's decision table (engine/decisions.py): each decision kind the phases ask (phases.py),
declared once with its rule, the ``SogCommand`` actions that answer it and the rule function each
applies, and its legal-answer enumerator. docs/rules/sog.md "Decisions" lists them.

Three spaces are *described* (``complete=False``): a team (``organise``: the decision's data is
``team.limits()``), an action's outcome (``action_result``: ``tactical.result_space``) and a
dispute's free-text reason (``confirm_result``). ``legal`` offers a representative sample of each
and the apply function validates any answer.
"""
from __future__ import annotations

from afteraction.v1 import command_pb2

from ...decisions import DecisionKind, DecisionTable
from . import extraction, insertion, mission, movement, tactical, team as team_mod, turn

SAY = "MACV-SOG (SOG)"


def _cmd(action: str, **fields) -> command_pb2.Command:
    c = command_pb2.Command()
    m = getattr(c.sog, action)
    m.SetInParent()
    for k, v in fields.items():
        setattr(m, k, v)
    return c


# -- apply: SogCommand action message -> the rule (state, seat, msg, ctx) ----------------------
def _organise(s, seat, msg, ctx):
    mission.organise(s, team_mod.team_from_command(msg), ctx)


def _insert(s, seat, msg, ctx):
    insertion.insert(s, msg.method, msg.row, ctx)


def _choose_lz(s, seat, msg, ctx):
    insertion.try_lz(s, msg.lz, ctx)


def _move(s, seat, msg, ctx):
    turn.move(s, msg.square, ctx)


def _abort(s, seat, msg, ctx):
    extraction.abort(s, extraction.method_of(msg.method), ctx)


def _choose_extraction(s, seat, msg, ctx):
    s["await"] = None
    extraction.choose(s, extraction.method_of(msg.method), ctx)


def _choose_panel(s, seat, msg, ctx):
    tactical.choose_panel(s, msg.panel, ctx)


def _add_leader(s, seat, msg, ctx):
    tactical.add_leader(s, msg.squad, ctx)


def _action_result(s, seat, msg, ctx):
    tactical.submit(s, tactical.result_from_command(s, msg), ctx)


def _confirm(s, seat, msg, ctx):
    tactical.confirm(s, ctx)


def _dispute(s, seat, msg, ctx):
    tactical.dispute(s, msg.reason, ctx)


# -- legal answers ------------------------------------------------------------------------------
def _legal_organise(s, d):
    return [team_mod.organise_command(m) for _, m in sorted(team_mod.TEMPLATES.items())]


def _legal_insertion(s, d):
    return [_cmd("insert", method=1, row=r) for r in insertion.foot_rows(s)] + [_cmd("insert", method=2)]


def _legal_lz(s, d):
    return [_cmd("choose_lz", lz=x["n"]) for x in s["lzs"]]


def _legal_move(s, d):
    return [_cmd("move", square=sq) for sq in movement.legal_destinations(s)]


def _legal_abort_or_move(s, d):
    return _legal_move(s, d) + [_cmd("abort", method=m) for m in (1, 2)]


def _legal_extraction(s, d):
    return [_cmd("choose_extraction", method=m) for m in (1, 2)]


def _legal_panel(s, d):
    return [_cmd("choose_panel", panel=p) for p in (2, 3)]


def _legal_leader(s, d):
    return [_cmd("add_leader", squad=n) for n in range(0, len(s["action"]["squad_types"]) + 1)]


def _legal_confirm(s, d):
    return [_cmd("confirm"), _cmd("dispute", reason="the submitted outcome does not match the action as played")]


def sample_results(s, d=None) -> list:
    """A handful of plausible, complete outcomes for the pending action (the
    outcome space is combinatorial; ``apply`` validates any submitted outcome)."""
    a = s["action"]
    letters = sorted(s["team"]["members"])
    n_squads = len(a["squad_types"])
    snatch = s["objective"] == "snatch" and a["mission"]
    out = []

    def make(cas=(), elim=(), taken=0, lost_pr=0, sog_vp=0, nva_vp=0):
        c = _cmd("action_result")
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


DECISIONS = DecisionTable("sog", SAY, [
    DecisionKind("organise", "SOG 3.2", {"organise": _organise}, _legal_organise, complete=False,
                 space="a team of members and their weapons and equipment within the limits in data "
                       "(team.limits: SOG 3.2-3.2.4); legal offers the templates"),
    DecisionKind("insertion", "SOG 3.4", {"insert": _insert}, _legal_insertion,
                 "on foot (method 1) at a row of column A (data foot_rows), or by helicopter (method 2)"),
    DecisionKind("lz_choice", "SOG 3.4.3", {"choose_lz": _choose_lz}, _legal_lz, "one of the LZs in data lzs"),
    DecisionKind("abort_or_move", "SOG 3.5/3.9", {"move": _move, "abort": _abort}, _legal_abort_or_move,
                 "move to (or hold at) a square next to data at, or abort with extraction method 1 or 2"),
    DecisionKind("move", "SOG 3.5", {"move": _move}, _legal_move, "move to (or hold at) a square next to data at"),
    DecisionKind("extraction_choice", "SOG 3.7", {"choose_extraction": _choose_extraction}, _legal_extraction,
                 "helicopter pick-up (1) or walking out (2)"),
    DecisionKind("panel_choice", "SOG 3.1.1/3.5/4.2.1", {"choose_panel": _choose_panel}, _legal_panel,
                 "map panel 2 or 3"),
    DecisionKind("add_leader", "SOG 4.1.1", {"add_leader": _add_leader}, _legal_leader,
                 "squad 1 or 2 (of those in the action) gets the leader, or 0 for none"),
    DecisionKind("action_result", "SOG 3.8/5.1", {"action_result": _action_result}, sample_results, complete=False,
                 space="the action's outcome: casualties, items lost, squads eliminated, prisoners, VP within "
                       "data (tactical.result_space); legal offers a sample"),
    DecisionKind("confirm_result", "SOG 3.8/5.1", {"confirm": _confirm, "dispute": _dispute}, _legal_confirm,
                 "confirm the submitted outcome, or dispute it with any reason (legal offers one)", complete=False),
])
