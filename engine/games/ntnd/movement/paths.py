"""No Trumpets No Drums rule 8: the path of a move, the mover's choice.

``reach.reachable`` gives one path per destination, the one the legal commands offer; a ground
move may take any other path that is legal step by step for the real contents of the moving piece
(``walk_ok``, with the step rules of ``reach._ground_reach``), so an inverted marker's route is
the Communist player's choice and never shows what the marker holds.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..components.pieces import load_counters
from .ground import Env, mover, movement_kind
from ..components.map import load_map
from .reach import _ground_reach as ground_reach, ground_args_to, improved_trail, plain_ground, reach_one, reachable
from .sea import sea_key


def check_path(s: dict, piece: str, path: list[str], env: Env | None = None) -> str | None:
    """None if ``path`` is a legal path of ``piece`` this phase.

    ``reachable`` gives one path per destination (fewest infiltration rolls, then fewest MP, then the
    search order over sorted hex ids), the one ``legal_commands`` offers. A ground move over the map
    may take any other path to a reachable destination that is legal step by step for the real
    contents (``walk_ok``): the owner chooses the route, and an inverted marker's route is the
    Communist player's choice, never the engine's reading of what it holds. Sea, zone,
    airmobile and trail moves keep the offered path."""
    if not path:
        return "NTND 8: a move needs a path"
    env = env or Env(s)
    dest = sea_key(list(path))
    if dest.startswith("sea:"):
        offered = reachable(s, piece, env).get(dest)
    else:
        # a move over land: a legal walk free of infiltration rolls needs no search (walk_reaches);
        # else this piece's search to this destination only (reach_one)
        if walk_reaches(s, piece, list(path), env):
            return None
        offered = reach_one(s, piece, dest, env)
    if offered is None:
        return f"NTND 8: {path[-1]} is not reachable by {piece} this phase (allowance, terrain, ZOC, stacking, 5.3, 8.9, 8.6)"
    if list(path) == offered or walk_ok(env, mover(s, piece), list(path)):
        return None
    return (f"NTND 8: {'-'.join(path)} is not a legal path for {piece} (allowance, terrain, ZOC, stacking on the way); "
            f"one legal path to {dest} is {'-'.join(offered)}")


def walk_ok(env: Env, mv: dict, path: list[str]) -> bool:
    """8.2-8.5, 8.10: ``path`` is a legal ground walk over the map for ``mv``, step by step, with the
    rules of its last ground search (``reach._ground_reach``, the one model of a step): adjacent land hexes
    it may enter, no enemy unit, within its allowance (8.5.3 doubling in a ZOI for face-up Communist
    units), not leaving an enemy ZOC (face up) or a patrolled river hex (14.1.3), no hex twice."""
    rules = env.walks.get((tuple(mv["uids"]), False))
    if rules is None or movement_kind(mv) != "ground" or not path:
        return False
    start, blocked, allow, zoc, zoi, inv, graph, allowed, double, river_stop = rules
    if len(set(path)) != len(path) or start in path:
        return False
    here, cost = start, 0
    for n in path:
        if here != start and ((not inv and here in zoc) or here in river_stop):
            return False
        for m, step in graph.get(here, ()):   # at most six steps: a scan, not a dict a step
            if m == n:
                break
        else:
            return False
        if n in blocked or n not in allowed:
            return False
        if double != 1 and n in zoi:
            step *= double
        cost += step
        if cost > allow:
            return False
        here = n
    return True


def walk_reaches(s: dict, piece: str, path: list[str], env: Env) -> bool:
    """True if ``path``, a ground walk of ``piece`` over the map, is a legal move without a search
    (the referee's check of a move, ``check_path``): its destination passes the checks
    ``reach.reach_one`` makes before searching (``reach.ground_args_to``), no hex of it costs an 8.5.2
    infiltration roll, and ``walk_ok`` holds (on the step rules recorded here). The search orders its
    labels (rolls, cost): every roll-free label comes first, so up to the first roll it is the plain
    cheapest-cost search over the hexes without a roll, and it settles the end of any roll-free walk
    legal within the allowance: ``reach.reach_one`` would offer that destination a path
    (``test_ntnd_8_a_roll_free_legal_walk_needs_no_search``). False: ask ``reach.reach_one``."""
    mv = mover(s, piece)
    if not path or not plain_ground(s, mv, path[-1]):
        return False
    args = ground_args_to(s, mv, path[-1], env)
    if args is None:
        return False
    roll_hexes = args[9]
    return not any(h in roll_hexes for h in path) and walk_ok(env, mv, path)


#: what an inverted marker may hold, in the eyes of the Allied player, as far as its moves go: a
#: counter of each movement class and national limit, the most restricted first (a Khmer Rouge or Pathet
#: Lao regiment keeps to its country, a Viet Cong one to where Viet Cong may go, 10; "dummies move as
#: inverted guerrillas", 17.2), so the route offered is one the fewest contents could not take
STAND_INS = ("kr_regiment", "pl_regiment", "vc_regiment", "nva_division", "nva_tank_regiment", "communist_supply",
             "communist_dummy")


def public_paths(s: dict, piece: str, paths: Sequence[list[str]], env: Env) -> Sequence[list[str]]:
    """The paths an inverted marker's legal moves offer, one per destination, chosen by what the Allied
    player sees: to each destination, the path the first of ``STAND_INS`` there would be offered (a
    search of public facts: the marker's place, the map, the other pieces) that is legal for the
    marker's real contents (``walk_ok``), else the contents' own path. A client or bot that plays the
    first path offered then publishes a route that any contents able to take it would take, not one
    that follows from what the marker holds (its own search ranks paths by its contents' movement
    costs and limits). The price: such a route may cost more 8.5.2 infiltration rolls than the
    contents' own best (a careful player may still send any legal path, ``check_path``). Other
    pieces, sea, zone (9.1) and trail (8.4) moves: ``paths``."""
    mv = mover(s, piece)
    if piece not in s["markers"] or movement_kind(mv) != "ground" or improved_trail(s, mv) \
            or load_map().is_zone(mv["loc"]):
        return paths
    return _PublicPaths(s, paths, env, mv)


class _PublicPaths(Sequence):
    """``public_paths``'s answer, each path chosen when read (a movement phase offers thousands), each
    stand-in's search made when first needed."""

    __slots__ = ("_s", "_own", "_reach", "_env", "_mv")

    def __init__(self, s: dict, own: Sequence[list[str]], env: Env, mv: dict) -> None:
        self._s, self._own, self._env, self._mv = s, own, env, mv
        self._reach: list = [None] * len(STAND_INS)

    def __len__(self) -> int:
        return len(self._own)

    def __iter__(self):
        return map(self._public, self._own)

    def _stand_in(self, k: int):
        if self._reach[k] is None:
            stand = dict(self._mv, uids=[f"public:{STAND_INS[k]}"], types=[load_counters().type(STAND_INS[k])])
            self._reach[k] = ground_reach(self._s, stand, self._env)
        return self._reach[k]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._public(self._own[i])

    def _public(self, own: list[str]) -> list[str]:
        """The path offered for the contents' own path ``own`` (read, not changed: a search's paths
        are shared), as a new list."""
        dest = own[-1]
        if sea_key(own).startswith("sea:") or load_map().is_zone(dest):
            return list(own)   # by sea, or a 9.1 zone move: the one way there
        for k in range(len(STAND_INS)):
            alt = self._stand_in(k).get(dest)
            if alt is None:
                continue
            if alt == own or walk_ok(self._env, self._mv, alt):
                return list(alt)
        return list(own)
