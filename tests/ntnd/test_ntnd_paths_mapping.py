"""A whole ground search's paths are decoded from its predecessors when first read
(ground_search.Paths), not built for every settled hex; the legal moves read them one Command at a
time (answers.MoveCommands). These tests tie the lazy mapping to the paths written out hex by hex, and
the legal moves read by index, by iteration and eagerly (move_options) to one another."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.movement import ground as movement, reach
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.sequence.answers import _move_chunks, move_options
from afteraction.engine.games.ntnd.movement.search import Paths
from afteraction.engine.local import LocalGame

from afteraction.engine.games.ntnd.movement.sea import sea_key

from .botgames import positions


def _movement_states(tag: str, states: int):
    """The states before the first ``states`` move commands of a seeded random-bot Tet game."""
    moves = (s for _, s, d in positions(tag, 0, 2000) if d.kind == "move")
    return (s for s, _ in zip(moves, range(states)))


def _walked(s: dict, piece: str, env: movement.Env, path: list[str]) -> bool:
    """``path`` joins hex to neighbouring hex from the piece's start (what a search's path is)."""
    here = movement.mover(s, piece)["loc"]
    for h in path:
        if h not in hexes.nbrs(here):
            return False
        here = h
    return True


def test_ntnd_8_a_search_paths_mapping_reads_as_the_dict_of_its_paths():
    seen = 0
    for s in _movement_states("paths-mapping", 6):
        env = movement.Env(s)
        for piece, ordered in _move_chunks(s):
            r = reach.reachable(s, piece, env)
            if type(r) is not Paths:
                continue
            seen += 1
            assert list(r) == sorted(r)   # the destinations in id order
            if piece in s["markers"]:
                # a marker offers the stand-ins' routes (paths.public_paths): its search's destinations, in order
                assert [p[-1] for p in ordered] == list(r) and list(ordered) == [ordered[k] for k in range(len(ordered))]
                ordered = r.ordered()
            assert list(ordered) == [r[d] for d in r] == [ordered[k] for k in range(len(ordered))]
            assert ordered[1:3] == [r[d] for d in r][1:3] and ordered[-1] == r[list(r)[-1]]
            eager = {d: r[d] for d in r}
            assert r == eager and eager == r and dict(r.items()) == eager and len(r) == len(eager)
            for d, path in eager.items():
                assert path[-1] == d and d in r and r.get(d) == path and _walked(s, piece, env, path)
            first = next(iter(r))
            assert r[first] is r[first]   # decoded once, then kept (shared, as the search's memo is)
            for d, path in eager.items():   # each path is its predecessor's and one step
                if len(path) > 1 and path[-2] in r:
                    assert r[path[-2]] == path[:-1]
            start = movement.mover(s, piece)["loc"]
            for missing in (start, "sea:" + first, "NOWHERE", 7, None):
                assert missing not in r and r.get(missing) is None and r.get(missing, 0) == 0
                with pytest.raises(KeyError):
                    r[missing]
            with pytest.raises(TypeError):
                r[first] = []   # read-only: memoised searches are shared
            odd = r.keeping(lambda h: int(h[-1]) % 2 == 1)
            assert dict(odd.items()) == {d: p for d, p in eager.items() if int(d[-1]) % 2 == 1}
            assert list(odd) == [d for d in r if int(d[-1]) % 2 == 1]
    assert seen > 20


def test_ntnd_8_the_legal_moves_read_each_path_as_move_options_lists_it():
    """MoveCommands builds each Command from its piece's mapping when read; every read gives the
    (piece, path) of move_options at the same index, and the lists are the mapping's paths."""
    for s in _movement_states("paths-commands", 4):
        rs = LocalGame.create("ntnd", seed=b"x").referee.ruleset
        legal = rs.legal_commands(s, s["decision"]["seat"])
        opts = move_options(s)
        assert len(opts) > 0
        for i, (piece, path) in enumerate(opts):
            m = legal[i].ntnd.move
            assert m.piece == piece and list(m.path) == path
        fresh = rs.legal_commands(s, s["decision"]["seat"])
        listed = list(fresh)   # iterated (MoveCommands.__iter__), then read by index: the same objects
        assert len(listed) == len(fresh) == len(legal) and all(listed[i] is fresh[i] for i in range(len(listed)))
        assert listed == list(legal) and listed[len(opts):] == list(legal)[len(opts):]
        chunks = _move_chunks(s)
        assert sum(len(paths) for _, paths in chunks) == len(opts)
        for p, paths in chunks:   # each piece's paths are its reachable destinations' in their order
            r = reach.reachable(s, p, movement.Env(s))
            if p in s["markers"]:   # the stand-ins' routes to the same destinations (paths.public_paths)
                assert [sea_key(x) for x in paths] == sorted(r)
            else:
                assert list(paths) == [r[d] for d in sorted(r)]
