"""The web transport: the same RPCs over the Connect protocol and gRPC-Web, for browsers
(docs/service.md "Browsers").

One implementation, two transports: every endpoint here calls the very functions the grpc.aio
server calls (the servicers' ``methods()`` tables, through ``calls.unary_core`` /
``calls.streaming_core``), so the request parsing and limits (service/limits.py), seat
authentication, ErrorInfo details (service/status.py), the thread pool and the store are the
same. The protocol work (Connect unary and server-streaming, gRPC-Web framing and trailers, the
proto and JSON codecs' envelopes, compression negotiation) is ``connectrpc``'s ASGI application,
served by ``uvicorn`` (HTTP/1.1) on the gRPC server's own event loop. ``Play`` is bidirectional,
which browsers cannot do: it is not served here (``SubmitCommand`` + ``Watch`` are).

connectrpc is written against the ``protobuf-py`` runtime; our messages are google.protobuf
ones. The codecs below bridge the two: the binary codec hands the handlers the raw request bytes
(which ``calls.parse`` parses within the limits, as on the native port), the JSON codec turns
proto3 JSON into those bytes first.
"""
from __future__ import annotations

import asyncio
import json
import re
import logging
import socket

from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from google.rpc import status_pb2
from protobuf.wkt import Any as PbAny

from . import limits, metrics
from .calls import SERVER_STREAM, UNARY, CallFailed, streaming_core, unary_core
from .status import Refusal, status_of
from afteraction.engine.codes import Code as RejectionCode

log = logging.getLogger("afteraction.service")

# What a browser may read of a response when CORS allows its origin (the Connect and gRPC-Web
# status headers and trailers; ErrorInfo travels in grpc-status-details-bin or the JSON body).
EXPOSE = "grpc-status, grpc-message, grpc-status-details-bin, connect-content-encoding, content-encoding"
ALLOW_HEADERS = ("content-type, connect-protocol-version, connect-timeout-ms, connect-accept-encoding, "
                 "connect-content-encoding, grpc-timeout, x-grpc-web, x-user-agent, accept-encoding")


# -- codecs: google.protobuf messages on connectrpc's wire ------------------------------
class RawProtoCodec:
    """Binary protobuf. Requests stay bytes: the handler parses them (calls.parse, the limits)."""

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message if isinstance(message, (bytes, bytearray)) else message.SerializeToString()

    def decode(self, data, message_class) -> bytes:
        return bytes(data)


class JsonCodec:
    """Proto3 JSON (the Connect JSON codec, and curl): parsed to the request message, serialized,
    and handed on as bytes like the binary codec's. Unknown fields are refused."""

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return json.dumps(json_format.MessageToDict(message), separators=(",", ":")).encode()

    def decode(self, data, message_class) -> bytes:
        n = limits.WEB_MAX_JSON_REQUEST_BYTES
        if len(data) > n:  # JSON is longer than its binary: this cap first, MAX_REQUEST_BYTES after
            raise connect_error(status_of(Refusal(
                RejectionCode.REQUEST_TOO_LARGE, f"the JSON request is {len(data)} bytes; the limit is {n}", limit=n, size=len(data))))
        try:
            msg = json_format.Parse(bytes(data).decode("utf-8") or "{}", message_class())
        except (json_format.ParseError, UnicodeDecodeError, ValueError, DecodeError) as e:
            what, field = _json_fault(str(e))
            raise connect_error(status_of(Refusal(
                RejectionCode.MALFORMED, f"the request is not the proto3 JSON of a {message_class.DESCRIPTOR.full_name}: {what}",
                type=message_class.DESCRIPTOR.full_name, **({"field": field} if field else {})))) from None
        return msg.SerializeToString()


def _json_fault(text: str) -> tuple[str, str]:
    """What json_format refused, in words, naming the field (a name of at most 64 word characters,
    taken from the request only when it is one: nothing else of the input is echoed)."""
    m = re.search(r'has no field named "([A-Za-z0-9_]{1,64})"', text)
    if m:
        return f'it has no field "{m.group(1)}"', m.group(1)
    m = re.search(r"Failed to parse ([A-Za-z0-9_]{1,64}) field", text)
    if m:
        return f'field "{m.group(1)}" has a value of the wrong type', m.group(1)
    return "a field it does not have, a value of the wrong type, or not JSON", ""


def connect_error(st) -> ConnectError:
    """A grpc.Status made by status.rich_status as a ConnectError with the same ErrorInfo."""
    details_bin = dict(st.trailing_metadata or ()).get("grpc-status-details-bin")
    details = []
    if details_bin:
        for d in status_pb2.Status.FromString(details_bin).details:
            details.append(ErrorDetail(PbAny(type_url=d.type_url, value=d.value)))
    name = st.code.name
    code = Code.CANCELED if name == "CANCELLED" else Code[name]
    return ConnectError(code, st.details, details)


class _Context:
    """What the handlers ask of a call's context, from connectrpc's RequestContext."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def time_remaining(self):
        t = self.ctx.timeout_ms
        return None if t is None else t / 1000.0


def _unary_endpoint(info: MethodInfo, core):
    async def fn(raw, ctx):
        try:
            return await core(raw, _Context(ctx))
        except CallFailed as e:
            raise connect_error(e.status) from None
    return Endpoint.unary(info, fn)


def _stream_endpoint(info: MethodInfo, core):
    async def fn(raw, ctx):
        try:
            async for m in core(raw, _Context(ctx)):
                yield m
        except CallFailed as e:
            raise connect_error(e.status) from None
    return Endpoint.server_stream(info, fn)


def endpoints(svc, services: list[tuple[str, object, list]]) -> dict:
    """``/<service>/<method>`` -> endpoint for every unary and server-streaming method of each
    (service name, its descriptor, its Method table); bidirectional methods are left out."""
    from google.protobuf import message_factory

    out = {}
    for full_name, desc, methods in services:
        for m in methods:
            if m.kind not in (UNARY, SERVER_STREAM):
                continue
            md = desc.methods_by_name[m.name]
            info = MethodInfo(name=m.name, service_name=full_name, input=m.request,
                              output=message_factory.GetMessageClass(md.output_type),
                              idempotency_level=IdempotencyLevel.UNKNOWN,
                              stream_type=StreamType.UNARY if m.kind == UNARY else StreamType.SERVER_STREAM)
            path = f"/{full_name}/{m.name}"
            if m.kind == UNARY:
                out[path] = _unary_endpoint(info, unary_core(svc, m.name, m.request, m.fn, m.blocking))
            else:
                out[path] = _stream_endpoint(info, streaming_core(svc, m.name, m.fn))
    return out


class _Rpc(ConnectASGIApplication):
    @property
    def path(self) -> str:
        return "/afteraction.v1"


class WebApp:
    """The ASGI application of ``--web-listen``: the RPCs (Connect, gRPC-Web), CORS for the
    origins given (none by default: same-origin pages only); every other path goes to ``fallback``
    (an ASGI app: ``aar serve`` gives the web client's page, clients/cli/webpage.py), else 404."""

    def __init__(self, svc, services, origins=(), fallback=None) -> None:
        eps = endpoints(svc, services)
        self.paths = frozenset(eps)
        self.rpc = _Rpc(service=svc, endpoints=lambda _s: eps, read_max_bytes=limits.TRANSPORT_MAX_RECEIVE_BYTES,
                        codecs=[RawProtoCodec(), JsonCodec()])
        self.origins = frozenset(o.rstrip("/") for o in origins)
        self.fallback = fallback

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return
        names = [k for k, _ in scope.get("headers") or ()]
        if b"transfer-encoding" in names and b"content-length" in names:
            # RFC 9112 6.3: a request that frames its body twice is how requests are smuggled past a proxy
            return await _plain(send, 400, b"a request with both Content-Length and Transfer-Encoding is refused "
                                           b"(RFC 9112 6.3): send one of them\n", close=True)
        headers = dict(scope.get("headers") or ())
        origin = headers.get(b"origin", b"").decode("latin-1")
        allowed = origin in self.origins
        path = scope["path"]
        if scope["method"] == "OPTIONS":   # a CORS preflight
            hs = [(b"content-length", b"0")]
            if allowed:
                hs += self._cors(origin) + [
                    (b"access-control-allow-methods", b"POST, GET, OPTIONS"),
                    (b"access-control-allow-headers", ALLOW_HEADERS.encode()),
                    (b"access-control-max-age", b"600")]
            await send({"type": "http.response.start", "status": 204 if allowed else 403, "headers": hs})
            await send({"type": "http.response.body", "body": b""})
            return
        if path.startswith("/afteraction.v1."):
            ctype = headers.get(b"content-type", b"").decode("latin-1")
            if ctype.startswith("application/grpc") and not ctype.startswith("application/grpc-web"):
                # native gRPC needs HTTP/2 trailers, which this HTTP/1.1 port has not: the gRPC port has
                body = b"native gRPC is served on the gRPC port (--listen); this port speaks Connect and gRPC-Web\n"
                await send({"type": "http.response.start", "status": 415,
                            "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
            if path not in self.paths:   # Play (bidi) and unknown methods: the same refusal as native gRPC
                return await self._unknown(scope, receive, send, path, origin if allowed else None)
            if allowed:
                send = self._with_cors(send, origin)
            return await self.rpc(scope, receive, with_error_info(send))
        await self._fallback(scope, receive, send)

    def _cors(self, origin: str) -> list:
        return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin"),
                (b"access-control-expose-headers", EXPOSE.encode())]

    def _with_cors(self, send, origin):
        extra = self._cors(origin)

        async def wrapped(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers") or ()) + extra)
            await send(message)
        return wrapped

    async def _unknown(self, scope, receive, send, path, origin):
        from .status import quote, rich_status

        st = rich_status(RejectionCode.UNKNOWN_RPC, f"no method {quote(path[1:])} on the web port (Play is gRPC-only: "
                         "use SubmitCommand and Watch)", {"rpc": path[1:]})
        err = connect_error(st)
        while (await receive()).get("more_body"):
            pass
        ctype = dict(scope.get("headers") or ()).get(b"content-type", b"").decode("latin-1")
        if ctype.startswith("application/grpc-web"):   # a trailers-only gRPC-Web answer
            hs = [(b"content-type", ctype.encode()), (b"grpc-status", str(st.code.value[0]).encode()),
                  (b"grpc-message", _pct(st.details).encode()),
                  (b"grpc-status-details-bin", _b64(dict(st.trailing_metadata)["grpc-status-details-bin"]).encode()),
                  (b"content-length", b"0")]
            if origin:
                hs += self._cors(origin)
            await send({"type": "http.response.start", "status": 200, "headers": hs})
            await send({"type": "http.response.body", "body": b""})
            return
        body = json.dumps({"code": err.code.value, "message": err.message, "details": [
            {"type": d.type_name, "value": _b64(d.message_bytes)} for d in err.details]}).encode()
        hs = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if origin:
            hs += self._cors(origin)
        await send({"type": "http.response.start", "status": 501, "headers": hs})
        await send({"type": "http.response.body", "body": body})

    async def _fallback(self, scope, receive, send):
        if self.fallback is not None:
            return await self.fallback(scope, receive, send)
        body = b"not found\n"
        await send({"type": "http.response.start", "status": 404,
                    "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _framing_status(message: str):
    """The status with ErrorInfo of an error connectrpc made itself, before any handler ran (a
    request's framing or encoding: a compressed flag without an encoding, a cut envelope, an
    unknown compression, a message past read_max_bytes): REQUEST_TOO_LARGE or MALFORMED."""
    from .status import rich_status

    if "too large" in message or "exceeds" in message:
        return rich_status(RejectionCode.REQUEST_TOO_LARGE, f"the request is too large: {message[:200]}",
                           {"limit": limits.TRANSPORT_MAX_RECEIVE_BYTES})
    return rich_status(RejectionCode.MALFORMED, f"the request's framing or encoding is not valid: {message[:200]}",
                       {"type": "web framing"})


def _connect_json(st) -> dict:
    err = connect_error(st)
    return {"code": err.code.value, "message": err.message, "details": [
        {"type": d.type_name, "value": _b64(d.message_bytes)} for d in err.details]}


def _grpc_web_trailers(st) -> bytes:
    text = (f"grpc-status: {st.code.value[0]}\r\ngrpc-message: {_pct(st.details)}\r\n"
            f"grpc-status-details-bin: {_b64(dict(st.trailing_metadata)['grpc-status-details-bin'])}\r\n").encode()
    return b"\x80" + len(text).to_bytes(4, "big") + text


def with_error_info(send):
    """``send`` of an RPC on the web port, adding the ErrorInfo (and the precise status) to an error
    that connectrpc answered itself without one; the service's own errors carry theirs already."""
    held = []   # a unary Connect error's start, until its JSON body is seen

    async def wrapped(message):
        kind = message["type"]
        if kind == "http.response.start" and message.get("status", 200) >= 400:
            held.append(message)
            return
        if kind == "http.response.body":
            body = bytes(message.get("body", b""))
            if held:   # Connect unary: {"code", "message"[, "details"]}
                start = held.pop()
                try:
                    err = json.loads(body)
                except ValueError:
                    err = None
                if isinstance(err, dict) and "code" in err and not err.get("details"):
                    st = _framing_status(str(err.get("message", "")))
                    body = json.dumps(_connect_json(st)).encode()
                    code = 429 if st.code.name == "RESOURCE_EXHAUSTED" else 400   # Connect's HTTP codes
                    hs = [(k, v) for k, v in start.get("headers") or () if k.lower() != b"content-length"]
                    if not message.get("more_body"):
                        hs.append((b"content-length", str(len(body)).encode()))
                    start = dict(start, status=code, headers=hs)
                    message = dict(message, body=body)
                await send(start)
            elif body[:1] == b"\x80" and b"grpc-status-details-bin" not in body:   # gRPC-Web trailers
                fields = dict(line.split(": ", 1) for line in body[5:].decode("latin-1").split("\r\n") if ": " in line)
                if fields.get("grpc-status", "0") != "0":
                    from urllib.parse import unquote

                    message = dict(message, body=_grpc_web_trailers(_framing_status(unquote(fields.get("grpc-message", "")))))
            elif body[:1] == b"\x02" and b'"error"' in body:   # Connect streaming: the end-of-stream message
                try:
                    end = json.loads(body[5:])
                except ValueError:
                    end = None
                if isinstance(end, dict) and isinstance(end.get("error"), dict) and not end["error"].get("details"):
                    end["error"] = _connect_json(_framing_status(str(end["error"].get("message", ""))))
                    data = json.dumps(end).encode()
                    message = dict(message, body=b"\x02" + len(data).to_bytes(4, "big") + data)
        await send(message)
    return wrapped


async def _plain(send, status: int, body: bytes, close: bool = False) -> None:
    hs = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
    if close:
        hs.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body})


def guarded_h11():
    """uvicorn's HTTP/1.1 protocol with the web port's guards against a stranger holding it
    (docs/service-limits.md): at most WEB_MAX_CONNECTIONS_PER_ADDRESS connections from one address
    (past it, 429 and closed before any request is read), WEB_HEADER_TIMEOUT_S to send a
    whole request header, from the connection's start or from the first byte of the next request
    (past it, closed), and a byte budget per connection: its writes pause once
    WEB_STREAM_BUFFER_BYTES wait unsent, and a connection paused for WEB_STALLED_WRITE_S is dropped. One class per server: it holds that server's count of connections by address."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return type("Guarded", (_Guard, H11Protocol), {"per_address": {}, "idle": h11.IDLE})


_WHY_TOO_MANY = b"too many connections from this address; close some and retry\n"
TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\nconnection: close\r\n"
            b"content-length: " + str(len(_WHY_TOO_MANY)).encode() + b"\r\n\r\n" + _WHY_TOO_MANY)


class _Guard:
    """``guarded_h11``'s guards, a mixin before uvicorn's H11Protocol (``super()`` is the protocol's):
    ``per_address`` is the server's count of connections by address, ``idle`` h11's IDLE state (both
    set on the class ``guarded_h11`` makes)."""
    per_address: dict[str, int]
    idle = None
    _addr = None
    _refused = False
    _header_timer = None
    _armed_for = None
    _stall_timer = None

    def connection_made(self, transport) -> None:
        peer = transport.get_extra_info("peername")
        addr = peer[0] if isinstance(peer, tuple) else str(peer)
        if self.per_address.get(addr, 0) >= limits.WEB_MAX_CONNECTIONS_PER_ADDRESS:
            self._refused = True
            transport.write(TOO_MANY)
            transport.close()
            return
        self.per_address[addr] = self.per_address.get(addr, 0) + 1
        self._addr = addr
        metrics.WEB_CONNECTIONS.inc()
        super().connection_made(transport)
        # a reader that stops: its writes pause once this much waits unsent (uvicorn's flow control)
        transport.set_write_buffer_limits(high=limits.WEB_STREAM_BUFFER_BYTES)
        self._arm()

    def connection_lost(self, exc) -> None:
        if self._refused:
            return
        if self._addr is not None:
            n = self.per_address.get(self._addr, 1) - 1
            if n > 0:
                self.per_address[self._addr] = n
            else:
                self.per_address.pop(self._addr, None)
            self._addr = None
            metrics.WEB_CONNECTIONS.dec()
        for t in (self._header_timer, self._stall_timer):
            if t is not None:
                t.cancel()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall_timer is None:
            self._stall_timer = self.loop.call_later(limits.WEB_STALLED_WRITE_S, self._stalled)

    def resume_writing(self) -> None:
        if self._stall_timer is not None:
            self._stall_timer.cancel()
            self._stall_timer = None
        super().resume_writing()

    def _stalled(self) -> None:
        """Paused for WEB_STALLED_WRITE_S: the client stopped reading; dropped (its stream ends)."""
        self._stall_timer = None
        if self.flow is not None and self.flow.write_paused and not self.transport.is_closing():
            log.info("web: dropped a connection from %s that read nothing for %s s", self._addr,
                     limits.WEB_STALLED_WRITE_S)
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is self.idle and self._armed_for is not self.cycle:
            self._arm()   # the first byte of a request after the previous one: its header's time starts
        super().data_received(data)

    def _arm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._armed_for = self.cycle
        self._header_timer = self.loop.call_later(limits.WEB_HEADER_TIMEOUT_S, self._header_late)

    def _header_late(self) -> None:
        self._header_timer = None
        # no whole request header since the timer started (the cycle is made when one is read)
        if self.cycle is self._armed_for and self.conn.their_state is self.idle \
                and not self.transport.is_closing():
            self.transport.close()



def _pct(s: str) -> str:
    from urllib.parse import quote as q
    return q(s, safe=" !#$&'()*+,/:;=?@[]~")


def _b64(b: bytes) -> str:
    import base64
    return base64.b64encode(b).decode().rstrip("=")


class WebServer:
    """uvicorn serving a WebApp on the running loop, on a socket bound here (port 0 allowed)."""

    def __init__(self, app: WebApp, listen: str) -> None:
        import uvicorn

        host, _, port = listen.rpartition(":")
        host = host.strip("[]") or "127.0.0.1"
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so (else every response,
        # written as headers then body, waits for the delayed ACK: ~40 ms a call)
        self.sock = socket.socket(fam, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, int(port)))
        except (OSError, ValueError) as e:
            self.sock.close()
            raise OSError(f"cannot listen on {listen} (web): {e}") from None
        self.sock.listen(512)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.host = host
        cfg = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False, ws="none",
                             http=guarded_h11(), timeout_keep_alive=limits.WEB_KEEPALIVE_S,
                             limit_concurrency=limits.WEB_MAX_CONNECTIONS, timeout_graceful_shutdown=10)
        self.server = uvicorn.Server(cfg)
        self.task = None

    async def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.server.serve(sockets=[self.sock]))
        for _ in range(200):
            if self.server.started or self.task.done():
                break
            await asyncio.sleep(0.01)
        if self.task.done():
            self.task.result()
            raise OSError("the web server did not start")

    async def stop(self, grace: float) -> None:
        self.server.config.timeout_graceful_shutdown = max(1, int(grace))
        self.server.should_exit = True
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, grace + 2)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 -- stopping anyway
                self.server.force_exit = True
        self.sock.close()
