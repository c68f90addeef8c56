"""A signed command as the service receives it, parsed once: its bytes, the SignedCommand, the
CommandEnvelope inside, the bytes' digest, and the service's bounds on them (service/limits.py).
The servicer parses it from the request (its receipt and log line read the same envelope), the games
manager checks and stores it, and the referee accepts the parsed messages (``Referee.accept_envelope``)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from google.protobuf.message import DecodeError

from afteraction.engine.errors import Rejection
from afteraction.engine.codes import Code
from afteraction.v1 import envelope_pb2

from . import limits
from .status import Refusal


@dataclass(frozen=True)
class Command:
    signed: bytes   # the serialized SignedCommand (what the store keeps)
    sc: object      # envelope_pb2.SignedCommand
    env: object     # envelope_pb2.CommandEnvelope, parsed from sc.envelope
    digest: bytes   # SHA-256 of ``signed``: a retry of the same bytes is answered with its first result

    @staticmethod
    def parse(signed: bytes) -> "Command":
        """From the serialized SignedCommand; MALFORMED if it does not parse, the bounds checked."""
        try:
            sc = envelope_pb2.SignedCommand.FromString(signed)
        except DecodeError:
            raise Rejection(Code.MALFORMED, "not a serialized SignedCommand carrying a CommandEnvelope") from None
        return Command._of(sc, signed)

    @staticmethod
    def of(sc) -> "Command":
        """From a SignedCommand message a request carried (already parsed by gRPC)."""
        return Command._of(sc, sc.SerializeToString())

    @staticmethod
    def _of(sc, signed: bytes) -> "Command":
        try:
            env = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
        except DecodeError:
            raise Rejection(Code.MALFORMED, "not a serialized SignedCommand carrying a CommandEnvelope") from None
        check_envelope(sc, env)
        return Command(signed, sc, env, hashlib.sha256(signed).digest())


def envelope_or_none(raw: bytes):
    """The CommandEnvelope in ``raw``, or None (a refusal of bytes that do not parse has no game to name)."""
    try:
        return envelope_pb2.CommandEnvelope.FromString(raw)
    except Exception:  # noqa: BLE001
        return None


def check_records(records) -> None:
    for r in records:
        if len(r.raw) > limits.MAX_RECORD_BYTES:
            raise Refusal(Code.RECORD_TOO_LARGE, f"the command would make a record of {len(r.raw)} "
                          f"bytes; the limit is {limits.MAX_RECORD_BYTES}",
                          limit=limits.MAX_RECORD_BYTES, size=len(r.raw))


def check_envelope(sc, env) -> None:
    """The service's bounds on a parsed SignedCommand (service/limits.py), before the referee sees it."""
    if len(sc.envelope) > limits.MAX_ENVELOPE_BYTES:
        raise Refusal(Code.FIELD_TOO_LONG, f"the envelope is {len(sc.envelope)} bytes; the limit is "
                      f"{limits.MAX_ENVELOPE_BYTES}", field="envelope", limit=limits.MAX_ENVELOPE_BYTES,
                      size=len(sc.envelope))
    if not env.game_id:
        raise Rejection(Code.MALFORMED, "the envelope names no game")
    for name, v, n in (("game_id", env.game_id, limits.MAX_GAME_ID_CHARS), ("seat", env.seat, limits.MAX_NAME_CHARS)):
        if len(v) > n:
            raise Refusal(Code.FIELD_TOO_LONG, f"the envelope's {name} is {len(v)} characters; the limit is {n}",
                          field=f"envelope.{name}", limit=n, size=len(v))
    if not 1 <= env.counter <= limits.MAX_SEQ:
        raise Refusal(Code.OUT_OF_RANGE, f"the envelope's counter is {env.counter}; counters run from 1 "
                      f"(a seat's first envelope) to {limits.MAX_SEQ}", field="envelope.counter",
                      min=1, max=limits.MAX_SEQ)
    if env.state_seq > limits.MAX_SEQ:
        raise Refusal(Code.OUT_OF_RANGE, f"the envelope's state_seq is past {limits.MAX_SEQ}",
                      field="envelope.state_seq", max=limits.MAX_SEQ)
