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


def test_ntnd_10_2_a_communist_zoc_announcement_leaves_one_footprint_whatever_the_markers_hold():
    """10.2's announcement (the Communist "move" decision's announce_zoc answer) is public and reads
    nothing hidden: with the markers' contents rotated, the same events, views and Allied commands."""
    from afteraction.engine.games.ntnd.rules import cmd

    from .leakcheck import check_owner_action, perturb
    from .test_ntnd_neutrality import at, cblank
    from .test_ntnd_rules import hide
    s = cblank()
    hide(s, ["nva-304", "nva-308"], "1010")
    cadre = sorted(u for u, x in s["units"].items() if x["type"] == "vc_cadre" and x["status"] == "mix")[0]
    hide(s, [cadre], "1510")
    s = at(s, "c_move")
    p = perturb(s)
    assert p is not None
    check_owner_action(s, p, cmd("announce_zoc", country="LA", extend=True))
