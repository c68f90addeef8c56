"""Seat cosignatures of checkpoints (SPEC.md 4.5): C2SP tlog-cosignature/v1 lines, so note
tooling that reads witness cosignatures reads them.

A seat countersigns a checkpoint it has verified with its own Ed25519 key (the one genesis lists),
under the key name ``<origin>/seat/<seat>`` and the cosignature key type 0x04:

    key ID  = SHA-256(utf8(name) || 0x0a || 0x04 || public key)[0:4]
    message = "cosignature/v1\\n" || "time " || <timestamp in ASCII decimal> || "\\n" || checkpoint text
    line    = "\u2014 " || name || " " || base64(key ID || u64(timestamp) || Ed25519 signature) || "\\n"

The message begins with "cosignature/v1", so it can never be the bytes of a command signature
("aar1/command" 0x00 ...) or of a seat authentication ("aar1/auth" ...) under the same key.
"""
from __future__ import annotations

import base64
import struct

from ..errors import CryptoError
from .ed25519 import public_of, sign, verify_signature
from .note import SIG_PREFIX, NoteSignature, key_id, split_note, valid_key_name

ALG_COSIGNATURE = 0x04


def cosigner_name(origin: str, seat: str) -> str:
    return f"{origin}/seat/{seat}"


def cosigner_key_id(origin: str, seat: str, public: bytes) -> bytes:
    return key_id(cosigner_name(origin, seat), bytes([ALG_COSIGNATURE]) + public)


def cosignature_message(text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode()


def cosign(text: str, origin: str, seat: str, seed: bytes, timestamp: int) -> str:
    """The signature line by which ``seat`` (private seed ``seed``) cosigns the checkpoint ``text``."""
    name = cosigner_name(origin, seat)
    if not valid_key_name(name):
        raise CryptoError(f"seat {seat!r} cannot cosign: {name!r} is not a key name")
    if not 0 <= timestamp < 2**64:
        raise CryptoError("cosignature timestamp out of range")
    public = public_of(seed)
    sig = sign(seed, cosignature_message(text, timestamp))
    raw = key_id(name, bytes([ALG_COSIGNATURE]) + public) + struct.pack(">Q", timestamp) + sig
    return f"{SIG_PREFIX}{name} {base64.b64encode(raw).decode()}\n"


def seat_cosignatures(note: str, origin: str, seat_keys: dict[str, bytes]) -> dict[str, int]:
    """The seats whose cosignature the note carries, with its timestamp: every line named and
    keyed as a seat's cosigner must verify (else CryptoError); other lines are not read here."""
    text, sigs = split_note(note)
    return cosignatures_of(text, sigs, cosigner_ids(origin, seat_keys), seat_keys)


def cosigner_ids(origin: str, seat_keys: dict[str, bytes]) -> dict[tuple[str, bytes], str]:
    """(key name, key ID) of each seat's cosigner -> the seat (computed once per log by a verifier)."""
    return {(cosigner_name(origin, s), cosigner_key_id(origin, s, k)): s for s, k in seat_keys.items()}


def cosignatures_of(text: str, sigs: list[NoteSignature], ids: dict[tuple[str, bytes], str],
                    seat_keys: dict[str, bytes], check=None) -> dict[str, int]:
    """``seat_cosignatures`` on a note already split (``split_note``), with ``cosigner_ids``;
    ``check`` as in note.verified_signatures."""
    out: dict[str, int] = {}
    for sig in sigs:
        seat = ids.get((sig.name, sig.key_id))
        if seat is None:
            continue
        ts = _check(sig, text, seat_keys[seat], check)
        if seat in out:
            raise CryptoError(f"seat {seat} cosigned this checkpoint twice")
        out[seat] = ts
    return out


def _check(sig: NoteSignature, text: str, public: bytes, check=None) -> int:
    if len(sig.signature) != 8 + 64:
        raise CryptoError(f"cosignature by {sig.name}: {len(sig.signature) + 4} bytes, not 76")
    (ts,) = struct.unpack(">Q", sig.signature[:8])
    if not (check or verify_signature)(public, cosignature_message(text, ts), sig.signature[8:]):
        raise CryptoError(f"cosignature by {sig.name} does not verify")
    return ts


def add_cosignatures(note: str, lines: list[str]) -> str:
    """The note with these signature lines appended (each a complete line, as ``cosign`` returns)."""
    return note + "".join(lines)
