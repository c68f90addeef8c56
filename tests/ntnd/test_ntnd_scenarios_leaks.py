"""No leaks in a new scenario: the Year of the Rat (its own Communist set-up of 1972, Cambodia at
war, the military features on) played by bots never shows a hidden unit in a public event or in the
Allied or spectator view (test_ntnd_game.play_checked), and what its inverted markers hold changes
neither the views, the public decision nor the Allied commands' results (tests/ntnd/leakcheck.py's
perturbation checks)."""
from __future__ import annotations

from afteraction.engine.bots import random_bot
from afteraction.engine.games.ntnd.bots.military import campaign_bot
from afteraction.engine.local import LocalGame

from .leakcheck import check_allied_commands, check_views, perturbations
from .test_ntnd_game import play_checked

SCENARIO = "rat"
SEED = b"tests/ntnd/scenarios-leaks"


def test_ntnd_6_2_and_17_year_of_the_rat_public_stream_names_no_hidden_unit():
    g, n, leaks, _ = play_checked(SEED, campaign_bot(SEED), scenario=SCENARIO)
    kinds = {ev.get("t") for rec in g.records for ev in rec.body.get("events", [])}
    assert leaks == []
    assert g.referee.state["scenario"]["id"] == "rat_1972" and n > 200
    assert {"marker", "game-over"} <= kinds, kinds


def test_ntnd_6_2_and_17_year_of_the_rat_markers_contents_change_nothing_public():
    g = LocalGame.create("ntnd", seed=SEED, scenario=SCENARIO)
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(SEED)
    n = {"commands": 0, "views": 0, "allied_commands": 0}
    while not g.referee.ended and n["commands"] < 150:
        s = g.referee.state
        d = g.referee.pending()
        if n["commands"] % 5 == 0 or d.seat == "allied":
            ps = perturbations(s)   # shifts 1 and 2, each distinct rotation once
            if ps:
                n["views"] += check_views(s, ps)
                n["allied_commands"] += check_allied_commands(s, ps, limit=4 if d.seat == "allied" else 0)
        g.play(d.seat, bot(d.seat, rs.legal_commands(s, d.seat)))
        n["commands"] += 1
    assert n["views"] > 20 and n["allied_commands"] > 20, n
