"""Over every game: each game with hidden content (a decision kind that seals an
answer) has the class property test, "two hidden choices with one public footprint stay
indistinguishable through every later public action" (tests/ntnd/test_ntnd_later_property.py,
tests/gmv/test_later_property.py, and the duel's below); a game without any (SOG) needs none."""
from __future__ import annotations

import pathlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine import registry
from afteraction.engine.ruleset import Context

from engine.hiddenpairs import Game, hidden_pair

TESTS = pathlib.Path(__file__).resolve().parents[1]
PROPERTY = {"ntnd": "ntnd/test_ntnd_later_property.py", "gmv": "gmv/test_later_property.py",
            "duel": "engine/test_hidden_later_property.py"}


def _hidden(game: str) -> bool:
    rs = registry.get(game)
    return any(k.sealed for k in rs.decisions.kinds)


def test_every_game_with_hidden_content_has_the_later_action_property_test():
    with_hidden = sorted(g for g in registry.games() if _hidden(g))
    assert with_hidden == sorted(PROPERTY), with_hidden
    for g in with_hidden:
        text = (TESTS / PROPERTY[g]).read_text()
        assert "hidden_pair" in text and "@given" in text, g


DUEL = registry.get("duel")


def _duel_after(s, c, seat="a"):
    return DUEL.apply(DUEL.copy_state(s), seat, c, Context.for_tests(faces=[4] * 8))


def _duel_observed(s) -> tuple:
    d = DUEL.pending(s)
    return (DUEL.view(s, "b"), DUEL.view(s, None), d and d.as_dict(),
            [c.SerializeToString(deterministic=True) for c in DUEL.legal_commands(s, "b")])


def _duel_footprint(s, c):
    ctx = Context.for_tests()
    n = DUEL.apply(DUEL.copy_state(s), "a", c, ctx)
    return repr(([e for e, to in ctx.events if to is None], [to for _, to in ctx.events if to], _duel_observed(n)))


@settings(max_examples=10, deadline=None, derandomize=True)
@given(rounds=st.integers(0, 2), seed=st.integers(0, 2**16))
def test_duel_two_secret_picks_look_the_same_until_the_guess_reveals_them(rounds, seed):
    """The duel's one hidden action, seat a's pick: two picks with one footprint (hiddenpairs), then b's
    decision looks the same in both until b's guess opens the pick (a reveal, by the rules)."""
    rng = random.Random(seed)
    s = DUEL.setup("standard", dict(DUEL.options), Context.for_tests())
    s["round"] += rounds                 # a later round (the earlier ones' picks were opened)
    s["score"] = {"a": rng.randrange(3), "b": rng.randrange(3)}
    a, b = hidden_pair(Game(DUEL, "a", _duel_footprint, _duel_after), s, rng)
    x, y = _duel_after(s, a), _duel_after(s, b)
    assert _duel_observed(x) == _duel_observed(y)
