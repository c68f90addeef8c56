"""GMV bots.

``random_bot`` (engine/bots.py) picks uniformly among ``legal_commands`` and
finishes games (the turn limit ends them). ``gmv_bot`` is a seeded bot that
plays a little more like a player so test games see every rule: it ends a
phase less often than a uniform pick would (so units act), and otherwise
picks uniformly. Deterministic (a SHA-256 counter stream, no ``random``).
"""
from __future__ import annotations

from typing import Callable

from ...bots import Prng


def gmv_bot(seed, end_weight: int = 1, act_weight: int = 3) -> Callable[[str, list], object]:
    prng = Prng(seed)

    def choose(seat: str, legal: list):
        ends = [c for c in legal if c.gmv.WhichOneof("action") == "end_phase"]
        acts = [c for c in legal if c.gmv.WhichOneof("action") != "end_phase"]
        if ends and acts and prng.below(end_weight + act_weight) >= end_weight:
            return prng.choice(acts)
        return prng.choice(legal)

    return choose
