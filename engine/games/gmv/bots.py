"""GMV bots.

``random_bot`` (engine/bots.py) picks uniformly among ``legal_commands`` and
finishes games (the turn limit ends them). ``gmv_bot`` is a seeded bot that
plays a little more like a player so test games see every rule: it ends a
phase less often than a uniform pick would (so units act), and otherwise
picks uniformly, for the NVA over the public part of its commands first (``public_key``:
what it chooses shows nothing its hidden units decide). Deterministic (a SHA-256 counter stream, no
``random``).
"""
from __future__ import annotations

from typing import Callable

from ...bots import Prng, public_pick

#: what the US seat sees of an NVA command whose own footprint hides a choice (docs/rules/gmv.md "What
#: the opponent can see"): a hidden move, an infiltration's destination, a purchase's type, a hidden
#: placement's zone are drawn last
_HIDDEN_FIELDS = {"hidden_move": ("groups", "unit_ids", "to_zone"), "infiltrate": ("to_zone",), "buy": ("unit_type",),
                  "place": ("zone",)}


def public_key(c) -> tuple:
    """An NVA command in two parts for ``public_pick``: its action and public fields, then its hidden
    fields (``_HIDDEN_FIELDS``)."""
    a = c.gmv.WhichOneof("action")
    m = getattr(c.gmv, a)
    hidden = _HIDDEN_FIELDS.get(a, ())
    pub = tuple((f.name, repr(v)) for f, v in m.ListFields() if f.name not in hidden)
    sec = tuple((f.name, repr(v)) for f, v in m.ListFields() if f.name in hidden)
    return ((a,) + pub, sec)


def gmv_bot(seed, end_weight: int = 1, act_weight: int = 3) -> Callable[[str, list], object]:
    prng = Prng(seed)

    def choose(seat: str, legal: list):
        ends = [c for c in legal if c.gmv.WhichOneof("action") == "end_phase"]
        acts = [c for c in legal if c.gmv.WhichOneof("action") != "end_phase"]
        if ends and acts and prng.below(end_weight + act_weight) >= end_weight:
            return public_pick(prng, acts, public_key) if seat == "nva" else prng.choice(acts)
        return public_pick(prng, legal, public_key) if seat == "nva" else prng.choice(legal)

    return choose
