"""A seat's evidence (SPEC.md 7.5, 8.2, 11): every envelope it signs, written durably
before it is sent; the server's signed receipt for each; the server faults it saw. Mixed into
``Seat`` (clients/python/seat.py).

The evidence folder is ``evidence_dir`` (default: ``<checkpoint_file>.evidence``; without either,
the evidence is kept in memory only). In it:

- ``sent-<counter>-<hash>.env``: a serialized SignedCommand, written and fsynced before it is sent;
  removed once the record that carries it is verified, or once a verified receipt refuses it
  for a reason that does not end the game;
- ``sent-<counter>-<hash>.receipt``: the server's receipt for it (a serialized ``Receipt``), kept
  with it;
- ``fault-<n>.txt``: a server fault (a missing or bad receipt, a receipt that contradicts the
  answer), with the envelope it concerns kept beside it.

An envelope refused because the game ended first (``TIME_EXPIRED``, ``GAME_OVER``) is also kept
beside the checkpoint file as ``<checkpoint_file>.refused-<counter>`` (and its receipt as
``...refused-<counter>.receipt``): ``aar evidence`` reads either against the exported log.
"""
from __future__ import annotations

import os

from afteraction.engine import receipt as _receipt
from afteraction.engine.protocol_rules import position_problem
from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

#: refusals after which the end record follows: the refused envelope is the seat's evidence
ENDED_FIRST = ("GAME_OVER", "TIME_EXPIRED")


def _durable_write(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` and make it durable (file and folder fsynced) before returning."""
    tmp = f"{path}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _env(signed: bytes):
    return envelope_pb2.CommandEnvelope.FromString(envelope_pb2.SignedCommand.FromString(signed).envelope)


class SeatEvidence:
    """Needs the Seat's ``checkpoint_file``, ``verifier``, ``seat``, ``game_id``, ``evidence_dir``
    (None: ``<checkpoint_file>.evidence``) and ``on_fault``."""

    def _evidence_init(self) -> None:
        self.sent: dict[bytes, tuple[bytes, gs.Receipt | None]] = {}  # envelope hash -> (signed, receipt)
        self.faults: list[str] = []
        self.withheld: str | None = None  # why this seat did not cosign the final checkpoint
        self._positions: dict[int, tuple] = {}  # seq -> (hash, kind, seat, ctr) of the verified records
        self._offers: dict[int, str] = {}  # seq -> seat of the offer records verified

    @property
    def evidence_folder(self) -> str | None:
        d = self.evidence_dir or (f"{self.checkpoint_file}.evidence" if self.checkpoint_file else None)
        if d is not None:
            os.makedirs(d, exist_ok=True)
        return d

    def _sent_path(self, signed: bytes, ext: str) -> str | None:
        d = self.evidence_folder
        if d is None:
            return None
        env = _env(signed)
        h = _receipt.envelope_hash(envelope_pb2.SignedCommand.FromString(signed).envelope)
        return os.path.join(d, f"sent-{env.counter}-{h.hex()[:16]}.{ext}")

    def keep_sent(self, signed: bytes) -> None:
        """Before ``signed`` is sent: written durably (SPEC.md 8.2, the seat's proof it answered)."""
        h = _receipt.envelope_hash(envelope_pb2.SignedCommand.FromString(signed).envelope)
        if h in self.sent:
            return
        self.sent[h] = (signed, None)
        path = self._sent_path(signed, "env")
        if path is not None:
            _durable_write(path, signed)

    def fault(self, message: str, signed: bytes | None = None, receipt: gs.Receipt | None = None) -> None:
        """A server fault: reported to the person (``on_fault``) and kept on disk with what it concerns."""
        self.faults.append(message)
        d = self.evidence_folder
        if d is not None:
            n = len([f for f in os.listdir(d) if f.startswith("fault-")]) + 1
            text = f"seat {self.seat} of game {self.game_id}: {message}\n"
            if signed is not None:
                text += f"envelope (kept as {os.path.basename(self._sent_path(signed, 'env'))}): {signed.hex()}\n"
            if receipt is not None:
                text += f"receipt: {receipt.SerializeToString().hex()}\n"
            _durable_write(os.path.join(d, f"fault-{n}.txt"), text.encode())
        if self.on_fault is not None:
            self.on_fault(message)

    def check_receipt(self, signed: bytes, receipt: gs.Receipt | None, code: str | None,
                      seqs=()) -> gs.Receipt | None:
        """Check the server's receipt for ``signed`` against the answer (``code`` None: accepted,
        its records ``seqs``; else the refusal's reason): signed by the game's server key, naming
        this envelope and the same decision. A missing or bad receipt is a server fault (reported,
        kept); the receipt is returned when it is good, and kept with the envelope."""
        sc = envelope_pb2.SignedCommand.FromString(signed)
        env = _env(signed)
        what = f"envelope {env.counter} (state {env.state_seq})"
        if receipt is not None and not receipt.ByteSize():
            receipt = None
        why = _receipt.problem(receipt, self.verifier.server.public, sc.envelope)
        if why is None and receipt.decision != _receipt.decision_of(code):
            why = f"it says {receipt.decision!r}, the answer was {_receipt.decision_of(code)!r}"
        if why is None and code is None and seqs and receipt.seq != seqs[0]:
            why = f"it names record {receipt.seq}, the answer record {seqs[0]}"
        if why is not None:
            self.fault(f"the server's receipt for {what}: {why}", signed, receipt)
            return None
        h = _receipt.envelope_hash(sc.envelope)
        self.sent[h] = (signed, receipt)
        path = self._sent_path(signed, "receipt")
        if path is not None:
            _durable_write(path, receipt.SerializeToString())
        if code is not None and code not in ENDED_FIRST:
            self._drop_sent(h)  # a verified refusal: nothing left to prove
        elif code is None and self._positions.get(receipt.seq, (0, 0, None, None))[2:] == (self.seat, env.counter):
            self._drop_sent(h)  # its record was verified before the answer came (a Play stream)
        return receipt

    def _drop_sent(self, h: bytes) -> None:
        signed, _ = self.sent.pop(h, (None, None))
        if signed is None:
            return
        for ext in ("env", "receipt"):
            path = self._sent_path(signed, ext)
            if path is not None and os.path.exists(path):
                os.remove(path)

    def keep_refused_receipt(self, signed: bytes, receipt: gs.Receipt | None) -> None:
        if receipt is not None and self.checkpoint_file:
            _durable_write(f"{self.checkpoint_file}.refused-{_env(signed).counter}.receipt",
                           receipt.SerializeToString())

    def see_evidence(self, rec) -> None:
        """After a verified record: an envelope it carries is no longer needed; at the end, the
        cosignature is withheld when the log ends this seat by time where it holds an answer."""
        b = rec.body
        self._positions[rec.seq] = (rec.hash, rec.kind, b.get("seat"), b.get("ctr"))
        ev = b.get("events") or [{}]
        if rec.kind == "command" and isinstance(ev[0], dict) and ev[0].get("t") == "offer":
            self._offers[rec.seq] = b.get("seat")
        if b.get("seat") == self.seat and isinstance(b.get("env"), bytes):
            self._drop_sent(_receipt.envelope_hash(b["env"]))
        elif b.get("seat") == self.seat and "sealed" in b:  # its own sealed command: the one its receipt placed here
            for h, (signed, receipt) in list(self.sent.items()):
                if receipt is not None and receipt.decision == _receipt.ACCEPTED and receipt.seq == rec.seq \
                        and receipt.counter == b.get("ctr"):
                    self._drop_sent(h)
        if rec.kind == "end":
            cause = b.get("cause") or {}
            if cause.get("kind") == "abandon" or (cause.get("kind") == "timeout" and cause.get("seat") == self.seat):
                held = self.held_at(rec.seq)
                if held:
                    self.withheld = (f"the log ends seat {self.seat}'s game by {cause['kind']} at record {rec.seq}, "
                                     f"but this seat holds its signed answer for that position ({held}): it does "
                                     "not cosign the final checkpoint (SPEC.md 8.2); `aar evidence` shows what the "
                                     "kept envelope and receipt prove against the exported log")

    def held_at(self, seq: int) -> str:
        """The envelopes (and receipts) this seat holds for the position where record ``seq`` stands
        (SPEC.md 8.2): signed against the same history, not carried by the log."""
        out = []
        for h, (signed, receipt) in sorted(self.sent.items(), key=lambda x: _env(x[1][0]).counter):
            env = _env(signed)
            if self.at_position(env, seq):
                out.append(f"envelope {env.counter}" + (f" with a receipt ({receipt.decision} at "
                                                        f"{receipt.received_ms} ms)" if receipt is not None else
                                                        " without a receipt"))
        return ", ".join(out)

    def at_position(self, env, seq: int) -> bool:
        """True if ``env`` was signed for the position where record ``seq`` stands (the shared
        rule of engine/endings.py: the same seq, or only other seats' offers in between)."""
        if not env.prev or env.state_seq < 1 or env.state_seq - 1 not in self._positions:
            return False
        v = self.verifier.genesis.v if self.verifier.genesis is not None else 0
        return position_problem(v, env.seat, env.state_seq, env.prev, seq,
                                lambda s: self._positions[s][0] if s in self._positions else None,
                                lambda s: self._offers.get(s)) is None
