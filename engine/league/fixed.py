"""Fixed-point arithmetic of the league's ratings (SPEC.md 15.7): every number is an integer in
units of 10^-15 (``ONE``), and every operation rounds toward minus infinity (floor), so a second
implementation that follows these definitions gets every digit. exp and ln are computed by the
series written here, term by term, each term floored; there is no float anywhere."""
from __future__ import annotations

from math import isqrt

from ..errors import InternalValueError

ONE = 10**15
LN2 = 693147180559945            # floor(ln 2 * 10^15)
PI_SQUARED = 9869604401089358    # floor(pi^2 * 10^15)
MAX_EXP = 2048 * ONE             # |x| bound of fexp: beyond it the ratings are undefined (SPEC.md 15.7)


def fmul(a: int, b: int) -> int:
    return (a * b) // ONE


def fdiv(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("fixed-point division by zero")
    return (a * ONE) // b


def fsqrt(a: int) -> int:
    """floor(sqrt(a / ONE) * ONE), exactly: isqrt(a * ONE)."""
    if a < 0:
        raise InternalValueError("square root of a negative number")
    return isqrt(a * ONE)


def fexp(x: int) -> int:
    """e^x: x = k*LN2 + r with k = floor(x / LN2), 0 <= r < LN2; e^r = sum of t_i, t_0 = ONE,
    t_i = floor(t_{i-1} * r / (i * ONE)) until a term is 0; then shifted by k bits (floor)."""
    if not -MAX_EXP <= x <= MAX_EXP:
        raise InternalValueError("exponent out of range")
    k = x // LN2
    r = x - k * LN2
    s = t = ONE
    i = 1
    while True:
        t = (t * r) // (i * ONE)
        if t == 0:
            break
        s += t
        i += 1
    return s << k if k >= 0 else s >> -k


def fln(x: int) -> int:
    """ln x for x > 0: x = m * 2^k with ONE <= m < 2*ONE (m = floor(x / 2^k), or x * 2^-k for k < 0);
    ln m = 2 * sum z^(2i+1) / (2i+1) with z = fdiv(m - ONE, m + ONE), the powers by fmul from z and
    z2 = fmul(z, z), each quotient floored, until a power is 0; ln x = 2 * sum + k * LN2."""
    if x <= 0:
        raise InternalValueError("logarithm of a non-positive number")
    k = x.bit_length() - ONE.bit_length()
    while True:
        m = x >> k if k >= 0 else x << -k
        if m >= 2 * ONE:
            k += 1
        elif m < ONE:
            k -= 1
        else:
            break
    z = fdiv(m - ONE, m + ONE)
    z2 = fmul(z, z)
    s, t, i = 0, z, 0
    while t != 0:
        s += t // (2 * i + 1)
        t = fmul(t, z2)
        i += 1
    return 2 * s + k * LN2


def from_fraction(num: int, den: int) -> int:
    """A rational constant of the policy as fixed point: floor(num * ONE / den)."""
    return (num * ONE) // den
