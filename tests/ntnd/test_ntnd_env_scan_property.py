"""Movement.Env derives its per-state sets from passes over the units that take one side
alone when the Communist side's facts are asked first (an Allied move's check); whatever is asked in
whatever order, every set is the one a plain pass over all units gives, on positions of seeded
random-bot games (Tet) and of the campaign bots' short campaign."""
from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.movement import ground as movement
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.movement.ground import ALLIED, COMMUNIST, PATROL_BOATS, load_map
from afteraction.engine.games.ntnd.movement.zones import _type_facts

from .test_ntnd_legal_check_property import _positions

SIDES = (ALLIED, COMMUNIST)


def _plain(s: dict) -> dict:
    """What every question of Env answers, from one plain pass over the units."""
    offboard = load_map().zones
    locs = {x: set() for x in SIDES}
    zoc_at = {x: set() for x in SIDES}
    types_at: dict = {x: {} for x in SIDES}
    zoi_at, boats = set(), set()
    for u in s["units"].values():
        if u["status"] != "map":
            continue
        side, loc = u["side"], u["loc"]
        types_at[side].setdefault(loc, []).append((u["id"], u["type"]))
        zoc, r, air = _type_facts(u["type"])
        if loc is not None and not air:
            locs[side].add(loc)
        if loc in offboard:
            continue
        if zoc and not u["inv"] and not (s.get("sv_demoralized") and u["nat"] == "ARVN"):
            zoc_at[side].add(loc)
        if r and side == ALLIED:
            zoi_at.add((loc, r))
        if u["type"] in PATROL_BOATS:
            boats.add(loc)
    return {("enemy", ALLIED): frozenset(locs[COMMUNIST]), ("enemy", COMMUNIST): frozenset(locs[ALLIED]),
            ("types_at", ALLIED): types_at[ALLIED], ("types_at", COMMUNIST): types_at[COMMUNIST],
            ("zoc", ALLIED): zones._zoc_of(frozenset(zoc_at[ALLIED]), zones.zoc_closed(s, ALLIED)),
            ("zoc", COMMUNIST): zones._zoc_of(frozenset(zoc_at[COMMUNIST]), zones.zoc_closed(s, COMMUNIST)),
            ("zoi", None): frozenset(h for loc, r in zoi_at for h in hexes.land_within(loc, r)),
            ("river_stop", None): frozenset().union(*map(movement._river_near, boats)) if boats else frozenset()}


def _ask(env, q):
    name, side = q
    return getattr(env, name)() if side is None else getattr(env, name)(side)


QUESTIONS = [("enemy", ALLIED), ("enemy", COMMUNIST), ("types_at", ALLIED), ("types_at", COMMUNIST),
             ("zoc", ALLIED), ("zoc", COMMUNIST), ("zoi", None), ("river_stop", None)]


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 16), campaign=st.booleans(), order=st.permutations(QUESTIONS))
def test_ntnd_8_env_sets_are_the_plain_pass_whatever_is_asked_first(seed, campaign, order):
    checked = 0
    for _, s, d in itertools.islice(_positions(seed, 90, "campaign_short" if campaign else None), 0, None, 3):
        want = _plain(s)
        env = movement.Env(s)
        for q in [("enemy", d.seat if d is not None and d.seat in SIDES else ALLIED)] + list(order):
            assert _ask(env, q) == want[q], (q, d)
        checked += 1
    assert checked
