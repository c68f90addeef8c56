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


def test_sensible_bot_heads_for_the_target_searches_and_extracts():
    from afteraction.engine.games.sog import board
    for seed in range(12):
        g = play(seed, "sensible")
        ev = [e for r in g.records for e in r.body.get("events", []) if isinstance(e, dict)]
        target = next(e["square"] for e in ev if e["t"] == "target-placed")
        first_search = next(i for i, e in enumerate(ev) if e["t"] == "target-search")
        for e in ev[:first_search]:  # heads for the target: every move gets one square closer
            if e["t"] == "team-moved":
                assert board.distance(e["to"], target) == board.distance(e["from"], target) - 1, (seed, e)
        ext = next(i for i, e in enumerate(ev) if e["t"] == "extraction")
        pz = next((e["square"] for e in ev[ext:] if e["t"] == "pz-placed"), None)
        for e in ev[ext:]:  # then extracts: every move gets closer to the PZ or to the west/south edge
            if e["t"] == "team-moved":
                if pz is not None:
                    assert board.distance(e["to"], pz) < board.distance(e["from"], pz), (seed, e)
                else:
                    r0, c0 = board.rc(e["from"])
                    r1, c1 = board.rc(e["to"])
                    assert min(c1 - 1, 10 - r1) < min(c0 - 1, 10 - r0) or board.is_exit_square(e["to"]), (seed, e)
        assert g.records[-1].body["outcome"]["reason"].startswith("SOG 3.7.3"), seed


def test_replay_with_a_different_rule_reports_the_first_divergence(monkeypatch):
    """A log made under SOG 3.5.1's terrain modifiers does not replay under other ones:
    verification fails at step 11 on the first record whose contact roll comes out
    differently (and not before)."""
    from afteraction.engine.errors import VerificationError
    from afteraction.engine.games.sog import movement

    for seed in range(20):
        g = play(seed, "random")
        first = next((r.seq for r in g.records
                      for e in r.body.get("events", []) if isinstance(e, dict) and e.get("t") == "contact"), None)
        if first is not None:
            break
    data = g.bundle()
    assert verify_bundle(io.BytesIO(data)).replayed
    with monkeypatch.context() as m:
        m.setitem(movement.TERRAIN_DRM, "clear", 40)
        m.setitem(movement.TERRAIN_DRM, "jungle", 40)
        m.setitem(movement.TERRAIN_DRM, "elephant_grass", 40)
        m.setitem(movement.TERRAIN_DRM, "mountain", 40)
        m.setitem(movement.TERRAIN_DRM, "broken", 40)
        with pytest.raises(VerificationError) as e:
            verify_bundle(io.BytesIO(data))
    assert e.value.step.startswith("11") and e.value.seq == first, (e.value.step, e.value.seq, first)
