"""Steps 6 and 7 of the verifier (SPEC.md 10; ``engine/log/verify.py`` lists every step):

  6  seats       every seat record is signed by its seat, counters go 1, 2, 3...,
                 the envelope matches the record (and its entropy/start events),
                 entropy reveals match commits
  7  openings    every published opening matches the commitment it names

and the public length check of sealed values (v >= 2, SPEC.md 6.5) both steps make. Functions
of the verifier's state ``v`` (a ``Verifier``, engine/log/verify.py). The protocol's rules are
engine/protocol_rules.py's predicates, the referee's: a problem fails step 6 (or 9 for the
envelope inside a sealed command) in the verifier's words for the check.
"""
from __future__ import annotations

from afteraction.v1 import envelope_pb2

from .. import protocol_rules as R
from ..crypto import commit as _commit
from ..crypto import dice as _dice
from ..protocol import (ACTION_OF_KIND, EVENT_KEYS, EVENT_PLACES, SEALED_BODY_KEYS, SEAT_BODY_KEYS, Record,
                        entropy_commit_event, entropy_reveal_event, misplaced_event, start_event,
                        verify_command_signature)
from .genesis import bytes32
from .steps import _fail


_PLACE_WORDS = {"commit": "a commit record (its one event)", "reveal": "a reveal record (its first event)",
                "start": "the reveal that completes the handshake (its second event)",
                "ending": "the command record of an ending (its one event, v >= 2)",
                "play": "setup's or a game command's events"}


def step_6_seats(v, rec: Record) -> None:
    """Step 6 for a seat record (any record but genesis and end): its seat, counter, keys and
    envelope, the handshake, where its events stand, then the endings' checks (times, ending
    commands: engine/log/endings.py)."""
    v.step = "6"
    v._env, started = None, len(v.entropy) == len(v.seat_keys)
    _seat_record(v, rec)
    v.ends.seat_record(rec, v._env, rec.kind == "reveal" and not started and len(v.entropy) == len(v.seat_keys), started)


def _seat_record(v, rec: Record) -> None:
    b = rec.body
    seq = rec.seq
    seat, ctr = b.get("seat"), b.get("ctr")
    if type(seat) is not str or seat not in v.seat_keys or type(ctr) is not int:  # a bool is not a counter (True == 1)
        raise _fail("6", seq, "seat record names an unknown seat or has no counter", None, seat)
    if R.counter_problem(seat, v.counters[seat], ctr) is not None:
        raise _fail("6", seq, f"seat {seat} counter", v.counters[seat] + 1, ctr)
    v.counters[seat] = ctr
    events = b.get("events")
    if type(events) is not list:
        raise _fail("6", seq, "record has no event list")
    if rec.kind == "command" and R.play_problem(len(v.entropy) == len(v.seat_keys)) is not None \
            and not v.ends.is_resignation(b):
        raise _fail("6", seq, "game command before the dice handshake completed")
    want = (SEALED_BODY_KEYS if "sealed" in b and rec.kind == "command" else SEAT_BODY_KEYS) | v.ends.body_keys()
    if set(b) != want:  # SPEC.md 1.3: exactly these keys (an extra key is not ignored)
        raise _fail("6", seq, f"{rec.kind} record body has exactly the keys {', '.join(sorted(want))}",
                    sorted(want), sorted(b))
    if "sealed" in b:
        if rec.kind != "command":
            raise _fail("6", seq, "only game commands may be sealed")
        s = b["sealed"]
        if type(s) is not dict or set(s) != {"commit", "ct"} or not bytes32(s.get("commit")) \
                or type(s.get("ct")) is not bytes:
            raise _fail("6", seq, "sealed command has the wrong shape")
        check_ct_length(v, "6", seq, "command", seat, 0, s["ct"])
        v.commitments[(seq, 0)] = s["commit"]
        _placement(v, seq, events, 0)
        return
    env_b, sig = b.get("env"), b.get("sig")
    if type(env_b) is not bytes or type(sig) is not bytes:
        raise _fail("6", seq, "seat record has no envelope and signature")
    check_envelope(v, seq, rec.kind, seat, ctr, env_b, sig)
    if rec.kind == "commit":
        _entropy_commit(v, seq, seat, envelope_pb2.CommandEnvelope.FromString(env_b), events)
    elif rec.kind == "reveal":
        _entropy_reveal(v, seq, seat, envelope_pb2.CommandEnvelope.FromString(env_b), events)
    else:  # a game command's events, or an ending's one event (checked exactly with the endings)
        _placement(v, seq, events, 1 if v._env.WhichOneof("action") == "ending" else 0)


def _entropy_commit(v, seq: int, seat: str, env, events: list) -> None:
    """Step 6 for a commit record (SPEC.md 5.2): the referee's handshake rules, and its one event."""
    if R.commit_problem(seat, v.entropy_commits, len(v.entropy) == len(v.seat_keys)) is not None:
        raise _fail("6", seq, f"entropy commit by {seat} out of order")
    if R.commitment_problem(env.entropy_commit.commitment) is not None:
        raise _fail("6", seq, "entropy commitment length", 32, len(env.entropy_commit.commitment))
    v.entropy_commits[seat] = env.entropy_commit.commitment
    if len(v.entropy_commits) == len(v.seat_keys):
        v.committed_at = seq + 1
    if events != [entropy_commit_event(seat, env.entropy_commit.commitment)]:
        raise _fail("6", seq, "the entropy-commit event differs from the signed envelope")


def _entropy_reveal(v, seq: int, seat: str, env, events: list) -> None:
    """Step 6 for a reveal record (SPEC.md 5.2): the referee's handshake rules, the entropy bound
    to the seat's commitment, its events (the last reveal starts the game: setup's events follow)."""
    if R.reveal_order_problem(v.entropy_commits, len(v.seat_keys), len(v.entropy) == len(v.seat_keys)) \
            or R.revealed_problem(seat, v.entropy):
        raise _fail("6", seq, f"entropy reveal by {seat} out of order")
    e = env.entropy_reveal.entropy
    if len(e) != R.ENTROPY_BYTES:  # the dice key derivation needs 32 bytes per seat
        raise _fail("6", seq, f"entropy revealed by {seat}: length", 32, len(e))
    if R.entropy_problem(v.game, seat, e, v.genesis, v.entropy_commits[seat]) is not None:  # v2: bound to genesis
        raise _fail("6", seq, f"entropy revealed by {seat} does not match its commitment")
    v.entropy[seat] = e
    want = [entropy_reveal_event(seat, e)]
    if len(v.entropy) == len(v.seat_keys):  # the last reveal starts the game (SPEC.md 5.2)
        g = v.genesis.body
        want.append(start_event(g["ruleset"]["game"], g["scenario"]))
    if events[:len(want)] != want or (len(want) == 1 and len(events) != 1):
        raise _fail("6", seq, "the entropy-reveal/start events differ from the signed envelope")
    if len(v.entropy) == len(v.seat_keys) and v.secret is not None:
        order = [s["name"] for s in v.genesis.body["seats"]]
        v.dice_key = _dice.derive_dice_key(v.secret, v.game, [(s, v.entropy[s]) for s in order])
    _placement(v, seq, events, len(want))  # setup's events follow start


def _placement(v, seq: int, events: list, first: int) -> None:
    """Step 6: the events from ``first`` on stand where a game's own events do ("play": setup's
    and a game command's); a core event of the handshake or of an ending stands only in its own
    place (protocol.EVENT_PLACES, SPEC.md 1.4), so a verifier without the ruleset refuses, e.g.,
    a resignation added to a game command record that ends nothing."""
    for i in range(first, len(events)):
        t = misplaced_event(events[i], "play")
        if t is not None:
            where = ", ".join(_PLACE_WORDS[p] for p in sorted(EVENT_PLACES[t]))
            raise _fail("6", seq, f"event {i} is a {t} event, which stands only in {where} (SPEC.md 1.4)",
                        where, f"{t} at event {i}")


def check_envelope(v, seq: int, kind: str, seat: str, ctr: int, env_b: bytes, sig: bytes,
                   step: str = "6") -> None:
    """Step 6 for a public envelope; step 9 for the envelope inside a sealed command."""
    if not verify_command_signature(v.seat_keys[seat], env_b, sig, v.signature_check):
        raise _fail(step, seq, f"signature of seat {seat}")
    try:
        env = envelope_pb2.CommandEnvelope.FromString(env_b)
    except Exception:
        raise _fail(step, seq, "envelope does not parse") from None
    if R.encoding_problem(v.genesis.v, env, env_b) is not None:  # SPEC.md 7.1: one encoding
        raise _fail(step, seq, "envelope is the deterministic protobuf encoding of its fields (v >= 2)")
    want_action = ACTION_OF_KIND[kind]
    if kind == "command" and step == "6" and v.genesis.v >= 2 and env.WhichOneof("action") == "ending":
        want_action = "ending"  # SPEC.md 8.1: resign, offer, accept (public command records)
    v._env = env
    v.checked_env = (seq, env_b, sig, env)   # for the replay (replay.py): checked here
    if R.game_problem(env.game_id, v.game) is not None or env.seat != seat or env.counter != ctr \
            or env.WhichOneof("action") != want_action:
        raise _fail(step, seq, "envelope does not match the record (game, seat, counter, action)")
    if v.genesis.v >= 2:  # every envelope is bound to the history its seat verified (SPEC.md 7.1)
        if kind == "reveal" and R.reveal_binding_problem(v.genesis.v, env.state_seq, v.committed_at) is not None:
            raise _fail(step, seq, f"entropy reveal by {seat} is bound to the log at state {env.state_seq}, "
                        f"before every seat had committed (the last commitment is record {v.committed_at - 1})",
                        v.committed_at, env.state_seq)
        o = v.ends.offers  # SPEC.md 7.1, 8.1: the rule of the referee (v >= 3: past other seats' offers)
        why = R.binding_problem(v.genesis.v, seat, env.state_seq, env.prev, seq, o)
        if why is not None and why.code == "STALE_STATE":
            raise _fail(step, seq, "envelope state id", seq, env.state_seq)
        if why is not None:
            want = o.hash_of(env.state_seq - 1) if env.state_seq < seq else v.prev
            raise _fail(step, seq, f"envelope of seat {seat} is bound to another history: its prev is not the "
                        f"hash of record {env.state_seq - 1}", want, env.prev)
    elif kind == "command" and R.stale_problem(v.genesis.v, env.state_seq, seq) is not None:
        raise _fail(step, seq, "envelope state id", seq, env.state_seq)


def step_7_openings(v, rec: Record) -> None:
    """Step 7 for a record: the shape of its events; every published opening matches the
    commitment it names; the sealed events' indices and lengths."""
    v.step = "7"
    events = rec.body.get("events", [])
    if type(events) is not list:
        raise _fail("7", rec.seq, "record has no event list")
    for i, ev in enumerate(events):
        if type(ev) is not dict:
            raise _fail("7", rec.seq, f"event {i} is not a map")
        t = ev.get("t")
        if type(t) is not str:  # SPEC.md 1.4: every event names its type
            raise _fail("7", rec.seq, f"event {i} has no text t")
        if t in EVENT_KEYS and set(ev) != EVENT_KEYS[t]:
            raise _fail("7", rec.seq, f"{t} event {i} has exactly the keys {', '.join(sorted(EVENT_KEYS[t]))}",
                        sorted(EVENT_KEYS[t]), sorted(ev))
        if t == "sealed":
            if type(ev.get("to")) is not str or ev["to"] not in v.seat_keys:
                raise _fail("7", rec.seq, f"sealed event {i} is for no seat of genesis", sorted(v.seat_keys),
                            ev.get("to"))
            k, c = ev.get("k"), ev.get("commit")
            if type(k) is not int or not bytes32(c) or k < 1 or (rec.seq, k) in v.commitments:
                raise _fail("7", rec.seq, f"sealed event {i} has a bad or repeated index")
            if type(ev.get("ct")) is not bytes:
                raise _fail("7", rec.seq, f"sealed event {i} has no ciphertext")
            check_ct_length(v, "7", rec.seq, "event", ev.get("to"), k, ev["ct"])
            v.commitments[(rec.seq, k)] = c
        elif t == "open":
            ref = ev.get("ref")
            if not (type(ref) is list and len(ref) == 2 and all(type(x) is int for x in ref)
                    and tuple(ref) in v.commitments):
                raise _fail("7", rec.seq, f"opening {i} names no earlier commitment", None, ref)
            salt = ev.get("salt")
            if not bytes32(salt):
                raise _fail("7", rec.seq, f"opening {i} has a bad salt")
            want = v.commitments[tuple(ref)]
            got = _commit.commitment(salt, ev.get("value"))
            if got != want:
                raise _fail("7", rec.seq, f"opening {i} does not match commitment {tuple(ref)}", want, got)
            bad = misplaced_event(ev.get("value"), "hidden") if ref[1] > 0 else None  # k = 0: a sealed command
            if bad is not None:  # SPEC.md 1.4: the value it publishes was hidden, so never a core event but a roll
                raise _fail("7", rec.seq, f"opening {i} publishes a {bad} event as the hidden value {tuple(ref)} "
                            "(SPEC.md 1.4)", "an event of the ruleset or a roll", bad)
            v.report.opened += 1
        elif t == "roll":
            v.report.rolls += 1


def check_ct_length(v, step: str, seq: int, kind: str, seat, k: int, ct: bytes) -> None:
    """v >= 2, public: a sealed value's ciphertext is its kind's declared size + the 16-byte tag,
    so its length says nothing about the value (SPEC.md 6.5). Checkable during play."""
    if v.sealed_sizes is None:
        return
    size = v.sealed_sizes[kind].get(seat) if isinstance(seat, str) else None
    if size is None:
        raise _fail(step, seq, f"sealed {kind} {k}: genesis declares no sealed {kind} size for seat {seat!r}")
    if len(ct) != size + 16:
        raise _fail(step, seq, f"sealed {kind} {k}: ciphertext length (the declared size {size} + 16)",
                    size + 16, len(ct))
