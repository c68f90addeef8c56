"""The error contract every non-OK answer must meet (docs/service.md):
the trailer ``grpc-status-details-bin`` holds a ``google.rpc.Status`` whose code is the
call's, with at least one ``google.rpc.ErrorInfo`` detail whose domain is "afteraction" and
whose reason is one of the project's codes, mapped to the call's status code by
``service/status.py``; the message is bounded (no input echoed unbounded)."""
from __future__ import annotations

import pathlib
import re

import grpc
from google.rpc import error_details_pb2, status_pb2

from afteraction.service import status as service_status

REPO = pathlib.Path(__file__).resolve().parents[2]
MAX_MESSAGE = 1024            # characters of status message a refusal may carry
DOMAIN = "afteraction"
_RAISE = re.compile(r'Rejection\(\s*"([A-Z][A-Z0-9_]*)"')


def known_reasons() -> frozenset[str]:
    """The project's codes: the one enum where the code has one (an Enum or a collection of
    names in service/status.py or engine/errors.py), else every code the code raises plus
    the status table's (a superset: this check must not pass a reason made up on the spot)."""
    from afteraction.engine import errors as engine_errors

    for mod in (service_status, engine_errors):
        for name in ("Code", "ErrorCode", "Reason", "CODES", "REASONS"):
            v = getattr(mod, name, None)
            if v is not None:
                try:
                    return frozenset(getattr(m, "name", m) for m in v)
                except TypeError:
                    pass
    found = set(getattr(service_status, "_BY_CODE", {}))
    for folder in ("engine", "service"):
        for f in (REPO / folder).rglob("*.py"):
            found.update(_RAISE.findall(f.read_text()))
    return frozenset(found)


KNOWN = known_reasons()


def status_details(err: grpc.RpcError) -> status_pb2.Status | None:
    for k, v in err.trailing_metadata() or ():
        if k == "grpc-status-details-bin":
            return status_pb2.Status.FromString(v)
    return None


def check_error(err: grpc.RpcError, what: str = "") -> error_details_pb2.ErrorInfo:
    """Assert ``err`` meets the contract; its ErrorInfo."""
    code = err.code()
    where = f"{what}: {code.name} {err.details()!r}"
    assert code not in (grpc.StatusCode.OK, grpc.StatusCode.UNKNOWN), where
    st = status_details(err)
    assert st is not None, f"{where}: no grpc-status-details-bin"
    assert st.code == code.value[0], f"{where}: details say code {st.code}"
    infos = []
    for d in st.details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            infos.append(info)
    assert infos, f"{where}: no ErrorInfo among the details"
    info = infos[0]
    assert info.domain == DOMAIN, f"{where}: domain {info.domain!r}"
    assert info.reason in KNOWN, f"{where}: reason {info.reason!r} is not one of the project's codes"
    assert service_status.status_for(info.reason) == code, f"{where}: reason {info.reason} is not mapped to {code.name}"
    assert len(err.details() or "") <= MAX_MESSAGE, f"{what}: a {len(err.details())}-character message"
    return info
