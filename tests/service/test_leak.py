"""No leaks: a complete duel game played over Play streams while every byte the
server sends to the opponent's stream and to a spectator's Watch stream is
recorded. No hidden value of seat a, nor its salt, appears in those bytes before
its public reveal; a sealed command's opening never appears at all."""
from __future__ import annotations

import threading

from afteraction.client.client import Client, Seat, new_seat_key
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.log.record import parse_record
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import game_service_pb2 as gs


def capturing(channel, method, kind, request_type, response_type, sink):
    def deser(b: bytes):
        sink.append(b)
        return response_type.FromString(b)
    return getattr(channel, kind)(f"/afteraction.v1.GameService/{method}",
                                  request_serializer=request_type.SerializeToString, response_deserializer=deser)


def reveal_positions(stream: list[bytes], msg_type) -> dict[tuple[int, int], int]:
    """(seq, k) -> index of the first message carrying its public opening."""
    out = {}
    for i, b in enumerate(stream):
        m = msg_type.FromString(b)
        if m.WhichOneof("kind") != "record":
            continue
        for ev in parse_record(m.record.record).body.get("events", []):
            if ev.get("t") == "open":
                out.setdefault(tuple(ev["ref"]), i)
    return out


def test_no_hidden_value_reaches_the_opponent_or_a_spectator_before_its_reveal(server):
    c = Client(server.target)
    keys = {s: new_seat_key() for s in ("a", "b")}
    gid = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
    a = Seat(Client(server.target), gid, "a", keys["a"])
    b = Seat(Client(server.target), gid, "b", keys["b"])
    to_b: list[bytes] = []
    to_spectator: list[bytes] = []
    b.client.game.Play = capturing(b.client.channel, "Play", "stream_stream", gs.PlayRequest, gs.PlayResponse, to_b)
    spectator = Client(server.target)
    watch = capturing(spectator.channel, "Watch", "unary_stream", gs.WatchRequest, gs.WatchResponse, to_spectator)
    watching = threading.Thread(target=lambda: list(watch(gs.WatchRequest(game_id=gid), timeout=60)), daemon=True)
    watching.start()
    errors = []

    def run(seat):
        try:
            seat.play(random_bot(f"leak/{seat.seat}"))
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=run, args=(s,), daemon=True) for s in (a, b)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    watching.join(60)
    assert not errors and a.outcome is not None and not watching.is_alive()

    secrets = {}
    for (seq, k), value in a.openings.items():
        op = server.games.store.openings(gid, "a", seq, seq + 1)
        salt = next(o.salt for o in op if o.k == k)
        secrets[(seq, k)] = (salt, canon.encode(value))
    assert any(k == 0 for _, k in secrets) and any(k > 0 for _, k in secrets)  # sealed commands and picks

    for stream, typ in ((to_b, gs.PlayResponse), (to_spectator, gs.WatchResponse)):
        assert stream
        revealed_at = reveal_positions(stream, typ)
        for ref, (salt, value) in secrets.items():
            upto = revealed_at.get(ref, len(stream))
            if ref[1] > 0:
                assert ref in revealed_at, f"duel reveals every pick; {ref} was not"
            before = b"".join(stream[:upto])
            assert salt not in before, f"salt of {ref} leaked before its reveal"
            assert value not in before, f"value of {ref} leaked before its reveal"
    # the opponent's view of the state does not carry the pick either
    c.close()
    spectator.close()
