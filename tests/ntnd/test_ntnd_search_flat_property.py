"""A ground search over a flat mover's graph (an inverted marker's, 8.2.2: every step costs
1 MP) without ZOI doubling takes ``ground_search._flat_steps`` (a bucket per key, not the heap). On the
movement phases of seeded random-bot games, every piece's whole search and its goal searches are the
general loop's, step for step: the same labels, predecessors and paths."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.movement import search as ground_search, reach

from .botgames import ground_searches, positions
from .test_ntnd_search_reuse_property import _same


def _general(monkeypatch, args, goal=None):
    """``_dijkstra`` with the flat steps switched off."""
    with monkeypatch.context() as m:
        m.setattr(ground_search, "FLAT_LOOP", False)
        return ground_search._dijkstra(*args, goal=goal)


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_2_2_flat_search_is_the_general_search(seed, monkeypatch):
    flat_searches = general = 0
    for _, s, d in positions("search-flat", seed, 160):
        if d.kind != "move":
            continue
        for piece, mv, args in ground_searches(s, d.seat):
            flat = args[8] == 1 and args[1][1]
            flat_searches += flat
            general += not flat
            ground_search._flags(args[3], args[7], args[9], args[5], args[6])   # a whole search's table
            got = ground_search._dijkstra(*args)
            assert _same(got, _general(monkeypatch, args)), (piece, s["turn"])
            # goal searches (the referee's check of one move): a settled hex, the start, a hex out of reach
            for goal in [*list(got[2])[::7], mv["loc"], "0101"]:
                assert ground_search._dijkstra(*args, goal=goal) == _general(monkeypatch, args, goal), (piece, goal)
    assert flat_searches > 20 and general > 20   # both kinds compared
    reach.clear_caches()
