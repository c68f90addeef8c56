"""Steps 9-11 of the verifier, the ones of an ended game (they need the server secret):

  9  sealed      every sealed value opens and matches its commitment;
                 every sealed command is signed by its seat
 10  dice        every roll event is the roll the dice key gives, and
                 roll indices run 0, 1, 2... in log order
 11  replay      (known ruleset) re-executing the commands reproduces
                 every record byte for byte

Methods of ``Verifier`` (a base class of it): they read and update its state.
"""
from __future__ import annotations

from afteraction.v1 import envelope_pb2

from ..crypto import canon
from ..crypto import commit as _commit
from ..crypto import dice as _dice
from ..errors import CryptoError, EncodingError, Rejection
from ..protocol import Record, misplaced_event
from .steps import _fail


class ReplaySteps:
    """Steps 9, 10 and 11 of ``Verifier``."""

    def _sealed_and_dice(self, rec: Record) -> None:
        self.step = "9"
        # In log order: the sealed command (k = 0), then the events, opening each sealed
        # event where it stands, so that roll indices are checked in the order they were made.
        seq = rec.seq
        unsealed: dict[int, tuple] | None = None
        if self.referee is not None:  # kept for step 11 only (here or in the replay process)
            unsealed = {}
            self.unsealed = (seq, unsealed)
        if "sealed" in rec.body:
            s = rec.body["sealed"]
            v = self._unseal(seq, 0, s["commit"], s["ct"], self._size("command", rec.body["seat"]), unsealed).value
            if not isinstance(v, dict) or not isinstance(v.get("env"), bytes) or not isinstance(v.get("sig"), bytes):
                raise _fail("9", seq, "sealed command has the wrong shape")
            self._check_envelope(seq, "command", rec.body["seat"], rec.body["ctr"], v["env"], v["sig"], step="9")
            self.opened = (seq, v["env"], v["sig"])
        for ev in rec.body.get("events", []):
            if ev.get("t") == "sealed":
                op = self._unseal(seq, ev["k"], ev["commit"], ev["ct"], self._size("event", ev.get("to")), unsealed)
                t = misplaced_event(op.value, "hidden")
                if t is not None:  # SPEC.md 1.4: a hidden value is the ruleset's own event or a roll
                    raise _fail("9", seq, f"sealed value {ev['k']} is a {t} event, which is never a hidden value "
                                "(SPEC.md 1.4)", "an event of the ruleset or a roll", t)
                if isinstance(op.value, dict) and op.value.get("t") == "roll":
                    self._check_roll(seq, op.value)
            elif ev.get("t") == "roll":
                self._check_roll(seq, ev)

    def _size(self, kind: str, seat: str) -> int | None:
        """The padded size of a sealed ``kind`` for ``seat`` (v >= 2), None in v1 (no padding)."""
        return None if self.sealed_sizes is None else self.sealed_sizes[kind][seat]

    def _unseal(self, seq: int, k: int, c: bytes, ct: bytes, size: int | None, unsealed: dict | None) -> _commit.Opening:
        try:
            op = _commit.unseal(self.seal_key, self.game, seq, k, c, ct, size)
        except (CryptoError, EncodingError) as e:
            raise _fail("9", seq, f"sealed value {k}", detail=str(e)) from None
        if unsealed is not None:
            unsealed[k] = (size, op.salt, op.value)   # for step 11 (``_known``): the last value numbered k, as there
        self.report.sealed += 1
        return op

    def _check_roll(self, seq: int, ev: dict) -> None:
        if self.dice_key is None:
            raise _fail("10", seq, "roll before the dice handshake completed")
        i = ev.get("i")
        if type(i) is not int or i != self.next_roll:
            # without this a server could skip or repeat roll indices to pick the faces it likes
            raise _fail("10", seq, "roll index (rolls are numbered 0, 1, 2... in log order)", self.next_roll, i)
        try:
            want = _dice.roll(self.dice_key, i, ev["die"], ev["rule"]).event()
        except (KeyError, TypeError, CryptoError) as e:
            raise _fail("10", seq, "roll event has the wrong shape", detail=str(e)) from None
        if canon.encode(want) != canon.encode(ev):  # bytes, not ==: True == 1 in Python
            raise _fail("10", seq, f"roll {i} ({ev.get('die')}, {ev.get('rule')})",
                        want.get("faces"), ev.get("faces"))
        self.next_roll += 1

    def _replay(self, rec: Record) -> None:
        self.step = "11"
        if self.expected:
            want = self.expected.pop(0)
            if want != rec.raw:
                raise _fail("11", rec.seq, "record differs from the replayed one", want, rec.raw)
            if rec.kind == "end":
                self.report.replayed = True
            return
        b = rec.body
        if rec.kind == "end":  # SPEC.md 8.2: a time-out or abandonment at the end record's time
            acc = self.referee.expire(b["at"]) if self.ends.clock is not None else None
            if acc is None:
                raise _fail("11", rec.seq, "an end record the replay did not produce (the game had not ended)")
            if acc.records[0].raw != rec.raw:
                raise _fail("11", rec.seq, "record differs from the replayed one", _diff(acc.records[0].raw, rec.raw))
            self.report.replayed = True
            return
        if "sealed" in b and self.opened is not None and self.opened[0] == rec.seq:
            env_b, sig = self.opened[1:]  # step 9 opened it: the same unseal on the same bytes
        elif "sealed" in b:
            op = _commit.unseal(self.seal_key, self.game, rec.seq, 0, b["sealed"]["commit"], b["sealed"]["ct"],
                                self._size("command", b["seat"]))
            env_b, sig = op.value["env"], op.value["sig"]
        else:
            env_b, sig = b["env"], b["sig"]
        sc = envelope_pb2.SignedCommand(envelope=env_b, signature=sig)
        checked = self.checked_env
        try:
            # signature verified in step 6 / 9; in place: a rejection fails the verification here
            if checked is not None and checked[0] == rec.seq and checked[1] == env_b and checked[2] == sig:
                # step 6 / 9 checked these very bytes and parsed them (checked[3]) for this record
                acc = self.referee.accept_checked(sc, checked[3], now=b.get("at"), in_place=self.replay_in_place,
                                                  known=self._known(rec), logged=rec)
            else:
                acc = self.referee.accept(sc.SerializeToString(), signature_checked=True, now=b.get("at"),
                                          in_place=self.replay_in_place)
        except Rejection as e:
            raise _fail("11", rec.seq, "the ruleset refuses the logged command", detail=str(e)) from None
        except Exception as e:  # a ruleset bug must not pass as a verified game
            raise _fail("11", rec.seq, "the ruleset failed on the logged command", detail=f"{type(e).__name__}: {e}") from None
        produced = [r.raw for r in acc.records]
        if produced[0] != rec.raw:
            raise _fail("11", rec.seq, "record differs from the replayed one", _diff(produced[0], rec.raw), None)
        self.expected = produced[1:]


    def _known(self, rec: Record) -> dict[int, tuple] | None:
        """The hidden values of ``rec`` step 9 opened, for the replay's re-sealing (commit.seal's
        ``known``): k -> (size, salt, value, commitment, ciphertext), None if step 9 opened none here.
        The values are paired with the record's commitments and ciphertexts in step 9's order (a
        second value numbered k replaces the first, in both)."""
        p = self.unsealed
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
