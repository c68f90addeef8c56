"""The referee checks one command without enumerating all of them (a move: the moving
piece's own search, paths.check_path); these properties tie that check to the enumeration the legal
commands come from, on positions of seeded random-bot games, and the memoised searches to fresh ones."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine import snapshot
from afteraction.engine.bots import Prng
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.movement import paths, reach
from afteraction.engine.games.ntnd.sequence.answers import move_options
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.ruleset import Context

from .botgames import positions

SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))


def _positions(seed: int, commands: int, scenario: str | None = None):
    """(ruleset, state, decision) before each of the first ``commands`` commands of a random game
    (``scenario``: of that scenario, played by the campaign bots)."""
    return positions("legal-check", seed, commands, scenario)


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_every_offered_move_passes_the_one_move_check_and_no_other_destination_does(seed):
    m = load_map()
    prng = Prng(f"probe-{seed}".encode())
    land = m.land_hexes()
    checked = 0
    for rs, s, d in _positions(seed, 110):
        if d.kind != "move":
            continue
        offered: dict[str, set] = {}
        opts = move_options(s)
        if not opts:
            continue
        for piece, path in opts:
            offered.setdefault(piece, set()).add(path[-1] if "sea" not in path else "sea:" + path[-1])
        for k in sorted({prng.below(len(opts)) for _ in range(25)}):   # a sample: the check is one search
            piece, path = opts[k]
            assert paths.check_path(s, piece, path) is None, (piece, path)
            checked += 1
        for piece in sorted(offered)[:12]:
            dests = offered[piece]
            for _ in range(3):   # a destination the enumeration did not offer is refused by the check
                h = land[prng.below(len(land))]
                if h not in dests:
                    assert paths.check_path(s, piece, [h]) is not None, (piece, h)
    assert checked > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_3_every_enumerated_answer_is_accepted_and_changes_nothing_when_refused(seed):
    """Every legal command of sampled decisions is accepted (on a copy); a move to a hex that is not
    offered is refused with ILLEGAL_MOVE and the state's digest is unchanged."""
    prng = Prng(f"answers-{seed}".encode())
    for i, (rs, s, d) in enumerate(_positions(seed, 90)):
        legal = rs.legal_commands(s, d.seat)
        assert len(legal) > 0, d.kind   # a seat that must decide always has an answer
        for j in sorted({prng.below(len(legal)) for _ in range(3)}):
            rs.apply(rs.copy_state(s), d.seat, legal[j], Context.for_tests(faces=[4, 4, 4, 4]))
        if d.kind == "move" and len(legal) > 1:
            before = snapshot.digest(s)
            c = rs.copy_state(s)
            bad = legal[0].__class__()
            bad.CopyFrom(legal[0])
            bad.ntnd.move.path[:] = ["0101"]   # a hex id that is not on the map
            try:
                rs.apply(c, d.seat, bad, Context.for_tests())
                raise AssertionError("a move to 0101 was accepted")
            except Rejection as e:
                assert e.code == "ILLEGAL_MOVE"
            assert snapshot.digest(s) == before


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_memoised_searches_give_what_fresh_searches_give(seed):
    for rs, s, d in _positions(seed, 90):
        if d.kind != "move":
            continue
        warm = [(p, list(path)) for p, path in move_options(s)]
        reach.clear_caches()
        assert [(p, list(path)) for p, path in move_options(s)] == warm
        assert list(rs.legal_commands(s, d.seat)) == list(rs.legal_commands(s, d.seat))
        legal = rs.legal_commands(s, d.seat)   # the lazy sequence (answers.MoveCommands): its moves, in order
        moves = [(c.ntnd.move.piece, list(c.ntnd.move.path)) for c in legal if c.ntnd.WhichOneof("action") == "move"]
        assert moves == warm and [legal[i] for i in range(len(legal))][-1] == legal[-1]


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_2_memoised_flights_are_each_airmobile_units_own(seed):
    """reach._flights (memoised on the start, the weather, the interned enemy hexes and the may_enter
    hexes) gives what 8.2 / 8.8.1.1 give computed from the state for that unit."""
    from afteraction.engine.games.ntnd.movement import ground as movement
    from afteraction.engine.games.ntnd.movement import national
    from afteraction.engine.games.ntnd.movement import stacking
    from afteraction.engine.games.ntnd.movement import zones
    from afteraction.engine.games.ntnd.movement.hexes import region_neighbours, region_of
    m = load_map()
    flights = 0
    for rs, s, d in _positions(seed, 200):
        for uid in sorted(s["units"]):
            u = s["units"][uid]
            if u["status"] != "map" or u["side"] != "allied" or u["inv"] or m.is_zone(u["loc"]):
                continue
            mv = movement.mover(s, uid)
            if movement.movement_kind(mv) != "airmobile":
                continue
            if movement.is_monsoon(s):
                cands = [h for h in m.hexes_within(mv["loc"], 9) if m.hexes[h].is_land]
            else:
                regions = {region_of(mv["loc"]), *region_neighbours().get(region_of(mv["loc"]), ())}
                cands = [h for h in m.land_hexes() if region_of(h) in regions]
            enemy = zones.enemy_locs(s, "allied")
            want = {h: [h] for h in cands if h != mv["loc"] and h not in enemy
                    and national.may_enter(s, mv["types"], "allied", mv["corps"], h) is None}
            got = reach._airmobile_reach(s, mv)
            assert got == want and list(got) == list(want)
            flights += 1
    assert flights > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_the_search_stopped_at_a_destination_gives_the_whole_searchs_path(seed):
    """reach.reach_one (the referee's check of a move over land: the search stopped at the goal, or
    the memoised whole search) gives what reachable gives for that destination, offered or not,
    from a cold memo and from a warm one."""
    m = load_map()
    prng = Prng(f"one-{seed}".encode())
    land = m.land_hexes()
    compared = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 110)):
        if d.kind != "move" or i % 4:
            continue
        side = s["decision"]["seat"]
        pieces = sorted(s["markers"]) if side == "communist" else []
        pieces += sorted(u["id"] for u in s["units"].values()
                         if u["status"] == "map" and u["side"] == side and not u["inv"])
        for piece in sorted({pieces[prng.below(len(pieces))] for _ in range(3)}) if pieces else ():
            reach.clear_caches()
            offered = sorted(reach.reachable(s, piece, by_sea=False))
            dests = sorted({offered[prng.below(len(offered))] for _ in range(6)} if offered else set())
            dests += [land[prng.below(len(land))] for _ in range(3)]
            for warm in (False, True):
                for h in dests:
                    if not warm:
                        reach.clear_caches()
                    assert reach.reach_one(s, piece, h) == reach.reachable(s, piece, by_sea=False).get(h), (piece, h)
                    compared += 1
    assert compared > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_5_the_per_state_sets_of_one_pass_are_each_rules_own(seed):
    """movement.Env derives its sets (ZOC 8.5.1, ZOI 8.5.3, enemy locations, units per location,
    14.1.3 patrolled rivers) in one pass over the units; each equals its own function's answer."""
    from afteraction.engine.games.ntnd.movement import ground as movement
    from afteraction.engine.games.ntnd.movement import national
    from afteraction.engine.games.ntnd.movement import stacking
    from afteraction.engine.games.ntnd.movement import zones
    for i, (rs, s, d) in enumerate(_positions(seed, 120)):
        if i % 6:
            continue
        env = movement.Env(s)
        for side in ("allied", "communist"):
            assert env.zoc(side) == zones.zoc_hexes(s, side)
            assert env.enemy(side) == zones.enemy_locs(s, side)
            by_loc: dict = {}
            for u in s["units"].values():
                if u["status"] == "map" and u["side"] == side:
                    by_loc.setdefault(u["loc"], []).append((u["id"], u["type"]))
            assert env.types_at(side) == by_loc
            assert env.occupied(side) == frozenset(by_loc)
        assert env.zoi() == zones.zoi_hexes(s)
        assert env.river_stop() == movement.patrolled_river(s)
        demoralized = dict(s, sv_demoralized=True)                 # 25.2: ARVN units lose their ZOC
        assert movement.Env(demoralized).zoc("allied") == zones.zoc_hexes(demoralized, "allied")


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_18_the_phase_supply_check_gives_each_units_own_trace(seed):
    """out_of_supply shares one state's facts (sources, blocked hexes, supply-line components) among
    all units; each unit's own trace, computed alone, gives the same answer."""
    from afteraction.engine.games.ntnd.supply import lines as supply
    for i, (rs, s, d) in enumerate(_positions(seed, 90)):
        if i % 15:
            continue
        for side in ("allied", "communist"):
            alone = [uid for uid in sorted(s["units"]) if s["units"][uid]["status"] == "map"
                     and s["units"][uid]["side"] == side and not supply.in_supply(s, s["units"][uid])]
            assert supply.out_of_supply(s, side) == alone


def _reference_search(start, graph, blocked, allow, stop, zoi, double, roll_hexes, goal=None):
    """The ground search as it was written over hex ids (before the change's hex numbers): Dijkstra on
    (infiltration rolls, quarter-MP cost), ties by hex id, paths of the settled hexes."""
    import heapq
    best, prev, paths = {start: (0, 0)}, {}, {start: []}
    heap = [((0, 0), start)]
    while heap:
        key, here = heapq.heappop(heap)
        if best[here] != key:
            continue
        if here != start:
            paths[here] = paths[prev[here]] + [here]
            if here == goal:
                return paths[here]
            if here in stop:
                continue
        rolls, cost = key
        for n, step in graph.get(here, ()):
            if n in blocked:
                continue
            if double != 1 and n in zoi:
                step *= double
            if cost + step > allow:
                continue
            nk = (rolls + (n in roll_hexes), cost + step)
            if n not in best or nk < best[n]:
                best[n], prev[n] = nk, here
                heapq.heappush(heap, (nk, n))
    if goal is not None:
        return None
    return best, prev, {d: paths[d] for d in sorted(best) if d != start}


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_5_2_the_search_over_hex_numbers_is_the_search_over_hex_ids(seed):
    """reach._dijkstra runs over hex numbers with a flag byte per hex; on the pieces of
    random-game movement phases it gives the labels, predecessors and paths (whole search and stopped
    at a goal) of the plain search over hex ids; and Env.full_hexes (8.10.1) is each hex's own check."""
    from afteraction.engine.games.ntnd.movement import ground as movement
    from afteraction.engine.games.ntnd.movement import national
    from afteraction.engine.games.ntnd.movement import stacking
    from afteraction.engine.games.ntnd.movement import zones
    m = load_map()
    prng = Prng(f"numbers-{seed}".encode())
    land = m.land_hexes()
    compared = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 110)):
        if d.kind != "move" or i % 3:
            continue
        side = s["decision"]["seat"]
        env = movement.Env(s)
        pieces = sorted(s["markers"]) if side == "communist" else []
        pieces += sorted(u["id"] for u in s["units"].values()
                         if u["status"] == "map" and u["side"] == side and not u["inv"])
        for piece in sorted({pieces[prng.below(len(pieces))] for _ in range(4)}) if pieces else ():
            mv = movement.mover(s, piece)
            if movement.movement_kind(mv) != "ground" or m.is_zone(mv["loc"]):
                continue
            args, _ = reach._ground_args(s, mv, env, False, movement.allowance_q(s, mv))
            start, graph_key, allowed_key, blocked, allow, face_up_zoc, river_stop, zoi, double, roll_hexes = args
            graph = reach._graph_within(graph_key, allowed_key)
            ref = _reference_search(start, graph, blocked, allow, face_up_zoc | river_stop, zoi, double, roll_hexes)
            goals = [*list(ref[2])[:3], land[prng.below(len(land))]]
            reach.clear_caches()   # stopped at a goal without a flag table (ground_search._goal_search)...
            for h in goals:
                assert reach._dijkstra(*args, goal=h) == _reference_search(
                    start, graph, blocked, allow, face_up_zoc | river_stop, zoi, double, roll_hexes, goal=h)
            for _ in range(2):   # a whole search makes its sets' flag table, the second finds it (hex numbers)
                got = reach._dijkstra(*args)
                assert dict(got[0].items()) == ref[0]
                assert {h: got[1][h] for h in ref[1]} == ref[1]
                assert got[2] == ref[2] and list(got[2]) == list(ref[2])
            for h in goals:   # ... and with the table the whole search made (hex numbers)
                assert reach._dijkstra(*args, goal=h) == _reference_search(
                    start, graph, blocked, allow, face_up_zoc | river_stop, zoi, double, roll_hexes, goal=h)
            compared += 1
            types = tuple(sorted(s["units"][x]["type"] for x in mv["uids"]))
            # what reach._kind memoises per kind of piece, computed here from the piece itself
            graph_kind, sorted_types, _, mult, alone = reach._kind(tuple(t.id for t in mv["types"]), side, mv["inv"])
            assert graph_kind == (tuple(sorted({t.movement_class for t in mv["types"]})), mv["inv"])
            assert sorted_types == types and mult == (2 if side == "communist" and not mv["inv"] else 1)
            verdicts = tuple(stacking._stack_verdict(side, saigon, types) is not None for saigon in (False, True))
            assert alone == (verdicts if side == "communist" and len(types) > 1 and any(verdicts) else None)
            want = set()
            for loc, here in env.types_at(side).items():
                if not m.is_zone(loc):
                    there = tuple(sorted([t for _, t in here] + list(types)))
                    if stacking._stack_verdict(side, stacking._saigon(loc), there) is not None:
                        want.add(loc)
            assert env.full_hexes(side, types) == want
    assert compared > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16), scenario=st.sampled_from([None, "campaign_short"]))
def test_ntnd_19_1_the_options_of_one_target_are_the_enumerations_options_for_it(seed, scenario):
    """battles.attack_options(s, side, target) (the referee's check of one announced or Allied attack,
    done once) gives the options of the whole enumeration whose target it is, in order: for every
    target offered, hexes next to units, random hexes and the off-board zones, on the states of random
    Tet games and of campaign games (neutrality's borders, 10.2, 28.11)."""
    from afteraction.engine.games.ntnd.combat import battles
    m = load_map()
    prng = Prng(f"attack-{seed}".encode())
    land = m.land_hexes()
    compared = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 160, scenario)):
        if i % 2 and d.kind not in ("announce", "combat"):
            continue
        for side in ("allied", "communist"):
            full = battles.attack_options(s, side)
            locs = {t for t, _ in full} | set(m.zones) | {land[prng.below(len(land))] for _ in range(4)}
            locs |= {n for u in s["units"].values() if u["status"] == "map" and u["side"] == side
                     and not m.is_zone(u["loc"]) for n in m.hex_neighbours(u["loc"])[:2]}
            for t in sorted(locs):
                assert battles.attack_options(s, side, t) == [o for o in full if o[0] == t], (side, t)
                compared += bool(full)
    assert compared > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16))
def test_ntnd_8_a_roll_free_legal_walk_needs_no_search(seed):
    """paths.walk_reaches (check_path accepts a legal ground walk that passes no 8.5.2
    infiltration roll without searching) accepts only moves the search-based check accepts
    (reach_one finds the destination, and the path is the offered one or walk_ok holds), and
    check_path gives the search-based verdict on every path: offered paths and random walks of the
    pieces of random-game movement phases (markers included)."""
    from afteraction.engine.games.ntnd.movement import ground as movement
    from afteraction.engine.games.ntnd.movement import national
    from afteraction.engine.games.ntnd.movement import stacking
    from afteraction.engine.games.ntnd.movement import zones
    m = load_map()
    prng = Prng(f"walks-{seed}".encode())
    shortcut = compared = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 110)):
        if d.kind != "move" or i % 2:
            continue
        opts = [(p, path) for p, path in move_options(s) if "sea" not in path]
        walks = [opts[prng.below(len(opts))] for _ in range(8)] if opts else []
        for piece in sorted({p for p, _ in opts}):
            here = movement.mover(s, piece)["loc"]
            if m.is_zone(here):
                continue
            for _ in range(2):
                path, h = [], here
                for _ in range(1 + prng.below(6)):
                    land = [n for n in m.hex_neighbours(h) if m.hexes[n].is_land]
                    h = land[prng.below(len(land))]
                    path.append(h)
                walks.append((piece, path))
        for piece, path in walks:
            env = movement.Env(s)
            offered = reach.reach_one(s, piece, path[-1], env)
            by_search = offered is not None and (list(path) == offered
                                                 or paths.walk_ok(env, movement.mover(s, piece), list(path)))
            env = movement.Env(s)
            if paths.walk_reaches(s, piece, list(path), env):
                assert by_search, (piece, path)
                shortcut += 1
            assert (paths.check_path(s, piece, list(path)) is None) == by_search, (piece, path)
            compared += 1
    assert compared > 0 and shortcut > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16), scenario=st.sampled_from([None, "campaign_short"]))
def test_ntnd_4_2_the_options_of_one_unit_are_the_enumerations_options_for_it(seed, scenario):
    """The referee's checks of one reinforcement, purchase or firebase relocation (
    recruitment.reinforcement_options / purchase_options and corps.relocate_options with ``only``) give
    the whole enumeration's options for that unit, in order, for every unit (and an unknown id), on
    the states of random Tet games and campaign games."""
    from afteraction.engine.games.ntnd.forces import corps, recruitment
    compared = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 200, scenario)):
        if d.kind != "reinforce" and i % 10:
            continue
        for f in (recruitment.reinforcement_options, recruitment.purchase_options, corps.relocate_options):
            full = f(s)
            for uid in [*sorted(s["units"]), "no-such-unit"]:
                assert f(s, uid) == [o for o in full if o[0] == uid], (f.__name__, uid)
            compared += len(full)
    assert compared > 0


def _relocate_reference(s: dict) -> list:
    """NTND 5.8's relocations written as plain passes over the units (corps.relocate_options before it
    read the units per location from one movement.Env)."""
    from afteraction.engine.games.ntnd.forces import corps
    from afteraction.engine.games.ntnd.movement import ground as movement
    from afteraction.engine.games.ntnd.movement import national
    from afteraction.engine.games.ntnd.movement import stacking
    from afteraction.engine.games.ntnd.movement import zones
    from afteraction.engine.games.ntnd.components.pieces import load_counters
    counters, out = load_counters(), []
    for fb in sorted(s["units"]):
        f = s["units"][fb]
        if f["status"] != "map" or counters.type(f["type"]).stacking_class != "firebase" \
                or corps._fb_class(f) in s["phase"].get("relocated", []):
            continue
        nats = {"us_firebase": ("US",), "arvn_firebase": ("ARVN",),
                "seato_firebase": ("ROK", "ANZAC", "THAI", "SEATO")}[f["type"]]
        dests = {u["loc"] for u in s["units"].values()
                 if u["status"] == "map" and u["side"] == "allied" and counters.type(u["type"]).is_ground_combat
                 and counters.type(u["type"]).stacking_class == "ground_combat"
                 and counters.type(u["type"]).nationality in nats and u["loc"] != f["loc"]
                 and not load_map().is_zone(u["loc"])}
        out += [(fb, d) for d in sorted(dests) if stacking.stacking_problem(s, "allied", d, [fb]) is None]
    return out


@SETTINGS
@given(seed=st.integers(0, 2 ** 16), scenario=st.sampled_from([None, "campaign_short"]))
def test_ntnd_5_8_relocations_read_from_one_pass_are_the_plain_passes(seed, scenario):
    from afteraction.engine.games.ntnd.forces import corps
    offered = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 200, scenario)):
        if i % 4:
            continue
        got = corps.relocate_options(s)
        assert got == _relocate_reference(s)
        offered += len(got)
    assert offered > 0


@SETTINGS
@given(seed=st.integers(0, 2 ** 16), scenario=st.sampled_from([None, "campaign_short"]))
def test_ntnd_6_1_promotions_and_breakdowns_ask_the_mix_as_first_in_mix_does(seed, scenario):
    """6.1.1-6.1.4: the options read the types in the mix from one pass (operations._types_in_mix);
    a type is there exactly when first_in_mix finds a counter of it."""
    from afteraction.engine.games.ntnd.forces import operations
    seen = 0
    for i, (rs, s, d) in enumerate(_positions(seed, 200, scenario)):
        if i % 5:
            continue
        mix = operations._types_in_mix(s)
        types = {u["type"] for u in s["units"].values()}
        assert {t for t in types if operations.first_in_mix(s, t) is not None} == mix
        seen += len(operations.promotion_options(s)) + len(operations.breakdown_options(s)) + len(mix)
    assert seen > 0
