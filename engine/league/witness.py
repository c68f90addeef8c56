"""The league server as a witness of its games (SPEC.md 15.11): its cosignature of a game checkpoint
a seat showed it, and its signed timestamp of an envelope a seat sent it. Both are made with the
league key and checked here with its public key; pure (the caller gives the time)."""
from __future__ import annotations

import base64
import struct

from ..crypto import canon
from ..crypto.cosign import ALG_COSIGNATURE, cosignature_message, cosignatures_of
from ..crypto.ed25519 import public_of, sign, verify_signature
from ..crypto.hashing import tag_prefix, tagged_hash
from ..crypto.note import SIG_PREFIX, key_id, split_note, valid_key_name
from ..errors import CryptoError
from .entries import TAG_ENVELOPE, TAG_TIMESTAMP



def witness_name(league_origin: str) -> str:
    """The key name under which the league cosigns its games' checkpoints: ``<league origin>/witness``."""
    return f"{league_origin}/witness"


def witness_key_id(league_origin: str, public: bytes) -> bytes:
    return key_id(witness_name(league_origin), bytes([ALG_COSIGNATURE]) + public)


def witness_cosign(text: str, league_origin: str, seed: bytes, timestamp: int) -> str:
    """The league's C2SP cosignature/v1 line of the game checkpoint ``text`` (SPEC.md 4.5's form,
    under the witness's name)."""
    name = witness_name(league_origin)
    if not valid_key_name(name) or not 0 <= timestamp < 2**64:
        raise CryptoError("the league cannot cosign under this origin or at this time")
    public = public_of(seed)
    raw = witness_key_id(league_origin, public) + struct.pack(">Q", timestamp) \
        + sign(seed, cosignature_message(text, timestamp))
    return f"{SIG_PREFIX}{name} {base64.b64encode(raw).decode()}\n"


def witness_cosigned(note: str, league_origin: str, public: bytes) -> int | None:
    """The timestamp of the league's witness cosignature in ``note``, None if it has none;
    CryptoError if a line named and keyed as the witness's does not verify."""
    text, sigs = split_note(note)
    ids = {(witness_name(league_origin), witness_key_id(league_origin, public)): "witness"}
    return cosignatures_of(text, sigs, ids, {"witness": public}).get("witness")


def envelope_hash(signed: bytes) -> bytes:
    return tagged_hash(TAG_ENVELOPE, signed)


def timestamp_statement(league: str, game: str, signed: bytes, at: int) -> bytes:
    """What the league signs when a seat shows it an envelope: ``aar1/league-timestamp || 0x00 ||
    canonical({at, envelope, game, league})``, ``envelope`` the tagged hash of the SignedCommand bytes."""
    return tag_prefix(TAG_TIMESTAMP) + canon.encode({"league": league, "game": game,
                                                     "envelope": envelope_hash(signed), "at": at})


def timestamp_ok(public: bytes, league: str, game: str, signed: bytes, at: int, sig: bytes) -> bool:
    return verify_signature(public, timestamp_statement(league, game, signed, at), sig)
