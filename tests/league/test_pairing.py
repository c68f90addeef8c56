"""Pairings (engine/league/pairing.py, SPEC.md 15.6): Berger tables as FIDE prints them, every pair
once per cycle with sides balanced; Swiss without rematches, by score group, sides balanced, the
seed deciding inside a group."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from afteraction.engine.league.pairing import berger, swiss

P6 = [str(i) for i in range(1, 7)]


def test_berger_six_players_is_fides_table():
    """FIDE Handbook C.05 Annex 1, the Berger table for 5 or 6 players."""
    fide = [
        [("1", "6"), ("2", "5"), ("3", "4")],
        [("6", "4"), ("5", "3"), ("1", "2")],
        [("2", "6"), ("3", "1"), ("4", "5")],
        [("6", "5"), ("1", "4"), ("2", "3")],
        [("3", "6"), ("4", "2"), ("5", "1")],
    ]
    for r, want in enumerate(fide, 1):
        assert berger(P6, r) == (want, [])


def test_berger_four_players_and_a_bye():
    assert [berger(["1", "2", "3", "4"], r)[0] for r in (1, 2, 3)] == [
        [("1", "4"), ("2", "3")], [("4", "3"), ("1", "2")], [("2", "4"), ("3", "1")]]
    pairs, byes = berger(["1", "2", "3"], 1)
    assert pairs == [("2", "3")] and byes == ["1"]


def test_berger_second_cycle_swaps_sides():
    assert berger(P6, 6) == ([(b, a) for a, b in berger(P6, 1)[0]], [])


@given(st.integers(min_value=2, max_value=14))
def test_berger_every_pair_once_sides_balanced(n):
    players = [f"p{i}" for i in range(n)]
    rounds = n - 1 if n % 2 == 0 else n
    met, first = [], {p: 0 for p in players}
    byes = []
    for r in range(1, rounds + 1):
        pairs, b = berger(players, r)
        byes += b
        seen = [x for p in pairs for x in p] + b
        assert sorted(seen) == sorted(players)  # everyone plays or has the bye, once
        for a, c in pairs:
            met.append(frozenset((a, c)))
            first[a] += 1
            first[c] -= 1
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert all(abs(v) <= 1 for v in first.values())
    assert sorted(byes) == (sorted(players) if n % 2 else [])


def _players(n):
    return [(f"p{i}", bytes([i]) * 32) for i in range(n)]


def test_swiss_score_groups_first_then_seed():
    players = _players(8)
    points = {f"p{i}": Fraction(1 if i < 4 else 0) for i in range(8)}
    pairs, byes = swiss(players, points, {}, set(), {}, "L", 2, b"s" * 32)
    assert byes == []
    for a, b in pairs:  # winners meet winners
        assert (points[a] == 1) == (points[b] == 1)
    other = swiss(players, points, {}, set(), {}, "L", 2, b"t" * 32)
    assert other != (pairs, byes)  # another seed, another draw inside the groups
    assert swiss(players, points, {}, set(), {}, "L", 2, b"s" * 32) == (pairs, byes)  # deterministic


def test_swiss_avoids_rematches_and_balances_sides():
    players = _players(4)
    points = {n: Fraction(0) for n, _ in players}
    met = {frozenset(("p0", "p1")), frozenset(("p2", "p3")), frozenset(("p0", "p2")), frozenset(("p1", "p3"))}
    pairs, _ = swiss(players, points, {}, met, {"p0": 1, "p3": 1, "p1": -1, "p2": -1}, "L", 3, b"x" * 32)
    assert {frozenset(p) for p in pairs} == {frozenset(("p0", "p3")), frozenset(("p1", "p2"))}


def test_swiss_sides_go_to_the_lower_balance():
    players = _players(2)
    pairs, _ = swiss(players, {}, {}, set(), {"p0": 1, "p1": 0}, "L", 2, b"x" * 32)
    assert pairs == [("p1", "p0")]


def test_swiss_bye_to_the_lowest_without_one():
    players = _players(5)
    points = {f"p{i}": Fraction(4 - i) for i in range(5)}
    assert swiss(players, points, {}, set(), {}, "L", 2, b"x" * 32)[1] == ["p4"]
    assert swiss(players, points, {"p4": 1}, set(), {}, "L", 2, b"x" * 32)[1] == ["p3"]


def test_swiss_falls_back_to_rematches_when_it_must():
    players = _players(2)
    pairs, _ = swiss(players, {}, {}, {frozenset(("p0", "p1"))}, {}, "L", 2, b"x" * 32)
    assert {frozenset(p) for p in pairs} == {frozenset(("p0", "p1"))}


@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=5), st.binary(min_size=32, max_size=32))
def test_swiss_rounds_without_rematches_while_possible(n, rounds, seed):
    """A Swiss event of n players: every player plays or has the bye each round, nobody has two byes
    while another has none, no pair meets twice in the first two rounds, and the first seat goes to
    the player who had it less (a preference, not FIDE's absolute colour rules: see SPEC.md 15.6)."""
    players = _players(n)
    points = {p: Fraction(0) for p, _ in players}
    met, sides, byes = set(), {}, {}
    for r in range(1, min(rounds, n - 1 if n % 2 == 0 else n) + 1):
        pairs, bye = swiss(players, points, byes, met, sides, "L", r, seed)
        assert sorted([x for p in pairs for x in p] + bye) == sorted(p for p, _ in players)
        for b in bye:
            byes[b] = byes.get(b, 0) + 1
        assert max(byes.values(), default=0) - min((byes.get(p, 0) for p, _ in players), default=0) <= 1
        for a, b in pairs:
            if r <= 2:   # two rounds can always avoid a rematch (n >= 2)
                assert frozenset((a, b)) not in met
            assert sides.get(a, 0) <= sides.get(b, 0)   # the first seat to whoever had it less
            met.add(frozenset((a, b)))
            sides[a] = sides.get(a, 0) + 1
            sides[b] = sides.get(b, 0) - 1
            points[a] += 1   # the first seat wins: score groups form
