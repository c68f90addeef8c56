"""Commitments, openings and sealing of hidden values (SPEC.md section 6).

A hidden value ``v`` created in record ``seq`` as its ``k``-th hidden value gets
  salt       = HMAC(server_secret, "aar1/salt" 0x00 || lp(game) || u64(seq) || u32(k))
  commitment = SHA-256("aar1/commit" 0x00 || salt || canonical(v))
  sealed     = ChaCha20-Poly1305(seal_key, nonce, plaintext, aad=commitment)
  plaintext  = canonical({"salt": salt, "value": v})                         (format v1)
             = lp(canonical({"salt": salt, "value": v})) || 0x00 * ...     (v >= 2: exactly the
               size genesis declares for the value's kind, so lengths say nothing; SPEC.md 6.5)
  seal_key   = HMAC(server_secret, "aar1/seal-key" 0x00 || lp(game))
  nonce      = SHA-256("aar1/seal-nonce" 0x00 || lp(game) || u64(seq) || u32(k))[:12]
Every input is fixed by the game, so the same secret reproduces the same bytes.
"""
from __future__ import annotations

import hmac
import struct
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from ..errors import CryptoError, InternalValueError
from . import canon
from .hashing import (TAG_COMMIT, TAG_SALT, TAG_SEAL_KEY, TAG_SEAL_NONCE, TAG_SEAT_ENTROPY,
                      TAG_SERVER_SECRET, lp, tag_prefix, tagged_hash, tagged_hmac, u64)


class SealedSizeError(InternalValueError):
    """A hidden value that does not fit the size declared for its kind: a ruleset bug (its
    ``sealed_sizes`` are too small), never a reason to write a longer ciphertext."""


def pad(plain: bytes, size: int) -> bytes:
    """The padded plaintext of format v >= 2: lp(plain) then zeros, exactly ``size`` bytes."""
    framed = lp(plain)
    if len(framed) > size:
        raise SealedSizeError(f"a sealed plaintext of {len(framed)} bytes does not fit the declared size {size}")
    return framed + bytes(size - len(framed))


def padded_length(value: Any) -> int:
    """The smallest padded size (v >= 2) that holds ``value``: lp(canonical({salt, value}))."""
    return 4 + len(canon.encode({"salt": bytes(32), "value": value}))


def unpad(padded: bytes, size: int) -> bytes:
    """Inverse of ``pad``: the length, the prefix and the zero padding are checked."""
    if len(padded) != size:
        raise CryptoError(f"padded plaintext is {len(padded)} bytes, the declared size is {size}")
    n = struct.unpack(">I", padded[:4])[0] if size >= 4 else None
    if n is None or 4 + n > size:
        raise CryptoError(f"the plaintext length prefix ({n}) exceeds the declared size {size} - 4")
    if padded.count(0, 4 + n) != size - 4 - n:  # at C speed: markers pad to kilobytes
        raise CryptoError(f"the padding after the {n}-byte plaintext is not all zero bytes")
    return padded[4:4 + n]


def _where(game_id: str, seq: int, k: int) -> bytes:
    return lp(game_id.encode()) + u64(seq) + struct.pack(">I", k)


def server_secret_commitment(game_id: str, secret: bytes) -> bytes:
    return tagged_hash(TAG_SERVER_SECRET, lp(game_id.encode()) + secret)


def seat_entropy_commitment(game_id: str, seat: str, entropy: bytes, genesis: bytes | None = None) -> bytes:
    """SPEC.md 5.2. ``genesis`` is the genesis record's hash (format version 2): the
    commitment then covers the game's genesis (its secret commitment, seats and keys)
    and cannot be carried over to a genesis written afterwards. None: version 1."""
    g = b"" if genesis is None else genesis
    if genesis is not None and len(genesis) != 32:
        raise CryptoError("a genesis record hash is 32 bytes")
    return tagged_hash(TAG_SEAT_ENTROPY, lp(game_id.encode()) + lp(seat.encode()) + g + entropy)


def derive_salt(secret: bytes, game_id: str, seq: int, k: int) -> bytes:
    return tagged_hmac(secret, TAG_SALT, _where(game_id, seq, k))


def commitment(salt: bytes, value: Any) -> bytes:
    return _commitment_of(salt, canon.encode(value))


def _commitment_of(salt: bytes, encoded_value: bytes) -> bytes:
    """``commitment`` of a value already canonically encoded."""
    if len(salt) != 32:
        raise CryptoError("salt must be 32 bytes")
    return tagged_hash(TAG_COMMIT, salt + encoded_value)


#: canonical({"salt": salt, "value": v}) for a 32-byte salt is these bytes, the salt, ``_VALUE_KEY``
#: and canonical(v): a map of two entries (keys in order), "salt", bin 8 of 32 bytes, "value"
_SALT_HEAD = b"\x82\xa4salt\xc4\x20"
_VALUE_KEY = b"\xa5value"


def _salted(salt: bytes, encoded_value: bytes) -> bytes:
    """``canon.encode({"salt": salt, "value": v})`` from ``encoded_value`` = ``canon.encode(v)`` (a
    32-byte salt): the value is encoded once for its commitment and its plaintext."""
    return _SALT_HEAD + salt + _VALUE_KEY + encoded_value


def seal_key(secret: bytes, game_id: str) -> bytes:
    return tagged_hmac(secret, TAG_SEAL_KEY, lp(game_id.encode()))


def seal_nonce(game_id: str, seq: int, k: int) -> bytes:
    return tagged_hash(TAG_SEAL_NONCE, _where(game_id, seq, k))[:12]


@dataclass(frozen=True)
class Opening:
    """What the owner of a hidden value receives at once, and what a reveal publishes."""
    seq: int
    k: int
    salt: bytes
    value: Any

    @property
    def commitment(self) -> bytes:
        return commitment(self.salt, self.value)

    def event(self) -> dict:
        return {"t": "open", "ref": [self.seq, self.k], "salt": self.salt, "value": self.value}


def seal(secret: bytes, game_id: str, seq: int, k: int, value: Any,
         size: int | None = None, aead: "Sealer | None" = None,
         known: tuple | None = None) -> tuple[Opening, bytes, bytes]:
    """Commit and seal ``value``; returns (opening, commitment, ciphertext). ``size``: the padded
    plaintext size of the value's kind (format v >= 2); None for v1, which has no padding.
    ``aead``: ``sealer(secret, game_id)`` if the caller keeps it (a referee seals many values of one
    game: its AEAD and salt HMAC), else it is made here. Raises SealedSizeError if the value does
    not fit.

    ``known``: (size, salt, value, commitment, ciphertext) of a value already sealed at this place
    (``seq``, ``k``) of this game and opened by ``unseal`` at that size (the verifier's step 9: the
    replay of step 11 re-seals the logged values). If ``size`` and this salt are those and ``value``
    is that value (``is_known``), the commitment and ciphertext are the known ones, not computed
    again: the plaintext canonical(salt, value) is then the one that was opened, so the
    commitment is the one it matched, and the padded plaintext is the same; ChaCha20-Poly1305 with
    the same key, nonce and associated data maps one padded plaintext to one ciphertext, the one that
    opened to it. Otherwise the value is sealed as without it."""
    keys = aead or sealer(secret, game_id)
    salt = keys.salt(seq, k)   # derive_salt(secret, game_id, seq, k)
    if known is not None and known[1] == salt and is_known(value, size, known):
        return Opening(seq, k, salt, value), known[3], known[4]
    v = canon.encode(value)
    c = _commitment_of(salt, v)   # commitment(salt, value), the value encoded once
    pt = _salted(salt, v)
    if size is not None:
        pt = pad(pt, size)
    ct = keys.aead.encrypt(seal_nonce(game_id, seq, k), pt, c)
    return Opening(seq, k, salt, value), c, ct


def is_known(value: Any, size: int | None, known: tuple | None) -> bool:
    """``value`` at padded ``size`` is the value of ``known`` (``seal``'s): the same size, and
    ``canon.same`` as the opened value, so it encodes to the opened bytes and fits ``size`` (it was
    opened at that size: ``padded_length(value)`` is at most ``size``)."""
    return known is not None and known[0] == size and canon.same(value, known[2])


class Sealer:
    """What sealing the values of one game needs, made once (``sealer``): ``aead``, the AEAD of its
    sealed values (ChaCha20-Poly1305 with ``seal_key``), and ``salt(seq, k)``, ``derive_salt``'s
    HMAC keyed with the server secret and fed the tag and the game id once, then copied per value
    (about half the time of the one-shot HMAC here)."""

    __slots__ = ("aead", "_salt")

    def __init__(self, secret: bytes, game_id: str) -> None:
        self.aead = ChaCha20Poly1305(seal_key(secret, game_id))
        self._salt = hmac.new(secret, tag_prefix(TAG_SALT) + lp(game_id.encode()), "sha256")

    def salt(self, seq: int, k: int) -> bytes:
        """``derive_salt(secret, game_id, seq, k)``."""
        h = self._salt.copy()
        h.update(u64(seq) + struct.pack(">I", k))
        return h.digest()


def sealer(secret: bytes, game_id: str) -> Sealer:
    """A game's ``Sealer``: its AEAD and its salts."""
    return Sealer(secret, game_id)


def unseal(key: bytes, game_id: str, seq: int, k: int, commit: bytes, ct: bytes,
           size: int | None = None) -> Opening:
    """Open a sealed value with the seal key; checks the AEAD tag, the padding to ``size``
    (v >= 2; None for v1) and the commitment."""
    try:
        pt = ChaCha20Poly1305(key).decrypt(seal_nonce(game_id, seq, k), ct, commit)
    except InvalidTag:
        raise CryptoError("sealed value does not decrypt (wrong key, nonce, commitment or bytes)") from None
    if size is not None:
        pt = unpad(pt, size)
    d = canon.decode(pt)
    if not isinstance(d, dict) or set(d) != {"salt", "value"} or not isinstance(d["salt"], bytes):
        raise CryptoError("sealed value has the wrong shape")
    op = Opening(seq, k, d["salt"], d["value"])
    if op.commitment != commit:
        raise CryptoError("sealed value does not match its commitment")
    return op
