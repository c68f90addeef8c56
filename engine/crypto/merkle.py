"""RFC 6962 / RFC 9162 Merkle trees over record hashes (SPEC.md section 4).

Leaf hash ``SHA-256(0x00 || data)``, node hash ``SHA-256(0x01 || left || right)``,
empty tree ``SHA-256("")``. Proof generation follows RFC 6962 section 2.1.1-2.1.2
(PATH and SUBPROOF); verification follows RFC 9162 section 2.1.3.2 and 2.1.4.2 with
the edge-case policy of transparency-dev/merkle (see SPEC.md).
"""
from __future__ import annotations

import hashlib
from typing import Sequence

from ..errors import CryptoError

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """Largest power of two strictly smaller than n (n >= 2)."""
    k = 1
    while k << 1 < n:
        k <<= 1
    return k


def root_from_leaf_hashes(leaves: Sequence[bytes]) -> bytes:
    """MTH over already-hashed leaves."""
    t = CompactTree()
    for h in leaves:
        t.append(h)
    return t.root()


class CompactTree:
    """An append-only tree that keeps only O(log n) hashes (the compact range).

    Used by the verifier (bounded memory) and by the service (root after each append).
    """

    __slots__ = ("size", "_stack")

    def __init__(self) -> None:
        self.size = 0
        self._stack: list[bytes] = []  # perfect subtree hashes, left to right

    def append(self, lh: bytes) -> None:
        h = lh
        n = self.size
        while n & 1:
            h = node_hash(self._stack.pop(), h)
            n >>= 1
        self._stack.append(h)
        self.size += 1

    def root(self) -> bytes:
        if not self._stack:
            return EMPTY_ROOT
        r = self._stack[-1]
        for h in reversed(self._stack[:-1]):
            r = node_hash(h, r)
        return r


def _mth(leaves: Sequence[bytes]) -> bytes:
    n = len(leaves)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return leaves[0]
    k = _split(n)
    return node_hash(_mth(leaves[:k]), _mth(leaves[k:]))


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """RFC 6962 PATH(m, D[n]) over leaf hashes."""
    n = len(leaves)
    if not 0 <= index < n:
        raise CryptoError(f"index {index} out of range for tree size {n}")
    return _path(index, leaves)


def _path(m: int, d: Sequence[bytes]) -> list[bytes]:
    n = len(d)
    if n == 1:
        return []
    k = _split(n)
    if m < k:
        return _path(m, d[:k]) + [_mth(d[k:])]
    return _path(m - k, d[k:]) + [_mth(d[:k])]


def consistency_proof(leaves: Sequence[bytes], size1: int) -> list[bytes]:
    """RFC 6962 PROOF(m, D[n]) with n = len(leaves)."""
    n = len(leaves)
    if not 0 < size1 <= n:
        raise CryptoError(f"old size {size1} out of range for tree size {n}")
    if size1 == n:
        return []
    return _subproof(size1, leaves, True)


def _subproof(m: int, d: Sequence[bytes], b: bool) -> list[bytes]:
    n = len(d)
    if m == n:
        return [] if b else [_mth(d)]
    k = _split(n)
    if m <= k:
        return _subproof(m, d[:k], b) + [_mth(d[k:])]
    return _subproof(m - k, d[k:], False) + [_mth(d[:k])]


def verify_inclusion(index: int, size: int, lh: bytes, proof: Sequence[bytes], root: bytes) -> None:
    """RFC 9162 2.1.3.2. Raises CryptoError unless ``lh`` is leaf ``index`` of the tree ``root``."""
    if len(lh) != 32:
        raise CryptoError(f"leaf hash must be 32 bytes, got {len(lh)}")
    if index >= size:
        raise CryptoError(f"index {index} is not below tree size {size}")
    fn, sn, r = index, size - 1, lh
    for p in proof:
        if sn == 0:
            raise CryptoError("inclusion proof too long")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise CryptoError("inclusion proof too short")
    if r != root:
        raise CryptoError("inclusion proof does not lead to the root")


def verify_consistency(size1: int, size2: int, proof: Sequence[bytes], root1: bytes, root2: bytes) -> None:
    """RFC 9162 2.1.4.2. Raises CryptoError unless tree ``root2`` extends tree ``root1``."""
    if size1 == 0:
        raise CryptoError("consistency from an empty tree proves nothing")
    if size1 > size2:
        raise CryptoError(f"old size {size1} is greater than new size {size2}")
    if size1 == size2:
        if proof:
            raise CryptoError("proof must be empty for equal sizes")
        if root1 != root2:
            raise CryptoError("roots differ for equal sizes")
        return
    if not proof:
        raise CryptoError("empty consistency proof")
    path = list(proof)
    if size1 & (size1 - 1) == 0:
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise CryptoError("consistency proof too long")
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise CryptoError("consistency proof too short")
    if fr != root1:
        raise CryptoError("consistency proof does not lead to the old root")
    if sr != root2:
        raise CryptoError("consistency proof does not lead to the new root")
