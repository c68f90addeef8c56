"""Bundle surgery for the tamper tests: split a bundle into frames, put it back
together, and play the dishonest server (edit a record, re-chain, re-sign)."""
from __future__ import annotations

import io

from afteraction.engine.crypto import canon
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import VerificationError
from afteraction.engine.local import checkpoint_note
from afteraction.engine.log.bundle import MAGIC, read_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record, parse_record
from afteraction.engine.log.verify import verify_bundle


def split(bundle: bytes) -> tuple[dict, list[tuple[bytes, str]]]:
    header, frames = read_bundle(io.BytesIO(bundle))
    return header, list(frames)


def join(header: dict, frames: list[tuple[bytes, str]]) -> bytes:
    out = [MAGIC, canon.encode(header)]
    out += [canon.encode({"t": "record", "raw": raw, "checkpoint": cp}) for raw, cp in frames]
    return b"".join(out)


def frame_spans(bundle: bytes) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Byte ranges [start, end) of the header frame and of each record frame."""
    header, frames = split(bundle)
    pos = len(MAGIC)
    h = (pos, pos + len(canon.encode(header)))
    pos = h[1]
    spans = []
    for raw, cp in frames:
        n = len(canon.encode({"t": "record", "raw": raw, "checkpoint": cp}))
        spans.append((pos, pos + n))
        pos += n
    assert pos == len(bundle)
    return h, spans


def rechain(header: dict, bodies: list[tuple[str, int, str, dict]], server: Signer | None) -> bytes:
    """Rebuild records from (game, seq, kind, body) with a fresh hash chain; re-sign every
    checkpoint with ``server`` (the dishonest server) or keep none if ``server`` is None."""
    recs = []
    prev = ZERO_HASH
    for game, seq, kind, body in bodies:
        r = make_record(game, seq, prev, kind, body)
        recs.append(r)
        prev = r.hash
    origin = recs[0].body["server"]["origin"]
    tree = CompactTree()
    frames = []
    for r in recs:
        tree.append(r.leaf)
        frames.append((r.raw, checkpoint_note(server, origin, tree.size, tree.root()) if server else ""))
    return join(header, frames)


def bodies(bundle: bytes) -> tuple[dict, list[tuple[str, int, str, dict]]]:
    header, frames = split(bundle)
    out = []
    for raw, _ in frames:
        r = parse_record(raw)
        out.append((r.game, r.seq, r.kind, r.body))
    return header, out


def failure(data: bytes, replay: bool = True) -> VerificationError | None:
    """The verifier's first failure, or None if ``data`` verifies."""
    try:
        verify_bundle(io.BytesIO(data), replay=replay)
    except VerificationError as e:
        return e
    return None
