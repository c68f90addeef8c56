"""Whole SOG games through LocalGame: random and sensible bots end, bundles verify
(with replay), and the same command stream reproduces byte-identical records."""
import io

import pytest

from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import canon
from afteraction.engine.errors import Rejection
from afteraction.engine.games.sog.bots import sensible_bot
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle

from .util import move

SEEDS = 40


def play(seed: int, bot: str = "random", options=None, log=None, check_views=False) -> LocalGame:
    g = LocalGame.create("sog", seed=f"sog-{bot}-{seed}".encode(), options=options or {})
    g.handshake()
    rs = g.referee.ruleset
    choose = random_bot(seed) if bot == "random" else sensible_bot(seed, lambda seat: rs.view(g.referee.state, seat))

    def wrapped(seat, legal):
        if check_views:
            for who in ("sog", "nva", None):
                canon.encode(rs.view(g.referee.state, who))  # canonical: no floats, str keys
        c = choose(seat, legal)
        if log is not None:
            log.append((seat, c.SerializeToString()))
        return c

    g.run_bots(wrapped, max_commands=5000)
    assert g.referee.ended, f"seed {seed} did not end"
    return g


def replay(seed: int, bot: str, options, log) -> LocalGame:
    from afteraction.v1 import command_pb2
    g = LocalGame.create("sog", seed=f"sog-{bot}-{seed}".encode(), options=options or {})
    g.handshake()
    for seat, raw in log:
        g.play(seat, command_pb2.Command.FromString(raw))
    return g


@pytest.mark.parametrize("bot", ["random", "sensible"])
def test_games_end_and_verify(bot):
    reasons = set()
    for seed in range(SEEDS):
        g = play(seed, bot)
        reasons.add(g.records[-1].body["outcome"]["reason"].split(":")[0])
        if seed % 4 == 0:
            rep = verify_bundle(io.BytesIO(g.bundle()))
            assert rep.verified and rep.replayed and rep.ended
    assert "SOG 3.7.3" in reasons


@pytest.mark.parametrize("options", [{"lz_count": 1}, {"lz_count": 5}, {"unlimited_vc": True},
                                     {"random_squads": True}])
def test_optional_rules_games(options):
    for seed in range(10):
        g = play(seed, "random", options, check_views=seed < 2)
        if seed == 0:
            assert verify_bundle(io.BytesIO(g.bundle())).replayed


@pytest.mark.parametrize("bot", ["random", "sensible"])
def test_same_commands_same_bytes(bot):
    for seed in range(6):
        log = []
        g1 = play(seed, bot, log=log)
        g2 = replay(seed, bot, {}, log)
        assert [r.raw for r in g1.records] == [r.raw for r in g2.records]
        assert g1.bundle() == g2.bundle()


def test_rejection_changes_nothing_in_a_live_game():
    g = LocalGame.create("sog", seed=b"reject")
    g.handshake()
    rs = g.referee.ruleset
    g.play("sog", rs.legal_commands(g.referee.state, "sog")[0])  # organise
    g.play("sog", next(c for c in rs.legal_commands(g.referee.state, "sog") if c.sog.insert.method == 1))
    seq, state = g.referee.seq, rs.copy_state(g.referee.state)
    assert state["team_at"].endswith("-A")
    with pytest.raises(Rejection) as e:
        g.play("sog", move("5-J"))
    assert e.value.code == "ILLEGAL_MOVE"
    with pytest.raises(Rejection) as e:
        g.play("nva", move(state["team_at"]))
    assert e.value.code == "NOT_YOUR_DECISION"
    assert g.referee.seq == seq and g.referee.state == state
