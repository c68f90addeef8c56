"""SPEC.md 10: checks of the verification algorithm that a forging server could otherwise
slip past, each built from the worked example's game (fixtures/vectors/game.json) and
re-chained and re-signed with the server's own key, as a dishonest server could."""
from __future__ import annotations

import io
import json
import pathlib

import pytest

from afteraction.cli.main import main
from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as C
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import VerificationError
from afteraction.engine.local import checkpoint_note
from afteraction.engine.log.bundle import MAGIC, read_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record, parse_record
from afteraction.engine.log.verify import verify_bundle

GAME = json.loads((pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "vectors" / "game.json")
                  .read_text(encoding="utf-8"))
INFO = GAME["game"]
SECRET = bytes.fromhex(INFO["secret"])


def _records():
    header, frames = read_bundle(io.BytesIO(bytes.fromhex(GAME["bundle"])))
    return header, [parse_record(raw) for raw, _ in frames]


def _build(header: dict, items: list[tuple[str, dict]]) -> bytes:
    """Chain and sign (kind, body) items from seq 0 on, as the server would."""
    server = Signer("afteraction.test", bytes.fromhex(INFO["server_seed"]))
    origin = f"afteraction.test/game/{INFO['game']}"
    tree, prev = CompactTree(), ZERO_HASH
    out = [MAGIC, canon.encode({**header, "records": len(items)})]
    for seq, (kind, body) in enumerate(items):
        rec = make_record(INFO["game"], seq, prev, kind, body, _records()[1][0].v)  # the example's version
        tree.append(rec.leaf)
        out.append(canon.encode({"t": "record", "raw": rec.raw,
                                 "checkpoint": checkpoint_note(server, origin, tree.size, tree.root())}))
        prev = rec.hash
    return b"".join(out)


def _sealed_seq(recs) -> int:
    return next(r.seq for r in recs if "sealed" in r.body)


def test_spec_10_step_6_sealed_command_before_the_handshake_fails():
    header, recs = _records()
    header = {k: v for k, v in header.items() if k != "secret"}  # a game "in progress"
    sealed = recs[_sealed_seq(recs)].body
    body = {**sealed, "ctr": 1}  # a's first envelope, before any entropy commit
    bundle = _build(header, [("genesis", recs[0].body), ("command", body)])
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(bundle))
    assert e.value.step.startswith("6 ") and e.value.seq == 1 and "handshake" in e.value.check


def test_spec_10_step_9_sealed_command_with_a_forged_signature_is_reported_at_step_9():
    header, recs = _records()
    s = _sealed_seq(recs)
    size = recs[0].body["sealed_sizes"]["command"][recs[s].body["seat"]]  # v2 pads (SPEC.md 6.5)
    op = C.unseal(C.seal_key(SECRET, INFO["game"]), INFO["game"], s, 0,
                  recs[s].body["sealed"]["commit"], recs[s].body["sealed"]["ct"], size)
    forged = {"env": op.value["env"], "sig": bytes([op.value["sig"][0] ^ 1]) + op.value["sig"][1:]}
    _, commit, ct = C.seal(SECRET, INFO["game"], s, 0, forged, size)
    items = [(r.kind, r.body) for r in recs]
    items[s] = ("command", {**recs[s].body, "sealed": {"commit": commit, "ct": ct}})
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_build(header, items)))
    assert e.value.step.startswith("9 ") and e.value.seq == s and "signature" in e.value.check


def test_spec_9_header_game_must_be_the_genesis_game():
    header, recs = _records()
    bundle = _build({**header, "game": "another-game"}, [(r.kind, r.body) for r in recs])
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(bundle))
    assert e.value.seq == 0 and "header" in e.value.check


def test_spec_10_ended_log_without_the_secret_in_the_header_fails_with_exit_1(tmp_path, capsys):
    header, recs = _records()
    header = {k: v for k, v in header.items() if k != "secret"}
    p = tmp_path / "no-secret.aar"
    p.write_bytes(_build(header, [(r.kind, r.body) for r in recs]))
    assert main(["verify", str(p), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["verified"] is False and rep["seq"] == len(recs) - 1


def _without_secret(header: dict) -> dict:
    return {k: v for k, v in header.items() if k != "secret"}


def test_spec_10_step_6_entropy_commit_event_must_match_the_envelope():
    header, recs = _records()
    items = [(r.kind, r.body) for r in recs[:5]]  # a game in progress: no replay to catch it
    b = recs[1].body
    items[1] = ("commit", {**b, "events": [{**b["events"][0], "commit": bytes(32)}]})
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_build(_without_secret(header), items)))
    assert e.value.step.startswith("6 ") and e.value.seq == 1


def test_spec_10_step_6_last_reveal_must_carry_start():
    header, recs = _records()
    items = [(r.kind, r.body) for r in recs[:5]]
    b = recs[4].body
    items[4] = ("reveal", {**b, "events": b["events"][:1]})
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_build(_without_secret(header), items)))
    assert e.value.step.startswith("6 ") and e.value.seq == 4


def test_spec_10_step_6_earlier_reveal_carries_only_its_entropy():
    header, recs = _records()
    items = [(r.kind, r.body) for r in recs[:5]]
    b = recs[3].body
    items[3] = ("reveal", {**b, "events": b["events"] + [{"t": "start", "game": "duel", "scenario": "standard"}]})
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_build(_without_secret(header), items)))
    assert e.value.step.startswith("6 ") and e.value.seq == 3


def test_spec_10_a_game_in_progress_prefix_verifies():
    header, recs = _records()
    rep = verify_bundle(io.BytesIO(_build(_without_secret(header), [(r.kind, r.body) for r in recs[:7]])))
    assert rep.verified and not rep.ended and rep.records == 7
