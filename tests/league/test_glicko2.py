"""Glicko-2 in fixed point (engine/league/glicko2.py, SPEC.md 15.7): Glickman's worked example, the
exact integers a second implementation must reproduce, and a cross-check with the PyPI package
glicko2 (2.1.0, floats) on random periods."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.league.fixed import LN2, ONE, PI_SQUARED, fexp, fln, fsqrt
from afteraction.engine.league.glicko2 import Rating, idle, update

TAU = ONE // 2
EPS = ONE // 10**6


def R(r, rd, sigma=0.06):
    return Rating(round(r * ONE), round(rd * ONE), round(sigma * ONE))


def test_glickman_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06 against 1400/30 (won),
    1550/100 (lost), 1700/300 (lost), tau 0.5 -> 1464.06, 151.52, 0.05999 (the paper rounds its
    intermediate values; unrounded arithmetic gives 1464.0507, as glicko2's own test says 1464.05)."""
    p = R(1500, 200)
    new = update(p, [(R(1400, 30), ONE), (R(1550, 100), 0), (R(1700, 300), 0)], TAU, EPS)
    assert abs(new.r / ONE - 1464.0507) < 0.0001
    assert abs(new.rd / ONE - 151.5165) < 0.0001
    assert abs(new.sigma / ONE - 0.059996) < 0.000001
    # the exact integers of SPEC.md 15.7's arithmetic (a second implementation reproduces them)
    assert (new.r, new.rd, new.sigma) == (1464050670539301039, 151516524123857222, 59995984286487)


def test_idle_period_widens_the_deviation_only():
    p = R(1500, 200)
    q = idle(p)
    assert q.r == p.r and q.sigma == p.sigma
    assert abs(q.rd / ONE - math.sqrt((200 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178) < 1e-9
    assert update(p, [], TAU, EPS) == q


def test_constants():
    assert LN2 == math.floor(math.log(2) * 10**15)
    assert PI_SQUARED == 9869604401089358  # floor(pi^2 * 10^15), from 35 digits of pi


@given(st.integers(min_value=-40 * ONE, max_value=20 * ONE))
def test_fexp_is_close_to_exp(x):
    want = math.exp(x / ONE)
    assert abs(fexp(x) / ONE - want) <= 1e-12 * max(1.0, want) + 1e-15


@given(st.integers(min_value=1, max_value=10**6 * ONE))
def test_fln_is_close_to_log(x):
    assert abs(fln(x) / ONE - math.log(x / ONE)) <= 1e-12


@given(st.integers(min_value=0, max_value=10**9 * ONE))
def test_fsqrt_is_the_floor(x):
    s = fsqrt(x)
    assert s * s <= x * ONE < (s + 1) * (s + 1)


def test_fexp_fln_are_exact_integers():
    """Values fixed by the definitions (SPEC.md 15.7): any change of method changes them."""
    assert fexp(0) == ONE and fln(ONE) == 0
    assert fexp(ONE) == 2718281828459036
    assert fln(2 * ONE) == LN2
    assert fln(10 * ONE) == 2302585092994037


glicko2 = pytest.importorskip("glicko2", reason="the dev extra glicko2 (PyPI) cross-checks the ratings")


class _Reference(glicko2.Player):
    """glicko2 2.1.0 with its step 5 as Glickman wrote it: its ``_f`` reads the rating where the
    paper has the deviation (phi^2); every other step is the package's own."""

    def _f(self, x, delta, v, a):
        ex = math.exp(x)
        phi2 = self._Player__rd ** 2
        return ex * (delta ** 2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau ** 2


opponent = st.tuples(st.floats(1000, 2200), st.floats(30, 350), st.sampled_from([0, 0.5, 1]))


@settings(max_examples=150, deadline=None)
@given(st.floats(1000, 2200), st.floats(30, 350), st.floats(0.03, 0.09), st.lists(opponent, min_size=1, max_size=8))
def test_cross_check_with_pypi_glicko2(r, rd, sigma, games):
    ref = _Reference(rating=r, rd=rd, vol=sigma)
    ref.update_player([g[0] for g in games], [g[1] for g in games], [g[2] for g in games])
    mine = update(R(r, rd, sigma), [(R(o, ord_, 0.06), {0: 0, 0.5: ONE // 2, 1: ONE}[s]) for o, ord_, s in games],
                  TAU, EPS)
    assert abs(mine.r / ONE - ref.rating) < 1e-6
    assert abs(mine.rd / ONE - ref.rd) < 1e-6
    assert abs(mine.sigma / ONE - ref.vol) < 1e-7
