"""The log record, byte for byte (SPEC.md sections 1-3).

A record is the canonical encoding of the map
  {"v": int, "game": str, "seq": int, "prev": bytes(32), "kind": str, "body": map}
``v`` is the format version: every record of a log carries its genesis's version, and
the verifier applies the rules of that version (SPEC.md 1.2). New logs are written in
``FORMAT_VERSION``; logs of every version in ``VERSIONS`` keep verifying.
Its hash is SHA-256("aar1/record" 0x00 || record bytes); ``prev`` is the hash of
record ``seq - 1`` (32 zero bytes for the genesis record, seq 0). The Merkle
leaf of a record is RFC 6962 ``leaf_hash(record hash)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..crypto import canon
from ..crypto.hashing import TAG_RECORD, tagged_hash
from ..crypto.merkle import leaf_hash
from ..errors import EncodingError

FORMAT_VERSION = 2          # the version new logs are written in
VERSIONS = (1, 2)           # the versions a verifier reads (SPEC.md 1.2)
ZERO_HASH = bytes(32)
KINDS = ("genesis", "commit", "reveal", "command", "end")
_FIELDS = {"v", "game", "seq", "prev", "kind", "body"}
MAX_RECORD = 1 << 20        # bytes of one record (SPEC.md 1.2); the largest written so far is ~10 KB (NTND)


@dataclass(frozen=True)
class Record:
    game: str
    seq: int
    prev: bytes
    kind: str
    body: dict
    raw: bytes
    hash: bytes
    v: int

    @property
    def leaf(self) -> bytes:
        return leaf_hash(self.hash)


def record_hash(raw: bytes) -> bytes:
    return tagged_hash(TAG_RECORD, raw)


def make_record(game: str, seq: int, prev: bytes, kind: str, body: dict[str, Any],
                v: int = FORMAT_VERSION) -> Record:
    if kind not in KINDS:
        raise EncodingError(f"unknown record kind {kind!r}")
    if v not in VERSIONS:
        raise EncodingError(f"unsupported format version {v!r}")
    raw = canon.encode({"v": v, "game": game, "seq": seq, "prev": prev,
                        "kind": kind, "body": body})
    if len(raw) > MAX_RECORD:  # a verifier would refuse it (SPEC.md 1.2)
        raise EncodingError(f"record {seq} is {len(raw)} bytes, more than {MAX_RECORD}")
    return Record(game, seq, prev, kind, body, raw, record_hash(raw), v)


def parse_record(raw: bytes) -> Record:
    """Decode record bytes, checking canonical form and the record's shape."""
    if len(raw) > MAX_RECORD:
        raise EncodingError(f"record of {len(raw)} bytes: at most {MAX_RECORD}")
    d = canon.decode(raw)
    if not isinstance(d, dict) or set(d) != _FIELDS:
        raise EncodingError("record is not a map with exactly the fields v, game, seq, prev, kind, body")
    if type(d["v"]) is not int or d["v"] not in VERSIONS:  # not `true`, which == 1 in Python
        raise EncodingError(f"unsupported format version {d['v']!r}")
    if not isinstance(d["game"], str) or not isinstance(d["seq"], int) or isinstance(d["seq"], bool) \
            or d["seq"] < 0 or not isinstance(d["prev"], bytes) or len(d["prev"]) != 32 \
            or d["kind"] not in KINDS or not isinstance(d["body"], dict):
        raise EncodingError("record field has the wrong type")
    raw = bytes(raw)
    return Record(d["game"], d["seq"], d["prev"], d["kind"], d["body"], raw, record_hash(raw), d["v"])
