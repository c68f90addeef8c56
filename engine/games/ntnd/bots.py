"""No Trumpets No Drums: a seeded heuristic bot for demos and tests.

``tet_bot(seed)`` returns ``choose(seat, legal)`` like ``afteraction.engine.bots.random_bot``
(so ``LocalGame.run_bots`` and the service's bot runner can use it) and, like it, sees only the
legal commands: no hidden information. It plays a little less aimlessly than the uniform bot:
it attacks when it can, keeps recruits hidden, rarely flips its own stacks, ambushes more often
than not, advances with everything, and ends a movement phase only now and then. Deterministic:
choices come from ``Prng`` (no ``random`` module).
"""
from __future__ import annotations

from typing import Callable

from ...bots import Prng


def _action(c) -> str:
    return c.ntnd.WhichOneof("action")


def tet_bot(seed) -> Callable[[str, list], object]:
    prng = Prng(b"ntnd-tet-bot/" + (seed if isinstance(seed, bytes) else str(seed).encode()))

    def pick(cands: list):
        return cands[prng.below(len(cands))]

    def chance(num: int, den: int) -> bool:
        return prng.below(den) < num

    def choose(seat: str, legal: list):
        by: dict[str, list] = {}
        for c in legal:
            by.setdefault(_action(c), []).append(c)
        done = by.get("done", [])
        if "attack" in by and (not done or chance(4, 5)):
            return pick(by["attack"])                               # 3.1.4 / 3.2.6 / 8.6.3
        if "ambush" in by and (not done or chance(3, 5)):
            return pick(by["ambush"])                               # 20.2
        if "advance" in by:
            return max(by["advance"], key=lambda c: len(c.ntnd.advance.units))  # 19.4: all in
        if "place" in by:
            hidden = [c for c in by["place"] if c.ntnd.place.inverted or c.ntnd.place.unit]
            return pick(hidden or by["place"])                      # 4.1: recruits stay hidden
        if "promote" in by or "break_down" in by:
            return pick(by.get("promote", []) + by.get("break_down", []))   # 6.1
        if "flip" in by or "invert" in by:                          # 6.2: mostly keep stacks hidden
            inverts = by.get("invert", [])
            if inverts and chance(1, 2):
                return pick(inverts)
            if done and not chance(1, 20):
                return done[0]
            return pick(by.get("flip", []) + inverts)
        if "move" in by and (not done or not chance(1, 25)):
            return pick(by["move"])
        if done:
            return done[0]
        return pick(legal)

    return choose
