"""Seeded bots. Deterministic without `random`: a SHA-256 counter stream."""
from __future__ import annotations

import hashlib
from typing import Callable

from .errors import InternalValueError


class Prng:
    """A deterministic stream of uniform integers (rejection sampling, no modulo bias)."""

    def __init__(self, seed: bytes | int | str) -> None:
        self._seed = seed if isinstance(seed, bytes) else str(seed).encode()
        self._n = 0

    def below(self, n: int) -> int:
        if n <= 0:
            raise InternalValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self._n += 1
            x = int.from_bytes(hashlib.sha256(self._seed + self._n.to_bytes(8, "big")).digest()[:8], "big")
            if x < limit:
                return x % n

    def choice(self, seq):
        return seq[self.below(len(seq))]


def public_pick(prng: Prng, cands: list, key: Callable[[object], tuple]):
    """One of ``cands`` drawn level by level over ``key(c)``, a tuple of the same length for every
    candidate: first one of the sorted distinct values of its first item, then of the second among the
    candidates left, and so on; one draw per level whatever the count, so the stream stays in step.
    A bot that puts the public part of a command first (the piece and path of a move, the hex of an
    inverted recruit) and its hidden part last (the recruit's type) chooses the same public footprint in
    two positions that differ only in hidden content whenever the public parts offered are the same; a uniform draw over the whole list would not, since the list's length and order
    follow the hidden content."""
    keys = [key(c) for c in cands]
    left = list(range(len(cands)))
    for level in range(len(keys[0])):
        values = sorted({keys[i][level] for i in left})
        v = values[prng.below(len(values))]
        left = [i for i in left if keys[i][level] == v]
    return cands[left[prng.below(len(left))]]


def random_bot(seed) -> Callable[[str, list], object]:
    """Picks uniformly among the legal commands."""
    prng = Prng(seed)
    return lambda seat, legal: prng.choice(legal)
