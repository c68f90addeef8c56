"""A seat's ending commands (SPEC.md 8.1): resign, offer a result, accept the other seat's offer.
Mixed into ``Seat`` (client.py): each is signed at the end of the log the seat verified, out of
turn, like every format-version-2 envelope."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ending:
    """What ``choose`` may return instead of a command (SPEC.md 8.1): ``Ending("resign")``,
    ``Ending("offer", winner)`` (winner None: a draw)."""
    kind: str
    winner: str | None = None


class SeatEndings:
    """Needs the Seat's ``catch_up``, ``head``, ``_sign``, ``submit``, ``signer``, ``verifier``,
    ``game_id``, ``seat`` and ``Refused`` (its RefusedToSign)."""

    def _answer_offer(self, on_offer, asked: list):
        """The signed acceptance of another seat's offer standing in the last record verified, if
        ``on_offer((seq, seat, winner))`` says so (asked once per offer), else None."""
        o = self.verifier.ends.offers.latest(self.seat) if on_offer and self.verifier.ends is not None else None
        if o is None or o[0] <= asked[0]:
            return None
        asked[0] = o[0]
        if not on_offer(o):
            return None
        head = self.head()
        return self._sign(lambda: self.signer.accept(self.game_id, head, o[0], o[2]))

    def keep_refused(self, reason: str, signed: bytes | None) -> bool:
        """A command refused because the game had ended first (a time-out or abandonment written
        before it, SPEC.md 8.2): not an error, the end record follows. Its signed envelope is the
        seat's evidence of its answer at that position: kept beside the checkpoint file as
        ``<checkpoint_file>.refused-<counter>`` (``aar evidence`` reads it)."""
        if reason not in ("GAME_OVER", "TIME_EXPIRED"):
            return False
        if signed and self.checkpoint_file:
            from afteraction.v1 import envelope_pb2

            from .evidence import _durable_write

            env = envelope_pb2.CommandEnvelope.FromString(envelope_pb2.SignedCommand.FromString(signed).envelope)
            _durable_write(f"{self.checkpoint_file}.refused-{env.counter}", signed)
        return True

    def _sign_ending(self, make):
        self.catch_up()
        head = self.head()   # refuses a game of an older format than the newest (SPEC.md 11)
        return self.submit(self._sign(lambda: make(head)))

    def resign(self):
        """Resign: the game ends at once, the other seat wins."""
        return self._sign_ending(lambda h: self.signer.resign(self.game_id, h))

    def offer(self, winner: str | None = None):
        """Offer a result: ``winner`` a seat, None for a draw. It lapses at the next record (format
        2), or stands until another seat answers it (format 3; OFFER_STANDING until then)."""
        return self._sign_ending(lambda h: self.signer.offer(self.game_id, h, winner))

    def standing_offer(self) -> tuple[int, str, str | None] | None:
        """(seq, seat, winner) of another seat's offer that stands (format 2: in the last record
        verified; 3: until this seat answers it), or None."""
        self.catch_up()
        return self.verifier.ends.offers.latest(self.seat) if self.verifier.ends is not None else None

    def accept(self, offer: int | None = None, winner: str | None = None):
        """Accept another seat's standing offer (``offer``, ``winner``: what it must be)."""
        o = self.standing_offer()
        if o is None or (offer is not None and (offer, winner) != (o[0], o[2])):
            raise self.Refused(f"seat {self.seat}: no such offer stands in the last record it verified")
        return self._sign_ending(lambda h: self.signer.accept(self.game_id, h, o[0], o[2]))
