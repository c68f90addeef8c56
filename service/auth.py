"""Seat authentication for reads of a seat's private data (docs/service.md).

A seat proves it holds its key by signing, with Ed25519,

    "aar1/auth" 0x00 || lp(game_id) || lp(seat) || u64(issued_at_ms) || lp(nonce)

(lp = u32 big-endian length prefix, u64 big-endian). The server accepts a token
whose issued_at_ms lies within WINDOW_MS of its own clock. A token may be reused
for its lifetime; verified tokens are cached (a cache only: any replica verifies
any token from the genesis keys, nothing is held that one process must own).
Commands are not authenticated this way: each SignedCommand carries its own
signature (SPEC.md 7). The token's bytes and signing are engine/protocol.py's (the client
signs with the same functions); this module checks tokens.
"""
from __future__ import annotations

import os
import threading
import time

from afteraction.engine.crypto.ed25519 import verify_signature
from afteraction.engine.errors import Rejection
from afteraction.engine.codes import Code
from afteraction.engine.protocol import auth_message, seat_auth
from afteraction.v1 import game_service_pb2 as gs

WINDOW_MS = 5 * 60 * 1000   # a token is good for five minutes either side of the server clock


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def make_auth(seed: bytes, game_id: str, seat: str, issued_at_ms: int | None = None,
              nonce: bytes | None = None) -> gs.SeatAuth:
    """A token signed now (for the service's tests and benchmarks; the client has its own
    clock and calls engine/protocol.py's ``seat_auth`` the same way)."""
    return seat_auth(seed, game_id, seat, now_ms() if issued_at_ms is None else issued_at_ms,
                     os.urandom(16) if nonce is None else nonce)


class AuthChecker:
    def __init__(self, window_ms: int = WINDOW_MS, cache_size: int = 4096) -> None:
        self.window_ms = window_ms
        self._cache: dict[tuple, int] = {}
        self._lock = threading.Lock()
        self._cache_size = cache_size

    def check(self, auth: gs.SeatAuth, game_id: str, seat_keys: dict[str, bytes]) -> str:
        """Return the authenticated seat or raise Rejection."""
        if not auth.seat:
            raise Rejection(Code.AUTH_REQUIRED, "this read needs a SeatAuth signed by the seat's key")
        if auth.seat not in seat_keys:
            raise Rejection(Code.UNKNOWN_SEAT, f"no seat {auth.seat!r} in this game")
        t = now_ms()
        if abs(t - auth.issued_at_ms) > self.window_ms:
            raise Rejection(Code.AUTH_EXPIRED, f"the SeatAuth was issued more than {self.window_ms // 1000} s "
                                            "from the server clock; sign a fresh one")
        key = (game_id, auth.seat, auth.issued_at_ms, auth.nonce, auth.signature)
        with self._lock:
            if key in self._cache:
                return auth.seat
        if len(auth.nonce) != 16:
            raise Rejection(Code.BAD_AUTH, "the SeatAuth nonce is 16 bytes")
        if not verify_signature(seat_keys[auth.seat], auth_message(game_id, auth.seat, auth.issued_at_ms, auth.nonce),
                                auth.signature):  # the one rule of SPEC.md 7.4
            raise Rejection(Code.BAD_AUTH, f"the SeatAuth signature does not verify with seat {auth.seat}'s key")
        with self._lock:
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            self._cache[key] = t
        return auth.seat
