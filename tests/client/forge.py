"""Logs forged by a dishonest server, for the tests of `aar explain` and `aar view`: a golden log
with one record's body edited, then re-chained and re-signed with the server's own key (the
golden logs' server key comes from engine/local.py's test material and the log's seed,
fixtures/make_golden.py), so that only the checks that do not trust the server catch it."""
from __future__ import annotations

import io
from typing import Callable

from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.crypto.note import Signer
from afteraction.engine.local import checkpoint_note, derive_bytes
from afteraction.engine.log.bundle import read_bundle, write_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record, parse_record


def reforge(bundle_path, seed: bytes, seq: int, edit: Callable[[dict], None]) -> bytes:
    def one(recs):
        edit(recs[seq][1])
        return recs
    return reforge_records(bundle_path, seed, one)


def reforge_records(bundle_path, seed: bytes, change: Callable[[list], list]) -> bytes:
    """``change`` gets and returns the list of [kind, body] of every record (to edit, drop, add)."""
    with open(bundle_path, "rb") as f:
        header, frames = read_bundle(f)
        frames = list(frames)
    server = Signer("afteraction.test", derive_bytes(seed, "server-key"))
    recs = [parse_record(raw) for raw, _ in frames]
    assert recs[0].body["server"]["vkey"] == server.verifier.vkey, "not this seed's server key"
    origin = recs[0].body["server"]["origin"]
    game, v = recs[0].game, recs[0].v
    tree, prev, out = CompactTree(), ZERO_HASH, []
    for seq, (kind, body) in enumerate(change([[r.kind, r.body] for r in recs])):
        nr = make_record(game, seq, prev, kind, body, v)
        tree.append(nr.leaf)
        out.append((nr.raw, checkpoint_note(server, origin, tree.size, tree.root())))
        prev = nr.hash
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], out, len(out), header.get("secret"))
    return buf.getvalue()


def change_first_roll(body: dict) -> None:
    """The server shows another face for the record's first public roll."""
    ev = next(e for e in body["events"] if e.get("t") == "roll")
    n = {"d3": 3, "d6": 6, "d10": 10, "d12": 12}.get(ev["die"], 6)
    ev["faces"] = [ev["faces"][0] % n + 1] + ev["faces"][1:]
    ev["result"] = sum(ev["faces"])
