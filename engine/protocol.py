"""The log's data model, shared by the referee (which writes it) and the verifier (which reads
it): records, record bodies, core events, openings, envelopes and the keys of genesis
(SPEC.md 1-8). One model: the referee builds every body and core event with the functions
here, and the verifier checks against the same keys and rebuilds the same events.

Layering (tests/engine/test_layers.py): this module imports only engine/crypto, engine/errors
and the generated protobuf messages; ``engine/referee.py`` and ``engine/log/`` import it, never
the other way round.

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

from afteraction.v1 import game_service_pb2 as gs

from .crypto import canon
from .crypto.ed25519 import key_problem, sign, verify_signature
from .crypto.hashing import TAG_AUTH, TAG_COMMAND, TAG_RECORD, lp, tag_prefix, tagged_hash, u64
from .crypto.merkle import leaf_hash
from .errors import EncodingError

# -- records (SPEC.md 1.2) --------------------------------------------------------------------
FORMAT_VERSION = 3          # the version new logs are written in: the only one the service creates and a seat plays
VERSIONS = (1, 2, 3)        # the versions a verifier reads (SPEC.md 1.2)
#: what each version guarantees that the one before it does not (SPEC.md 11, "What each format version
#: guarantees"): the verifier's report names, for a log of an older version than FORMAT_VERSION, every
#: guarantee of the later versions it lacks. One entry per version after the first, up to FORMAT_VERSION.
VERSION_ADDS = {
    2: ("every envelope binds the history its seat verified (prev, SPEC.md 7.1): without it a server "
        "can rewrite a finished game, or re-roll its dice under a new genesis, and the log still verifies "
        "with every key pinned; only a checkpoint a seat kept or --require-cosigned shows it",
        "seat entropy is committed to the genesis and revealed only into a log holding every commitment "
        "(5.2): without it a seat asked to reveal early lets an accomplice of the server choose the dice",
        "hidden values are padded to one size per kind (6.5) and each envelope has one encoding (7.1): "
        "without them a ciphertext's length can tell the value"),
    3: ("an offer costs the other seat nothing (SPEC.md 8.1): it stands until another seat answers it, one "
        "per seat, and an envelope bound before other seats' offers is still accepted; without it a seat "
        "that offers as fast as it can makes the other seat's answers stale and runs out its clock",),
}
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


def is_record_of(rec: Record, game: str, seq: int, prev: bytes, kind: str, body: dict[str, Any],
                 v: int = FORMAT_VERSION) -> bool:
    """True only if ``make_record(game, seq, prev, kind, body, v)`` gives ``rec``'s bytes, where ``rec``
    was parsed from bytes (``parse_record``): the same fields, the body the same value as its decoded
    one (``canon.same``), so nothing is encoded or hashed (the replay's records). False
    says nothing: the caller makes the record and compares."""
    return (type(seq) is int and seq == rec.seq and type(kind) is str and kind == rec.kind
            and type(prev) is bytes and prev == rec.prev and type(game) is str and game == rec.game
            and type(v) is int and v == rec.v and canon.same(body, rec.body))


def parse_record(raw: bytes, canonical: bool = False) -> Record:
    """Decode record bytes, checking canonical form and the record's shape. ``canonical``: the
    bytes passed this check already (canon.decode_checked), so their canonical form is not checked
    again."""
    if len(raw) > MAX_RECORD:
        raise EncodingError(f"record of {len(raw)} bytes: at most {MAX_RECORD}")
    d = canon.decode_checked(raw) if canonical else canon.decode(raw)
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


# -- record bodies (SPEC.md 1.3) --------------------------------------------------------------
#: the keys of a genesis body (v >= 2 adds sealed_sizes: the referee's ``sealed_sizes``)
GENESIS_KEYS = frozenset({"ruleset", "scenario", "options", "seats", "server", "secret_commit"})
#: the envelope action each seat record kind carries (SPEC.md 7.1)
ACTION_OF_KIND = {"commit": "entropy_commit", "reveal": "entropy_reveal", "command": "command"}


def genesis_body(ruleset, scenario: str, options: dict, seat_keys: dict[str, bytes],
                 server_vkey: str, origin: str, secret_commit: bytes) -> dict:
    return {
        "ruleset": {"game": ruleset.game, "version": ruleset.version},
        "scenario": scenario,
        "options": options,
        "seats": [{"name": s, "key": seat_keys[s]} for s in ruleset.seats],
        "server": {"vkey": server_vkey, "origin": origin},
        "secret_commit": secret_commit,
    }


def seat_body(seat: str, ctr: int, env: bytes, sig: bytes, events: list) -> dict:
    """A commit, reveal or public command record's body: the signed envelope as sent."""
    return {"seat": seat, "ctr": ctr, "env": env, "sig": sig, "events": events}


def sealed_body(seat: str, ctr: int, commit: bytes, ct: bytes, events: list) -> dict:
    """A sealed command's body (SPEC.md 6.2): the envelope and signature are value k = 0."""
    return {"seat": seat, "ctr": ctr, "sealed": {"commit": commit, "ct": ct}, "events": events}


def end_body(secret: bytes, outcome: dict) -> dict:
    return {"secret": secret, "outcome": outcome}


#: the keys of the other bodies: the constructors' (the verifier checks them exactly)
SEAT_BODY_KEYS = frozenset(seat_body("", 0, b"", b"", []))
SEALED_BODY_KEYS = frozenset(sealed_body("", 0, b"", b"", []))
END_BODY_KEYS = frozenset(end_body(b"", {}))


# -- core events (SPEC.md 1.4) and openings (SPEC.md 6) ---------------------------------------
def entropy_commit_event(seat: str, commit: bytes) -> dict:
    return {"t": "entropy-commit", "seat": seat, "commit": commit}


def entropy_reveal_event(seat: str, entropy: bytes) -> dict:
    return {"t": "entropy-reveal", "seat": seat, "entropy": entropy}


def start_event(game: str, scenario: str) -> dict:
    """The event of the last reveal that starts the game (SPEC.md 5.2)."""
    return {"t": "start", "game": game, "scenario": scenario}


def sealed_event(to: str, k: int, commit: bytes, ct: bytes) -> dict:
    """Hidden value ``k`` of its record, for seat ``to`` (SPEC.md 6.1-6.2)."""
    return {"t": "sealed", "to": to, "k": k, "commit": commit, "ct": ct}


def open_event(ref, salt: bytes, value) -> dict:
    """The published opening of the committed value ``ref`` = (seq, k) (SPEC.md 6.4)."""
    return {"t": "open", "ref": list(ref), "salt": salt, "value": value}


def resign_event(seat: str) -> dict:
    """The event of a resignation's command record (v >= 2, SPEC.md 8.1)."""
    return {"t": "resign", "seat": seat}


def offer_event(seat: str, winner: str | None) -> dict:
    """An offered result: ``winner`` a seat, None for a draw (SPEC.md 8.1)."""
    return {"t": "offer", "seat": seat, "winner": winner}


def accept_event(seat: str, offer: int, winner: str | None) -> dict:
    """The acceptance of the offer in record ``offer`` (SPEC.md 8.1)."""
    return {"t": "accept", "seat": seat, "offer": offer, "winner": winner}


#: the end record's ``cause`` of an ending every game has (SPEC.md 8.3): its kinds, their exact keys
CAUSE_KEYS = {"resign": frozenset({"kind", "seat"}), "agree": frozenset({"kind", "offer", "winner"}),
              "timeout": frozenset({"kind", "seat", "control", "since", "deadline"}),
              "abandon": frozenset({"kind", "since", "deadline"})}


#: where each core event may stand (SPEC.md 1.4, "Where core events stand"): the places of a seat
#: record's events. "commit": a commit record's one event; "reveal": a reveal record's first; "start":
#: the second event of the reveal that completes the handshake; "ending": the one event of the public
#: command record of an ending (v >= 2); "play": every other event of a record: setup's (the last
#: reveal's, after start) and a game command's, where the ruleset's own events (any other t) stand;
#: "hidden": the value of a sealed event (a private event: the ruleset's own, or a roll, SPEC.md 1.4).
#: The referee writes a core event only at one of its places; the verifier accepts one only there
#: (step 6 for a record's events, step 7 for an opened value, step 9 for a sealed value).
EVENT_PLACES = {"entropy-commit": frozenset({"commit"}), "entropy-reveal": frozenset({"reveal"}),
                "start": frozenset({"start"}), "resign": frozenset({"ending"}), "offer": frozenset({"ending"}),
                "accept": frozenset({"ending"}), "roll": frozenset({"play", "hidden"}), "sealed": frozenset({"play"}),
                "open": frozenset({"play"})}


def misplaced_event(event, place: str) -> str | None:
    """The core type of ``event`` if it may not stand at ``place`` (one of EVENT_PLACES' places),
    else None (also for anything that is no map with a text t: step 7 says what is wrong there)."""
    t = event.get("t") if type(event) is dict else None
    if type(t) is str and t in EVENT_PLACES and place not in EVENT_PLACES[t]:
        return t
    return None


#: the core events whose exact keys the verifier checks at step 7 (rolls: at step 10, by their bytes)
EVENT_KEYS = {"sealed": frozenset(sealed_event("", 0, b"", b"")), "open": frozenset(open_event((0, 0), b"", None))}


# -- envelopes and keys (SPEC.md 7) -----------------------------------------------------------
def command_signing_bytes(envelope: bytes) -> bytes:
    """What a seat signs (SPEC.md 7.1): "aar1/command" 0x00 || envelope bytes."""
    return tag_prefix(TAG_COMMAND) + envelope


def verify_command_signature(public_key: bytes, envelope: bytes, signature: bytes, check=None) -> bool:
    """``check`` as in crypto/note.verified_signatures: the rule of SPEC.md 7.4."""
    return (check or verify_signature)(public_key, command_signing_bytes(envelope), signature)


def is_deterministic_encoding(message, raw: bytes) -> bool:
    """SPEC.md 7.1 (v >= 2): ``raw`` is the one encoding of the message it parses to: protobuf's
    deterministic serialization of that message without unknown fields (each field once, in
    field-number order, default scalars omitted, minimal varints). So one command has one
    encoding, and two envelopes that differ in bytes differ in content."""
    m = type(message)()
    m.CopyFrom(message)
    m.DiscardUnknownFields()
    return m.SerializeToString(deterministic=True) == raw


def seat_key_problem(seat_keys: dict[str, bytes]) -> tuple[str, str, str] | None:
    """The first seat key of genesis that SPEC.md 7.4 refuses, as (code, seat, message), or
    None: a key that is not a canonical prime-order point (anyone could sign for a small-order
    one) is WEAK_SEAT_KEY; a key another seat has too is SHARED_SEAT_KEY (either seat could act
    for the other)."""
    first: dict[bytes, str] = {}
    for s, k in seat_keys.items():
        why = key_problem(k)
        if why is not None:
            return "WEAK_SEAT_KEY", s, f"seat {s}: the public key {why}; refused (SPEC.md 7.4)"
        if k in first:
            return ("SHARED_SEAT_KEY", s,
                    f"seat {s}: the public key is also seat {first[k]}'s; every seat needs its own key (SPEC.md 7.4)")
        first[k] = s
    return None


# -- seat authentication for private reads (docs/service.md) -----------------------------------
def auth_message(game_id: str, seat: str, issued_at_ms: int, nonce: bytes) -> bytes:
    """What a seat signs to read its private data:
    "aar1/auth" 0x00 || lp(game_id) || lp(seat) || u64(issued_at_ms) || lp(nonce)."""
    return tag_prefix(TAG_AUTH) + lp(game_id.encode()) + lp(seat.encode()) + u64(issued_at_ms) + lp(nonce)


def seat_auth(seed: bytes, game_id: str, seat: str, issued_at_ms: int, nonce: bytes) -> gs.SeatAuth:
    """A SeatAuth signed with the seat's 32-byte Ed25519 seed. Pure: the caller (the client, or
    the service's tests) gives the time and the 16-byte nonce."""
    sig = sign(seed, auth_message(game_id, seat, issued_at_ms, nonce))
    return gs.SeatAuth(seat=seat, issued_at_ms=issued_at_ms, nonce=nonce, signature=sig)
