"""Dice (engine/crypto/dice.py): distribution and absence of modulo bias.

The chi-square tests use a fixed key, so they are deterministic: they pass today and can
only start failing if the mapping from HMAC output to faces changes (e.g. a biased
mapping). Rejection threshold p < 0.001, critical values hard-coded below (no scipy) and
cross-checked against a pure-Python chi-square tail.
"""
from __future__ import annotations

import functools
import math
from collections import Counter
from fractions import Fraction

import pytest

from afteraction.engine.crypto import dice
from afteraction.engine.crypto.hashing import tagged_hash
from afteraction.engine.errors import CryptoError

KEY = tagged_hash("aar1/test-material", b"tests/dice")

# chi-square critical values at p = 0.001, by degrees of freedom (standard tables)
CHI2_001 = {2: 13.816, 5: 20.515, 9: 27.877, 10: 29.588, 11: 31.264, 18: 42.312, 35: 66.619, 99: 148.230}


def _chi2_sf(x: float, k: int) -> float:
    """P(X > x) for X ~ chi-square(k): the regularized upper incomplete gamma Q(k/2, x/2)."""
    a, z = k / 2, x / 2
    # lower series P(a, z) = z^a e^-z / Gamma(a+1) * sum z^n / ((a+1)...(a+n))
    term = total = 1.0
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= z / (a + n)
        total += term
    return 1.0 - math.exp(a * math.log(z) - z - math.lgamma(a + 1)) * total


@pytest.mark.parametrize("df,crit", sorted(CHI2_001.items()))
def test_critical_value_table_is_p_0_001(df, crit):
    assert abs(_chi2_sf(crit, df) - 0.001) < 2e-6


def _chi2(observed: Counter, expected: dict, n: int) -> float:
    assert set(observed) <= set(expected), set(observed) - set(expected)
    return sum((observed.get(c, 0) - n * p) ** 2 / (n * p) for c, p in expected.items())


def _uniform(faces: int) -> dict:
    return {f: 1 / faces for f in range(1, faces + 1)}


def _sum_of_two(faces: int) -> dict:
    d: Counter = Counter()
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            d[a + b] += Fraction(1, faces * faces)
    return {k: float(v) for k, v in d.items()}


CASES = [
    # die, sample size, what to tabulate, expected distribution, degrees of freedom
    ("d3", 30_000, "result", _uniform(3), 2),
    ("d6", 30_000, "result", _uniform(6), 5),
    ("d10", 30_000, "result", _uniform(10), 9),
    ("d12", 30_000, "result", _uniform(12), 11),
    ("2d6", 36_000, "result", _sum_of_two(6), 10),
    ("2d10", 60_000, "result", _sum_of_two(10), 18),
    ("2d10", 60_000, "faces", {(a, b): 0.01 for a in range(1, 11) for b in range(1, 11)}, 99),
    ("d66", 36_000, "result", {10 * a + b: 1 / 36 for a in range(1, 7) for b in range(1, 7)}, 35),
]


@functools.lru_cache(maxsize=None)
def _sample(die: str, n: int) -> tuple:
    return tuple(dice.roll(KEY, i, die, "test") for i in range(n))


@pytest.mark.parametrize("die,n,what,expected,df", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_chi_square_goodness_of_fit(die, n, what, expected, df):
    assert len(expected) - 1 == df and abs(sum(expected.values()) - 1) < 1e-12
    obs = Counter(r.result if what == "result" else r.faces for r in _sample(die, n))
    stat = _chi2(obs, expected, n)
    print(f"{die} {what}: chi2 = {stat:.2f} (df {df})")
    assert stat < CHI2_001[df], f"{die} {what}: chi2 = {stat:.2f} >= {CHI2_001[df]} (df {df}, p < 0.001)"


def test_chi_square_detects_a_biased_mapping():
    """The same test rejects a mapping with modulo bias made visible (x mod 7 folded onto d6)."""
    obs: Counter = Counter()
    n = 30_000
    for i in range(n):
        x = int.from_bytes(tagged_hash("t", i.to_bytes(4, "big"))[:8], "big") % 7
        obs[x % 6 + 1] += 1
    assert _chi2(obs, _uniform(6), n) > CHI2_001[5]


# -- no modulo bias, by construction -----------------------------------------------------

@pytest.mark.parametrize("n", sorted({f for f, _ in dice.DICE.values()}))
def test_accept_limit_is_a_multiple_of_n_with_equal_residue_classes(n):
    limit = 2**64 - 2**64 % n
    assert limit % n == 0 and 2**64 - n < limit <= 2**64
    # every residue r has exactly limit / n candidates x in [0, limit) with x % n == r
    for r in range(n):
        assert len(range(r, limit, n)) == limit // n


def _blocks(monkeypatch, candidates_per_attempt: list[list[int]]):
    """Make draw_face see chosen 64-bit candidates instead of HMAC output."""
    calls = []

    def fake_hmac(key, tag, msg):
        attempt = int.from_bytes(msg[-4:], "big")
        calls.append(attempt)
        c = candidates_per_attempt[attempt]
        return b"".join(x.to_bytes(8, "big") for x in c)
    monkeypatch.setattr(dice, "tagged_hmac", fake_hmac)
    return calls


@pytest.mark.parametrize("die", sorted(dice.DICE))
def test_candidate_at_the_limit_is_rejected_and_the_next_one_used(monkeypatch, die):
    n, _ = dice.DICE[die]
    limit = 2**64 - 2**64 % n
    # first candidate == limit (rejected), second == limit - 1 (accepted: residue n-1 -> face n)
    _blocks(monkeypatch, [[limit, limit - 1, 0, 0]])
    assert dice.draw_face(KEY, 0, die, 0, n) == n
    _blocks(monkeypatch, [[2**64 - 1, limit + 1 if limit + 1 < 2**64 else limit, 5, 0]])
    assert dice.draw_face(KEY, 0, die, 0, n) == 5 % n + 1


def test_a_block_of_rejected_candidates_moves_to_the_next_attempt(monkeypatch):
    n = 6
    limit = 2**64 - 2**64 % n
    calls = _blocks(monkeypatch, [[limit] * 4, [2**64 - 1] * 3 + [13]])
    assert dice.draw_face(KEY, 7, "d6", 0, n) == 13 % 6 + 1
    assert calls == [0, 1]


def test_roll_shapes_and_ranges():
    for i in range(500):
        assert 1 <= dice.roll(KEY, i, "d10", "r").result <= 10  # a printed 0 is 10
        r = dice.roll(KEY, i, "d66", "r")
        assert r.result == 10 * r.faces[0] + r.faces[1] and all(1 <= f <= 6 for f in r.faces)
        r = dice.roll(KEY, i, "2d10", "r")
        assert len(r.faces) == 2 and r.result == sum(r.faces)
    ev = dice.roll(KEY, 3, "2d6", "SOG 3.1").event()
    assert ev["t"] == "roll" and ev["i"] == 3 and ev["die"] == "2d6" and ev["rule"] == "SOG 3.1"
    assert ev["result"] == sum(ev["faces"])


def test_rolls_depend_on_index_die_and_key():
    a = [dice.roll_faces(KEY, i, "d12") for i in range(64)]
    assert a == [dice.roll_faces(KEY, i, "d12") for i in range(64)]  # deterministic
    assert a != [dice.roll_faces(KEY, i + 1, "d12") for i in range(64)]
    assert a != [dice.roll_faces(bytes(32), i, "d12") for i in range(64)]
    # the die code is in the HMAC message: d6 and 2d6's first face are independent draws
    assert [dice.roll_faces(KEY, i, "d6")[0] for i in range(64)] != [dice.roll_faces(KEY, i, "2d6")[0] for i in range(64)]


def test_dice_key_binds_every_input():
    s, e1, e2 = bytes(range(32)), b"\x01" * 32, b"\x02" * 32
    k = dice.derive_dice_key(s, "g", [("a", e1), ("b", e2)])
    assert k != dice.derive_dice_key(s, "h", [("a", e1), ("b", e2)])
    assert k != dice.derive_dice_key(s, "g", [("a", e2), ("b", e1)])
    assert k != dice.derive_dice_key(bytes(32), "g", [("a", e1), ("b", e2)])
    with pytest.raises(CryptoError):
        dice.derive_dice_key(s[:31], "g", [("a", e1)])
    with pytest.raises(CryptoError):
        dice.derive_dice_key(s, "g", [("a", e1[:31])])
    with pytest.raises(CryptoError):
        dice.roll(KEY, 0, "d7", "r")
