"""commit.seal (SPEC.md 6.2, 6.5) as the spec writes it: the value is encoded once for its
commitment and its plaintext (``_salted``), the game's AEAD may be kept by the caller
(``sealer``), and the bytes are those of the formula in commit.py's docstring."""
from __future__ import annotations

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as _commit

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.binary(max_size=80)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                      max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32), values)
def test_salted_is_the_canonical_salt_and_value_map(salt, value):
    assert _commit._salted(salt, canon.encode(value)) == canon.encode({"salt": salt, "value": value})


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.text(min_size=1, max_size=12), st.integers(0, 2**40), st.integers(0, 70),
       values, st.sampled_from([None, 4096]), st.booleans())
def test_seal_is_the_spec_formula(secret, game, seq, k, value, size, keep):
    aead = _commit.sealer(secret, game) if keep else None
    op, c, ct = _commit.seal(secret, game, seq, k, value, size, aead)
    salt = _commit.derive_salt(secret, game, seq, k)
    pt = canon.encode({"salt": salt, "value": value})
    if size is not None:
        pt = _commit.pad(pt, size)
    assert (op.salt, op.value, op.seq, op.k) == (salt, value, seq, k)
    assert c == _commit.commitment(salt, value)
    assert ct == ChaCha20Poly1305(_commit.seal_key(secret, game)).encrypt(_commit.seal_nonce(game, seq, k), pt, c)
    assert _commit.unseal(_commit.seal_key(secret, game), game, seq, k, c, ct, size) == op


# -- commit.seal's ``known`` (the replay takes step 9's openings instead of sealing again) -----
def _known(secret, game, seq, k, value, size):
    """(size, salt, value, commitment, ciphertext) of ``value`` sealed at (seq, k), as step 9 opens it."""
    _, c, ct = _commit.seal(secret, game, seq, k, value, size)
    op = _commit.unseal(_commit.seal_key(secret, game), game, seq, k, c, ct, size)
    return (size, op.salt, op.value, c, ct)


places = (st.binary(min_size=32, max_size=32), st.text(min_size=1, max_size=12), st.integers(0, 2**40),
          st.integers(0, 70))


@settings(max_examples=150, deadline=None)
@given(*places, values, st.sampled_from([None, 4096]))
def test_seal_with_its_own_opening_is_seal_and_takes_the_known_bytes(secret, game, seq, k, value, size):
    known = _known(secret, game, seq, k, value, size)
    got = _commit.seal(secret, game, seq, k, value, size, known=known)
    assert got == _commit.seal(secret, game, seq, k, value, size)
    assert got[1] is known[3] and got[2] is known[4]   # taken, not computed
    assert _commit.is_known(value, size, known)


@settings(max_examples=150, deadline=None)
@given(*places, values, values, st.sampled_from([None, 4096]), st.sampled_from([None, 4096, 8192]),
       st.binary(min_size=32, max_size=32))
def test_seal_with_another_opening_at_its_place_is_seal(secret, game, seq, k, value, other, size, other_size,
                                                         other_secret):
    """The opening of another value, another size or another secret's salt at the same place (what a
    dishonest server's log holds): ``known`` changes nothing, the value is sealed as without it."""
    for known in (_known(secret, game, seq, k, other, size), _known(secret, game, seq, k, value, other_size),
                  _known(other_secret, game, seq, k, value, size)):
        want = _commit.seal(secret, game, seq, k, value, size)
        if known[3:] == want[1:]:
            continue   # the same value (canonically), size and salt: the same bytes
        assert _commit.seal(secret, game, seq, k, value, size, known=known) == want
        assert not _commit.is_known(value, size, known) or known[1] != want[0].salt


@settings(max_examples=150, deadline=None)
@given(values, values, st.sampled_from([None, 4096]), st.sampled_from([None, 4096, 8192]))
def test_a_known_value_fits_its_size(value, other, size, other_size):
    """``is_known`` (the referee's size check of a replayed sealed command, skipped when it holds):
    only if the value's padded length fits ``size``, as the check it replaces computes it."""
    known = _known(bytes(32), "g", 1, 0, other, other_size)
    if _commit.is_known(value, size, known):
        assert size == other_size and canon.encode(value) == canon.encode(other)
        assert size is None or _commit.padded_length(value) <= size


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=80), st.text(min_size=1, max_size=20), st.integers(0, 2**64 - 1),
       st.integers(0, 2**32 - 1))
def test_the_sealers_salt_is_derive_salt(secret, game, seq, k):
    """Sealer.salt (the HMAC keyed once per game, copied per value) is SPEC.md 6.1's salt."""
    s = _commit.sealer(secret, game)
    assert s.salt(seq, k) == _commit.derive_salt(secret, game, seq, k)
    assert s.salt(seq, k) == s.salt(seq, k)   # the keyed state is copied, never fed twice
