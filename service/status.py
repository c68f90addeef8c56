"""Rejection codes -> gRPC status codes, with google.rpc.ErrorInfo details.

Every error the service returns carries ErrorInfo(reason=<code>, domain=DOMAIN)
in the rich status details (grpc-status-details-bin), so clients read the
machine-readable reason; docs/service.md lists them.
"""
from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

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
    "COMMAND_TOO_LARGE": grpc.StatusCode.INVALID_ARGUMENT,  # SPEC.md 6.5: larger than its padded size
    "UNKNOWN_RULESET": grpc.StatusCode.INVALID_ARGUMENT,
    "OUT_OF_RANGE": grpc.StatusCode.OUT_OF_RANGE,
    "UNKNOWN_GAME": grpc.StatusCode.NOT_FOUND,
    "DEADLINE": grpc.StatusCode.DEADLINE_EXCEEDED,
    "SHUTTING_DOWN": grpc.StatusCode.UNAVAILABLE,
    "STORE_UNAVAILABLE": grpc.StatusCode.UNAVAILABLE,
    "INTERNAL": grpc.StatusCode.INTERNAL,
}
# WRONG_SERVER_KEY (a replica with another key than the game's genesis) is FAILED_PRECONDITION too.
# Everything else a referee or ruleset raises (STALE_STATE, WRONG_HISTORY, HANDSHAKE_*, GAME_OVER,
# ILLEGAL_*, COUNTER_GAP, ALREADY_COMMITTED, BAD_REVEAL, NOT_ENDED, ...) is a
# command that does not fit the current state: FAILED_PRECONDITION.
DEFAULT = grpc.StatusCode.FAILED_PRECONDITION


def status_for(code: str) -> grpc.StatusCode:
    return _BY_CODE.get(code, DEFAULT)


def rich_status(code: str, message: str) -> grpc.Status:
    sc = status_for(code)
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=code, domain=DOMAIN))
    return rpc_status.to_status(status_pb2.Status(code=sc.value[0], message=message, details=[detail]))


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
