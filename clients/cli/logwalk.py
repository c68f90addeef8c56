"""Walk an exported bundle record by record with the engine's own Verifier, keeping what a
reviewer asks about afterwards: where verification stopped (if it did), the decision each
command answered, which roll indices each record holds, and every hidden value's
commitment, sealing and openings. Shared by `aar explain`, `aar view` and `aar render`.

Nothing here re-implements a check: the Verifier (engine/log/verify.py) checks, the
referee it runs (the rules replay) gives the decisions and the states, and
engine/crypto/commit.py opens sealed values.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from afteraction.engine import registry
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.errors import AfteractionError, EncodingError, VerificationError
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.protocol import Record, parse_record
from afteraction.engine.log.verify import Verifier, check_end_of_log


class Unreadable(AfteractionError):
    """The file is not a bundle at all (exit 2)."""


def load(path: str) -> tuple[dict, list[tuple[bytes, str]], str | None]:
    """(header, [(record bytes, checkpoint)], tail error) of a bundle file; Unreadable if it is
    none, as ``aar verify`` exits 2 for (SPEC.md 10.2: no magic, a bad header; ``walk`` raises it
    for a bundle of no record at all); a bundle whose record frames break off (a frame cut off, bytes after the last
    complete frame, a frame that is not a record frame) is readable up to there, and fails step 1
    at the record after the last complete frame (exit 1): its complete frames come back with the
    reader's message as the tail error, and ``walk(..., tail_error=)`` reports it."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Unreadable(f"cannot read {path}: {e.strerror}") from None
    frames: list[tuple[bytes, str]] = []
    tail_error = None
    with f:
        try:
            header, records = read_bundle(f)
        except EncodingError as e:
            raise Unreadable(f"{path} is not a readable bundle: {e}") from None
        try:
            for item in records:
                frames.append(item)
        except EncodingError as e:
            tail_error = str(e)
    secret = header.get("secret")
    if secret is not None and (not isinstance(secret, bytes) or len(secret) != 32):
        raise Unreadable(f"{path}: the bundle header's secret is not 32 bytes")
    return header, frames, tail_error


@dataclass
class Hidden:
    """One hidden value (SPEC.md 6): where it was sealed, to whom, and its openings."""
    seq: int
    k: int
    to: str                         # the seat it was created for (k = 0: the seat that sent the command)
    commit: bytes
    ct: bytes
    event_index: int | None         # index in the record's events (None for a sealed command, k = 0)
    opened_at: list[tuple[int, int]] = field(default_factory=list)  # (record, event index) of public `open`s
    opening: _commit.Opening | None = None  # from the server secret (ended games only)
    unseal_error: str | None = None


@dataclass
class Walk:
    header: dict
    frames: list[tuple[bytes, str]]
    records: list[Record | None]
    verifier: Verifier | None = None
    failure: VerificationError | None = None
    verified_through: int = -1      # the last record the Verifier accepted
    decisions: dict[int, dict] = field(default_factory=dict)   # seq -> the decision it answered
    roll_range: dict[int, tuple[int, int]] = field(default_factory=dict)  # seq -> [first, end) roll index
    hidden: dict[tuple[int, int], Hidden] = field(default_factory=dict)
    report: Any = None              # the Verifier's report when the whole log verified

    @property
    def secret(self) -> bytes | None:
        return self.header.get("secret")

    @property
    def ended(self) -> bool:
        return any(r is not None and r.kind == "end" for r in self.records[-1:])

    @property
    def genesis(self) -> Record | None:
        return self.records[0] if self.records and self.records[0] is not None and \
            self.records[0].kind == "genesis" else None

    @property
    def game(self) -> str:
        return self.header.get("game", "")

    def seat_keys(self) -> dict[str, bytes]:
        g = self.genesis
        try:
            return {s["name"]: s["key"] for s in g.body["seats"]} if g else {}
        except (KeyError, TypeError):
            return {}

    def seat_order(self) -> list[str]:
        return list(self.seat_keys())


def walk(header: dict, frames: list[tuple[bytes, str]], *, replay: bool = True,
         on_record: Callable[[int, Verifier], None] | None = None,
         pinned_vkey: str | None = None, tail_error: str | None = None) -> Walk:
    """Verify the whole bundle with the engine's Verifier, stopping at the first failure,
    and index what explain/view need. ``on_record(seq, verifier)`` runs after each record
    the Verifier accepted (the referee then holds the state after it). ``pinned_vkey``: the
    server key the reviewer trusts (as ``aar verify --server-key``). ``tail_error``: the
    bundle's frames broke off after ``frames`` (``load``): once they verified, step 1 fails at
    the next record, as in ``verify_bundle``."""
    if not frames and tail_error is None:  # SPEC.md 10 C: no record at all is unreadable (exit 2)
        raise Unreadable("not a readable bundle: the bundle holds no records")
    records: list[Record | None] = []
    for raw, _ in frames:
        try:
            records.append(parse_record(raw))
        except EncodingError:
            records.append(None)
    w = Walk(header, frames, records)
    try:
        v = Verifier(header["server_vkey"], pinned_vkey, header.get("secret"), replay, registry.get, header["game"])
    except VerificationError as e:
        w.failure = e
        _index_hidden(w)
        return w
    w.verifier = v
    for seq, (raw, cp) in enumerate(frames):
        ref = v.referee
        if ref is not None and ref.started and not ref.ended:
            d = ref.pending()
            if d is not None:
                w.decisions[seq] = d.as_dict()
        first = v.next_roll
        try:
            v.add(raw, cp)
        except VerificationError as e:
            w.failure = e
            break
        except EncodingError as e:  # the Verifier reports step 1 for these in verify_bundle
            w.failure = VerificationError("1 (bundle)", seq, "bundle", detail=str(e))
            break
        w.roll_range[seq] = (first, v.next_roll)
        w.verified_through = seq
        if on_record is not None:
            on_record(seq, v)
    if w.failure is None and tail_error is not None:
        w.failure = VerificationError("1 (bundle)", v.tree.size, "bundle", detail=tail_error)
    if w.failure is None:
        try:
            check_end_of_log(v, header)  # the record count, the secret against the end (SPEC.md 10 C)
            w.report = v.finish()
        except VerificationError as e:
            w.failure = e
    if w.failure is not None and w.failure.step.startswith("1 ") and w.failure.seq is None:
        # what aar verify exits 2 for (SPEC.md 10.2): a bundle with no record at all
        raise Unreadable(f"not a readable bundle: {w.failure}")
    _index_hidden(w)
    return w


def _index_hidden(w: Walk) -> None:
    secret = w.secret
    key = _commit.seal_key(secret, w.game) if secret is not None else None
    for r in w.records:
        if r is None or r.kind in ("genesis", "end"):
            continue
        b = r.body
        s = b.get("sealed")
        if isinstance(s, dict) and isinstance(s.get("commit"), bytes) and isinstance(s.get("ct"), bytes):
            w.hidden[(r.seq, 0)] = Hidden(r.seq, 0, str(b.get("seat")), s["commit"], s["ct"], None)
        evs = b.get("events") if isinstance(b.get("events"), list) else []
        for i, ev in enumerate(evs):
            if not isinstance(ev, dict):
                continue
            if ev.get("t") == "sealed" and type(ev.get("k")) is int and isinstance(ev.get("commit"), bytes) \
                    and isinstance(ev.get("ct"), bytes):
                w.hidden.setdefault((r.seq, ev["k"]), Hidden(r.seq, ev["k"], str(ev.get("to")), ev["commit"],
                                                             ev["ct"], i))
            elif ev.get("t") == "open" and isinstance(ev.get("ref"), list) and len(ev["ref"]) == 2:
                h = w.hidden.get(tuple(ev["ref"]))
                if h is not None:
                    h.opened_at.append((r.seq, i))
    if key is not None:
        for h in w.hidden.values():
            try:
                g = w.genesis
                size = len(h.ct) - 16 if g is not None and g.v >= 2 else None  # padded (SPEC.md 6.5)
                h.opening = _commit.unseal(key, w.game, h.seq, h.k, h.commit, h.ct, size)
            except (AfteractionError, ValueError) as e:
                h.unseal_error = str(e)


def envelope_fields(msg) -> dict:
    """Every set field of a protobuf message, by name, generically (bytes as hex), so that a
    field added to CommandEnvelope later shows up without a change here."""
    out: dict[str, Any] = {}
    for fd, value in msg.ListFields():
        out[fd.name] = _pb_value(fd, value)
    unknown = _unknown_bytes(msg)
    if unknown:
        out["(unknown fields)"] = unknown
    return out


def _pb_value(fd, value):
    if fd.type == fd.TYPE_MESSAGE:
        if _is_repeated(fd):
            return [envelope_fields(x) for x in value]
        return envelope_fields(value)
    if _is_repeated(fd):
        return [_scalar(fd, x) for x in value]
    return _scalar(fd, value)


def _is_repeated(fd) -> bool:
    rep = getattr(fd, "is_repeated", None)
    if rep is not None:
        return bool(rep)
    return fd.label == fd.LABEL_REPEATED


def _scalar(fd, value):
    if isinstance(value, bytes):
        return value.hex()
    if fd.type == fd.TYPE_ENUM:
        ev = fd.enum_type.values_by_number.get(value)
        return ev.name if ev is not None else value
    return value


def _unknown_bytes(msg) -> str:
    """Fields this build's stubs do not know (a newer log), as hex of their wire bytes."""
    try:
        from google.protobuf import unknown_fields

        fs = unknown_fields.UnknownFieldSet(msg)
        return ", ".join(f"field {f.field_number} (wire type {f.wire_type})" for f in fs) if len(fs) else ""
    except Exception:
        return ""


def jsonable(v):
    """Canonical data (SPEC.md 1.1) as JSON: bytes as lowercase hex, the rest as it is."""
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v
