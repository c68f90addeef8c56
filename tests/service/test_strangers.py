"""What a hostile stranger found at 2ee65c4, each closed here. The web port: a
connection stuck in its request header is closed after WEB_HEADER_TIMEOUT_S, one address holds at
most WEB_MAX_CONNECTIONS_PER_ADDRESS connections, a request framing its body twice is refused.
Reflection: garbage to v1 names v1's message, one stream answers at most MAX_REFLECTION_REQUESTS.
Creation: an explicit abandon_ms shorter than a seat's time is BAD_CLOCK. BAD_RESULT quotes at most
64 characters of the offer. A web framing error carries ErrorInfo (MALFORMED); a web reader that
stops is paused at a byte budget and dropped."""
from __future__ import annotations

import socket
import time

import grpc
import pytest

from afteraction.client.client import ClientError, error_info
from afteraction.service import limits

from .conftest import handshake
from .test_endings import new_game

S = grpc.StatusCode
KEY_PATH = "/afteraction.v1.GameService/GetServerKey"


@pytest.fixture
def web(tmp_path):
    from afteraction.service.server import start

    run = start("127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path), web_listen="127.0.0.1:0")
    try:
        yield run
    finally:
        run.stop(2)


def _request(body: bytes = b"{}", extra: bytes = b"") -> bytes:
    return (b"POST " + KEY_PATH.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + extra
            + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def _answer(s: socket.socket) -> bytes:
    """One response (headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = [line.lower() for line in head.split(b"\r\n")]
    if b"transfer-encoding: chunked" in lines:
        while not body.endswith(b"0\r\n\r\n"):
            body += s.recv(65536)
        return head + b"\r\n\r\n" + body
    n = next((int(line.split(b":")[1]) for line in lines if line.startswith(b"content-length")), 0)
    while len(body) < n:
        body += s.recv(65536)
    return head + b"\r\n\r\n" + body


def _closed_within(s: socket.socket, seconds: float) -> bool:
    s.settimeout(seconds)
    try:
        return s.recv(1024) == b""
    except socket.timeout:
        return False
    except ConnectionResetError:
        return True


def test_a_connection_stuck_in_its_header_is_closed(web, monkeypatch):
    monkeypatch.setattr(limits, "WEB_HEADER_TIMEOUT_S", 0.5)
    port = web.web_port
    silent = _connect(port)                                       # sends nothing at all
    partial = _connect(port)
    partial.sendall(b"POST " + KEY_PATH.encode() + b" HTTP/1.1\r\nHost: x\r\n")   # never ends its header
    assert _closed_within(silent, 3) and _closed_within(partial, 3)
    # a keep-alive connection between requests is not cut by it (WEB_KEEPALIVE_S is its bound) ...
    ok = _connect(port)
    ok.sendall(_request())
    assert _answer(ok).startswith(b"HTTP/1.1 200")
    time.sleep(1.0)
    ok.sendall(_request())
    assert _answer(ok).startswith(b"HTTP/1.1 200")
    # ... but its next request's header has the same time to arrive
    ok.sendall(b"POST " + KEY_PATH.encode() + b" HTTP/1.1\r\n")
    assert _closed_within(ok, 3)
    for s in (silent, partial, ok):
        s.close()


def test_one_address_cannot_hold_every_web_connection(web, monkeypatch):
    monkeypatch.setattr(limits, "WEB_MAX_CONNECTIONS_PER_ADDRESS", 3)
    port = web.web_port
    held = [_connect(port) for _ in range(3)]
    for s in held:   # each counted once it is accepted: one answered request on each
        s.sendall(_request())
        assert _answer(s).startswith(b"HTTP/1.1 200")
    extra = _connect(port)
    got = _answer(extra)
    assert got.startswith(b"HTTP/1.1 429") and got.endswith(b"from this address; close some and retry\n")
    assert _closed_within(extra, 3)
    other = _connect(port, "127.0.0.2")                            # another address is served
    other.sendall(_request())
    assert _answer(other).startswith(b"HTTP/1.1 200")
    held.pop().close()
    time.sleep(0.3)
    again = _connect(port)                                         # a place freed is taken again
    again.sendall(_request())
    assert _answer(again).startswith(b"HTTP/1.1 200")
    for s in (*held, extra, other, again):
        s.close()


def test_a_request_with_both_content_length_and_transfer_encoding_is_refused(web):
    s = _connect(web.web_port)
    s.sendall(b"POST " + KEY_PATH.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
    got = _answer(s)
    assert got.startswith(b"HTTP/1.1 400") and b"Content-Length and Transfer-Encoding" in got
    assert _closed_within(s, 3)
    s.close()


def test_garbage_to_reflection_v1_names_v1(web):
    ch = grpc.insecure_channel(f"127.0.0.1:{web.port}")
    for pkg in ("grpc.reflection.v1", "grpc.reflection.v1alpha"):
        call = ch.stream_stream(f"/{pkg}.ServerReflection/ServerReflectionInfo")
        with pytest.raises(grpc.RpcError) as e:
            list(call(iter([b"\xff\xff"]), timeout=10))
        assert e.value.code() == S.INVALID_ARGUMENT and error_info(e.value).reason == "MALFORMED"
        assert f"{pkg}.ServerReflectionRequest" in e.value.details(), e.value.details()
        assert error_info(e.value).metadata["type"] == f"{pkg}.ServerReflectionRequest"
    ch.close()


def test_a_reflection_stream_answers_a_bounded_number_of_requests(web, monkeypatch):
    from grpc_reflection.v1alpha import reflection_pb2

    monkeypatch.setattr(limits, "MAX_REFLECTION_REQUESTS", 5)
    ch = grpc.insecure_channel(f"127.0.0.1:{web.port}")
    call = ch.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    got = []
    with pytest.raises(grpc.RpcError) as e:
        for m in call(iter([reflection_pb2.ServerReflectionRequest(list_services="")] * 40), timeout=10):
            got.append(m)
    assert len(got) == 5
    assert e.value.code() == S.RESOURCE_EXHAUSTED and error_info(e.value).reason == "OVERLOADED"
    ch.close()


@pytest.mark.parametrize("clock", [{"decision_ms": 60_000, "abandon_ms": 30_000},
                                   {"total_ms": 600_000, "abandon_ms": 599_999},
                                   {"decision_ms": 60_000, "total_ms": 600_000, "abandon_ms": 59_999}])
def test_an_abandon_limit_shorter_than_a_seats_time_is_bad_clock(server, clock):
    with pytest.raises(ClientError) as e:
        new_game(server, "duel", clock=clock)
    assert e.value.reason == "BAD_CLOCK" and "shorter than the longest time a seat may take over one decision" in str(e.value)


def test_an_abandon_limit_as_long_as_a_seats_time_is_taken(server):
    c, gid, _, _ = new_game(server, "duel", clock={"decision_ms": 60_000, "abandon_ms": 60_000})
    assert c.state(gid).clocks.abandon_left_ms == 60_000
    c, gid, _, _ = new_game(server, "duel", clock={"decision_ms": 5_000, "total_ms": 12_000, "abandon_ms": 6_000})
    assert c.state(gid).clocks.abandon_left_ms == 6_000   # one decision takes 5 s at most


def test_bad_result_quotes_at_most_64_characters(server):
    c, gid, seats, fake = new_game(server, "duel")
    handshake(seats)
    with pytest.raises(ClientError) as e:
        seats["a"].offer("x" * 600)
    assert e.value.reason == "BAD_RESULT"
    assert "'" + "x" * 64 + "'..." in str(e.value) and "x" * 65 not in str(e.value)


def _b64d(s: str) -> bytes:
    import base64

    return base64.b64decode(s + "=" * (-len(s) % 4))


def _reason(details_value: str) -> str:
    from google.rpc import error_details_pb2

    return error_details_pb2.ErrorInfo.FromString(_b64d(details_value)).reason


def _grpc_web_reason(body: bytes) -> tuple[str, str]:
    from google.rpc import error_details_pb2, status_pb2

    i = body.rindex(b"\x80\x00\x00")
    fields = dict(line.split(": ", 1) for line in body[i + 5:].decode().split("\r\n") if ": " in line)
    st = status_pb2.Status.FromString(_b64d(fields["grpc-status-details-bin"]))
    info = error_details_pb2.ErrorInfo()
    st.details[0].Unpack(info)
    return fields["grpc-status"], info.reason


@pytest.mark.parametrize("case", ["grpc-web compressed flag", "connect stream compressed flag",
                                  "connect stream cut envelope", "connect unary unknown compression"])
def test_web_framing_errors_carry_error_info(web, case):
    import json
    import struct
    import urllib.error
    import urllib.request

    path, ctype, body, extra = {
        "grpc-web compressed flag": ("GameService/GetServerKey", "application/grpc-web+proto", b"\x01\0\0\0\0", {}),
        "connect stream compressed flag": ("GameService/Watch", "application/connect+proto", b"\x01\0\0\0\0", {}),
        "connect stream cut envelope": ("GameService/Watch", "application/connect+proto", b"\0\0\0", {}),
        "connect unary unknown compression": ("GameService/GetServerKey", "application/proto", b"",
                                              {"Content-Encoding": "br"}),
    }[case]
    req = urllib.request.Request(f"http://127.0.0.1:{web.web_port}/afteraction.v1.{path}", body,
                                 {"Content-Type": ctype, **extra})
    try:
        r = urllib.request.urlopen(req, timeout=10)
        status, data = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, data = e.code, e.read()
    if ctype.startswith("application/grpc-web"):
        assert _grpc_web_reason(data) == ("3", "MALFORMED")      # INVALID_ARGUMENT, not INTERNAL
    elif ctype.startswith("application/connect"):
        i = data.rindex(b"\x02\x00\x00")
        err = json.loads(data[i + 5:i + 5 + struct.unpack(">I", data[i + 1:i + 5])[0]])["error"]
        assert err["code"] == "invalid_argument" and _reason(err["details"][0]["value"]) == "MALFORMED"
    else:
        err = json.loads(data)
        assert status == 400 and err["code"] == "invalid_argument"
        assert _reason(err["details"][0]["value"]) == "MALFORMED"



def test_a_web_reader_that_stops_is_paused_then_dropped(monkeypatch):
    """The web port's byte budget, on its protocol with a stand-in transport (a real socket's kernel
    buffers take megabytes before the server's own buffer fills): the transport's high-water mark is
    WEB_STREAM_BUFFER_BYTES, so writes pause there (uvicorn's flow control); a connection paused for
    WEB_STALLED_WRITE_S is aborted, which ends its stream; one that resumes in time is kept."""
    import asyncio

    import uvicorn
    from uvicorn.server import ServerState

    from afteraction.service.web import guarded_h11

    monkeypatch.setattr(limits, "WEB_STALLED_WRITE_S", 0.2)

    class Transport:
        def __init__(self):
            self.limits, self.aborted, self.closing = None, False, False

        def get_extra_info(self, name, default=None):
            return {"peername": ("192.0.2.7", 5000), "sockname": ("127.0.0.1", 8080)}.get(name, default)

        def set_write_buffer_limits(self, high=None, low=None):
            self.limits = high

        def is_closing(self):
            return self.closing

        def abort(self):
            self.aborted = self.closing = True

        def close(self):
            self.closing = True

        def pause_reading(self):
            pass

        def resume_reading(self):
            pass

    async def main():
        proto_cls = guarded_h11()
        cfg = uvicorn.Config(lambda *a: None, lifespan="off", ws="none")
        cfg.load()
        out = []
        for resume in (False, True):
            p = proto_cls(config=cfg, server_state=ServerState(), app_state={})
            t = Transport()
            p.connection_made(t)
            assert t.limits == limits.WEB_STREAM_BUFFER_BYTES
            p.pause_writing()            # the buffer passed the budget: writes pause
            assert p.flow.write_paused
            if resume:
                await asyncio.sleep(0.1)
                p.resume_writing()       # the client read: kept
            await asyncio.sleep(0.4)
            out.append(t.aborted)
            p.connection_lost(None)
        return out

    assert asyncio.run(main()) == [True, False]
