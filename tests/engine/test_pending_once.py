"""The referee asks ``Ruleset.pending`` once per command and hands that decision to ``is_private``
and ``apply`` (their ``pending``), instead of each asking it again: for every ruleset,
in play and in the verifier's in-place replay, the decision handed over is the one ``pending`` gives
on the very state ``apply`` answers it on, and the records are those of asking it every time."""
from __future__ import annotations

import io

import pytest

from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.ruleset import Ruleset

RULESETS = registry.games()


def _game(game: str) -> LocalGame:
    g = LocalGame.create(game, seed=b"pending-once")
    g.handshake()
    g.run_bots(random_bot(b"pending-once"))
    assert g.referee.ended
    return g


@pytest.mark.parametrize("game", RULESETS)
def test_the_decision_handed_to_apply_is_pending_of_its_state(game, monkeypatch):
    handed = []
    apply, is_private = Ruleset.apply, Ruleset.is_private

    def checked_apply(self, state, seat, command, ctx, pending=None):
        assert pending is not None and pending == self.pending(state)   # asked on this state's data
        handed.append(pending)
        return apply(self, state, seat, command, ctx, pending)

    def checked_is_private(self, state, seat, command, pending=None):
        assert pending is not None and pending == self.pending(state)
        return is_private(self, state, seat, command, pending)

    monkeypatch.setattr(Ruleset, "apply", checked_apply)
    monkeypatch.setattr(Ruleset, "is_private", checked_is_private)
    g = _game(game)
    played = len(handed)
    assert played > 0
    assert verify_bundle(io.BytesIO(g.bundle())).replayed   # the replay, in place, hands it over too
    assert len(handed) == 2 * played
    bundle = g.bundle()
    monkeypatch.setattr(Ruleset, "apply", lambda self, s, seat, c, ctx, pending=None: apply(self, s, seat, c, ctx))
    monkeypatch.setattr(Ruleset, "is_private", lambda self, s, seat, c, pending=None: is_private(self, s, seat, c))
    assert _game(game).bundle() == bundle   # asking it every time: the same records
