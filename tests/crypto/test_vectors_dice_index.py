"""SPEC.md 5.5 / 10 step 10: roll indices are 0, 1, 2... in log order.

A dishonest server knows the dice key once the handshake is over. If a verifier only
checked that each roll event's faces match *its own* index, the server could skip an
index whose faces it dislikes (or repeat one it likes) and still pass every check but
the replay. These forgeries start from the worked example's game (fixtures/vectors/
game.json), change one roll, then re-chain and re-sign everything as the server can.
"""
from __future__ import annotations

import io
import json
import pathlib

import pytest

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import dice as D
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import VerificationError
from afteraction.engine.local import checkpoint_note
from afteraction.engine.log.bundle import MAGIC, read_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record, parse_record
from afteraction.engine.log.verify import verify_bundle

GAME = json.loads((pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "vectors" / "game.json")
                  .read_text(encoding="utf-8"))


def _forge(edit) -> bytes:
    """Apply ``edit(seq, body)`` to every record, then re-chain and re-sign as the server."""
    info = GAME["game"]
    header, frames = read_bundle(io.BytesIO(bytes.fromhex(GAME["bundle"])))
    server = Signer("afteraction.test", bytes.fromhex(info["server_seed"]))
    tree, prev, out = CompactTree(), ZERO_HASH, [MAGIC, canon.encode(header)]
    origin = f"afteraction.test/game/{info['game']}"
    for raw, _ in frames:
        r = parse_record(raw)
        body = edit(r.seq, r.body)
        rec = make_record(r.game, r.seq, prev, r.kind, body, r.v)
        tree.append(rec.leaf)
        out.append(canon.encode({"t": "record", "raw": rec.raw,
                                 "checkpoint": checkpoint_note(server, origin, tree.size, tree.root())}))
        prev = rec.hash
    return b"".join(out)


def _roll_records() -> list[int]:
    return [c["seq"] for c in GAME["cases"]
            if any(e.get("t") == "roll" for e in c["record"]["body"].get("events", []))]


def _retarget(seq_to_change: int, new_index):
    key = bytes.fromhex(GAME["game"]["dice_key"])

    def edit(seq, body):
        if seq != seq_to_change:
            return body
        evs = []
        for ev in body["events"]:
            if ev["t"] == "roll":
                ev = D.roll(key, new_index, ev["die"], ev["rule"]).event() if isinstance(new_index, int) \
                    and not isinstance(new_index, bool) else {**ev, "i": new_index}
            evs.append(ev)
        return {**body, "events": evs}
    return edit


def test_unchanged_forgery_pipeline_still_verifies():
    assert verify_bundle(io.BytesIO(_forge(lambda s, b: b)), replay=False).verified


@pytest.mark.parametrize("replay", [False, True])
def test_spec_5_5_skipped_roll_index_is_detected_at_step_10(replay):
    last = _roll_records()[-1]  # its roll has index 1; the server shows the faces of index 2
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_forge(_retarget(last, 2))), replay=replay)
    assert e.value.step.startswith("10 ") and e.value.seq == last and "roll index" in e.value.check


def test_spec_5_5_repeated_roll_index_is_detected_at_step_10():
    last = _roll_records()[-1]  # reuse index 0's faces for the second roll
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_forge(_retarget(last, 0))), replay=False)
    assert e.value.step.startswith("10 ") and e.value.seq == last


def test_spec_5_5_boolean_index_is_not_an_integer():
    first = _roll_records()[0]  # index 0 written as false (0xc2), which Python compares equal to 0
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_forge(_retarget(first, False))), replay=False)
    assert e.value.step.startswith("10 ") and e.value.seq == first
