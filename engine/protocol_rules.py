"""The protocol's rules, once (SPEC.md 5.2, 7.1-7.3, 8.1): envelopes and counters, the dice
handshake and its entropy, the binding of an envelope to the log its seat saw, and the rules of
the endings every game has.

Pure predicates over plain values: each returns None when its rule holds, else the Rejection the
referee raises (its code and message; not raised here). The referee (engine/referee.py, and
engine/endings.py for the ending commands) raises it before it writes a record; the verifier
(engine/log/) asks the same predicate of a logged record and fails its step instead, in its own
words for the check (SPEC.md 10). The record model and the events are engine/protocol.py's; the
game clock and the standing offers, which both replay record by record, are engine/endings.py's
``Clock`` and ``Offers`` (read here).
"""
from __future__ import annotations

from .codes import Code
from .crypto import commit as _commit
from .errors import Rejection
from .protocol import is_deterministic_encoding

#: the bytes of a seat's entropy and of its commitment (SPEC.md 5.2)
ENTROPY_BYTES = 32
#: the format version from which an offer stands until another seat makes a record that is not an
#: offer, so an answer bound before other seats' offers is still in place (SPEC.md 8.1)
OFFERS_STAND = 3


# -- the envelope (SPEC.md 7.1-7.3) ------------------------------------------------------------
def encoding_problem(v: int, env, raw: bytes) -> Rejection | None:
    """v >= 2: an envelope is the one deterministic protobuf encoding of its fields."""
    if v >= 2 and not is_deterministic_encoding(env, raw):
        return Rejection(Code.MALFORMED, "the envelope is not the deterministic protobuf encoding of its fields "
                         "(unknown, repeated or out-of-order fields, non-minimal varints: SPEC.md 7.1)")
    return None


def game_problem(named: str, game: str) -> Rejection | None:
    """An envelope names the game it is for."""
    return Rejection(Code.WRONG_GAME, "the envelope names another game") if named != game else None


def seat_problem(seat: str, seats) -> Rejection | None:
    """An envelope names a seat of the game."""
    return Rejection(Code.UNKNOWN_SEAT, f"no seat {seat!r} in this game") if seat not in seats else None


def counter_problem(seat: str, last: int, counter: int) -> Rejection | None:
    """A seat's counters go 1, 2, 3...: the next one is ``last`` + 1."""
    if counter <= last:
        return Rejection(Code.COUNTER_REUSED, f"seat {seat} already used counter {counter}")
    if counter != last + 1:
        return Rejection(Code.COUNTER_GAP, f"seat {seat}'s next counter is {last + 1}, not {counter}")
    return None


def ended_problem(ended: bool) -> Rejection | None:
    """Nothing follows the end of a game (the end record is the log's last)."""
    return Rejection(Code.GAME_OVER, "the game has ended") if ended else None


def position_problem(v: int, seat: str, state_seq: int, prev: bytes, seq: int, hash_of, offer_by):
    """Whether an envelope of ``seat`` bound to (``state_seq``, ``prev``) may make record ``seq``
    (v >= 2; the one rule of the referee, the verifier and the tools that place an envelope):
    (code, message) if not, else None. ``hash_of(n)``: the hash of record n (None if unknown);
    ``offer_by(n)``: the seat whose offer record n is, else None. In v = 2 the envelope is bound to
    the record before ``seq``; from v = OFFERS_STAND the records between may also be offers of
    other seats (an offer neither stales nor delays anyone else's answer)."""
    if len(prev) != 32:
        return ("MALFORMED", "the envelope does not carry prev, the 32-byte hash of the record "
                             "before the one it produces (format version >= 2, SPEC.md 7.1)")
    skip = state_seq < seq and v >= OFFERS_STAND and all(
        offer_by(n) not in (None, seat) for n in range(state_seq, seq))
    if state_seq != seq and not skip:
        return ("STALE_STATE", f"the envelope was made for state {state_seq}; the log is at {seq}")
    want = hash_of(state_seq - 1)
    if prev != want:
        return ("WRONG_HISTORY", f"the envelope is bound to record {state_seq - 1} with hash "
                                 f"{prev.hex()[:16]}..., this log's record {state_seq - 1} has hash "
                                 f"{(want or b'').hex()[:16]}...: the seat saw another history")
    return None


def binding_problem(v: int, seat: str, state_seq: int, prev: bytes, seq: int, offers) -> Rejection | None:
    """v >= 2 (SPEC.md 7.1-7.2): every envelope is bound to the end of the log its seat verified,
    ``state_seq`` = the next seq and ``prev`` = the hash of the last record; from v = OFFERS_STAND
    that end may be followed by other seats' offers (``position_problem``; ``offers``: the
    standing offers, engine/endings.py's ``Offers``). None in v1 (``stale_problem``)."""
    if v < 2:
        return None
    why = position_problem(v, seat, state_seq, prev, seq, offers.hash_of, offers.offer_by)
    if why is None:
        return None
    code, message = why
    if code == "MALFORMED":
        return Rejection(Code.MALFORMED, message)
    if code == "STALE_STATE":
        return Rejection(Code.STALE_STATE, message)
    return Rejection(Code.WRONG_HISTORY, message)


def stale_problem(v: int, state_seq: int, seq: int) -> Rejection | None:
    """v1: a game command is made for the log's size (``state_seq`` = the next seq)."""
    if v < 2 and state_seq != seq:
        return Rejection(Code.STALE_STATE, f"the command was made for state {state_seq}; the log is at {seq}")
    return None


# -- the dice handshake (SPEC.md 5.2) ------------------------------------------------------------
def commit_problem(seat: str, commits, started: bool) -> Rejection | None:
    """Every seat commits to its entropy once, before the handshake completes."""
    if started:
        return Rejection(Code.HANDSHAKE_OVER, "the dice handshake is complete")
    if seat in commits:
        return Rejection(Code.ALREADY_COMMITTED, f"seat {seat} has committed its entropy")
    return None


def commitment_problem(commitment: bytes) -> Rejection | None:
    """An entropy commitment is ENTROPY_BYTES bytes."""
    if len(commitment) != ENTROPY_BYTES:
        return Rejection(Code.MALFORMED, "an entropy commitment is 32 bytes")
    return None


def reveal_order_problem(commits, seats: int, started: bool) -> Rejection | None:
    """Entropy is revealed after every seat (of ``seats``) committed, before the handshake completes."""
    if started:
        return Rejection(Code.HANDSHAKE_OVER, "the dice handshake is complete")
    if len(commits) < seats:
        return Rejection(Code.HANDSHAKE_INCOMPLETE, "entropy is revealed only after every seat has committed "
                         "(SPEC.md 5.2)")
    return None


def reveal_binding_problem(v: int, state_seq: int, committed_at: int) -> Rejection | None:
    """v >= 2: a reveal is bound to a log that holds every commitment (``committed_at``: the seq
    after the last one): whoever held a log without them could have chosen a commitment knowing
    this entropy."""
    if v >= 2 and state_seq < committed_at:
        return Rejection(Code.HANDSHAKE_INCOMPLETE, f"the reveal is bound to the log at state {state_seq}, before "
                         f"every seat had committed (the last commitment is record {committed_at - 1})")
    return None


def revealed_problem(seat: str, revealed) -> Rejection | None:
    """A seat reveals its entropy once."""
    if seat in revealed:
        return Rejection(Code.ALREADY_REVEALED, f"seat {seat} has revealed its entropy")
    return None


def entropy_problem(game: str, seat: str, entropy: bytes, genesis, commitment: bytes) -> Rejection | None:
    """The revealed entropy is ENTROPY_BYTES bytes and opens the seat's commitment, bound to the
    game, the seat and (v >= 2) the genesis record ``genesis``."""
    bound = genesis.hash if genesis.v >= 2 else None
    if len(entropy) != ENTROPY_BYTES \
            or _commit.seat_entropy_commitment(game, seat, entropy, bound) != commitment:
        return Rejection(Code.BAD_REVEAL, f"the entropy does not match seat {seat}'s commitment")
    return None


def play_problem(started: bool) -> Rejection | None:
    """A game command comes after the dice handshake (a resignation may come before: ``ending_problem``)."""
    if not started:
        return Rejection(Code.HANDSHAKE_INCOMPLETE, "the dice handshake must complete before play (SPEC.md 5.2)")
    return None


# -- the endings every game has (SPEC.md 8.1) --------------------------------------------------
def ending_version_problem(v: int) -> Rejection | None:
    """Ending commands are in format version 2 and later."""
    if v < 2:
        return Rejection(Code.MALFORMED, "ending commands (resign, offer, accept) need format version 2")
    return None


def ending_problem(kind: str, started: bool) -> Rejection | None:
    """A seat may resign at any time; a result is offered or accepted once the game has started."""
    if kind != "resign" and not started:
        return Rejection(Code.HANDSHAKE_INCOMPLETE, "a result is offered or accepted only once the game has started")
    return None


def offer_problem(offers, seat: str) -> Rejection | None:
    """v >= OFFERS_STAND: one standing offer per seat (``offers``: engine/endings.py's ``Offers``)."""
    why = offers.offer_problem(seat)
    return None if why is None else Rejection(Code.OFFER_STANDING, why[1])


def accept_problem(offers, seat: str, seq: int, offer: int, winner: str | None) -> Rejection | None:
    """An acceptance names a standing offer of another seat, for the same result (SPEC.md 8.1)."""
    why = offers.accept_problem(seat, seq, offer, winner)
    return None if why is None else Rejection(Code.NO_OFFER, why[1])
