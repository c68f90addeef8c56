"""Glicko-2 (Glickman, "Example of the Glicko-2 system", steps 1-8) in the fixed point of
fixed.py, every operation written out so that SPEC.md 15.7 can say it step by step.

A rating is (r, rd, sigma) on the Glicko-1 scale, each an integer in units of 10^-15. One call of
``update`` is one rating period (a league round): the player's games of that period against
opponents rated as they were at the period's start."""
from __future__ import annotations

from dataclasses import dataclass

from .fixed import ONE, PI_SQUARED, fdiv, fexp, fln, fmul, fsqrt

SCALE = 1737178 * ONE // 10000   # 173.7178, Glickman's conversion factor
BASE = 1500 * ONE                # the rating the Glicko-2 scale centres on
MAX_ITERATIONS = 100             # of the volatility iteration (step 5.4); stops there if not converged


@dataclass(frozen=True)
class Rating:
    r: int
    rd: int
    sigma: int


def _g(phi: int) -> int:
    return fdiv(ONE, fsqrt(ONE + fdiv(3 * fmul(phi, phi), PI_SQUARED)))


def _e(mu: int, mu_j: int, g_j: int) -> int:
    return fdiv(ONE, ONE + fexp(-fmul(g_j, mu - mu_j)))


def idle(p: Rating) -> Rating:
    """A rating period without games: phi' = sqrt(phi^2 + sigma^2); r and sigma unchanged."""
    phi = fdiv(p.rd, SCALE)
    return Rating(p.r, fmul(SCALE, fsqrt(fmul(phi, phi) + fmul(p.sigma, p.sigma))), p.sigma)


def update(p: Rating, games: list[tuple[Rating, int]], tau: int, epsilon: int) -> Rating:
    """One rating period: ``games`` = (opponent's rating at the start of the period, score), the
    score ONE (win), ONE // 2 (draw) or 0 (loss); ``tau`` and ``epsilon`` in fixed point."""
    if not games:
        return idle(p)
    mu = fdiv(p.r - BASE, SCALE)                       # step 2
    phi = fdiv(p.rd, SCALE)
    vinv = 0
    dsum = 0
    for o, s in games:                                 # step 3 and 4, in the order given
        g = _g(fdiv(o.rd, SCALE))
        e = _e(mu, fdiv(o.r - BASE, SCALE), g)
        vinv += fmul(fmul(fmul(g, g), e), ONE - e)
        dsum += fmul(g, s - e)
    v = fdiv(ONE, vinv)
    delta = fmul(v, dsum)
    sigma = _volatility(phi, p.sigma, v, delta, tau, epsilon)   # step 5
    phi_star = fsqrt(fmul(phi, phi) + fmul(sigma, sigma))      # step 6
    phi_new = fdiv(ONE, fsqrt(fdiv(ONE, fmul(phi_star, phi_star)) + fdiv(ONE, v)))   # step 7
    mu_new = mu + fmul(fmul(phi_new, phi_new), dsum)
    return Rating(fmul(SCALE, mu_new) + BASE, fmul(SCALE, phi_new), sigma)   # step 8


def _volatility(phi: int, sigma: int, v: int, delta: int, tau: int, epsilon: int) -> int:
    """Step 5: the Illinois iteration on f of Glickman's step 5.2, its test "f(C) f(B) <= 0"."""
    a = fln(fmul(sigma, sigma))
    d2, p2, t2 = fmul(delta, delta), fmul(phi, phi), fmul(tau, tau)

    def f(x: int) -> int:
        ex = fexp(x)
        d = p2 + v + ex
        return fdiv(fmul(ex, d2 - p2 - v - ex), 2 * fmul(d, d)) - fdiv(x - a, t2)

    A = a
    if d2 > p2 + v:
        B = fln(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fa, fb = f(A), f(B)
    n = 0
    while abs(B - A) > epsilon and n < MAX_ITERATIONS:
        C = A + fdiv(fmul(A - B, fa), fb - fa)
        fc = f(C)
        if (fc < 0) != (fb < 0) or fc == 0 or fb == 0:   # f(C) f(B) <= 0
            A, fa = B, fb
        else:
            fa = fa // 2
        B, fb = C, fc
        n += 1
    return fexp(A // 2)
