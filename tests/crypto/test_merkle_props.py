"""Merkle proofs (engine/crypto/merkle.py) for random tree sizes: generated proofs verify,
and any mutation of the proof, index, sizes or roots makes them fail."""
from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import merkle
from afteraction.engine.errors import CryptoError

PROPS = settings(max_examples=120, deadline=None)


def _leaves(n: int) -> list[bytes]:
    return [merkle.leaf_hash(hashlib.sha256(i.to_bytes(4, "big")).digest()) for i in range(n)]


LEAVES = _leaves(301)  # sizes go up to 300; one more leaf for the n + 1 checks


def _fails(fn, *args) -> bool:
    try:
        fn(*args)
    except CryptoError:
        return True
    return False


def _mutations(proof: list[bytes], draw) -> list[list[bytes]]:
    out = [proof + [bytes(32)], [bytes(32)] + proof]
    if proof:
        i = draw(st.integers(0, len(proof) - 1))
        bit = draw(st.integers(0, 255))
        flipped = bytearray(proof[i])
        flipped[bit // 8] ^= 1 << (bit % 8)
        out += [proof[:i] + [bytes(flipped)] + proof[i + 1:], proof[:i] + proof[i + 1:]]
        if len(proof) > 1:
            out.append(list(reversed(proof)) if proof != list(reversed(proof)) else proof[1:])
    return out


def test_compact_tree_matches_recursive_definition_for_every_size_up_to_300():
    t = merkle.CompactTree()
    for n in range(1, 301):
        t.append(LEAVES[n - 1])
        assert t.root() == merkle._mth(LEAVES[:n]), n


@PROPS
@given(data=st.data())
def test_inclusion_proofs_verify_and_fail_when_mutated(data):
    n = data.draw(st.integers(1, 300), label="size")
    i = data.draw(st.integers(0, n - 1), label="index")
    root = merkle.root_from_leaf_hashes(LEAVES[:n])
    proof = merkle.inclusion_proof(LEAVES[:n], i)
    merkle.verify_inclusion(i, n, LEAVES[i], proof, root)
    for bad in _mutations(proof, data.draw):
        assert _fails(merkle.verify_inclusion, i, n, LEAVES[i], bad, root)
    other = data.draw(st.integers(0, n - 1).filter(lambda j: j != i)) if n > 1 else None
    if other is not None:
        assert _fails(merkle.verify_inclusion, other, n, LEAVES[i], proof, root)
        assert _fails(merkle.verify_inclusion, i, n, LEAVES[other], proof, root)
    assert _fails(merkle.verify_inclusion, i, n + 1, LEAVES[i], proof, merkle.root_from_leaf_hashes(LEAVES[:n + 1]))
    assert _fails(merkle.verify_inclusion, i, n, LEAVES[i], proof, hashlib.sha256(root).digest())


@PROPS
@given(data=st.data())
def test_consistency_proofs_verify_and_fail_when_mutated(data):
    n = data.draw(st.integers(1, 300), label="size2")
    m = data.draw(st.integers(1, n), label="size1")
    r1, r2 = merkle.root_from_leaf_hashes(LEAVES[:m]), merkle.root_from_leaf_hashes(LEAVES[:n])
    proof = merkle.consistency_proof(LEAVES[:n], m)
    merkle.verify_consistency(m, n, proof, r1, r2)
    for bad in _mutations(proof, data.draw):
        assert _fails(merkle.verify_consistency, m, n, bad, r1, r2)
    if m < n:
        assert _fails(merkle.verify_consistency, m, n, proof, r2, r1)
        assert _fails(merkle.verify_consistency, m, n, proof, hashlib.sha256(r1).digest(), r2)
        assert _fails(merkle.verify_consistency, m, n, proof, r1, hashlib.sha256(r2).digest())
        # a proof for another old size does not link these roots
        m2 = data.draw(st.integers(1, n).filter(lambda x: x != m))
        assert _fails(merkle.verify_consistency, m2, n, proof, merkle.root_from_leaf_hashes(LEAVES[:m2]), r2)
        # a different history (one leaf changed before m) breaks it
        forked = list(LEAVES[:n])
        forked[data.draw(st.integers(0, m - 1))] = bytes(32)
        assert _fails(merkle.verify_consistency, m, n, proof, r1, merkle.root_from_leaf_hashes(forked))


@pytest.mark.parametrize("m,n", [(0, 1), (2, 1), (5, 3)])
def test_consistency_proof_generation_refuses_bad_sizes(m, n):
    with pytest.raises(CryptoError):
        merkle.consistency_proof(LEAVES[:n], m)


def test_inclusion_proof_generation_refuses_bad_index():
    with pytest.raises(CryptoError):
        merkle.inclusion_proof(LEAVES[:3], 3)
    with pytest.raises(CryptoError):
        merkle.inclusion_proof([], 0)
