"""Rejection codes -> gRPC status codes, with google.rpc.ErrorInfo details.

Every error the service returns carries ErrorInfo(reason=<code>, domain=DOMAIN)
in the rich status details (grpc-status-details-bin), so clients read the
machine-readable reason; docs/service.md lists them.
"""
from __future__ import annotations

import logging
import os

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from afteraction.engine.errors import Rejection

from . import limits

log = logging.getLogger("afteraction.service")
DOMAIN = "afteraction"

_BY_CODE = {
    # authentication
    "BAD_SIGNATURE": grpc.StatusCode.UNAUTHENTICATED,
    "BAD_AUTH": grpc.StatusCode.UNAUTHENTICATED,
    "AUTH_EXPIRED": grpc.StatusCode.UNAUTHENTICATED,
    "AUTH_REQUIRED": grpc.StatusCode.UNAUTHENTICATED,
    # seats
    "NOT_YOUR_DECISION": grpc.StatusCode.PERMISSION_DENIED,
    "UNKNOWN_SEAT": grpc.StatusCode.PERMISSION_DENIED,
    "WRONG_SEAT": grpc.StatusCode.PERMISSION_DENIED,
    # retries
    "COUNTER_REUSED": grpc.StatusCode.ALREADY_EXISTS,
    "LOST_RACE": grpc.StatusCode.ABORTED,
    # requests that cannot be right in any state
    "MALFORMED": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_ARGUMENT": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_COSIGNATURE": grpc.StatusCode.INVALID_ARGUMENT,  # SPEC.md 4.5: not the seat's cosignature
    "WRONG_GAME": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_SEATS": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_SEAT_KEY": grpc.StatusCode.INVALID_ARGUMENT,
    "WEAK_SEAT_KEY": grpc.StatusCode.INVALID_ARGUMENT,
    "SHARED_SEAT_KEY": grpc.StatusCode.INVALID_ARGUMENT,
    "UNKNOWN_SCENARIO": grpc.StatusCode.INVALID_ARGUMENT,
    "UNKNOWN_OPTION": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_OPTION": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_CLOCK": grpc.StatusCode.INVALID_ARGUMENT,   # SPEC.md 8.2: a time control outside its bounds
    "BAD_RESULT": grpc.StatusCode.INVALID_ARGUMENT,  # SPEC.md 8.1: an offer for a winner that is no seat
    "COMMAND_TOO_LARGE": grpc.StatusCode.INVALID_ARGUMENT,  # SPEC.md 6.5: larger than its padded size
    "UNKNOWN_RULESET": grpc.StatusCode.INVALID_ARGUMENT,
    "FIELD_TOO_LONG": grpc.StatusCode.INVALID_ARGUMENT,
    "RECORD_TOO_LARGE": grpc.StatusCode.INVALID_ARGUMENT,
    "UNKNOWN_RPC": grpc.StatusCode.UNIMPLEMENTED,
    # limits of the server (service/limits.py)
    "REQUEST_TOO_LARGE": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "TOO_MANY_STREAMS": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "OVERLOADED": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "OUT_OF_RANGE": grpc.StatusCode.OUT_OF_RANGE,
    "UNKNOWN_GAME": grpc.StatusCode.NOT_FOUND,
    "UNKNOWN_SERVICE": grpc.StatusCode.NOT_FOUND,   # a health check of a service this server does not have
    "DEADLINE": grpc.StatusCode.DEADLINE_EXCEEDED,
    "SHUTTING_DOWN": grpc.StatusCode.UNAVAILABLE,
    "STORE_UNAVAILABLE": grpc.StatusCode.UNAVAILABLE,
    "INTERNAL": grpc.StatusCode.INTERNAL,
}
# WRONG_SERVER_KEY (a replica with another key than the game's genesis) is FAILED_PRECONDITION too.
# Everything else a referee or ruleset raises (STALE_STATE, WRONG_HISTORY, HANDSHAKE_*, GAME_OVER,
# ILLEGAL_*, COUNTER_GAP, ALREADY_COMMITTED, BAD_REVEAL, NOT_ENDED, NO_OFFER, TIME_EXPIRED, ...) is a
# command that does not fit the current state: FAILED_PRECONDITION.
DEFAULT = grpc.StatusCode.FAILED_PRECONDITION


def status_for(code: str) -> grpc.StatusCode:
    return _BY_CODE.get(code, DEFAULT)


class Refusal(Rejection):
    """A Rejection raised by the service itself, with ErrorInfo metadata (e.g. the limit and the size)."""

    def __init__(self, code: str, message: str, **metadata) -> None:
        super().__init__(code, message)
        self.metadata = {k: str(v) for k, v in metadata.items()}


def quote(s) -> str:
    """A caller's input, quoted for an error message: at most limits.QUOTE_CHARS of it."""
    if isinstance(s, (bytes, bytearray)):
        s = bytes(s).hex()
    s = str(s)
    n = limits.QUOTE_CHARS
    return repr(s[:n]) + ("..." if len(s) > n else "")


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 3] + "..."


def rich_status(code: str, message: str, metadata: dict | None = None) -> grpc.Status:
    """The status of reason ``code``: google.rpc.Status with ErrorInfo(reason, domain, metadata)
    in grpc-status-details-bin; message and metadata values cut to the limits."""
    sc = status_for(code)
    md = {str(k)[:limits.MAX_METADATA_VALUE_CHARS]: _cut(str(v), limits.MAX_METADATA_VALUE_CHARS)
          for k, v in (metadata or {}).items()}
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=code, domain=DOMAIN, metadata=md))
    return rpc_status.to_status(status_pb2.Status(code=sc.value[0], message=_cut(message, limits.MAX_ERROR_MESSAGE_CHARS),
                                                  details=[detail]))


def incident_id() -> str:
    return os.urandom(8).hex()


def status_of(e: BaseException, rpc: str = "") -> grpc.Status:
    """The status a caller gets for ``e``: a Rejection's own code; a store failure
    STORE_UNAVAILABLE; anything else INTERNAL with an incident id that is also logged.
    No driver or library message reaches the caller."""
    from .games import Internal
    from .store import StoreError

    md = {"rpc": rpc} if rpc else {}
    if isinstance(e, Rejection):
        md.update(getattr(e, "metadata", {}))
        return rich_status(e.code, e.message, md)
    inc = incident_id()
    md["incident"] = inc
    if isinstance(e, StoreError):
        log.error("incident %s: %s: store error: %s", inc, rpc, e)
        return rich_status("STORE_UNAVAILABLE", f"the store is unavailable; retry (incident {inc})", md)
    if isinstance(e, Internal):
        log.error("incident %s: %s: %s", inc, rpc, e)
        return rich_status("INTERNAL", f"the stored log and the referee disagree (incident {inc})", md)
    log.error("incident %s: %s: unexpected %s", inc, rpc, type(e).__name__, exc_info=e)
    return rich_status("INTERNAL", f"internal error (incident {inc})", md)


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo of a failed call (client side), or None."""
    st = rpc_status.from_call(err) if hasattr(err, "trailing_metadata") else None
    if st is None:
        return None
    for d in st.details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            return info
    return None
