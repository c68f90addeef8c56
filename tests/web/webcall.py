"""A small Python client of the web transport (Connect unary and server-streaming, gRPC-Web),
written from the protocols' specifications with http.client, so the tests read the wire as a
browser's library would. ``WebStub`` answers like a gRPC stub (``stub.Method(request)``), raising
``WebError`` (a grpc.RpcError with the status and its ErrorInfo) on a refusal, so the reference
client's code (clients/python/client.py, seat.py) runs over it unchanged."""
from __future__ import annotations

import base64
import http.client
import json
import struct

import grpc
from google.protobuf import any_pb2
from google.rpc import status_pb2

from afteraction.client.client import error_info

CONNECT_CODES = {c.name.lower(): c for c in grpc.StatusCode}
CONNECT_CODES["canceled"] = grpc.StatusCode.CANCELLED


class WebError(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, message: str, details: list[any_pb2.Any], http_status: int = 0):
        super().__init__(message)
        self._code, self._message, self.http_status = code, message, http_status
        self._status = status_pb2.Status(code=code.value[0], message=message, details=details)

    def code(self):
        return self._code

    def details(self):
        return self._message

    def trailing_metadata(self):
        return (("grpc-status-details-bin", self._status.SerializeToString()),)

    @property
    def reason(self) -> str:
        info = error_info(self)
        return info.reason if info else ""


def _b64d(s: str) -> bytes:
    return base64.b64decode(s + "=" * (-len(s) % 4))


def _connect_error(obj: dict, http_status: int = 0) -> WebError:
    details = [any_pb2.Any(type_url="type.googleapis.com/" + d["type"], value=_b64d(d["value"]))
               for d in obj.get("details", [])]
    return WebError(CONNECT_CODES[obj.get("code", "unknown")], obj.get("message", ""), details, http_status)


def _frame(flags: int, data: bytes) -> bytes:
    return struct.pack(">BI", flags, len(data)) + data


def _frames(resp):
    while True:
        head = resp.read(5)
        if not head:
            return
        flags, n = struct.unpack(">BI", head)
        yield flags, resp.read(n)


class Web:
    def __init__(self, host: str, port: int, timeout: float = 30.0, origin: str | None = None) -> None:
        self.host, self.port, self.timeout, self.origin = host, port, timeout, origin

    def post(self, path: str, body: bytes, ctype: str, extra: dict | None = None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        hs = {"Content-Type": ctype, **(extra or {})}
        if self.origin:
            hs["Origin"] = self.origin
        conn.request("POST", path, body=body, headers=hs)
        return conn, conn.getresponse()

    def unary(self, rpc: str, req, resp_cls, json_codec: bool = False):
        body = req if isinstance(req, bytes) else req.SerializeToString()
        conn, r = self.post(f"/afteraction.v1.{rpc}", body, "application/proto",
                            {"Connect-Protocol-Version": "1"})
        try:
            data = r.read()
            if r.status != 200:
                raise _connect_error(json.loads(data), r.status)
            return resp_cls.FromString(data)
        finally:
            conn.close()

    def stream(self, rpc: str, req, resp_cls):
        conn, r = self.post(f"/afteraction.v1.{rpc}", _frame(0, req.SerializeToString()), "application/connect+proto",
                            {"Connect-Protocol-Version": "1"})
        try:
            if r.status != 200:
                raise _connect_error(json.loads(r.read()), r.status)
            for flags, data in _frames(r):
                if flags & 0x02:
                    end = json.loads(data or b"{}")
                    if end.get("error"):
                        raise _connect_error(end["error"])
                    return
                yield resp_cls.FromString(data)
        finally:
            conn.close()

    def grpc_web(self, rpc: str, req, resp_cls) -> tuple[list, dict]:
        """A gRPC-Web call (unary or server-streaming): (messages, trailers)."""
        conn, r = self.post(f"/afteraction.v1.{rpc}", _frame(0, req.SerializeToString()), "application/grpc-web+proto",
                            {"X-Grpc-Web": "1"})
        try:
            out, trailers = [], {k.lower(): v for k, v in r.getheaders() if k.lower().startswith("grpc-")}
            for flags, data in _frames(r):
                if flags & 0x80:
                    for line in data.decode().split("\r\n"):
                        if line:
                            k, _, v = line.partition(":")
                            trailers[k.strip().lower()] = v.strip()
                else:
                    out.append(resp_cls.FromString(data))
            return out, trailers
        finally:
            conn.close()


class WebStub:
    """``stub.Method(request, timeout=...)`` over the web transport, as a gRPC stub answers."""

    def __init__(self, web: Web, service: str, streams: dict) -> None:
        self.web, self.service, self.streams = web, service, streams

    def __getattr__(self, name):
        from afteraction.v1 import audit_service_pb2 as au
        from afteraction.v1 import game_service_pb2 as gs

        mod = gs if self.service == "GameService" else au
        resp_cls = getattr(mod, f"{name}Response")
        rpc = f"{self.service}/{name}"
        if name in self.streams:
            return lambda req, timeout=None, **kw: self.web.stream(rpc, req, resp_cls)
        return lambda req, timeout=None, **kw: self.web.unary(rpc, req, resp_cls)


def web_client(host: str, port: int):
    """The reference Client with its stubs over the web transport (no Play)."""
    from afteraction.client.client import Client

    c = Client.__new__(Client)
    c.target, c.timeout, c._vkey, c.channel = f"{host}:{port}", 30.0, None, None
    web = Web(host, port)
    c.game = WebStub(web, "GameService", {"Watch"})
    c.audit = WebStub(web, "AuditService", {"ExportBundle"})
    c.close = lambda: None
    return c
