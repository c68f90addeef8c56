"""As a property (docs/rules/gmv.md "What the opponent can see"): two hidden choices
of the NVA that leave one public footprint leave one public footprint for every later action too.
The pairs are drawn three ways: the call for hidden support from one zone or another
(test_later_actions), an attack by one hidden unit or another (gmv/4 ``FRESH_IDS``: the attacker's id
does not tell which infiltrated unit it is), and any two of the NVA's legal commands of one action
whose own footprints are equal and whose states after differ (a hidden move or infiltration to one
zone or another, a purchase of one type or another, a hidden placement), in a position reached by a
seeded walk of both seats from the 1965 set-up (tests/engine/hiddenpairs.py). Then the same public
continuation on both: a seeded walk of both seats through the commands both positions offer,
comparing after each action what the US seat and a spectator observe (leakcheck.check_later: public
events with what each opening publishes, sealed events by recipient, views, the public decision, the
US legal commands, a US refusal's code and message) up to the first reveal. Played on the newest
version; gmv/3 keeps the id (test_nva.py pins it)."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from afteraction.engine import registry
from afteraction.engine.ruleset import Context

from engine.hiddenpairs import Game, hidden_pair, walk_to_owner

from .leakcheck import check_later, owner_footprint
from .test_later_actions import _into_battle
from .util import add, cmd, empty

RS = registry.get("gmv")   # the newest version


def _after(s, c):
    return RS.apply(RS.copy_state(s), "nva", c, Context.for_tests())


def _footprint(s, c):
    f = owner_footprint(s, [c])
    return None if '"refused"' in f[0] else f


GAME = Game(RS, "nva", _footprint, _after)
_SETUP: list = []


def _attack_pair():
    """Two hidden infantry units next to Ban Me Thuot (Pleiku, Cambodia); the NVA attacks with one or
    the other."""
    s = empty(side="nva", phase=3)
    add(s, "inf", "us", "ban_me_thuot")
    (a,) = add(s, "inf", "nva", "pleiku", hidden=True)
    (b,) = add(s, "inf", "nva", "cambodia", hidden=True)
    s["units"][a]["ref"], s["units"][b]["ref"] = [7, 0], [7, 1]
    x = _after(s, cmd("attack", unit_ids=[a], zone="ban_me_thuot"))
    y = _after(s, cmd("attack", unit_ids=[b], zone="ban_me_thuot"))
    return x, y


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(kind=st.sampled_from(["support", "attack", "walk"]), prefix=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_gmv_later_actions_never_tell_two_hidden_choices_with_one_footprint_apart(kind, prefix, seed):
    if kind == "support":
        s, p, steps = _into_battle()
        assert check_later(s, p, steps, walk=20, seed=seed) > len(steps)
        return
    if kind == "attack":
        s, p = _attack_pair()
        assert check_later(s, p, [], walk=20, seed=seed) >= 1
        return
    rng = random.Random(seed)
    if not _SETUP:
        _SETUP.append(RS.setup("1965", dict(RS.options), Context.for_tests()))
    s, pair = RS.copy_state(_SETUP[0]), None
    for _ in range(8):                  # on to the NVA's next decisions until one offers a pair
        s = walk_to_owner(GAME, s, prefix, rng)
        pair = s and hidden_pair(GAME, s, rng)
        if pair or s is None:
            break
        cs = RS.legal_commands(s, "nva")
        s, prefix = _after(s, cs[rng.randrange(len(cs))]), 0
    assume(pair)
    a, b = pair
    check_later(_after(s, a), _after(s, b), [], walk=20, seed=seed)


# --- point 4: the reference bots do not give away what the rules hide -------------------------------

def test_gmv_the_bots_nva_choice_shows_the_same_whatever_is_hidden():
    """gmv_bot draws the public part of an NVA command first (bots.public_key: the action and its public
    fields; a hidden move's units and zone, a purchase's type, an infiltration's destination last). The
    NVA's hidden-move phase with an exposed unit in Kontum and two hidden infantry units in Pleiku (A) or
    one in Pleiku and one in Hue (B): the same public options (a hidden move, the exposed unit's moves),
    but 19 legal commands in A and 15 in B. For every seed the bot's choice leaves the same public
    footprint in A and B; a uniform draw over the list (gmv/3's bots) does not."""
    from afteraction.engine.bots import Prng
    from afteraction.engine.games.gmv.bots import gmv_bot, public_key

    def pos(zones):
        s = empty(side="nva", phase=4)
        add(s, "inf", "nva", "kontum")
        for i, z in enumerate(zones):
            (u,) = add(s, "inf", "nva", z, hidden=True)
            s["units"][u]["ref"] = [7, i]
        return s
    a, b = pos(["pleiku", "pleiku"]), pos(["pleiku", "hue"])
    la, lb = RS.legal_commands(a, "nva"), RS.legal_commands(b, "nva")
    assert len(la) != len(lb) and {public_key(c)[0] for c in la} == {public_key(c)[0] for c in lb}
    told = 0
    for seed in range(16):
        x, y = gmv_bot(seed)("nva", la), gmv_bot(seed)("nva", lb)
        assert owner_footprint(a, [x]) == owner_footprint(b, [y]), (seed, x, y)
        u, v = Prng(seed).choice(la), Prng(seed).choice(lb)
        told += owner_footprint(a, [u]) != owner_footprint(b, [v])
    assert told
