"""The server's signed receipt for an envelope it received (SPEC.md 7.5).

The service answers every envelope whose bytes parse, accepted or refused, with a ``Receipt``
(proto/afteraction/v1/game_service.proto) signed by the server key that signs the game's
checkpoints. The signed message is

    "aar1/receipt" || 0x00 || lp(game_id) || lp(seat) || u64(counter) || u64(state_seq)
        || lp(prev) || envelope_hash || lp(decision) || u64(seq) || u64(received_ms)

with ``envelope_hash = tagged_hash("aar1/envelope", envelope bytes)``, ``decision`` "accepted" or
"refused/<CODE>", ``seq`` the record that carries an accepted envelope (0 when refused). Built
here once: the service signs it (``make``), the reference client and ``aar evidence`` check it
(``problem``). Pure: no clock (the service passes its time), no I/O.
"""
from __future__ import annotations

from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

from .crypto.ed25519 import verify_signature
from .crypto.hashing import TAG_ENVELOPE, TAG_RECEIPT, lp, tag_prefix, tagged_hash, u64

ACCEPTED = "accepted"
REFUSED = "refused/"
#: failures that are no decision on an envelope and carry no receipt (SPEC.md 7.5): the request
#: did not reach the referee (its bytes past a limit) or the server failed (the client retries)
NO_DECISION = frozenset({"INTERNAL", "STORE_UNAVAILABLE", "REQUEST_TOO_LARGE", "FIELD_TOO_LONG", "OUT_OF_RANGE"})


def envelope_hash(envelope: bytes) -> bytes:
    """Which envelope a receipt is for: SHA-256("aar1/envelope" 0x00 || envelope bytes)."""
    return tagged_hash(TAG_ENVELOPE, envelope)


def decision_of(code: str | None) -> str:
    """The receipt's decision: "accepted" (``code`` None) or "refused/<code>"."""
    return ACCEPTED if code is None else REFUSED + code


def message(r: gs.Receipt) -> bytes:
    """The bytes the server key signs (SPEC.md 7.5)."""
    return (tag_prefix(TAG_RECEIPT) + lp(r.game_id.encode()) + lp(r.seat.encode()) + u64(r.counter)
            + u64(r.state_seq) + lp(r.prev) + r.envelope_hash + lp(r.decision.encode()) + u64(r.seq)
            + u64(r.received_ms))


def make(sign, envelope: bytes, env: envelope_pb2.CommandEnvelope, code: str | None, seq: int,
         received_ms: int) -> gs.Receipt:
    """The receipt for ``envelope`` (parsed: ``env``), signed with ``sign(msg) -> signature`` (the
    server key's). ``code``: None if accepted, else the refusal's reason; ``seq``: the record that
    carries an accepted envelope."""
    r = gs.Receipt(game_id=env.game_id, seat=env.seat, counter=env.counter, state_seq=env.state_seq,
                   prev=env.prev, envelope_hash=envelope_hash(envelope), decision=decision_of(code),
                   seq=seq if code is None else 0, received_ms=received_ms)
    r.signature = sign(message(r))
    return r


def problem(r: gs.Receipt | None, server_key: bytes, envelope: bytes | None = None) -> str | None:
    """Why ``r`` is not a good receipt under ``server_key`` (32 bytes) for ``envelope`` (when
    given: the one the holder sent), or None. Checks the signature (SPEC.md 7.4), the shape, and
    that every field naming the envelope is the envelope's."""
    if r is None:
        return "no receipt"
    if len(r.envelope_hash) != 32:
        return "its envelope_hash is not 32 bytes"
    if r.decision != ACCEPTED and not (r.decision.startswith(REFUSED) and len(r.decision) > len(REFUSED)):
        return f"its decision {r.decision[:40]!r} is neither 'accepted' nor 'refused/<CODE>'"
    if r.decision != ACCEPTED and r.seq != 0:
        return "a refusal's receipt names a record"
    if not verify_signature(server_key, message(r), r.signature):
        return "its signature does not verify with the server key"
    if envelope is not None:
        env = envelope_pb2.CommandEnvelope.FromString(envelope)
        got = (r.game_id, r.seat, r.counter, r.state_seq, bytes(r.prev), bytes(r.envelope_hash))
        want = (env.game_id, env.seat, env.counter, env.state_seq, bytes(env.prev), envelope_hash(envelope))
        if got != want:
            return "it names another envelope than the one sent (game, seat, counter, state_seq, prev or hash)"
    return None


def code_of(r: gs.Receipt) -> str | None:
    """The refusal's reason a receipt gives, None for an accepted envelope."""
    return None if r.decision == ACCEPTED else r.decision[len(REFUSED):]
