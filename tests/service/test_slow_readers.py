"""The gRPC port's byte budget: a stream whose client never reads is paused by
HTTP/2 flow control (the server holds the one message that waits and at most one STREAM_BATCH read),
and a message that waits STALLED_STREAM_S ends the stream RESOURCE_EXHAUSTED/SLOW_READER. At
2ee65c4 such a stream held its batch of records (0.6-0.9 MiB of a GMV log) for as long as its
client stayed connected, and counted against MAX_STREAMS all that time."""
from __future__ import annotations

import asyncio
import time
import types

import grpc
import pytest

from afteraction.client.client import error_info
from afteraction.engine.bots import random_bot
from afteraction.service import calls, limits
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from faults.load import BotGame, client

# a client that takes at most 1 KiB of a stream it does not read (no window growth by BDP probes)
SMALL_WINDOW = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024)]


class _Context:
    """A grpc.aio servicer context whose client takes ``takes`` messages, then reads nothing (not
    even the status); ``resume_after``: it reads again after that many seconds."""

    def __init__(self, takes: int, resume_after: float | None = None) -> None:
        self.takes, self.resume_after = takes, resume_after
        self.sent: list = []
        self.aborted = None

    async def write(self, m) -> None:
        if len(self.sent) >= self.takes:
            if self.resume_after is None:
                await asyncio.Event().wait()
            await asyncio.sleep(self.resume_after)
        self.sent.append(m)

    async def abort(self, code, details, trailing=()) -> None:
        self.aborted = (code, details, dict(trailing))
        await asyncio.Event().wait()   # the status waits behind the message the client does not take

    def time_remaining(self):
        return None


def _svc():
    from afteraction.service.servicer import Service

    return Service(types.SimpleNamespace(on_append=None, told=None, listening=None))


@pytest.mark.parametrize("resume_after", [None, 0.05])
def test_a_stalled_write_ends_the_stream_and_frees_it_though_the_client_takes_nothing(monkeypatch, resume_after):
    from google.rpc import error_details_pb2, status_pb2

    monkeypatch.setattr(limits, "STALLED_STREAM_S", 0.3)
    monkeypatch.setattr(calls, "ABORT_WAIT_S", 0.1)
    svc = _svc()
    closed = []

    async def body(req, context):
        try:
            for i in range(10):
                yield i
        finally:
            closed.append(svc.streams)   # the body is closed while its stream still counts ...

    ctx = _Context(takes=3, resume_after=resume_after)
    handler = calls.streaming(svc, "Watch", body)

    async def main():
        t0 = time.monotonic()
        if resume_after is None:
            with pytest.raises(asyncio.CancelledError):   # the handler leaves; gRPC keeps the status
                await handler(b"", ctx)
        else:
            await handler(b"", ctx)
        return time.monotonic() - t0

    took = asyncio.run(main())
    assert closed == [1] and svc.streams == 0   # ... and no longer after
    if resume_after is not None:                # a client that reads again in time gets everything
        assert ctx.sent == list(range(10)) and ctx.aborted is None
        return
    assert ctx.sent == [0, 1, 2] and took < 1.0
    code, details, trailing = ctx.aborted
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and "read nothing for 0.3 s" in details
    st = status_pb2.Status.FromString(trailing["grpc-status-details-bin"])
    info = error_details_pb2.ErrorInfo()
    st.details[0].Unpack(info)
    assert info.reason == "SLOW_READER" and info.metadata["limit"] == "0.3"


def test_a_native_watch_that_is_never_read_is_paused_then_ended_slow_reader(server, monkeypatch):
    monkeypatch.setattr(limits, "STALLED_STREAM_S", 1.0)
    c = client(server.target)
    g = BotGame("duel", b"slow reader").create(c)
    g.play(random_bot(b"slow"))
    size = len(g.acked)
    ch = grpc.insecure_channel(server.target, options=SMALL_WINDOW)
    try:
        call = gs_grpc.GameServiceStub(ch).Watch(gs.WatchRequest(game_id=g.gid), timeout=60)
        svc = server.run.service
        deadline = time.monotonic() + 10
        while svc.streams == 0 and time.monotonic() < deadline:   # opened ...
            time.sleep(0.05)
        assert svc.streams == 1
        while svc.streams == 1 and time.monotonic() < deadline:   # ... paused, then ended: nothing read
            time.sleep(0.05)
        assert svc.streams == 0 and time.monotonic() < deadline
        got = []
        with pytest.raises(grpc.RpcError) as e:   # reading again: what was sent before the pause, then the status
            for m in call:
                if m.WhichOneof("kind") == "record":
                    got.append(m.record.seq)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(e.value).reason == "SLOW_READER"
        assert got == list(range(len(got))) and 0 < len(got) < size, (len(got), size)
        c.watch(g.gid)   # and the stream opened again (the reference client reads) gets every record
    finally:
        ch.close()
        c.close()


def test_the_reference_client_resumes_a_watch_ended_slow_reader(server, monkeypatch):
    """A callback that keeps ``Client.watch`` from reading longer than STALLED_STREAM_S gets its
    stream ended SLOW_READER; the client opens it again from the next record and every record
    reaches the callback once, in order."""
    from afteraction.client.client import Client

    monkeypatch.setattr(limits, "STALLED_STREAM_S", 0.5)
    ended = []
    real = calls.slow_reader
    monkeypatch.setattr(calls, "slow_reader", lambda rpc: ended.append(rpc) or real(rpc))
    c = client(server.target)
    g = BotGame("duel", b"slow callback").create(c)
    g.play(random_bot(b"slow"))
    size = len(g.acked)
    seen = []

    def on_record(r) -> None:
        seen.append(r.seq)
        if len(seen) == 2:
            time.sleep(2.0)   # the server's next writes wait on the small window meanwhile
    w = Client(server.target, options=SMALL_WINDOW)
    try:
        w.watch(g.gid, on_record=on_record)
    finally:
        w.close()
        c.close()
    assert ended == ["Watch"]
    assert seen == list(range(size)), (seen, size)
