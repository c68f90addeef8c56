"""The campaign bot (bots.campaign_bot) with the political war's actions: it chooses among whatever
actions are offered by their names (NtndCommand fields 20-39 of the other parts of issue 13), prefers
an option naming its own side, takes an action it has no policy for more often than it passes, and is
deterministic. Commands here are stand-ins with the protobuf surface the bot reads (WhichOneof and the
action message's ListFields), since those actions are not in ntnd.proto yet. A bot test: no rule."""
from __future__ import annotations

from dataclasses import dataclass, field

from afteraction.engine.games.ntnd.bots import campaign_bot
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
