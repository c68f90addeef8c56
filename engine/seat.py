"""A seat's side of the protocol: keys, the entropy handshake, signed envelopes
(SPEC.md 5.2 and 7). Used by the reference client, the bots and the tests."""
from __future__ import annotations

from dataclasses import dataclass

from afteraction.v1 import envelope_pb2

from .crypto import ed25519
from .crypto.commit import seat_entropy_commitment
from .referee import command_signing_bytes


@dataclass(frozen=True)
class Head:
    """What a seat binds an envelope to (format version 2, SPEC.md 7.1): the end of the log
    it has verified. ``seq`` is the number of records verified (the seq of the record the
    envelope will produce), ``prev`` the hash of the last of them, ``genesis`` the hash of
    record 0 (the entropy commitment covers it, SPEC.md 5.2)."""
    seq: int
    prev: bytes
    genesis: bytes


@dataclass
class SeatSigner:
    """A seat's Ed25519 key and its running counter."""
    seat: str
    seed: bytes
    counter: int = 0

    def __post_init__(self) -> None:
        self._key = ed25519.SigningKey(self.seed)
        self._public = self._key.public

    @property
    def public(self) -> bytes:
        return self._public

    def sign(self, env: envelope_pb2.CommandEnvelope) -> bytes:
        """Fill in seat and the next counter, sign, return a serialized SignedCommand."""
        self.counter += 1
        env.seat = self.seat
        env.counter = self.counter
        raw = env.SerializeToString(deterministic=True)
        sig = self._key.sign(command_signing_bytes(raw))
        return envelope_pb2.SignedCommand(envelope=raw, signature=sig).SerializeToString(deterministic=True)

    # ``head``: None for a version 1 game (no history binding); for version 2 the end of the
    # log the seat verified, which fills in state_seq and prev (SPEC.md 7.1-7.2).
    def entropy_commit(self, game_id: str, entropy: bytes, head: Head | None = None) -> bytes:
        env = _envelope(game_id, head)
        env.entropy_commit.commitment = seat_entropy_commitment(
            game_id, self.seat, entropy, None if head is None else head.genesis)
        return self.sign(env)

    def entropy_reveal(self, game_id: str, entropy: bytes, head: Head | None = None) -> bytes:
        env = _envelope(game_id, head)
        env.entropy_reveal.entropy = entropy
        return self.sign(env)

    def command(self, game_id: str, state_seq: int, command, head: Head | None = None) -> bytes:
        env = _envelope(game_id, head)
        env.state_seq = state_seq
        env.command.CopyFrom(command)
        return self.sign(env)

    # -- endings (SPEC.md 8.1): out of turn, bound to the end of the log like every v2 envelope
    def resign(self, game_id: str, head: Head) -> bytes:
        env = _envelope(game_id, head)
        env.ending.resign.SetInParent()
        return self.sign(env)

    def offer(self, game_id: str, head: Head, winner: str | None = None) -> bytes:
        """Offer a result: ``winner`` a seat, or None for a draw."""
        env = _envelope(game_id, head)
        env.ending.offer.SetInParent()
        env.ending.offer.winner = winner or ""
        return self.sign(env)

    def accept(self, game_id: str, head: Head, offer: int, winner: str | None = None) -> bytes:
        """Accept the offer of record ``offer`` (the record before ``head``) for ``winner``."""
        env = _envelope(game_id, head)
        env.ending.accept.SetInParent()
        env.ending.accept.offer = offer
        env.ending.accept.winner = winner or ""
        return self.sign(env)


def _envelope(game_id: str, head: Head | None) -> envelope_pb2.CommandEnvelope:
    env = envelope_pb2.CommandEnvelope(game_id=game_id)
    if head is not None:
        env.state_seq = head.seq
        env.prev = head.prev
    return env
