"""No leaks in the political war: a short campaign played by random bots (random events, 22.4
phase items, 25, the uprising question where in force) never shows a hidden unit's id in a public
event or in the Allied or spectator view (the check of test_ntnd_game.play_checked, on the short
campaign)."""
from __future__ import annotations

from afteraction.engine.bots import random_bot

from .test_ntnd_game import play_checked


def test_ntnd_political_war_short_campaign_public_stream_names_no_hidden_unit():
    seed = b"tests/ntnd/political-war"
    g, _, leaks, _ = play_checked(seed, random_bot(seed), scenario="campaign_short")
    kinds = {ev.get("t") for rec in g.records for ev in rec.body.get("events", [])}
    assert leaks == []
    assert {"random-event", "politics", "game-over"} <= kinds
