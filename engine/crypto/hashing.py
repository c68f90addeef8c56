"""Domain-separated SHA-256 (SPEC.md section 2).

``tagged_hash(tag, data) = SHA-256(utf8(tag) || 0x00 || data)``. Every use of a
hash in afteraction has its own tag, listed in TAGS, so that a value hashed for
one purpose can never be taken for another. The RFC 6962 Merkle hashes (prefix
0x00 / 0x01, no tag) live in merkle.py, as the RFC defines them.
"""
from __future__ import annotations

import hashlib
import hmac
import struct

TAG_RECORD = "aar1/record"            # hash of a log record's canonical bytes
TAG_SERVER_SECRET = "aar1/server-secret"  # commitment to the server's 32-byte secret
TAG_SEAT_ENTROPY = "aar1/seat-entropy"    # commitment to a seat's 32-byte entropy
TAG_DICE_KEY = "aar1/dice-key"        # derivation of the dice key
TAG_ROLL = "aar1/roll"                # message of one HMAC block of a roll
TAG_COMMIT = "aar1/commit"            # commitment to a hidden value
TAG_SALT = "aar1/salt"                # derivation of a hidden value's salt
TAG_SEAL_KEY = "aar1/seal-key"        # derivation of the sealing (AEAD) key
TAG_SEAL_NONCE = "aar1/seal-nonce"    # derivation of a sealing nonce
TAG_COMMAND = "aar1/command"          # what a seat signs: tag || envelope bytes
TAG_AUTH = "aar1/auth"                # what a seat signs to read its private data (docs/service.md)
TAG_ENVELOPE = "aar1/envelope"        # which envelope a receipt is for (SPEC.md 7.5)
TAG_RECEIPT = "aar1/receipt"          # what the server key signs for a received envelope (SPEC.md 7.5)

TAGS = (TAG_RECORD, TAG_SERVER_SECRET, TAG_SEAT_ENTROPY, TAG_DICE_KEY, TAG_ROLL,
        TAG_COMMIT, TAG_SALT, TAG_SEAL_KEY, TAG_SEAL_NONCE, TAG_COMMAND, TAG_AUTH, TAG_ENVELOPE, TAG_RECEIPT)


def tag_prefix(tag: str) -> bytes:
    return tag.encode() + b"\x00"


def tagged_hash(tag: str, data: bytes) -> bytes:
    return hashlib.sha256(tag_prefix(tag) + data).digest()


def tagged_hmac(key: bytes, tag: str, data: bytes) -> bytes:
    # hmac.digest: the one-shot HMAC (OpenSSL's where it can), the same bytes as hmac.new(...).digest()
    return hmac.digest(key, tag_prefix(tag) + data, "sha256")


def u64(n: int) -> bytes:
    return struct.pack(">Q", n)


def lp(b: bytes) -> bytes:
    """Length-prefixed bytes: u32 big-endian length, then the bytes."""
    return struct.pack(">I", len(b)) + b
