"""Rejection codes -> gRPC status codes, with google.rpc.ErrorInfo details.

Every error the service returns carries ErrorInfo(reason=<code>, domain=DOMAIN)
in the rich status details (grpc-status-details-bin), so clients read the
machine-readable reason. The codes, their statuses and meanings are engine/codes.py's
``Code`` (docs/service-codes.md's table is generated from it); a client reads the ErrorInfo
with ``afteraction.client.client.error_info``.
"""
from __future__ import annotations

import logging
import os

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from afteraction.engine.codes import DOMAIN, Code
from afteraction.engine.errors import AfteractionError, Rejection

from . import limits

log = logging.getLogger("afteraction.service")

#: reason -> gRPC status, from the one enum of codes (engine/codes.py)
_BY_CODE = {c.value: grpc.StatusCode[c.status] for c in Code}
#: a code no ``Code`` names (tests/engine/test_codes.py fails on any such code raised in
#: engine/ or service/): a command that does not fit the current state
DEFAULT = grpc.StatusCode.FAILED_PRECONDITION


def status_for(code: str) -> grpc.StatusCode:
    return _BY_CODE.get(code, DEFAULT)


class Internal(AfteractionError):
    """The store and the referee disagree: a bug or a tampered store."""


class Refusal(Rejection):
    """A Rejection raised by the service itself, with ErrorInfo metadata (e.g. the limit and the size)."""

    def __init__(self, code: Code, message: str, **metadata) -> None:
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
    in grpc-status-details-bin; message and metadata values cut to the limits. A ``receipt`` in
    ``metadata`` (a refused envelope's signed Receipt, SPEC.md 7.5; None: none) is not metadata:
    it is a second detail after the ErrorInfo."""
    sc = status_for(code)
    metadata = dict(metadata or {})
    receipt = metadata.pop("receipt", None)
    md = {str(k)[:limits.MAX_METADATA_VALUE_CHARS]: _cut(str(v), limits.MAX_METADATA_VALUE_CHARS)
          for k, v in metadata.items()}
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=code, domain=DOMAIN, metadata=md))
    details = [detail]
    if receipt is not None:
        details.append(any_pb2.Any())
        details[-1].Pack(receipt)
    return rpc_status.to_status(status_pb2.Status(code=sc.value[0], message=_cut(message, limits.MAX_ERROR_MESSAGE_CHARS),
                                                  details=details))


def incident_id() -> str:
    return os.urandom(8).hex()


def status_of(e: BaseException, rpc: str = "") -> grpc.Status:
    """The status a caller gets for ``e``: a Rejection's own code (and its rule, metadata
    ``rule``); a store failure STORE_UNAVAILABLE; anything else INTERNAL with an incident id
    that is also logged. No driver or library message reaches the caller, and neither does a
    Rejection's ``input`` (the sender has it; nobody else may see it)."""
    from .store import StoreError

    md = {"rpc": rpc} if rpc else {}
    if isinstance(e, Rejection):
        md.update(getattr(e, "metadata", {}))
        if e.rule:
            md["rule"] = e.rule
        md["receipt"] = getattr(e, "receipt", None)  # a refused envelope's signed receipt (SPEC.md 7.5)
        return rich_status(e.code, e.message, md)
    inc = incident_id()
    md["incident"] = inc
    if isinstance(e, StoreError):
        log.error("incident %s: %s: store error: %s", inc, rpc, e, extra={"incident": inc, "rpc": rpc})
        return rich_status(Code.STORE_UNAVAILABLE, f"the store is unavailable; retry (incident {inc})", md)
    if isinstance(e, Internal):
        log.error("incident %s: %s: %s", inc, rpc, e, extra={"incident": inc, "rpc": rpc})
        return rich_status(Code.INTERNAL, f"the stored log and the referee disagree (incident {inc})", md)
    log.error("incident %s: %s: unexpected %s", inc, rpc, type(e).__name__, exc_info=e,
              extra={"incident": inc, "rpc": rpc})
    return rich_status(Code.INTERNAL, f"internal error (incident {inc})", md)
