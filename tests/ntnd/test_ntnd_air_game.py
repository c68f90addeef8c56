"""A whole short campaign with the air war in force (features air_war): the campaign bots fly missions
(bots_air.py), the Communist bot answers for its hidden AA, the game plays to its end under the
whole-game leak check of test_ntnd_game.py, and the log verifies with replay."""
from __future__ import annotations

import io
from collections import Counter

from afteraction.engine.games.ntnd.bots.military import campaign_bot
from afteraction.engine.log.verify import verify_bundle

from .test_ntnd_game import play_checked


def test_ntnd_11_and_12_a_short_campaign_with_the_air_war_plays_to_its_end_and_verifies():
    g, n, leaks, allied_openings = play_checked(b"tests/ntnd/air-game", campaign_bot(b"tests/air"),
                                                scenario="campaign_short")
    assert g.referee.ended and "air_war" in g.referee.state["scenario"]["features"]
    assert leaks == [] and allied_openings == 0
    seen = Counter(ev.get("t") for rec in g.records for ev in rec.body.get("events", []) if isinstance(ev, dict))
    assert seen["air-mission"] >= 3 and seen["bombing"] + seen["ground-support"] >= 1
    rep = verify_bundle(io.BytesIO(g.bundle()))
    assert rep.verified and rep.replayed and rep.ended
