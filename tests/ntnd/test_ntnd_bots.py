"""The campaign bot (bots.campaign_bot) with the political war's actions: it chooses among whatever
actions are offered by their names (NtndCommand fields 20-39 of the other parts), prefers
an option naming its own side, takes an action it has no policy for more often than it passes, and is
deterministic. Commands here are stand-ins with the protobuf surface the bot reads (WhichOneof and the
action message's ListFields), since those actions are not in ntnd.proto yet. A bot test: no rule."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from afteraction.engine.games.ntnd.bots.military import campaign_bot
from afteraction.engine.games.ntnd.rules import cmd


@dataclass
class _F:
    name: str
    label: int = 1
    LABEL_REPEATED = 3


@dataclass
class _Msg:
    fields: dict = field(default_factory=dict)

    def ListFields(self):
        return [(_F(k), v) for k, v in self.fields.items()]


class _Ntnd:
    def __init__(self, action, **fields):
        self._action = action
        setattr(self, action, _Msg(fields))

    def WhichOneof(self, _):
        return self._action


class _Cmd:
    def __init__(self, action, **fields):
        self.ntnd = _Ntnd(action, **fields)


def test_campaign_bot_takes_hearts_and_minds_moves_toward_its_own_side():
    for seat, mine in (("allied", "pro_allied"), ("communist", "pro_communist")):
        # a choice the bot always answers (TAKE 1 in 1: "choose", a random event's), between two moves
        legal = [_Cmd("choose", area="I", to="pro_communist" if seat == "allied" else "pro_allied"),
                 _Cmd("choose", area="II", to=mine), cmd("done")]
        bot = campaign_bot(f"tests/{seat}")
        picks = [bot(seat, legal) for _ in range(20)]
        assert all(p is legal[1] for p in picks)


def test_campaign_bot_takes_an_unknown_action_more_often_than_it_passes_and_is_deterministic():
    legal = [_Cmd("some_new_choice", option="a"), _Cmd("some_new_choice", option="b"), cmd("done")]
    bot, again = campaign_bot("tests/unknown"), campaign_bot("tests/unknown")
    picks = [bot("allied", legal) for _ in range(200)]
    assert [again("allied", legal) for _ in range(200)] == picks
    taken = sum(p is not legal[2] for p in picks)
    assert 120 <= taken <= 190 and {p.ntnd.some_new_choice.fields["option"] for p in picks if p is not legal[2]} == {"a", "b"}


def test_campaign_bot_declares_the_uprising_only_now_and_then_but_answers_a_forced_choice():
    bot = campaign_bot("tests/uprising")
    legal = [_Cmd("declare_uprising", declare=True), cmd("done")]
    declared = sum(bot("communist", legal) is legal[0] for _ in range(300))
    assert 20 <= declared <= 90                          # TAKE: one in six
    forced = [_Cmd("withdraw", unit="us-9mar"), _Cmd("withdraw", unit="us-3mar")]
    assert bot("allied", forced) in forced               # no done offered: a pick, never a crash


# ---------------------------------------------------------------------------
# bots_political.political_bot (the campaigns' demo bot) against the uniform random bot
# ---------------------------------------------------------------------------

def _short_game(side: str, i: int):
    """One seeded short campaign (campaign_short, turns 1-4): ``side``'s political_bot against random_bot.
    Returns (outcome, the seats whose views the bot asked for, per asking seat)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.games.ntnd.bots.political import political_bot
    from afteraction.engine.local import LocalGame

    from afteraction.engine import registry

    # the version the bands below were measured under (docs/rules/ntnd.md "Ruleset versions")
    g = LocalGame.create("ntnd", seed=f"tests/ntnd/bots/{side}/{i}".encode(), scenario="campaign_short",
                         ruleset=registry.get("ntnd", "4"))
    g.handshake()
    rs = g.referee.ruleset
    asked: list[tuple[str, str]] = []
    now = {"seat": None}

    def view_of(seat):
        asked.append((now["seat"], seat))
        return rs.view(g.referee.state, seat)

    bot = political_bot(f"tests/{side}/{i}", view_of)
    other = random_bot(f"tests/random/{i}")

    def choose(seat, legal):
        now["seat"] = seat
        return bot(seat, legal) if seat == side else other(seat, legal)

    g.run_bots(choose)
    return g.referee.state["outcome"], asked


@pytest.mark.parametrize("side", ["allied", "communist"])   # two tests, so make test's two workers share them
def test_political_bot_of_each_side_beats_the_random_bot_in_most_short_campaigns_seeing_only_its_own_view(side):
    """Measured here (2026-12-02 15:47 UTC, ruleset ntnd/4: the air war and every rule family in force,
    these seeds): the Allied political_bot won 6 of 8 short campaigns against random_bot (final points
    131, 112, 47, 131, 121, 153, 121, 81: two losses); the Communist political_bot won 4 of 4, each by
    22.4's sudden victory below zero (final points -32 to -7). (Under ntnd/3: 6 of 8 and 4 of 4, and the
    random Allies lost every one of the first five of the same seeds.) The bands pinned: the Allied bot
    wins at least 5 of 8, the Communist bot 4 of 4 with at least 3 sudden victories, and a bot asks only
    for its own seat's view, never the other seat's. The games play ntnd/4, where the bands were
    measured: under ntnd/5 (counters named as drawn, 14.2.1) the Allied bot won 4 of the same 8 seeds,
    drew 3 (2026-12-07 12:34 UTC): the bot is not yet tuned to ntnd/5."""
    games = [_short_game(side, i) for i in range(8 if side == "allied" else 4)]
    for _, asked in games:
        assert asked and all(who == side and seat == side for who, seat in asked)
    if side == "allied":
        assert sum(o["winner"] == "allied" for o, _ in games) >= 5
    else:
        assert sum(o["winner"] == "communist" for o, _ in games) == 4
        assert sum(o["pp"] < 0 for o, _ in games) >= 3
