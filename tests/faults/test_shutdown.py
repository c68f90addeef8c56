"""A graceful stop stays bounded after hostile input. Found by the fuzz suite: once a Play
stream got a message grpc could not deserialize, grpc's sync server never reported the end of
its shutdown (that call's state is never released), so ``Running.stop`` (and SIGTERM to
``aar serve``) waited forever. The stop now waits at most grace + STOP_SLACK_S."""
from __future__ import annotations

import threading
import time

import grpc
import pytest

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


def test_sigterm_ends_streams_retryably_refuses_new_calls_and_exits_within_its_bound(tmp_path):
    """On the `aar serve` process: SIGTERM with a Watch being read, a Watch whose
    client reads nothing (a stream HTTP/2 flow control holds), and a Play stream open. The read Watch
    and the Play stream end UNAVAILABLE/SHUTTING_DOWN (a status the reference client resumes on),
    the process exits 0 within its grace period (10 s) and STOP_SLACK_S, and nothing acknowledged
    before is lost: the log, served again by a restarted server, verifies."""
    import signal

    from afteraction.client.client import Client, error_info
    from afteraction.engine.bots import random_bot
    from afteraction.v1 import game_service_pb2 as gs
    from afteraction.v1 import game_service_pb2_grpc as gs_grpc

    from service.conftest import handshake, new_duel
    from service.test_restart import bot_moves, serve_process

    store = f"sqlite:{tmp_path / 's.sqlite'}"
    p, target, _ = serve_process(tmp_path, store)
    chans = []
    try:
        c, gid, seats = new_duel(target)
        handshake(seats)
        bot_moves(c, gid, seats, 2, random_bot(b"sigterm"))
        size = c.state(gid).state_seq
        assert not c.state(gid).ended
        read = gs_grpc.GameServiceStub(c.channel).Watch(gs.WatchRequest(game_id=gid), timeout=60)
        got = [next(read) for _ in range(2 * size)]   # every record and checkpoint: the stream now waits
        assert got[-1].WhichOneof("kind") == "checkpoint"
        chans.append(grpc.insecure_channel(target, options=[("grpc.http2.bdp_probe", 0),
                                                             ("grpc.http2.lookahead_bytes", 1024),
                                                             ("grpc.use_local_subchannel_pool", 1)]))
        unread = gs_grpc.GameServiceStub(chans[-1]).Watch(gs.WatchRequest(game_id=gid), timeout=60)
        join = gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=seats["a"].auth(), from_seq=size))
        play = c.game.Play(iter([join]), timeout=60)
        time.sleep(1.0)   # the streams are open on the server
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        for name, stream in (("watch", read), ("play", play)):
            seen = []
            with pytest.raises(grpc.RpcError) as e:
                for m in stream:
                    seen.append(m.WhichOneof("kind"))
                raise AssertionError(f"the {name} stream ended OK after {seen}")
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE, (name, seen)
            assert error_info(e.value) is None or error_info(e.value).reason == "SHUTTING_DOWN"
        assert p.wait(10 + STOP_SLACK_S + 5) == 0
        assert time.monotonic() - t0 < 10 + STOP_SLACK_S
        unread.cancel()
        c.close()
        p, target, _ = serve_process(tmp_path, store)   # the same store: everything acknowledged is there
        with Client(target) as c2:
            assert c2.state(gid).state_seq == size
            assert c2.verify(c2.export(gid)).verified
    finally:
        for ch in chans:
            ch.close()
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            p.wait(30)
