"""SOG bots. Bots are players, not the engine: they pick among the legal commands
(or build an outcome for a FIREPOWER action) with their own seeded Prng.

- ``afteraction.engine.bots.random_bot`` works as is: every SOG game it plays
  ends, because each action's offered outcomes include member losses and the
  team's elimination, and the random walk reaches the target and the edges
  (see docs/rules/sog.md, "Termination").
- ``sensible_bot(seed, view_of)`` plays both seats: the SOG side organises a full
  team, goes in by helicopter at the LZ nearest the target, heads for the target,
  searches the squares around it, then extracts (walks out when an edge is near,
  otherwise by helicopter); FIREPOWER outcomes are drawn from its Prng; the
  Vietnamese side confirms every outcome and adds its leader at random.
  ``view_of(seat)`` returns ``SogRuleset.view(state, seat)`` of the current game.
"""
from __future__ import annotations

from typing import Callable

from afteraction.v1 import command_pb2

from ...bots import Prng
from . import board


def _dest(cmd) -> str | None:
    return cmd.sog.move.square if cmd.sog.WhichOneof("action") == "move" else None


def _step_towards(legal: list, here: str, goal: str, avoid: set[str] = frozenset()):
    best, best_key = None, None
    for c in legal:
        sq = _dest(c)
        if sq is None:
            continue
        key = (board.distance(sq, goal), sq in avoid, sq == here, sq)
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def sensible_bot(seed, view_of: Callable[[str], dict]) -> Callable[[str, list], object]:
    prng = Prng(seed)
    memo: dict = {"searched": set()}

    def choose(seat: str, legal: list):
        v = view_of(seat)
        d = v["pending"]
        kind = d["kind"]
        if kind == "organise":
            return max(legal, key=lambda c: len(c.sog.organise.members))
        if kind == "insertion":
            return next(c for c in legal if c.sog.insert.method == 2)
        if kind == "lz_choice":
            lzs = {x["n"]: x["at"] for x in v["lzs"]}
            return min(legal, key=lambda c: (board.distance(lzs[c.sog.choose_lz.lz], v["target"]), c.sog.choose_lz.lz))
        if kind in ("move", "abort_or_move"):
            return _move(v, legal, memo)
        if kind == "extraction_choice":
            here = v["team_at"]
            r, c = board.rc(here)
            edge = min(c - 1, 10 - r)
            want = 2 if edge <= 3 else 1
            return next(x for x in legal if x.sog.choose_extraction.method == want)
        if kind == "panel_choice":
            return legal[prng.below(len(legal))]
        if kind == "add_leader":
            return legal[prng.below(len(legal))]
        if kind == "action_result":
            return _outcome(v, prng)
        if kind == "confirm_result":
            return next(c for c in legal if c.sog.WhichOneof("action") == "confirm")
        return legal[0]

    return choose


def _move(v: dict, legal: list, memo: dict):
    here = v["team_at"]
    if v["target"] is not None:
        t = v["target"]
        if not v["searching"]:
            return _step_towards(legal, here, t)
        memo["searched"].add(here)
        ring = [sq for sq in board.neighbours(t) if sq not in memo["searched"]]
        if not ring:  # every square around the target tried: go round again
            memo["searched"] = {here}
            ring = [sq for sq in board.neighbours(t) if sq != here]
        goal = min(ring, key=lambda sq: (board.distance(here, sq), sq))
        if board.adjacent(here, goal) or here == goal:
            return next((c for c in legal if _dest(c) == goal), _step_towards(legal, here, goal))
        return _step_towards(legal, here, goal, memo["searched"])
    if v["pz"] is not None:
        return _step_towards(legal, here, v["pz"])
    # SOG 3.7.2: walk to the nearest west or south edge square other than this one
    vc = {x["at"] for x in v["vc"]}
    exits = [sq for sq in board.ALL_SQUARES if board.is_exit_square(sq) and sq != here]
    goal = min(exits, key=lambda sq: (board.distance(here, sq), sq in vc, sq))
    return _step_towards(legal, here, goal, vc)


def _outcome(v: dict, prng: Prng):
    """A plausible FIREPOWER outcome: a few casualties, some squads broken, VP to match."""
    a = v["action"]
    members = sorted(v["team"]["members"])
    c = command_pb2.Command()
    r = c.sog.action_result
    cas = [m for m in members if prng.below(10) == 0]
    r.casualties.extend(cas)
    elim = [i + 1 for i in range(len(a["squad_types"])) if prng.below(3) == 0]
    r.squads_eliminated.extend(elim)
    if v["objective"] == "snatch" and a["mission"] and prng.below(2) == 0:
        r.prisoners_taken = 1
    if cas and v["team"]["prisoners"] and prng.below(4) == 0:
        r.prisoners_lost = 1
    r.sog_vp = 6 * len(elim) + prng.below(8) + 5 * r.prisoners_taken + (8 if a["mission"] else 0)
    r.nva_vp = 5 * len(cas) + prng.below(4)
    return c
