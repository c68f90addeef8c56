"""Step 4 of the verifier (SPEC.md 10 B.6), the checks on the genesis record that need no
verifier state: its body's shape and exact keys (SPEC.md 1.3), the seat keys (SPEC.md 7.4), the
padded sizes (v >= 2, SPEC.md 6.5), and genesis against its ruleset (the same option check as
at creation). ``engine/log/verify.py`` calls them in that order."""
from __future__ import annotations

from ..crypto import canon
from ..errors import Rejection
from ..protocol import GENESIS_KEYS, Record, seat_key_problem
from .steps import _fail

#: the largest padded size genesis may declare for a kind of hidden value (SPEC.md 6.5)
MAX_SEALED_SIZE = 65536


def check_sealed_sizes(sizes, seats: dict) -> dict:
    """Step 4, v >= 2: genesis's ``sealed_sizes`` is {"command": {seat: int}, "event": {seat: int}}
    naming seats of genesis, each size 4 .. MAX_SEALED_SIZE."""
    ok = isinstance(sizes, dict) and set(sizes) == {"command", "event"} and all(
        isinstance(m, dict) and all(s in seats and type(n) is int and 4 <= n <= MAX_SEALED_SIZE
                                    for s, n in m.items()) for m in sizes.values())
    if not ok:
        raise _fail("4", 0, "genesis sealed_sizes (v >= 2: {command: {seat: size}, event: {seat: size}}, "
                    f"sizes 4..{MAX_SEALED_SIZE})", None, sizes)
    return sizes


def bytes32(v) -> bool:
    return type(v) is bytes and len(v) == 32


def map_of(v, fields: dict) -> bool:
    """``v`` is a map holding at least ``fields`` (name -> exact Python type; a bool is not an int)."""
    return type(v) is dict and all(type(v.get(k)) is t for k, t in fields.items())


def genesis_shape(rec: Record) -> tuple[dict[str, bytes], dict | None]:
    """The genesis body's shape (SPEC.md 1.3): returns its seat keys by name and (v >= 2) its
    padded sizes; the first failing check is a step-4 VerificationError."""
    b = rec.body
    rs, seats, server = b.get("ruleset"), b.get("seats"), b.get("server")
    bad_seat = next((x for x in seats if not (map_of(x, {"name": str, "key": bytes}) and len(x["key"]) == 32)),
                    None) if type(seats) is list else seats
    shape = [  # SPEC.md 1.3, genesis: (what, holds, what was found instead)
        ("ruleset {game: text, version: text}", map_of(rs, {"game": str, "version": str}), rs),
        ("scenario text", type(b.get("scenario")) is str, b.get("scenario")),
        ("options map of booleans, integers and texts", type(b.get("options")) is dict
         and all(type(x) in (bool, int, str) for x in b["options"].values()), b.get("options")),
        ("server {vkey: text, origin: text}", map_of(server, {"vkey": str, "origin": str}), server),
        ("secret_commit bytes(32)", bytes32(b.get("secret_commit")), b.get("secret_commit")),
        ("seats: an array of at least one {name: text, key: bytes(32)}", type(seats) is list and seats != []
         and bad_seat is None, bad_seat if seats != [] else seats),
    ]
    want = GENESIS_KEYS | ({"sealed_sizes"} if rec.v >= 2 else set())
    shape += [  # SPEC.md 1.3: exactly these keys, in the body and in its maps (no extra key is ignored)
        ("exactly the keys " + ", ".join(sorted(want)), set(b) | (want - GENESIS_KEYS) == want, sorted(b)),  # a
        # missing sealed_sizes is named by its own check below
        ("ruleset and server have exactly their two keys", type(rs) is dict and set(rs) == {"game", "version"}
         and type(server) is dict and set(server) == {"vkey", "origin"}, [_keys(rs), _keys(server)]),
        ("every seat has exactly the keys name and key", type(seats) is list
         and all(type(x) is dict and set(x) == {"name", "key"} for x in seats),
         [_keys(x) for x in seats] if type(seats) is list else seats),
    ]
    for what, ok, found in shape:
        if not ok:
            raise _fail("4", 0, "genesis body has the wrong shape", what, _cut(found))
    keys = {}
    for s in seats:
        if s["name"] in keys:
            raise _fail("4", 0, "genesis body has the wrong shape", "unique seat names", s["name"])
        keys[s["name"]] = s["key"]
    check_seat_keys(keys)
    sizes = check_sealed_sizes(b.get("sealed_sizes"), keys) if rec.v >= 2 else None
    return keys, sizes


def _keys(v):
    return sorted(v) if type(v) is dict else v


def _cut(v, n: int = 120):
    """What a failed check found, for its message: short values as they are, others cut."""
    if v is None or type(v) in (bool, int, str) and len(repr(v)) <= n or type(v) is bytes and len(v) <= 64:
        return v  # (a failure shows bytes in hex)
    r = repr(v)
    return r if len(r) <= n else r[:n - 3] + "..."


def genesis_options(ruleset, b: dict) -> None:
    """Step 4 (SPEC.md 10 B.6): genesis is what CreateGame writes for this ruleset: its seats
    in its order, its scenario, its options checked by it (the same ``check_options`` as at
    creation, so a replay never runs on options the ruleset does not allow: SOG's lz_count
    is 1-5, not 10**12) with every default filled in."""
    names = [s["name"] for s in b["seats"]]
    if names != list(ruleset.seats):
        raise _fail("4", 0, "genesis seats are the ruleset's, in its order", list(ruleset.seats), names)
    try:
        opts = ruleset.check_options(b["scenario"], b["options"])
    except Rejection as e:
        raise _fail("4", 0, "genesis scenario and options (the ruleset refuses them)", detail=str(e)) from None
    if canon.encode(opts) != canon.encode(b["options"]):  # bytes, not ==: True == 1
        raise _fail("4", 0, "genesis options: every option of the ruleset, defaults filled in",
                    repr(opts), repr(b["options"]))

def check_seat_keys(keys: dict[str, bytes]) -> None:
    """SPEC.md 7.4: a seat key nobody needs a private key for (small or mixed order, not
    canonical), or one two seats share, would let anyone (or the other seat) sign for it."""
    bad = seat_key_problem(keys)
    if bad is not None:
        code, seat, message = bad
        if code == "WEAK_SEAT_KEY":
            raise _fail("4", 0, f"seat {seat} key is weak", "a canonical point of the prime-order subgroup",
                        keys[seat], message)
        raise _fail("4", 0, f"seat {seat} key is shared", "a key of its own", keys[seat], message)

