"""A whole ground search asked with other per-state sets than the last one from the same
start (same graph, allowance and ZOI multiplier) is that one's result when the sets differ only at
hexes it never looked at (ground_search._search, _unchanged). On the movement phases of seeded
random-bot games, every search the memo hands out, reused or not, is the fresh search's."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.games.ntnd.movement import search as ground_search, reach

from .botgames import ground_searches, positions


def _same(got, want) -> bool:
    """Two whole searches' (labels, predecessors, paths) read alike: every label, every settled hex's
    predecessor, every path, in the same order."""
    labels, prev, paths = got
    w_labels, w_prev, w_paths = want
    if dict(labels.items()) != dict(w_labels.items()) or list(paths) != list(w_paths):
        return False
    return all(prev[h] == w_prev[h] and paths[h] == w_paths[h] for h in w_paths)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_a_reused_search_is_the_fresh_search(seed, monkeypatch):
    reused = []
    unchanged = ground_search._unchanged

    def counting(*a):
        ok = unchanged(*a)
        reused.append(ok)
        return ok

    monkeypatch.setattr(ground_search, "_unchanged", counting)
    reach.clear_caches()
    compared = 0
    for _, s, d in positions("search-reuse", seed, 260):
        if d.kind == "move":
            for piece, _, args in ground_searches(s, d.seat):
                assert _same(ground_search._search(*args), ground_search._dijkstra(*args)), (piece, s["turn"])
                compared += 1
    assert compared > 100 and any(reused) and not all(reused)   # both ways taken
