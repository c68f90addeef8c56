"""Raw bytes to every method of the web port (Connect binary and JSON to the unary ones, gRPC-Web
to all): every refusal is a status with an ErrorInfo and its reason, as on the native port
(tests/faults); never an error without one, never an HTTP 500."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import WebServer
from .webcall import Web, _connect_error, _frame



@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = WebServer(tmp_path_factory.mktemp("fuzz"))
    try:
        yield s
    finally:
        s.stop()


def _paths(srv):
    return sorted(srv.run.web.server.config.app.paths)


def _unary(path: str) -> bool:
    """A unary method (Connect's unary content types are for those; a server stream such as Watch,
    ExportBundle or the league's exports answers them 415), from the protos' own descriptors."""
    from google.protobuf import descriptor_pool

    from afteraction.v1 import audit_service_pb2, game_service_pb2, league_service_pb2  # noqa: F401 (registers them)
    service, _, method = path.strip("/").partition("/")
    return not descriptor_pool.Default().FindServiceByName(service).FindMethodByName(method).server_streaming


def _check_connect(web: Web, path: str, body: bytes, ctype: str):
    conn, r = web.post(path, body, ctype, {"Connect-Protocol-Version": "1"})
    try:
        data = r.read()
        assert r.status != 500, (path, data[:200])
        if r.status == 200:
            return
        err = json.loads(data)
        assert re.fullmatch(r"[A-Z][A-Z_]+", _connect_error(err).reason), (path, err)   # an ErrorInfo reason
    finally:
        conn.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200), i=st.integers(min_value=0, max_value=100))
def test_connect_binary_and_json_garbage_get_error_info(srv, data, i):
    web = Web("127.0.0.1", srv.web_port)
    paths = [p for p in _paths(srv) if _unary(p)]
    path = paths[i % len(paths)]
    _check_connect(web, path, data, "application/proto")
    _check_connect(web, path, data, "application/json")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200), i=st.integers(min_value=0, max_value=100))
def test_grpc_web_garbage_gets_a_status_with_error_info(srv, data, i):
    import base64

    from google.rpc import status_pb2

    web = Web("127.0.0.1", srv.web_port)
    path = _paths(srv)[i % len(_paths(srv))]
    conn, r = web.post(path, _frame(0, data), "application/grpc-web+proto", {"X-Grpc-Web": "1"})
    try:
        body = r.read()
        assert r.status == 200, (path, r.status)
        trailers = {k.lower(): v for k, v in r.getheaders()}
        # the last frame is the trailers frame (flag 0x80) unless the answer was trailers-only
        p = 0
        while p + 5 <= len(body):
            flag, n = body[p], int.from_bytes(body[p + 1:p + 5], "big")
            if flag & 0x80:
                for line in body[p + 5:p + 5 + n].decode().split("\r\n"):
                    if line:
                        k, _, v = line.partition(":")
                        trailers[k.strip().lower()] = v.strip()
            p += 5 + n
        code = trailers.get("grpc-status")
        assert code is not None, (path, trailers)
        if code != "0":
            st_ = status_pb2.Status.FromString(base64.b64decode(trailers["grpc-status-details-bin"] + "=="))
            assert st_.details and st_.details[0].type_url.endswith("google.rpc.ErrorInfo")
    finally:
        conn.close()
