"""`aar evidence A B`: what two signed envelopes, two bundles, or an envelope and a bundle of
one game prove about its server (SPEC.md 7.1 "History binding", 11).

- two bundles: each is verified (SPEC.md 10); if their records differ at some seq below both
  sizes, the server signed two checkpoints of one origin and size with different roots: a fork
  or a rewrite (C2SP: a log must not sign inconsistent checkpoints);
- two envelopes (format version 2): the same ``state_seq`` with different ``prev``, each signed
  by a seat of the game, shows two histories of the game at that position;
- an envelope and a bundle: the envelope's ``prev`` must be the hash of the bundle's record
  ``state_seq - 1``; otherwise the bundle is not the history that seat signed against.

An envelope file holds a serialized ``SignedCommand`` (binary, or its hex). Seat keys come from
a bundle's genesis or ``--seat-key SEAT=HEX``. Exit 0: nothing inconsistent shown; 1: the
inputs prove an inconsistency (printed); 2: unreadable input or usage error.
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
class Bundle:
    name: str
    game: str
    vkey: str
    origin: str
    hashes: list[bytes]   # record hash of every record
    keys: dict[str, bytes]
    error: VerificationError | None

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
    except Exception:
        raise ValueError(f"{path}: neither a bundle nor a serialized SignedCommand") from None
    if not env.game_id or not env.seat:
        raise ValueError(f"{path}: neither a bundle nor a serialized SignedCommand")
    return Envelope(path, env.game_id, env.seat, env.counter, env.state_seq, env.prev, None), sc


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
    return Bundle(path, header["game"], header["server_vkey"], origin, hashes, keys, error)


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
        x, y = bundles
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
    if len(envs) == 2:
        (e, _), (f, _) = envs
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
    (e, _), x = envs[0], bundles[0]
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
    return 0, out


def cmd_evidence(args) -> int:
    from .main import pinned_seat_keys

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
    from .main import _one_line

    for line in lines:
        print(_one_line(line))
    return code


def register(sub) -> None:
    p = sub.add_parser("evidence", help="what two envelopes, two bundles, or an envelope and a bundle of one "
                                        "game prove about its server (exit 1: an inconsistency)")
    p.add_argument("a", help="a .aar bundle, or a file with a serialized SignedCommand (binary or hex)")
    p.add_argument("b", help="the same")
    p.add_argument("--seat-key", action="append", metavar="SEAT=HEX",
                   help="a seat's public key, to check an envelope's signature when no bundle gives it")
    p.set_defaults(func=cmd_evidence)
