"""Helpers for the SOG rule tests: drive SogRuleset directly with forced dice."""
from __future__ import annotations

from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog import team as team_mod
from afteraction.engine.games.sog.rules import SogRuleset
from afteraction.engine.ruleset import Context
from afteraction.v1 import command_pb2

RS = SogRuleset()


def new(faces=(), **options) -> dict:
    opts = RS.check_options("mission", options)
    return RS.setup("mission", opts, Context.for_tests(faces=list(faces)))


def do(s: dict, seat: str, cmd, faces=()) -> tuple[dict, list[dict]]:
    """Apply ``cmd`` for ``seat`` (which must hold the pending decision) on a copy."""
    d = RS.pending(s)
    assert d is not None and d.seat == seat, (d, seat)
    ctx = Context.for_tests(faces=list(faces))
    before = RS.copy_state(s)
    try:
        out = RS.apply(RS.copy_state(s), seat, cmd, ctx)
    except Rejection:
        assert s == before  # a rejection changes nothing
        raise
    return out, [e for e, _ in ctx.events]


def of(events, t) -> list[dict]:
    return [e for e in events if e["t"] == t]


def cmd() -> command_pb2.Command:
    return command_pb2.Command()


def organise(name: str = "twelve (3 Americans, 9 Nung)"):
    return team_mod.organise_command(team_mod.TEMPLATES[name])


def members(n_americans=3, n_nung=9) -> list[dict]:
    """A legal team as dicts (edit it, then turn it into a command with team.organise_command)."""
    import copy
    base = copy.deepcopy(team_mod.TEMPLATES["twelve (3 Americans, 9 Nung)"])
    return base[:n_americans] + base[3:3 + n_nung]


def move(sq: str):
    c = cmd()
    c.sog.move.square = sq
    return c


def insert(method: int, row: int = 0):
    c = cmd()
    c.sog.insert.method = method
    c.sog.insert.row = row
    return c


def choose_lz(n: int):
    c = cmd()
    c.sog.choose_lz.lz = n
    return c


def extraction(method: int):
    c = cmd()
    c.sog.choose_extraction.method = method
    return c


def abort(method: int):
    c = cmd()
    c.sog.abort.method = method
    return c


def panel(p: int):
    c = cmd()
    c.sog.choose_panel.panel = p
    return c


def leader(n: int):
    c = cmd()
    c.sog.add_leader.squad = n
    return c


def result(casualties=(), elim=(), taken=0, lost=0, sog_vp=0, nva_vp=0, lost_equipment=(), recovered=()):
    c = cmd()
    r = c.sog.action_result
    r.casualties.extend(casualties)
    r.squads_eliminated.extend(elim)
    r.prisoners_taken, r.prisoners_lost, r.sog_vp, r.nva_vp = taken, lost, sog_vp, nva_vp
    for letter, code, n in lost_equipment:
        it = r.lost_equipment.add()
        it.letter, it.code, it.count = letter, code, n
    for f, t, code, n in recovered:
        it = r.recovered.add()
        it.from_letter, it.to_letter, it.code, it.count = f, t, code, n
    return c


def confirm():
    c = cmd()
    c.sog.confirm.SetInParent()
    return c


def dispute(reason="no"):
    c = cmd()
    c.sog.dispute.reason = reason
    return c


def in_play(objective_face=1, target=(2, 6), row=8, team="twelve (3 Americans, 9 Nung)", **options) -> dict:
    """A game after 3.1 (objective), 3.2 (team), 3.3 (target) and a foot insertion at row-A."""
    s = new([objective_face], **options)
    s, _ = do(s, "sog", organise(team), faces=list(target))
    s, _ = do(s, "sog", insert(1, row))
    return s


def place_team(s: dict, sq: str) -> dict:
    s = RS.copy_state(s)
    s["team_at"] = sq
    return s
