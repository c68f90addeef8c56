"""Stream exhaustion: many idle Watch streams (no key needed, anyone can open them) must not
starve unary calls. 200 Watch streams of a live game are opened from 10 connections and left
idle (each has had its first message, or is refused with a documented status); a GetState on
another connection must still answer, within max(2 x its unloaded p99, 1 s) (loose on purpose:
the bench measures the 1,000-stream case against the unloaded p99, see bench/bench_service_games.py).
On a server whose thread pool (64) is held by the streams, GetState is never answered."""
from __future__ import annotations

import statistics
import threading
import time

import grpc

from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .contract import check_error
from .load import BotGame, client
from .procs import OWN_CONNECTION

STREAMS = 200
CONNECTIONS = 10
OPEN_WAIT_S = 5.0      # for the streams' first messages
UNLOADED_CALLS = 60


def test_idle_watch_streams_do_not_starve_get_state(tmp_path):
    from service.conftest import Server

    srv = Server(tmp_path)
    channels: list[grpc.Channel] = []
    calls: list = []
    c = client(srv.target)
    try:
        g = BotGame("sog", b"streams").create(c)
        for _ in range(4):  # the handshake: a live game, waiting for a command
            g.step(lambda seat, legal: legal[0])
        req = gs.GetStateRequest(game_id=g.gid)
        channels.append(grpc.insecure_channel(srv.target, options=OWN_CONNECTION))
        probe = gs_grpc.GameServiceStub(channels[0])
        lat = []
        for _ in range(UNLOADED_CALLS):
            t0 = time.perf_counter()
            probe.GetState(req, timeout=10)
            lat.append(time.perf_counter() - t0)
        p99 = statistics.quantiles(lat, n=100)[98]
        bound = max(2 * p99, 1.0)

        watchers = [grpc.insecure_channel(srv.target, options=OWN_CONNECTION) for _ in range(CONNECTIONS)]
        channels += watchers
        first = threading.Semaphore(0)
        refused: list = []

        def follow(call):
            try:
                for i, _ in enumerate(call):
                    if i == 0:
                        first.release()
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.CANCELLED:
                    refused.append(e)
                    first.release()

        ts = []
        for i in range(STREAMS):
            stub = gs_grpc.GameServiceStub(watchers[i % CONNECTIONS])
            call = stub.Watch(gs.WatchRequest(game_id=g.gid), timeout=120)
            calls.append(call)
            t = threading.Thread(target=follow, args=(call,), daemon=True)
            t.start()
            ts.append(t)
        deadline = time.monotonic() + OPEN_WAIT_S
        opened = 0
        while opened < STREAMS and first.acquire(timeout=max(0.0, deadline - time.monotonic())):
            opened += 1
        for e in refused:
            check_error(e, "Watch past a stream limit")

        answered = []
        for _ in range(5):
            t0 = time.perf_counter()
            try:
                res = probe.GetState(req, timeout=bound)
            except grpc.RpcError as e:
                raise AssertionError(f"GetState with {opened} of {STREAMS} Watch streams open "
                                     f"({len(refused)} refused): {e.code().name} within {bound:.3f} s "
                                     f"(unloaded p99 {p99 * 1000:.1f} ms)") from None
            answered.append(time.perf_counter() - t0)
            assert res.state_seq == len(g.acked)
        assert max(answered) <= bound
    finally:
        for call in calls:
            call.cancel()
        for ch in channels:
            ch.close()
        c.close()
        srv.stop()
