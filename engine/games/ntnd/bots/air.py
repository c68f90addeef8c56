"""No Trumpets No Drums: the campaign bot's air war (11, 12), seeing only the legal commands.

The Allies fly most of the missions offered: ground support first (in the Allied Reaction, 8.8.1.2, and
next to their units, 11.1.2), then air supply to units out of supply (11.1.3), then strategic bombing
(11.1.1), then helicopter transport (11.1.4), and end the phase now and then; the Communist seat fires every hidden AA unit it may (12.1).
"""
from __future__ import annotations

ORDER = ("support", "supply", "bomb", "transport")


def choose(seat: str, by: dict, done: list, prng):
    """The bot's air answer, or None when no air decision is offered."""
    if "aa_fire" in by:
        return max(by["aa_fire"], key=lambda c: len(c.ntnd.aa_fire.units))
    if "fly" not in by:
        return None
    if done and prng.below(6) == 0:
        return done[0]
    for kind in ORDER:
        cands = [c for c in by["fly"] if c.ntnd.fly.mission == kind]
        if cands and prng.below(4) != 0:
            return cands[prng.below(len(cands))]
    return done[0] if done else by["fly"][prng.below(len(by["fly"]))]
