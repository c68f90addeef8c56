"""A graceful stop stays bounded after hostile input. Found by the fuzz suite: once a Play
stream got a message grpc could not deserialize, grpc's sync server never reported the end of
its shutdown (that call's state is never released), so ``Running.stop`` (and SIGTERM to
``aar serve``) waited forever. The stop now waits at most grace + STOP_SLACK_S."""
from __future__ import annotations

import threading
import time

import grpc

from afteraction.service.server import STOP_SLACK_S

GRACE_S = 0.5


def test_stop_returns_after_an_undecodable_play_message(tmp_path):
    from service.conftest import Server

    srv = Server(tmp_path)
    ch = None
    try:
        ch = grpc.insecure_channel(srv.target)  # still open when the server stops, as a client's would be
        play = ch.stream_stream("/afteraction.v1.GameService/Play", request_serializer=None,
                                response_deserializer=None)
        for _ in range(3):
            try:
                list(play(iter([b"\xff\xff"]), timeout=5))
            except grpc.RpcError as e:
                assert e.code() != grpc.StatusCode.DEADLINE_EXCEEDED
        t0 = time.monotonic()
        run, srv.run = srv.run, None
        stopper = threading.Thread(target=run.stop, args=(GRACE_S,), daemon=True)
        stopper.start()
        stopper.join(GRACE_S + STOP_SLACK_S + 5)
        assert not stopper.is_alive(), "stop() did not return"
        assert time.monotonic() - t0 < GRACE_S + STOP_SLACK_S + 5
    finally:
        if ch is not None:
            ch.close()
        srv.stop()
