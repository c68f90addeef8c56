"""Dice nobody can bias (SPEC.md section 5).

The dice key is derived from the server's committed secret and every seat's
revealed entropy. Roll ``i`` of die ``D`` draws each face from HMAC-SHA256 blocks
keyed by the dice key; a block holds four 64-bit candidates and a candidate
``x`` is accepted only if ``x < 2**64 - (2**64 mod n)``, so ``x mod n`` is exactly
uniform (rejection sampling, no modulo bias).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import CryptoError
from .hashing import TAG_DICE_KEY, TAG_ROLL, lp, tagged_hmac, u64

# die code -> (number of faces of each die, how many dice)
DICE: dict[str, tuple[int, int]] = {
    "d3": (3, 1),
    "d6": (6, 1),
    "d10": (10, 1),   # faces 1..10; rules that print "0" mean 10
    "d12": (12, 1),
    "2d6": (6, 2),    # result: the sum
    "2d10": (10, 2),  # result: the sum; SOG 3.3 reads the two faces separately
    "d66": (6, 2),    # NTND: first face the Communist die (tens), second the Allied die (ones)
}

_TWO64 = 1 << 64


def derive_dice_key(server_secret: bytes, game_id: str, seat_entropy: list[tuple[str, bytes]]) -> bytes:
    """dice_key = HMAC(server_secret, "aar1/dice-key" 0x00 || lp(game) || (lp(seat) || entropy)* in seat order)."""
    if len(server_secret) != 32:
        raise CryptoError("server secret must be 32 bytes")
    return tagged_hmac(server_secret, TAG_DICE_KEY, dice_key_message(game_id, seat_entropy))


def dice_key_message(game_id: str, seat_entropy: list[tuple[str, bytes]]) -> bytes:
    """The HMAC message of the dice key (after the tag): lp(game) || (lp(seat) || entropy)*."""
    msg = lp(game_id.encode())
    for seat, ent in seat_entropy:
        if len(ent) != 32:
            raise CryptoError(f"entropy of seat {seat} must be 32 bytes")
        msg += lp(seat.encode()) + ent
    return msg


def roll_message(index: int, die: str, k: int, attempt: int) -> bytes:
    """The HMAC message of one block (after the tag): u64(index) || lp(die) || u8(k) || u32(attempt)."""
    return u64(index) + lp(die.encode()) + bytes([k]) + struct.pack(">I", attempt)


def accept_limit(n: int) -> int:
    """Candidates below 2^64 - (2^64 mod n) are accepted (SPEC.md 5.4)."""
    return _TWO64 - (_TWO64 % n)


def draw_face(key: bytes, index: int, die: str, k: int, n: int) -> int:
    """Face ``k`` (0-based) of roll ``index`` of die code ``die``, uniform in 1..n."""
    limit = accept_limit(n)
    attempt = 0
    while True:
        block = tagged_hmac(key, TAG_ROLL, roll_message(index, die, k, attempt))
        for j in range(4):
            x = int.from_bytes(block[8 * j: 8 * j + 8], "big")
            if x < limit:
                return x % n + 1
        attempt += 1


def roll_faces(key: bytes, index: int, die: str) -> list[int]:
    try:
        n, count = DICE[die]
    except KeyError:
        raise CryptoError(f"unknown die {die!r}") from None
    return [draw_face(key, index, die, k, n) for k in range(count)]


def result_of(die: str, faces: list[int]) -> int:
    if die == "d66":
        return 10 * faces[0] + faces[1]
    return sum(faces)


@dataclass(frozen=True)
class Roll:
    index: int
    die: str
    faces: tuple[int, ...]
    result: int
    rule: str

    def event(self) -> dict:
        """The roll as it stands in the log (SPEC.md 5.4)."""
        return {"t": "roll", "i": self.index, "die": self.die, "faces": list(self.faces),
                "result": self.result, "rule": self.rule}


def roll(key: bytes, index: int, die: str, rule: str) -> Roll:
    faces = roll_faces(key, index, die)
    return Roll(index, die, tuple(faces), result_of(die, faces), rule)
