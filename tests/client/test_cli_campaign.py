"""`aar scenarios` (the scenario list a server serves: ListRulesets' scenario_info) and `aar demo` of the
NTND short campaign with its summary built from the public log only (clients/cli/campaign_summary.py)."""
from __future__ import annotations

import re

import io

from afteraction.cli import main as cli
from afteraction.cli.campaign_summary import public_events, summary_lines, summary_of, track
from afteraction.client.client import Client
from afteraction.engine.games.ntnd.bots.military import campaign_bot
from afteraction.engine.local import LocalGame


def test_aar_scenarios_lists_what_the_server_serves_a_line_each(server, capsys):
    with Client(server.target) as c:
        ntnd = [r for r in c.list_rulesets().rulesets if r.game == "ntnd"][-1]
    names = ["tet", "campaign", "campaign_short", "rat", "1975", "1965_68", "1968_72", "1972_75"]
    assert list(ntnd.scenarios) == names                           # rule 2's six scenarios and the campaign
    assert [(i.name, i.turns) for i in ntnd.scenario_info] == list(zip(names, [4, 63, 4, 4, 4, 23, 27, 21]))
    assert cli.main(["scenarios", "ntnd", "--server", server.target]) == 0
    head, *served = capsys.readouterr().out.splitlines()
    assert head.startswith("ntnd  ruleset versions 4") and f"new games play ntnd/{ntnd.version}" in head
    assert [line.split()[1] for line in served] == names
    assert "The Year of the Rat, 4 turns" in served[3] and "1975: The Final Offensive" in served[4]
    assert "63 turns" in served[1] and "(default)" in served[0] and "Campaign Game" in served[1]
    assert cli.main(["scenarios", "ntnd"]) == 0                # the installation's list is the same
    assert capsys.readouterr().out.splitlines() == [head] + served
    assert cli.main(["scenarios", "no-such-game"]) == 2


def test_aar_demo_plays_the_short_campaign_and_summarizes_its_public_log(tmp_path, capsys):
    assert cli.main(["demo", "--game", "ntnd", "--scenario", "campaign_short", "--seed", "2",
                     "--out", str(tmp_path / "demo")]) == 0
    cap = capsys.readouterr()
    # progress is shown turn by turn (the game may end early, 22.4 sudden victory)
    assert re.search(r"turn [1-4] of 4", cap.err) and "verification:   VERIFIED" in cap.out
    assert "(campaign_short)" in cap.out and "scenario:       Campaign Game: 1965 (short) (4 turns)" in cap.out
    assert "political track (end of each turn): start 100; 1:" in cap.out
    for head in ("elections", "uprising", "aid received", "random events"):
        assert f"  {head}:" in cap.out                                  # ": none" or a list under it
    assert cli.main(["demo", "--game", "ntnd", "--scenario", "nope", "--out", str(tmp_path / "d2")]) == 2


def test_the_summary_tracks_the_political_points_to_the_final_score_from_public_events_only():
    g = LocalGame.create("ntnd", seed=b"tests/summary", scenario="campaign_short")
    g.handshake()
    bots = {s: campaign_bot(f"summary/{s}") for s in ("communist", "allied")}
    g.run_bots(lambda seat, legal: bots[seat](seat, legal))
    data = g.bundle()
    events = list(public_events(data))
    last = g.referee.state["turn"]
    assert track(events)[-1] == (last, g.referee.state["pp"])
    lines = summary_lines(data)
    assert any(line.startswith("winner:") and f"on turn {last} of 4" in line for line in lines)
    assert "elections: none" in lines                                   # none before turn 23
    rolled = [e for _, e in events if e.get("t") == "random-event"]
    assert ("random events: none" in lines) == (not rolled)             # 21: as the public log has them


def test_the_summary_prints_each_political_event_with_its_turn_and_none_for_the_absent():
    events = [(0, {"t": "scenario", "name": "Campaign Game", "turns": 63, "pp": 100}),
              (23, {"t": "phase", "turn": 23}),
              (23, {"t": "election", "rule": "NTND 23.2", "won": "peace", "dice": [3, 4, 5]}),
              (23, {"t": "pp", "rule": "NTND 23.6", "item": "election", "pp": -10, "total": 90}),
              (30, {"t": "phase", "turn": 30}),
              (30, {"t": "game-over", "winner": "communist", "reason": "NTND 22.4: below zero", "pp": -1})]
    lines = summary_of(events)
    assert "winner:         communist on turn 30 of 63: NTND 22.4: below zero" in lines
    assert "political track (end of each turn): start 100; 23:90 30:-1" in lines
    assert "  turn 23: won peace, dice [3, 4, 5] (NTND 23.2)" in lines
    assert "uprising: none" in lines and "aid received: none" in lines


def test_the_summary_sums_the_political_points_by_item_and_counts_aid_units_and_events_that_occurred():
    events = [(0, {"t": "scenario", "name": "Campaign Game", "turns": 63, "pp": 100}),
              (1, {"t": "phase", "turn": 1}),
              (1, {"t": "politics", "items": [{"item": "town", "pp": -1}, {"item": "town", "pp": -2}], "total": 97}),
              (1, {"t": "pp", "item": "hearts-and-minds", "pp": -2, "total": 95}),
              (1, {"t": "hearts", "area": "II", "from": "neutral", "to": "pro_communist"}),
              (1, {"t": "eliminated", "unit": "vc-1", "pp": 1}),
              (1, {"t": "random-event", "rule": "NTND 21.1", "entry": "no_event", "status": "none"}),
              (1, {"t": "random-event", "rule": "NTND 21.1", "entry": "detente", "status": "occurs"}),
              (2, {"t": "phase", "turn": 2}),
              (2, {"t": "aid", "source": "china", "event": "roll", "roll": 4}),
              (2, {"t": "aid", "source": "china", "event": "unit", "marker": "M9", "loc": "1314"}),
              (2, {"t": "aid", "source": "soviet", "event": "unit", "unit": "nva-sam-1", "type": "nva_sam"})]
    lines = summary_of(events)
    assert "political points by item (the game's sum; 22.4, rules 7, 10, 21, 23, 24): town -3, " \
           "hearts-and-minds -2, eliminations +1" in lines
    assert "hearts and minds: 1 marker moves; last boxes: II pro_communist" in lines
    assert "aid received: 2 units (china 1, soviet 1), 1 aid rolls:" in lines
    assert "random events: 2 rolled, 1 occurred:" in lines and not any("no_event" in x for x in lines)
