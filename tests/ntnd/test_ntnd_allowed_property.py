"""The hexes a stack may stand in (ground_search._allowed) are the hexes each of its unit
types may stand in alone, intersected, and the graph a search steps in is keyed by that set. Both are
checked here against ``national.may_enter`` asked of the whole stack, hex by hex."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.movement import search as ground_search
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.movement.national import OPEN, may_enter, neutral_state
from afteraction.engine.games.ntnd.components.pieces import load_counters

_TYPES = sorted(t for t, x in load_counters().types.items() if x.category != "air")
_NEUTRAL = st.lists(st.sampled_from(["LA", "CA", "NV"]), unique=True, max_size=3).map(sorted).map(tuple)


def _plain(type_ids, side, corps, neutral) -> frozenset:
    counters = load_counters()
    types = [counters.type(t) for t in type_ids]
    fake = neutral_state(neutral)
    return frozenset(h for h in load_map().land_hexes() if may_enter(fake, types, side, corps, h) is None)


@settings(max_examples=150, deadline=None)
@given(types=st.lists(st.sampled_from(_TYPES), min_size=0, max_size=4).map(lambda x: tuple(sorted(x))),
       side=st.sampled_from(["allied", "communist"]), corps=st.sampled_from([None, "I", "II", "III", "IV"]),
       neutral=_NEUTRAL, opened=st.booleans())
def test_ntnd_8_9_a_stacks_hexes_are_its_types_hexes(types, side, corps, neutral, opened):
    """8.9, 10.2, 10.3.1, 10.7, 10.8, 28.11.4, 5.3: may_enter refuses a stack where it refuses one of
    its types, so the stack's hexes are the intersection of its types' (any mix: Laotian with U.S.
    units in a neutral country included)."""
    key = neutral + ((OPEN,) if opened else ())
    assert ground_search._allowed(types, side, corps, key) == _plain(types, side, corps, key)


def test_ntnd_8_9_laotian_forces_alone_may_enter_neutral_laos_and_with_others_may_not():
    lao = sorted(t for t in _TYPES if load_counters().type(t).nationality == "LAO")[0]
    us = sorted(t for t in _TYPES if load_counters().type(t).nationality == "US")[0]
    laos = {h for h in load_map().land_hexes() if load_map().hex(h).country == "LA"}
    alone = ground_search._allowed((lao,), "allied", None, ("LA",))
    mixed = ground_search._allowed(tuple(sorted((lao, us))), "allied", None, ("LA",))
    assert laos & alone and not laos & mixed
    assert mixed == _plain(tuple(sorted((lao, us))), "allied", None, ("LA",))
