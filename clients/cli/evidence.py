"""`aar evidence A B`: what two signed envelopes, two bundles, an envelope and a bundle, or a
server receipt and a bundle of one game prove about its server (SPEC.md 7.1 "History binding",
7.5, 8.2, 11).

- two bundles: each is verified (SPEC.md 10); if their records differ at some seq below both
  sizes, the server signed two checkpoints of one origin and size with different roots: a fork
  or a rewrite (C2SP: a log must not sign inconsistent checkpoints);
- two envelopes (format version 2): the same ``state_seq`` with different ``prev``, each signed
  by a seat of the game, shows two histories of the game at that position;
- an envelope and a bundle: the envelope's ``prev`` must be the hash of the bundle's record
  ``state_seq - 1``; otherwise the bundle is not the history that seat signed against. If the
  bundle's end record stands at the envelope's position and ends that seat by time-out (or the
  game by abandonment), the result is contested (exit 3): the seat had signed its answer there;
  the envelope alone does not say when;
- a receipt and a bundle: the receipt is the server key's signed word (SPEC.md 7.5) that it had
  the envelope at ``received_ms`` and what it decided. A receipt at the position of a time-out or
  abandonment received before its deadline proves the end forged; an accepted receipt whose
  record the log does not hold proves a command the server received missing from the log.

An envelope file holds a serialized ``SignedCommand``, a receipt file a serialized ``Receipt``
(binary, or its hex; the reference client keeps both, clients/python/evidence.py). Seat keys
come from a bundle's genesis or ``--seat-key SEAT=HEX``. Exit 0: nothing inconsistent shown; 1:
the inputs prove an inconsistency (printed); 2: unreadable input or usage error; 3: the result
is contested (a time-out or abandonment recorded where the seat holds its signed answer).
"""
from __future__ import annotations

import io
import sys
from dataclasses import dataclass

from afteraction.engine.errors import VerificationError


@dataclass
class Envelope:
    name: str
    game: str
    seat: str
    counter: int
    state_seq: int
    prev: bytes
    signed: bool | None  # signature checked: True/False; None = no key known for the seat


@dataclass
class ReceiptFile:
    name: str
    game: str
    pb: object            # the Receipt message
    valid: bool | None = None  # its signature under the bundle's server key; None = not checked


@dataclass
class Bundle:
    name: str
    game: str
    vkey: str
    origin: str
    hashes: list[bytes]   # record hash of every record
    keys: dict[str, bytes]
    error: VerificationError | None
    records: list = None  # every record, parsed

    @property
    def version(self) -> int:
        return self.records[0].v if self.records else 0

    def hash_of(self, n: int):
        return self.hashes[n] if 0 <= n < len(self.hashes) else None

    def offer_by(self, n: int):
        """The seat whose offer record ``n`` is (SPEC.md 8.1), else None."""
        if not 0 <= n < len(self.records):
            return None
        r = self.records[n]
        ev = r.body.get("events") if r.kind == "command" else None
        if isinstance(ev, list) and len(ev) == 1 and isinstance(ev[0], dict) and ev[0].get("t") == "offer":
            return r.body.get("seat")
        return None

    def at_position(self, seat: str, state_seq: int, prev: bytes, seq: int) -> bool:
        """True if an envelope of ``seat`` bound to (state_seq, prev) stands at record ``seq``'s
        position (the rule of engine/endings.py, the referee's and the verifier's)."""
        from afteraction.engine.protocol_rules import position_problem

        return self.version >= 2 and position_problem(self.version, seat, state_seq, prev, seq, self.hash_of,
                                                      self.offer_by) is None

    def end_by_time(self):
        """(seq, cause) of an end record that is a time-out or an abandonment, else None."""
        if self.records and self.records[-1].kind == "end":
            c = self.records[-1].body.get("cause")
            if isinstance(c, dict) and c.get("kind") in ("timeout", "abandon"):
                return self.records[-1].seq, c
        return None

    @property
    def checkpointed(self) -> int:
        """How many records from genesis on are covered by verified server checkpoints: all of
        them, or those before the first failure (its own record too when the failure came after
        its checkpoint, steps 6, 7, 9, 10, 11)."""
        if self.error is None:
            return len(self.hashes)
        if self.error.seq is None:
            return 0
        after = self.error.step.split()[0] in ("6", "7", "9", "10", "11")
        return self.error.seq + (1 if after else 0)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _load(path: str):
    from afteraction.engine.log.bundle import MAGIC
    from afteraction.v1 import envelope_pb2

    data = _read(path)
    if data.startswith(MAGIC):
        return _bundle(path, data)
    try:
        data = bytes.fromhex(data.decode().strip())
    except (UnicodeDecodeError, ValueError):
        pass
    try:
        sc = envelope_pb2.SignedCommand.FromString(data)
        env = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
        if env.game_id and env.seat and len(sc.signature) == 64:
            return Envelope(path, env.game_id, env.seat, env.counter, env.state_seq, env.prev, None), sc
    except Exception:  # noqa: BLE001 -- perhaps a receipt
        pass
    receipt = _receipt_of(data)
    if receipt is None:
        raise ValueError(f"{path}: neither a bundle, a serialized SignedCommand nor a serialized Receipt")
    return ReceiptFile(path, receipt.game_id, receipt)


def _receipt_of(data: bytes):
    from afteraction.v1 import game_service_pb2 as gs

    try:
        r = gs.Receipt.FromString(data)
    except Exception:  # noqa: BLE001
        return None
    if not r.game_id or not r.seat or len(r.envelope_hash) != 32 or len(r.signature) != 64 or not r.decision:
        return None
    return r


def _bundle(path: str, data: bytes) -> Bundle:
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.protocol import parse_record
    from afteraction.engine.log.verify import verify_bundle

    error = None
    try:
        verify_bundle(io.BytesIO(data), replay=False)
    except VerificationError as e:
        error = e
    header, frames = read_bundle(io.BytesIO(data))
    hashes, keys, origin = [], {}, ""
    for raw, _ in frames:
        r = parse_record(raw)
        hashes.append(r.hash)
        if r.seq == 0 and r.kind == "genesis":
            keys = {s["name"]: s["key"] for s in r.body.get("seats", [])}
            origin = r.body.get("server", {}).get("origin", "")
    return Bundle(path, header["game"], header["server_vkey"], origin, hashes, keys, error,
                  [parse_record(raw) for raw, _ in read_bundle(io.BytesIO(data))[1]])


def _check_sig(item, sc, keys: dict[str, bytes]) -> None:
    from afteraction.engine.referee import verify_command_signature

    if item[0].seat in keys:
        item[0].signed = verify_command_signature(keys[item[0].seat], sc.envelope, sc.signature)


def _say_env(e: Envelope) -> str:
    sig = {True: "signature valid", False: "signature INVALID", None: "signature not checked (no key)"}[e.signed]
    return (f"{e.name}: seat {e.seat} of game {e.game}, counter {e.counter}, signed against state "
            f"{e.state_seq} with prev {e.prev.hex() or '(none: format version 1)'} ({sig})")


def evidence(a, b, keys: dict[str, bytes]) -> tuple[int, list[str]]:
    """(exit code, lines) for two loaded inputs."""
    receipts = [x for x in (a, b) if isinstance(x, ReceiptFile)]
    if receipts:
        return _receipt_evidence(receipts, [x for x in (a, b) if not isinstance(x, ReceiptFile)])
    out: list[str] = []
    bundles = [x for x in (a, b) if isinstance(x, Bundle)]
    envs = [x for x in (a, b) if not isinstance(x, Bundle)]
    for x in bundles:
        keys = {**x.keys, **keys}
        out.append(f"{x.name}: bundle of game {x.game}, {len(x.hashes)} records, server key {x.vkey}: "
                   + ("verifies (steps 1-10)" if x.error is None else f"does NOT verify: {x.error}"))
    for e, sc in envs:
        _check_sig((e,), sc, keys)
        out.append(_say_env(e))
    games = {x.game for x in bundles} | {e.game for e, _ in envs}
    if len(games) != 1:
        out.append(f"different games ({', '.join(sorted(games))}): nothing follows")
        return 0, out
    if any(e.signed is False for e, _ in envs):
        out.append("an envelope's signature does not verify with its seat's key: it proves nothing")
        return 0, out
    if len(bundles) == 2:
        return _two_bundles(*bundles, out)
    if len(envs) == 2:
        return _two_envelopes(envs[0][0], envs[1][0], out)
    return _envelope_and_bundle(envs[0][0], bundles[0], out)


def _two_bundles(x, y, out: list[str]) -> tuple[int, list[str]]:
    """Two bundles of one game: one extends the other, or the server signed two histories."""
    if x.error is not None or y.error is not None:
        out.append("a bundle that does not verify proves nothing about the server")
        return 0, out
    if (x.vkey, x.origin) != (y.vkey, y.origin):
        out.append("the bundles have different server keys or origins: not two views of one log")
        return 0, out
    n = next((i for i, (p, q) in enumerate(zip(x.hashes, y.hashes)) if p != q), None)
    if n is None:
        short, long_ = sorted((x, y), key=lambda z: len(z.hashes))
        out.append(f"consistent: {long_.name} extends {short.name} (records 0..{len(short.hashes) - 1} identical)")
        return 0, out
    out.append(f"INCONSISTENT: record {n} differs ({x.hashes[n].hex()} / {y.hashes[n].hex()}); server key "
               f"{x.vkey} signed a checkpoint of size {n + 1} for origin {x.origin} in each, with different "
               f"roots: the server forked or rewrote game {x.game} (a log must never sign two such checkpoints)")
    return 1, out


def _two_envelopes(e, f, out: list[str]) -> tuple[int, list[str]]:
    """Two envelopes of one game: signed against one state with two histories is a fork."""
    if not e.prev or not f.prev:
        out.append("a format version 1 envelope binds no history: nothing follows")
        return 0, out
    if e.state_seq == f.state_seq and e.prev != f.prev:
        out.append(f"INCONSISTENT: two envelopes of game {e.game} signed against state {e.state_seq} with "
                   f"different histories (prev {e.prev.hex()} / {f.prev.hex()}): the seats were shown two logs "
                   f"that differ before record {e.state_seq} (or a seat signed a history it was not shown); "
                   f"an honest server writes one record per seq")
        return 1, out
    out.append("no inconsistency: the envelopes are for different positions or the same history "
               "(compare them with a bundle to place them)")
    return 0, out


def _envelope_and_bundle(e, x, out: list[str]) -> tuple[int, list[str]]:
    """An envelope and a bundle: the history it was signed against is the bundle's; contested when
    the log ends by time at the very position the envelope answers."""
    if not e.prev:
        out.append("a format version 1 envelope binds no history: nothing follows")
        return 0, out
    if e.state_seq < 1 or e.state_seq > x.checkpointed:
        out.append(f"the bundle has {x.checkpointed} records under verified checkpoints: it does not reach state "
                   f"{e.state_seq} (a cut log or the seat saw more than it holds); nothing follows from the two alone")
        return 0, out
    if x.hashes[e.state_seq - 1] != e.prev:
        out.append(f"INCONSISTENT: seat {e.seat} signed against a history whose record {e.state_seq - 1} has hash "
                   f"{e.prev.hex()}; in {x.name} (signed by the server) it is {x.hashes[e.state_seq - 1].hex()}: "
                   f"the bundle is not the history that seat was shown (both were signed: the seat's envelope, "
                   f"and the server's checkpoint of size {e.state_seq} in the bundle, key {x.vkey})")
        return 1, out
    out.append(f"consistent: the bundle's record {e.state_seq - 1} is the one seat {e.seat} signed against")
    ended = x.end_by_time()
    if ended is not None and ended[0] <= x.checkpointed - 1 and _answers(ended[1], e.seat) \
            and x.at_position(e.seat, e.state_seq, e.prev, ended[0]):
        seq, cause = ended
        what = f"a time-out of seat {cause['seat']}" if cause["kind"] == "timeout" else "an abandonment"
        out.append(f"CONTESTED: record {seq} ends the game by {what} (deadline {cause.get('deadline')} ms, recorded "
                   f"at {x.records[seq].body.get('at')} ms) at the very position seat {e.seat} signed this answer "
                   f"for (state {e.state_seq}, the same history), and the log does not carry it: the seat answered "
                   f"there. The envelope does not say when; the server's receipt for it does (aar evidence RECEIPT "
                   f"BUNDLE), and a seat that holds it does not cosign this end (SPEC.md 8.2)")
        return 3, out
    return 0, out


def _answers(cause: dict, seat: str) -> bool:
    """True if an envelope of ``seat`` answers the end ``cause``: a time-out of that seat, or an
    abandonment (any seat's record would have kept the game alive)."""
    return cause.get("kind") == "abandon" or cause.get("seat") == seat


def _receipt_evidence(receipts: list, others: list) -> tuple[int, list[str]]:
    """A receipt and a bundle (SPEC.md 7.5): what the server's signed receipt proves against its log."""
    from afteraction.engine import receipt as R

    out: list[str] = []
    bundles = [x for x in others if isinstance(x, Bundle)]
    if len(receipts) != 1 or len(bundles) != 1:
        out.append("a receipt is read against a bundle of its game (aar evidence RECEIPT BUNDLE): nothing follows")
        return 0, out
    r, x = receipts[0].pb, bundles[0]
    out.append(f"{x.name}: bundle of game {x.game}, {len(x.hashes)} records, server key {x.vkey}: "
               + ("verifies (steps 1-10)" if x.error is None else f"does NOT verify: {x.error}"))
    out.append(f"{receipts[0].name}: the server's receipt for seat {r.seat}'s envelope {r.counter} of game {r.game_id}, "
               f"signed against state {r.state_seq} with prev {r.prev.hex() or '(none)'}: {r.decision}"
               + (f" as record {r.seq}" if r.decision == R.ACCEPTED else "") + f", received at {r.received_ms} ms")
    if r.game_id != x.game:
        out.append(f"different games ({r.game_id}, {x.game}): nothing follows")
        return 0, out
    from afteraction.engine.crypto.note import parse_vkey

    why = R.problem(r, parse_vkey(x.vkey).public)
    if why is not None:
        out.append(f"the receipt is not the bundle's server's: {why}; it proves nothing")
        return 0, out
    out.append(f"the receipt is signed by the bundle's server key {x.vkey}")
    n = x.checkpointed
    placed = 1 <= r.state_seq <= n and x.hashes[r.state_seq - 1] == bytes(r.prev)
    code = _accepted_against_log(r, x, n, out) if r.decision == R.ACCEPTED else None
    if code is None:
        code = _against_an_end_by_time(r, x, n, placed, out)
    if code is not None:
        return code, out
    if r.decision == R.ACCEPTED:
        out.append(f"consistent: record {r.seq} of the log carries the envelope the receipt names")
    else:
        out.append("consistent: a refusal the log does not contradict")
    return 0, out


def _accepted_against_log(r, x, n: int, out: list[str]) -> int | None:
    """An ACCEPTED receipt: the log's record it names carries its envelope. 1: the record is another
    one or the log ended before it (inconsistent); 0: the bundle does not reach it; None: go on."""
    from afteraction.engine import receipt as R

    rec = x.records[r.seq] if r.seq < n else None
    carried = rec is not None and rec.body.get("seat") == r.seat and rec.body.get("ctr") == r.counter and (
        "sealed" in rec.body or (isinstance(rec.body.get("env"), bytes)
                                 and R.envelope_hash(rec.body["env"]) == bytes(r.envelope_hash)))
    ended_before = bool(x.records) and x.records[-1].kind == "end" and x.records[-1].seq < r.seq and n == len(x.hashes)
    if not carried and (rec is not None or ended_before):
        out.append(f"INCONSISTENT: the server signed that it received and ACCEPTED this envelope as record {r.seq} "
                   f"(at {r.received_ms} ms), and record {r.seq} of its log "
                   + ("is another record" if rec is not None else "does not exist: the log ended before it")
                   + f": a command the server received is missing from the log of game {x.game} (both signed "
                     f"by server key {x.vkey})")
        return 1
    if rec is None:
        out.append(f"the bundle does not reach record {r.seq}: nothing follows from the two alone")
        return 0
    return None


def _against_an_end_by_time(r, x, n: int, placed: bool, out: list[str]) -> int | None:
    """A log ended by a time-out or abandonment at the very position of the receipt's envelope: 1 when
    the receipt's time is before the deadline (the ending is forged), 0 after it; None: no such end."""
    ended = x.end_by_time()
    if ended is None or not (ended[0] < n and _answers(ended[1], r.seat) and placed
                             and x.at_position(r.seat, r.state_seq, bytes(r.prev), ended[0])):
        return None
    seq, cause = ended
    what = f"a time-out of seat {cause['seat']}" if cause["kind"] == "timeout" else "an abandonment"
    if r.received_ms <= cause["deadline"]:
        out.append(f"INCONSISTENT: record {seq} ends the game by {what} with deadline {cause['deadline']} ms, at "
                   f"the very position of this envelope, and the server signed that it received the envelope at "
                   f"{r.received_ms} ms, before that deadline ({r.decision}): the {cause['kind']} is forged "
                   f"(SPEC.md 7.5, 8.2; both signed by server key {x.vkey})")
        return 1
    out.append(f"consistent: record {seq} ends the game by {what} with deadline {cause['deadline']} ms, and the "
               f"server's receipt says it received this envelope at {r.received_ms} ms, after it (the server's "
               "word: whether its time was true is what the seat's own records can dispute, SPEC.md 8.2)")
    return 0


def cmd_evidence(args) -> int:
    from .keys import pinned_seat_keys

    try:
        keys = pinned_seat_keys(args.seat_key)
    except ValueError as e:
        print(f"aar evidence: {e}", file=sys.stderr)
        return 2
    from afteraction.engine.errors import AfteractionError

    try:
        a, b = _load(args.a), _load(args.b)
    except (OSError, ValueError, AfteractionError) as e:
        print(f"aar evidence: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    try:
        code, lines = evidence(a, b, keys)
    except AfteractionError as e:
        print(f"aar evidence: unreadable input: {e}", file=sys.stderr)
        return 2
    from .common import _one_line

    for line in lines:
        print(_one_line(line))
    return code


def register(sub) -> None:
    p = sub.add_parser("evidence", help="what two envelopes, two bundles, an envelope and a bundle, or a server "
                                        "receipt and a bundle of one game prove about its server (exit 1: an "
                                        "inconsistency; 3: a contested time-out)")
    p.add_argument("a", help="a .aar bundle, or a file with a serialized SignedCommand or Receipt (binary or hex)")
    p.add_argument("b", help="the same")
    p.add_argument("--seat-key", action="append", metavar="SEAT=HEX",
                   help="a seat's public key, to check an envelope's signature when no bundle gives it")
    p.set_defaults(func=cmd_evidence)
