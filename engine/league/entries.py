"""League entries (SPEC.md 15.1-15.3): the record of a league ledger, what its author signs, and
the exact shape of every kind's body. The encoding is the canonical msgpack of SPEC.md 1.1
(crypto/canon.py), the hashes are tagged (SPEC.md 2) with tags of their own, the signatures follow
the one Ed25519 rule of SPEC.md 7.4 (crypto/ed25519.py)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..crypto import canon
from ..crypto.ed25519 import SigningKey, key_problem, verify_signature
from ..crypto.hashing import lp, tag_prefix, tagged_hash
from ..crypto.merkle import leaf_hash
from ..errors import EncodingError
from ..protocol import MAX_RECORD

#: the league version new ledgers are written in (an entry's ``v``). 1: the first ledgers (a genesis
#: without ``organiser``, rounds without ``asked``); 2 adds the organiser to the genesis and its
#: signature asking for each round (SPEC.md 15.3). Every version stays readable: a ledger written at
#: any version verifies forever (its entries all have the genesis's version, SPEC.md 15.2).
LEAGUE_VERSION = 2
LEAGUE_VERSIONS = (1, 2)
TAG_ENTRY = "aar1/league-entry"    # hash of an entry's bytes: the chain and the Merkle leaf's input
TAG_SIGN = "aar1/league-sign"      # prefix of what an entry's author signs
TAG_SEED = "aar1/league-seed"      # commitment to a round's pairing seed
TAG_ORDER = "aar1/league-order"    # a player's place in its score group (Swiss pairing)
TAG_BUNDLE = "aar1/league-bundle"  # hash of a game's bundle file
TAG_TIMESTAMP = "aar1/league-timestamp"  # prefix of the witness's timestamp statement (witness.py)
TAG_ENVELOPE = "aar1/league-envelope"    # hash of the SignedCommand bytes a timestamp names (witness.py)
TAG_ORGANISER = "aar1/league-organiser"  # prefix of what the organiser signs to call a league server
LEAGUE_TAGS = (TAG_ENTRY, TAG_SIGN, TAG_SEED, TAG_ORDER, TAG_BUNDLE, TAG_TIMESTAMP, TAG_ENVELOPE, TAG_ORGANISER)

KINDS = ("genesis", "policy", "player", "round", "game", "result", "dispute", "ruling", "correction",
         "standings")
FIELDS = frozenset({"v", "league", "seq", "prev", "at", "kind", "body", "by", "sig"})
MAX_AT = 2**53
#: the rating constants a policy may set (fixed point, units of 10^-15)
RATING_BOUNDS = {"r": (1, 10**4 * 10**15), "rd": (10**12, 10**3 * 10**15), "sigma": (10**11, 10**15),
                 "tau": (10**13, 10 * 10**15), "epsilon": (1, 10**15), "provisional": (1, 10**3 * 10**15)}
CAUSES = ("rules", "resign", "agree", "timeout", "abandon")
DECISIONS = ("uphold", "annul", "replay")
PAIRINGS = ("swiss", "round-robin")


@dataclass(frozen=True)
class Entry:
    v: int           # the league version (LEAGUE_VERSIONS): the genesis's, in every entry of a ledger
    league: str
    seq: int
    prev: bytes
    at: int
    kind: str
    body: dict
    by: bytes
    sig: bytes
    raw: bytes
    hash: bytes

    @property
    def leaf(self) -> bytes:
        return leaf_hash(self.hash)


def entry_hash(raw: bytes) -> bytes:
    return tagged_hash(TAG_ENTRY, raw)


def statement(league: str, kind: str, body: dict) -> bytes:
    """What an entry's author signs: its league, kind and body, not its place or time."""
    return tag_prefix(TAG_SIGN) + canon.encode({"league": league, "kind": kind, "body": body})


def organiser_statement(league: str, rpc: str, size: int, title: dict | None = None) -> bytes:
    """What a league's organiser signs (SPEC.md 15.4 ``round``, 15.12): the league, the call and the
    ledger's size, so the signature serves once; for ``OpenRound`` the round's title too. A round
    entry carries the organiser's signature of its OpenRound statement at its own seq (``asked``)."""
    v = {"league": league, "rpc": rpc, "size": size}
    if title is not None:
        v["title"] = title
    return tag_prefix(TAG_ORGANISER) + canon.encode(v)


def seed_commitment(league: str, round_no: int, seed: bytes) -> bytes:
    return tagged_hash(TAG_SEED, lp(league.encode()) + round_no.to_bytes(4, "big") + seed)


def bundle_hash(bundle: bytes) -> bytes:
    return tagged_hash(TAG_BUNDLE, bundle)


class Author:
    """An Ed25519 key that signs league entries (the league's, a player's, an arbiter's)."""

    def __init__(self, seed: bytes) -> None:
        self._key = SigningKey(seed)
        self.public = self._key.public

    def sign(self, league: str, kind: str, body: dict) -> bytes:
        return self._key.sign(statement(league, kind, body))


def make_entry(league: str, seq: int, prev: bytes, at: int, kind: str, body: dict, by: bytes,
               sig: bytes, v: int = LEAGUE_VERSION) -> Entry:
    """An entry of league version ``v`` (new ledgers: LEAGUE_VERSION; an older one to extend or
    re-sign a ledger of that version, as the fixtures' forgeries do)."""
    if type(v) is not int or v not in LEAGUE_VERSIONS:
        raise EncodingError(f"unsupported league version {v!r}")
    raw = canon.encode({"v": v, "league": league, "seq": seq, "prev": prev, "at": at,
                        "kind": kind, "body": body, "by": by, "sig": sig})
    if len(raw) > MAX_RECORD:
        raise EncodingError(f"entry {seq} is {len(raw)} bytes, more than {MAX_RECORD}")
    return Entry(v, league, seq, prev, at, kind, body, by, sig, raw, entry_hash(raw))


def parse_entry(raw: bytes) -> Entry:
    """Strict decoding of an entry's bytes (canonical, exactly its fields and their types)."""
    if len(raw) > MAX_RECORD:
        raise EncodingError(f"entry of {len(raw)} bytes: at most {MAX_RECORD}")
    d = canon.decode(raw)
    if type(d) is not dict or set(d) != FIELDS:
        raise EncodingError("an entry is a map of exactly v, league, seq, prev, at, kind, body, by, sig")
    if type(d["v"]) is not int or d["v"] not in LEAGUE_VERSIONS:
        raise EncodingError(f"unsupported league version {d['v']!r} (known: "
                            f"{', '.join(map(str, LEAGUE_VERSIONS))})")
    if not (_text(d["league"], 64) and _nat(d["seq"]) and _bytes(d["prev"], 32) and _nat(d["at"])
            and d["at"] <= MAX_AT and d["kind"] in KINDS and type(d["body"]) is dict
            and _bytes(d["by"], 32) and _bytes(d["sig"], 64)):
        raise EncodingError("entry field has the wrong type or range")
    raw = bytes(raw)
    return Entry(d["v"], d["league"], d["seq"], d["prev"], d["at"], d["kind"], d["body"], d["by"], d["sig"],
                 raw, entry_hash(raw))


def signature_ok(e: Entry) -> bool:
    return key_problem(e.by) is None and verify_signature(e.by, statement(e.league, e.kind, e.body), e.sig)


# -- body shapes (SPEC.md 15.3) -----------------------------------------------------------------
def _nat(v, most: int = 2**63 - 1) -> bool:
    return type(v) is int and 0 <= v <= most


def _bytes(v, n: int) -> bool:
    return type(v) is bytes and len(v) == n


def _text(v, most: int) -> bool:
    return type(v) is str and 1 <= len(v) <= most and v.isprintable() and v == v.strip()


def _note(v) -> bool:
    return type(v) is str and 0 < len(v.encode()) <= 64 * 1024


def _frac(v) -> bool:
    return (type(v) is list and len(v) == 2 and _nat(v[0], 10**6) and type(v[1]) is int
            and 1 <= v[1] <= 10**6 and Fraction(v[0], v[1]).denominator == v[1])


def _keys(b: dict, want: set, optional: set = frozenset()) -> bool:
    return set(want) <= set(b) <= set(want) | set(optional)


def fraction(v: list) -> Fraction:
    return Fraction(v[0], v[1])


def frac_value(f: Fraction) -> list:
    return [f.numerator, f.denominator]


def _title(v) -> bool:
    return type(v) is dict and set(v) == {"game", "scenario"} and _text(v["game"], 64) and _text(v["scenario"], 64)


def _per_cause(v, check) -> bool:
    return type(v) is dict and set(v) == set(CAUSES) and all(check(v[c]) for c in CAUSES)


def policy_problem(b: dict) -> str | None:
    want = {"version", "titles", "pairing", "rounds", "points", "endings", "min_decisions", "window",
            "repeat_cap", "rating", "arbiters"}
    if set(b) != want:
        return f"a policy has exactly the keys {', '.join(sorted(want))}"
    if not _nat(b["version"]) or b["version"] < 1:
        return "policy version: an integer >= 1"
    t = b["titles"]
    if type(t) is not list or not 1 <= len(t) <= 16 or not all(_title(x) for x in t) \
            or len({(x["game"], x["scenario"]) for x in t}) != len(t):
        return "policy titles: 1-16 distinct maps {game, scenario}"
    if b["pairing"] not in PAIRINGS:
        return "policy pairing: swiss or round-robin"
    if not _nat(b["rounds"], 1000) or b["rounds"] < 1:
        return "policy rounds: 1-1000"
    p = b["points"]
    if type(p) is not dict or set(p) != {"win", "draw", "loss", "bye"} or not all(_frac(p[k]) for k in p):
        return "policy points: {win, draw, loss, bye}, each a reduced fraction [n, d]"
    if not _per_cause(b["endings"], lambda x: x in ("count", "void")):
        return f"policy endings: {', '.join(CAUSES)} -> count or void"
    if not _per_cause(b["min_decisions"], lambda x: _nat(x, 10**6)):
        return f"policy min_decisions: {', '.join(CAUSES)} -> an integer >= 0"
    if not _nat(b["window"], MAX_AT) or not _nat(b["repeat_cap"], 10**6):
        return "policy window (ms) and repeat_cap: integers >= 0"
    r = b["rating"]
    rk = {"system", "r", "rd", "sigma", "tau", "epsilon", "provisional"}
    if type(r) is not dict or set(r) != rk or r["system"] != "glicko2" \
            or not all(type(r[k]) is int and lo <= r[k] <= hi for k, (lo, hi) in RATING_BOUNDS.items()):
        return ("policy rating: {system: glicko2, r, rd, sigma, tau, epsilon, provisional}, fixed-point "
                "integers within " + ", ".join(f"{k} {lo}..{hi}" for k, (lo, hi) in RATING_BOUNDS.items()))
    a = b["arbiters"]
    if type(a) is not list or len(a) > 16 or not all(_bytes(k, 32) and key_problem(k) is None for k in a) \
            or len(set(a)) != len(a):
        return "policy arbiters: up to 16 distinct Ed25519 public keys"
    return None


#: the keys of the bodies whose shape depends on the league version (every other kind's is the
#: same in every version); version 2 added the genesis's ``organiser`` and the round's ``asked``
GENESIS_KEYS = {1: ("name", "origin", "vkey", "commit"), 2: ("name", "origin", "vkey", "commit", "organiser")}
ROUND_KEYS = {1: ("round", "title", "seed", "next", "pairings", "byes"),
              2: ("round", "title", "seed", "next", "pairings", "byes", "asked")}


def _round_problem(b: dict, v: int) -> str | None:
    """Why ``b`` is not a round body of league version ``v``."""
    want = ROUND_KEYS[v]
    if set(b) != set(want) or not _nat(b["round"], 1000) or not _title(b["title"]) \
            or not _bytes(b["seed"], 32) or not _bytes(b["next"], 32) or (v >= 2 and not _bytes(b["asked"], 64)):
        return f"a round body (league version {v}) is {{{', '.join(want)}}}"
    ps = b["pairings"]
    if type(ps) is not list or not all(type(p) is list and len(p) == 2 and all(_text(x, 64) for x in p)
                                       for p in ps):
        return "round pairings: a list of [first seat's player, second seat's player]"
    if type(b["byes"]) is not list or not all(_text(x, 64) for x in b["byes"]):
        return "round byes: a list of players"
    return None


def body_problem(kind: str, b: dict, v: int = LEAGUE_VERSION) -> str | None:
    """Why ``b`` is not a body of ``kind`` in league version ``v`` (its shape only; what it must
    agree with is state.py's)."""
    if kind == "genesis":
        want = GENESIS_KEYS[v]
        if set(b) != set(want) or not _text(b["name"], 128) or not _text(b["origin"], 256) \
                or type(b["vkey"]) is not str or not _bytes(b["commit"], 32) \
                or (v >= 2 and not _bytes(b["organiser"], 32)):
            return f"a genesis body (league version {v}) is {{{', '.join(want)}}}"
        return None
    if kind == "policy":
        return policy_problem(b)
    if kind == "player":
        if set(b) != {"name", "key"} or not _text(b["name"], 64) or not _bytes(b["key"], 32):
            return "a player body is {name: 1-64 printable characters, key: 32 bytes}"
        return None
    if kind == "round":
        return _round_problem(b, v)
    if kind == "game":
        if set(b) != {"round", "board", "game", "server", "genesis"} or not _nat(b["round"]) \
                or not _nat(b["board"]) or not _text(b["game"], 128) or type(b["server"]) is not str \
                or not _bytes(b["genesis"], 32):
            return "a game body is {round, board, game, server, genesis}"
        return None
    if kind == "result":
        if set(b) != {"game", "bundle", "checkpoint", "winner", "cause"} or not _text(b["game"], 128) \
                or not _bytes(b["bundle"], 32) or not _note(b["checkpoint"]) \
                or not (b["winner"] is None or _text(b["winner"], 64)) or b["cause"] not in CAUSES:
            return "a result body is {game, bundle, checkpoint, winner, cause}"
        return None
    if kind == "dispute":
        if set(b) != {"game", "claim", "evidence"} or not _text(b["game"], 128) or not _text(b["claim"], 4096) \
                or type(b["evidence"]) is not list or len(b["evidence"]) > 16 \
                or not all(type(x) is bytes for x in b["evidence"]):
            return "a dispute body is {game, claim, evidence: up to 16 byte strings}"
        return None
    if kind == "ruling":
        if set(b) != {"game", "decision", "reason", "dispute"} or not _text(b["game"], 128) \
                or b["decision"] not in DECISIONS or not _text(b["reason"], 4096) \
                or not (b["dispute"] is None or _nat(b["dispute"])):
            return "a ruling body is {game, decision: uphold|annul|replay, reason, dispute: seq or nil}"
        return None
    if kind == "correction":
        if set(b) != {"entry", "reason"} or not _nat(b["entry"]) or not _text(b["reason"], 4096):
            return "a correction body is {entry, reason}"
        return None
    if kind == "standings":
        if set(b) != {"table", "ratings"} or type(b["table"]) is not list or type(b["ratings"]) is not dict:
            return "a standings body is {table, ratings}"
        return None
    return f"unknown kind {kind!r}"


def canonical_value(v: Any) -> Any:
    """``v`` as it decodes from its canonical bytes (for comparing a published value)."""
    return canon.decode(canon.encode(v))
