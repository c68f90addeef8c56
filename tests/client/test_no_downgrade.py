"""The service creates only the newest log format
(engine/protocol.py FORMAT_VERSION), and the reference client refuses to sign anything in a game of
an older format, whatever the server shows it: a v1 genesis the server writes with its own key and
the seats' keys verifies (the verifier reads v1 forever), but `Seat.head`, through which every
envelope is signed (handshake, commands, endings), refuses it with the format and what it lacks
(SPEC.md 11). Before, the client signed v1 envelopes without `prev`."""
from __future__ import annotations

import pytest

from afteraction.client.client import Client, RefusedToSign, new_seat_key
from afteraction.client.seat import Seat
from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.local import checkpoint_note
from afteraction.engine.protocol import FORMAT_VERSION, parse_record
from afteraction.engine.referee import Referee
from afteraction.engine.seat import SeatSigner
from afteraction.v1 import game_service_pb2 as gs


def test_the_service_creates_games_of_the_newest_format_only(server):
    c = Client(server.target)
    try:
        keys = {s: SeatSigner(s, new_seat_key()).public for s in ("a", "b")}
        genesis = c.create_game("duel", keys).genesis
        assert parse_record(genesis.record).v == FORMAT_VERSION
    finally:
        c.close()


def _v1_genesis(server, gid: str, seat_keys: dict[str, bytes]) -> gs.LogRecord:
    """What a dishonest server shows a seat: a genesis of format 1 for game ``gid``, signed with its own key."""
    signer = server.service.games.signer
    origin = f"{signer.name}/game/{gid}"
    gen = Referee.new_genesis(gid, registry.get("duel"), "standard", {}, seat_keys, signer.verifier.vkey, origin,
                              bytes(32), version=1)
    t = CompactTree()
    t.append(gen.leaf)
    return gs.LogRecord(seq=0, record=gen.raw, record_hash=gen.hash,
                        checkpoint=checkpoint_note(signer, origin, 1, t.root()))


def test_the_client_refuses_to_play_a_game_of_an_older_format(server):
    c = Client(server.target)
    try:
        keys = {s: new_seat_key() for s in ("a", "b")}
        pub = {s: SeatSigner(s, k).public for s, k in keys.items()}
        gid = c.create_game("duel", pub).game_id
        a = Seat(c, gid, "a", keys["a"])
        a.see_record(_v1_genesis(server, gid, pub))   # it verifies: v1 logs verify forever
        assert a.verifier.genesis.v == 1 < FORMAT_VERSION
        with pytest.raises(RefusedToSign, match=rf"log format v1, older than v{FORMAT_VERSION}, the newest.*prev"):
            a.head()
        prompt = gs.YourDecision(state_seq=1, decision=gs.Decision(seat="*", kind="entropy"))
        with pytest.raises(RefusedToSign, match="plays only the newest format"):
            a.decide(prompt, random_bot(b"x"))          # the handshake: no commitment signed
        with pytest.raises(RefusedToSign, match="plays only the newest format"):
            a.resign()                                  # nor an ending
    finally:
        c.close()
