"""Properties every registered ruleset must have: random-bot games end,
their logs verify with replay, the same commands give the same bytes, and every
view is canonical data (no floats, encodable) at every step."""
from __future__ import annotations

import io

import pytest

from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle

RULESETS = registry.games()
SEEDS = [b"p1", b"p2", b"p3"]


@pytest.mark.parametrize("game", RULESETS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_bot_game_ends_verifies_and_is_deterministic(game, seed):
    g = LocalGame.create(game, seed=seed)
    g.handshake()
    bot = random_bot(seed)
    rs = g.referee.ruleset
    steps = 0
    while not g.referee.ended:
        d = g.referee.pending()
        for seat in (*rs.seats, None):
            canon.encode(rs.view(g.referee.state, seat))  # raises on floats / bad types
        legal = rs.legal_commands(g.referee.state, d.seat)
        assert legal, f"{game}: seat {d.seat} has no legal command at {d.kind}"
        for other in rs.seats:
            if other != d.seat:
                assert rs.legal_commands(g.referee.state, other) == [], "only the pending seat may act"
        g.play(d.seat, bot(d.seat, legal))
        steps += 1
        assert steps < 20000, f"{game} did not end"
    report = verify_bundle(io.BytesIO(g.bundle()))
    assert report.ended and report.replayed
    g2 = LocalGame.create(game, seed=seed)
    g2.handshake()
    for rec in g.records[len(g2.records):]:
        if rec.kind == "command" and "env" in rec.body:
            from afteraction.v1 import envelope_pb2
            g2.submit(envelope_pb2.SignedCommand(envelope=rec.body["env"], signature=rec.body["sig"]).SerializeToString())
        elif rec.kind == "command":
            op = g.referee.opening((rec.seq, 0))
            from afteraction.v1 import envelope_pb2
            g2.submit(envelope_pb2.SignedCommand(envelope=op.value["env"], signature=op.value["sig"]).SerializeToString())
    assert [r.raw for r in g2.records] == [r.raw for r in g.records]


@pytest.mark.parametrize("game", RULESETS)
def test_demo_bot_plays_a_whole_game_that_verifies(game):
    """`aar demo` seats each ruleset's demo_bot; it must finish a game, seeing only its seat's view."""
    g = LocalGame.create(game, seed=b"demo-bot")
    g.handshake()
    rs = g.referee.ruleset
    bots = {s: rs.demo_bot(f"7/{s}", lambda seat: rs.view(g.referee.state, seat)) for s in rs.seats}
    steps = 0
    while not g.referee.ended:
        d = g.referee.pending()
        g.play(d.seat, bots[d.seat](d.seat, rs.legal_commands(g.referee.state, d.seat)))
        steps += 1
        assert steps < 20000, f"{game}'s demo bot did not finish"
    assert verify_bundle(io.BytesIO(g.bundle())).replayed
