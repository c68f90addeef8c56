"""Steps 9-11 of the verifier, the ones of an ended game (they need the server secret):

  9  sealed      every sealed value opens and matches its commitment;
                 every sealed command is signed by its seat
 10  dice        every roll event is the roll the dice key gives, and
                 roll indices run 0, 1, 2... in log order
 11  replay      (known ruleset) re-executing the commands reproduces
                 every record byte for byte

Functions of the verifier's state ``v`` (a ``Verifier``, engine/log/verify.py). Steps 9 and 10 are
one pass over a record (``steps_9_10_sealed_and_dice``): a roll hidden in a sealed value is checked
where it stands, so roll indices are checked in the order they were made.

Step 11 drives a ``ReplayReferee``: the referee, fed the logged envelopes, with the replay's fast
path (the envelope step 6 or 9 checked, the hidden values step 9 opened, the logged record when
the referee's would have its bytes, and optionally no copy of the state before each command).
"""
from __future__ import annotations

from afteraction.v1 import envelope_pb2

from ..crypto import canon
from ..crypto import commit as _commit
from ..crypto import dice as _dice
from ..errors import CryptoError, EncodingError, Rejection
from ..protocol import Record, is_record_of, misplaced_event
from ..referee import Accepted, Referee
from .seats import check_envelope
from .steps import _fail


class ReplayReferee(Referee):
    """The referee as step 11 drives it. ``in_place``: each command is applied to the live state
    without the copy that makes a rejection change nothing, so after a Rejection this referee must
    be discarded (the replay fails at the first one)."""

    def __init__(self, genesis: Record, ruleset, secret: bytes, in_place: bool = False) -> None:
        super().__init__(genesis, ruleset, secret)
        self.in_place = in_place
        self._known: dict[int, tuple] | None = None   # accept_checked's ``known``, while it runs
        self._logged: Record | None = None             # and its ``logged``

    def accept_checked(self, sc, env, now: int | None = None, known: dict[int, tuple] | None = None,
                       logged: Record | None = None) -> Accepted:
        """``accept`` for an envelope the verifier has already checked (step 6 or 9: its
        signature, that it parses, and in v >= 2 that it is the deterministic encoding of ``env``,
        what it parses to), so the bytes are not made, parsed or checked again; every other check
        is ``accept``'s. ``known``: k -> (size, salt, value, commitment, ciphertext) of the hidden
        values of the logged record step 9 opened: the same value sealed here as k takes that
        commitment and ciphertext (commit.seal's ``known``: the same bytes, not encrypted again).
        ``logged``: the logged record (parsed) the replay compares with the first record made
        here: if that record would have its bytes (``protocol.is_record_of``), it is ``logged``
        itself, not encoded and hashed again."""
        self._known, self._logged = known, logged
        try:
            return self._accept(sc, env, True, now)
        finally:
            self._known = self._logged = None

    def _working_state(self):
        return self.state if self.in_place else super()._working_state()

    def _known_value(self, k: int) -> tuple | None:
        return None if self._known is None else self._known.get(k)

    def _record(self, kind: str, body: dict) -> Record:
        logged = self._logged
        if logged is not None and is_record_of(logged, self.game_id, self.seq, self.prev, kind, body, self.version):
            return logged   # the replay's record is the logged one, byte for byte
        return super()._record(kind, body)


def steps_9_10_sealed_and_dice(v, rec: Record) -> None:
    """Steps 9 and 10 of one record (an ended game: the verifier has the secret). In log order:
    the sealed command (k = 0), then the events, opening each sealed event where it stands, so
    that roll indices are checked in the order they were made."""
    v.step = "9"
    seq = rec.seq
    unsealed: dict[int, tuple] | None = None
    if v.referee is not None:  # kept for step 11 only (here or in the replay process)
        unsealed = {}
        v.handoff.unsealed = (seq, unsealed)
    if "sealed" in rec.body:
        s = rec.body["sealed"]
        val = _unseal(v, seq, 0, s["commit"], s["ct"], sealed_size(v, "command", rec.body["seat"]), unsealed).value
        if not isinstance(val, dict) or not isinstance(val.get("env"), bytes) or not isinstance(val.get("sig"), bytes):
            raise _fail("9", seq, "sealed command has the wrong shape")
        check_envelope(v, seq, "command", rec.body["seat"], rec.body["ctr"], val["env"], val["sig"], step="9")
        v.handoff.opened = (seq, val["env"], val["sig"])
    for ev in rec.body.get("events", []):
        if ev.get("t") == "sealed":
            op = _unseal(v, seq, ev["k"], ev["commit"], ev["ct"], sealed_size(v, "event", ev.get("to")), unsealed)
            t = misplaced_event(op.value, "hidden")
            if t is not None:  # SPEC.md 1.4: a hidden value is the ruleset's own event or a roll
                raise _fail("9", seq, f"sealed value {ev['k']} is a {t} event, which is never a hidden value "
                            "(SPEC.md 1.4)", "an event of the ruleset or a roll", t)
            if isinstance(op.value, dict) and op.value.get("t") == "roll":
                _check_roll(v, seq, op.value)
        elif ev.get("t") == "roll":
            _check_roll(v, seq, ev)


def sealed_size(v, kind: str, seat: str) -> int | None:
    """The padded size of a sealed ``kind`` for ``seat`` (v >= 2), None in v1 (no padding)."""
    return None if v.sealed_sizes is None else v.sealed_sizes[kind][seat]


def _unseal(v, seq: int, k: int, c: bytes, ct: bytes, size: int | None, unsealed: dict | None) -> _commit.Opening:
    try:
        op = _commit.unseal(v.seal_key, v.game, seq, k, c, ct, size)
    except (CryptoError, EncodingError) as e:
        raise _fail("9", seq, f"sealed value {k}", detail=str(e)) from None
    if unsealed is not None:
        unsealed[k] = (size, op.salt, op.value)   # for step 11 (``known_values``): the last value numbered k, as there
    v.report.sealed += 1
    return op


def _check_roll(v, seq: int, ev: dict) -> None:
    """Step 10 for one roll event (public, or opened from a sealed value)."""
    if v.dice_key is None:
        raise _fail("10", seq, "roll before the dice handshake completed")
    i = ev.get("i")
    if type(i) is not int or i != v.next_roll:
        # without this a server could skip or repeat roll indices to pick the faces it likes
        raise _fail("10", seq, "roll index (rolls are numbered 0, 1, 2... in log order)", v.next_roll, i)
    try:
        want = _dice.roll(v.dice_key, i, ev["die"], ev["rule"]).event()
    except (KeyError, TypeError, CryptoError) as e:
        raise _fail("10", seq, "roll event has the wrong shape", detail=str(e)) from None
    if canon.encode(want) != canon.encode(ev):  # bytes, not ==: True == 1 in Python
        raise _fail("10", seq, f"roll {i} ({ev.get('die')}, {ev.get('rule')})",
                    want.get("faces"), ev.get("faces"))
    v.next_roll += 1


def step_11_replay(v, rec: Record) -> None:
    """Step 11 for one record: the referee, fed the logged envelope, makes this very record."""
    v.step = "11"
    if v.expected:
        want = v.expected.pop(0)
        if want != rec.raw:
            raise _fail("11", rec.seq, "record differs from the replayed one", want, rec.raw)
        if rec.kind == "end":
            v.report.replayed = True
        return
    b = rec.body
    if rec.kind == "end":  # SPEC.md 8.2: a time-out or abandonment at the end record's time
        acc = v.referee.expire(b["at"]) if v.ends.clock is not None else None
        if acc is None:
            raise _fail("11", rec.seq, "an end record the replay did not produce (the game had not ended)")
        if acc.records[0].raw != rec.raw:
            raise _fail("11", rec.seq, "record differs from the replayed one", _diff(acc.records[0].raw, rec.raw))
        v.report.replayed = True
        return
    if "sealed" in b and v.handoff.opened is not None and v.handoff.opened[0] == rec.seq:
        env_b, sig = v.handoff.opened[1:]  # step 9 opened it: the same unseal on the same bytes
    elif "sealed" in b:
        op = _commit.unseal(v.seal_key, v.game, rec.seq, 0, b["sealed"]["commit"], b["sealed"]["ct"],
                            sealed_size(v, "command", b["seat"]))
        env_b, sig = op.value["env"], op.value["sig"]
    else:
        env_b, sig = b["env"], b["sig"]
    sc = envelope_pb2.SignedCommand(envelope=env_b, signature=sig)
    checked = v.checked_env
    try:
        # signature verified in step 6 / 9; in place: a rejection fails the verification here
        if checked is not None and checked[0] == rec.seq and checked[1] == env_b and checked[2] == sig:
            # step 6 / 9 checked these very bytes and parsed them (checked[3]) for this record
            acc = v.referee.accept_checked(sc, checked[3], now=b.get("at"), known=known_values(v, rec), logged=rec)
        else:
            acc = v.referee.accept(sc.SerializeToString(), signature_checked=True, now=b.get("at"))
    except Rejection as e:
        raise _fail("11", rec.seq, "the ruleset refuses the logged command", detail=str(e)) from None
    except Exception as e:  # a ruleset bug must not pass as a verified game
        raise _fail("11", rec.seq, "the ruleset failed on the logged command", detail=f"{type(e).__name__}: {e}") from None
    produced = [r.raw for r in acc.records]
    if produced[0] != rec.raw:
        raise _fail("11", rec.seq, "record differs from the replayed one", _diff(produced[0], rec.raw), None)
    v.expected = produced[1:]


def known_values(v, rec: Record) -> dict[int, tuple] | None:
    """The hidden values of ``rec`` step 9 opened, for the replay's re-sealing (commit.seal's
    ``known``): k -> (size, salt, value, commitment, ciphertext), None if step 9 opened none here.
    The values are paired with the record's commitments and ciphertexts in step 9's order (a
    second value numbered k replaces the first, in both)."""
    p = v.handoff.unsealed
    if p is None or p[0] != rec.seq or not p[1]:
        return None
    unsealed, b, known = p[1], rec.body, {}
    if "sealed" in b and 0 in unsealed:
        known[0] = (*unsealed[0], b["sealed"]["commit"], b["sealed"]["ct"])
    for ev in b.get("events", ()):
        if ev.get("t") == "sealed" and ev["k"] in unsealed:
            known[ev["k"]] = (*unsealed[ev["k"]], ev["commit"], ev["ct"])
    return known


def _diff(a: bytes, b: bytes) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at byte {i} of {len(a)}/{len(b)}"
    return f"lengths {len(a)} vs {len(b)}"
