"""The class as a property, for every game with hidden content: two hidden choices of the owner
that leave one public footprint must leave one public footprint for every later action too.

A game supplies ``Game`` (its ruleset, the seat that owns hidden content, the footprint of one owner
command, a digest of a state) and its walk (``check_walk``: the same public continuation on two
positions, comparing what the other seat and a spectator observe after each action: public events,
sealed events by recipient, views, the public decision, the other seat's legal commands, a refusal's
code and message). This module finds the pairs: in a position reached by a seeded walk from a
scenario's set-up, the owner's legal commands of one action (the nearest in their fields first) whose
own footprints are equal and whose states after differ (a hidden difference). tests/ntnd, tests/gmv
and tests/engine/test_duel_later_property.py use it."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from google.protobuf.json_format import MessageToDict


@dataclass(frozen=True)
class Game:
    rs: Any                                   # the ruleset instance (a released version)
    owner: str                                # the seat whose choices are hidden
    footprint: Callable[[dict, Any], Any]     # (state, owner command) -> what the others observe, or None if refused
    after: Callable[[dict, Any], dict]        # (state, owner command) -> the state after it


def _inner(c) -> tuple[str, dict]:
    g = c.WhichOneof("game")
    m = getattr(c, g)
    a = m.WhichOneof("action")
    return a or "", MessageToDict(getattr(m, a), preserving_proto_field_name=True) if a else {}


def _nearness(x: dict, y: dict) -> int:
    return sum(1 for k in set(x) | set(y) if x.get(k) == y.get(k))


def hidden_pair(game: Game, s: dict, rng: random.Random, tries: int = 2, width: int = 8):
    """Two owner commands at ``s`` (the owner's decision) with one footprint and different states after,
    or None: for each action of the legal list (in a seeded order), up to ``tries`` commands drawn
    from it, each against up to ``width`` others of its action, the nearest in their fields first."""
    legal = game.rs.legal_commands(s, game.owner)
    by_action: dict[str, list] = {}
    for c in legal:
        by_action.setdefault(_inner(c)[0], []).append(c)
    actions = sorted(a for a, cs in by_action.items() if len(cs) > 1)
    rng.shuffle(actions)
    digest = game.rs.digest
    for action in actions:
        group = by_action[action]
        for _ in range(tries):
            a = group[rng.randrange(len(group))]
            fa = game.footprint(s, a)
            if fa is None:
                continue
            da = digest(game.after(s, a))
            fields = _inner(a)[1]
            others = sorted((c for c in group if c is not a), key=lambda c: -_nearness(fields, _inner(c)[1]))
            for b in others[:width]:
                if game.footprint(s, b) == fa and digest(game.after(s, b)) != da:
                    return a, b
    return None


def walk_to_owner(game: Game, s: dict, steps: int, rng: random.Random, seat_pick=None) -> dict | None:
    """``s`` after ``steps`` seeded actions (each a legal command of the pending seat, drawn by
    ``seat_pick(rng, commands)`` or uniformly), then on to the owner's next decision (at most 40 more);
    None if the game ends first."""
    rs = game.rs
    for i in range(steps + 40):
        d = rs.pending(s)
        if d is None:
            return None
        if i >= steps and d.seat == game.owner:
            return s
        cs = rs.legal_commands(s, d.seat)
        if not cs:
            return None
        c = seat_pick(rng, cs) if seat_pick else cs[rng.randrange(len(cs))]
        if c is None:
            return None
        s = game.after(s, c) if d.seat == game.owner else _apply(rs, s, d.seat, c)
    return None


def _apply(rs, s: dict, seat: str, c) -> dict:
    from afteraction.engine.ruleset import Context
    return rs.apply(rs.copy_state(s), seat, c, Context.for_tests())
