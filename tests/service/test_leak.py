"""No leaks: a complete game played over Play streams while every byte the
server sends to each seat's stream and to a spectator's Watch stream is
recorded. No hidden value's salt (and, for duel, the value itself) reaches
another seat or the spectator before its public reveal; a sealed command's
opening never does."""
from __future__ import annotations

import threading

import pytest

from afteraction.client.client import Client, new_seat_key

from afteraction.client.seat import Seat
from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.protocol import parse_record
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import game_service_pb2 as gs


def capturing(channel, method, kind, request_type, response_type, sink):
    def deser(b: bytes):
        m = response_type.FromString(b)
        if m.WhichOneof("kind") == "batch":  # a Play batch (PlayJoin.batched): its messages one by one, in order
            sink.extend(item.SerializeToString() for item in m.batch.items)
        else:
            sink.append(b)
        return m
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


def first_positions(stream: list[bytes], needles: dict) -> dict:
    """needle -> index of the first message whose bytes contain it (absent: missing)."""
    joined = b"".join(stream)
    ends, n = [], 0
    for b in stream:
        n += len(b)
        ends.append(n)
    out = {}
    for key, needle in needles.items():
        at = joined.find(needle)
        if at >= 0:
            out[key] = next(i for i, e in enumerate(ends) if e > at)
    return out


@pytest.mark.parametrize("game", [g for g in ("duel", "gmv") if (g, "1") in registry.available()])
def test_no_hidden_value_reaches_another_seat_or_a_spectator_before_its_reveal(server, game):
    rs = registry.get(game)
    c = Client(server.target)
    keys = {s: new_seat_key() for s in rs.seats}
    gid = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
    seats = {s: Seat(Client(server.target), gid, s, keys[s]) for s in rs.seats}
    streams: dict[str, list[bytes]] = {s: [] for s in rs.seats}
    for s, seat in seats.items():
        seat.client.game.Play = capturing(seat.client.channel, "Play", "stream_stream", gs.PlayRequest,
                                          gs.PlayResponse, streams[s])
    spectator = Client(server.target)
    to_spectator: list[bytes] = []
    watch = capturing(spectator.channel, "Watch", "unary_stream", gs.WatchRequest, gs.WatchResponse, to_spectator)
    watching = threading.Thread(target=lambda: list(watch(gs.WatchRequest(game_id=gid), timeout=120)), daemon=True)
    watching.start()
    errors = []

    def run(seat):
        try:
            seat.play(random_bot(f"leak/{seat.seat}"))
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=run, args=(s,), daemon=True) for s in seats.values()]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    watching.join(120)
    assert not errors and all(s.outcome is not None for s in seats.values()) and not watching.is_alive()

    store = server.games.store
    checked = 0
    for owner in rs.seats:
        ops = {(o.seq, o.k): o for o in store.openings(gid, owner)}
        assert set(ops) == set(seats[owner].openings)  # the owner got every opening, each checked on receipt
        needles = {("salt", ref): o.salt for ref, o in ops.items()}
        if game == "duel":  # duel's values are distinctive enough to search for as bytes
            needles.update({("value", ref): canon.encode(seats[owner].openings[ref]) for ref in ops})
        for other, (stream, typ) in {**{s: (streams[s], gs.PlayResponse) for s in rs.seats if s != owner},
                                     "spectator": (to_spectator, gs.WatchResponse)}.items():
            assert stream
            revealed_at = reveal_positions(stream, typ)
            seen_at = first_positions(stream, needles)
            for (what, ref), at in seen_at.items():
                assert ref in revealed_at and revealed_at[ref] <= at, \
                    f"{game}: the {what} of {owner}'s hidden value {ref} reached {other} before its reveal"
            checked += len(needles)
    assert checked > 0
    c.close()
    spectator.close()
    for s in seats.values():
        s.client.close()
