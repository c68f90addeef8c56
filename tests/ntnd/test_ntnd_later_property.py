"""As a property (docs/rules/ntnd.md "What the opponent can see"): two hidden choices
of the Communist player that leave one public footprint leave one public footprint for every later
action too. The pairs are drawn three ways: the issue's and later pairs (test_ntnd_later_draws.PAIRS:
an inverted recruit of one type or another, a cadre or a dummy, a hidden promotion to a regiment or a
sapper, Communist aid, a National Uprising recruit), and any two of the Communist player's legal
commands of one action whose own footprints are equal and whose states after differ, in a position
reached by a seeded walk of both seats from the Tet or the short campaign's set-up
(tests/engine/hiddenpairs.py). Then the same public continuation on both: a seeded walk of both seats
through the commands both positions offer, comparing after each action what the Allied seat and a
spectator observe (leakcheck.check_walk: public events, sealed events by recipient, views, the public
decision, the Allied legal commands, an Allied refusal's code and message) up to the first reveal.
Which of alike counters a hidden action spends (6.2, ntnd/6 ``ALIKE_CHOICE``) leaves the same state,
so even a later flip shows nothing of it.

Played on the newest version (the one new games play); ntnd/4 and ntnd/5 keep the leaks their golden
logs replay (pinned below and in test_ntnd_later_draws.py)."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from afteraction.engine import registry
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context
from afteraction.engine.versions import KEY

from engine.hiddenpairs import Game, hidden_pair, walk_to_owner

from .leakcheck import _pick, applied, canon, check_later, check_walk, owner_footprint
from .mapplay import at, blank, put
from .test_ntnd_later_draws import PAIRS

RS = registry.get("ntnd")   # the newest version


def _footprint(s, c):
    f = owner_footprint(s, c)
    return f if f[0] == "accepted" else None


GAME = Game(RS, "communist", _footprint, lambda s, c: applied(s, "communist", c))
_SETUPS: dict = {}
KINDS = sorted(PAIRS) + ["walk tet", "walk campaign_short"]


def _setup(scenario: str) -> dict:
    if scenario not in _SETUPS:
        _SETUPS[scenario] = RS.setup(scenario, dict(RS.options), Context.for_tests())
    return RS.copy_state(_SETUPS[scenario])


def _walked_pair(scenario: str, prefix: int, rng: random.Random):
    s, pair = _setup(scenario), None
    for _ in range(8):                  # on to the Communist player's next decisions until one offers a pair
        s = walk_to_owner(GAME, s, prefix, rng, seat_pick=_pick)
        pair = s and hidden_pair(GAME, s, rng)
        if pair or s is None:
            break
        s, prefix = applied(s, "communist", _pick(rng, RS.legal_commands(s, "communist"))), 0
    return s, pair


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(kind=st.sampled_from(KINDS), prefix=st.integers(0, 12), seed=st.integers(0, 2**16))
def test_ntnd_later_actions_never_tell_two_hidden_choices_with_one_footprint_apart(kind, prefix, seed):
    if kind in PAIRS:
        base, seat, a, b, then = PAIRS[kind]()
        assert check_later(base, seat, a, b, then, walk=20, seed=seed) > len(then)
        return
    s, pair = _walked_pair(kind.split()[1], prefix, random.Random(seed))
    assume(pair)
    a, b = pair
    check_walk(applied(s, "communist", a), applied(s, "communist", b), walk=20, seed=seed)


ALIKE = ["vc-cadre-1", "vc-cadre-2", "vc-cadre-3", "sup-ashau", "sup-353", "nva-320", "nva-304", "communist-dummy-1"]


def _alike_position(inside: list[str], version: str | None):
    s = blank()
    if version is not None:
        s[KEY] = version
    for u in inside:
        put(s, u, "1812")
    s = at(s, "c_ops")
    return applied(s, "communist", cmd("invert", location="1812", units=sorted(inside)))


def _alike_groups(s) -> list[list]:
    """The Communist player's promotions and break-downs of units in the marker, grouped by what the
    rules see (the types named and the promotion's result): each group is one choice among alike
    counters."""
    groups: dict = {}
    for c in RS.legal_commands(s, "communist"):
        a = c.ntnd.WhichOneof("action")
        if a == "promote":
            m = c.ntnd.promote
            key = (a, s["units"][m.piece]["type"], s["units"][m.supply]["type"], m.to)
        elif a == "break_down":
            key = (a, s["units"][c.ntnd.break_down.piece]["type"])
        else:
            continue
        groups.setdefault(key, []).append(c)
    return [g for _, g in sorted(groups.items()) if len(g) > 1]


def _flipped(s):
    new = next(iter(s["markers"]))
    s["phase"]["toggled"] = []      # the flip comes in a later Operations phase
    return canon(owner_footprint(s, cmd("flip", marker=new)))


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(inside=st.lists(st.sampled_from(ALIKE), unique=True, min_size=3, max_size=5), pick=st.integers(0, 20))
def test_ntnd_6_2_which_of_alike_counters_a_hidden_action_spends_leaves_no_trace(inside, pick):
    """A marker holding alike counters (two or three cadres, two supply units, two divisions) and the
    owner's promotion or break-down naming one or another of them: the states after are the same (the
    first alike counter is spent, whichever was named), so a later flip shows the same units."""
    s = _alike_position(inside, None)
    groups = _alike_groups(s)
    assume(groups)
    group = groups[pick % len(groups)]
    after = [applied(s, "communist", c) for c in group]
    assert len({RS.digest(x) for x in after}) == 1, group
    assert len({_flipped(x) for x in after}) == 1


def test_ntnd_6_2_ntnd_5_keeps_spending_the_counter_named():
    """ntnd/5 plays as it always did (its golden logs replay byte for byte): the promotion spends the
    cadre named, and a later flip shows which one is left."""
    s = _alike_position(["vc-cadre-1", "vc-cadre-2", "sup-ashau"], "5")
    (group,) = [g for g in _alike_groups(s) if g[0].ntnd.promote.to == "regiment"]
    after = [applied(s, "communist", c) for c in group]
    assert len({RS.digest(x) for x in after}) == 2 and len({_flipped(x) for x in after}) == 2


# --- point 4: the reference bots do not give away what the rules hide -------------------------------

def _last_sam_pair():
    """The Communist recruitment with one SAM left in the mix; the first recruit placed inverted in
    China, that SAM (A) or a division (B): one marker either way, but A's mix has no SAM left, so the
    Communist legal list is shorter in A."""
    from .test_ntnd_later_draws import _nva, _recruitment
    s = _recruitment()
    sams = sorted(u for u, x in s["units"].items() if x["type"] == "nva_sam" and x["status"] == "mix")
    for u in sams[1:]:
        s["units"][u]["status"] = "dead"
    a, b = applied(s, "communist", _nva("nva_sam", True)), applied(s, "communist", _nva("nva_division", True))
    assert owner_footprint(s, _nva("nva_sam", True))[1:] == owner_footprint(s, _nva("nva_division", True))[1:]
    return a, b


def test_ntnd_4_1_the_bots_next_recruit_shows_the_same_whatever_the_hidden_one_was():
    """tet_bot (and campaign_bot, which plays its recruits) draws the public part of a Communist recruit
    first (bots.public_key: the hex; the inverted recruit's type last), so its next recruit leaves the
    same public footprint in A and B for every seed; a uniform draw over the legal list (the old pick)
    does not, since the lists' lengths differ."""
    from afteraction.engine.bots import Prng
    from afteraction.engine.games.ntnd.bots.military import tet_bot
    a, b = _last_sam_pair()
    la, lb = RS.legal_commands(a, "communist"), RS.legal_commands(b, "communist")
    assert len(la) != len(lb)
    told = 0
    for seed in range(12):
        x, y = tet_bot(seed)("communist", la), tet_bot(seed)("communist", lb)
        assert owner_footprint(a, x)[1:] == owner_footprint(b, y)[1:], seed
        hidden_a = [c for c in la if c.ntnd.place.inverted]
        hidden_b = [c for c in lb if c.ntnd.place.inverted]
        u, v = Prng(seed).choice(hidden_a), Prng(seed).choice(hidden_b)
        told += owner_footprint(a, u)[1:] != owner_footprint(b, v)[1:]
    assert told                                      # the old uniform draw tells A from B
