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


def random_bot(seed) -> Callable[[str, list], object]:
    """Picks uniformly among the legal commands."""
    prng = Prng(seed)
    return lambda seat, legal: prng.choice(legal)
