"""Players cosign what they saw (SPEC.md 4.5): over real gRPC, both seats of a whole game
cosign its final checkpoint, the export carries the cosignatures, `aar verify
--require-cosigned` accepts it, and fails it once a cosignature is missing or the log was
rewritten with the server's own key."""
from __future__ import annotations

import io

import grpc
import pytest

from afteraction.cli.main import main
from afteraction.engine.crypto import cosign
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.crypto.note import split_note
from afteraction.engine.errors import VerificationError
from afteraction.engine.local import checkpoint_note
from afteraction.engine.log.bundle import read_bundle, write_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record, parse_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.client.client import error_info
from afteraction.v1 import audit_service_pb2 as au

from .test_e2e import play_bots


def _frames(bundle: bytes):
    h, frames = read_bundle(io.BytesIO(bundle))
    return h, list(frames)


def _bundle(h: dict, frames) -> bytes:
    out = io.BytesIO()
    write_bundle(out, h["game"], h["server_vkey"], iter(frames), len(frames), h.get("secret"))
    return out.getvalue()


def _cosig_lines(note: str) -> list[str]:
    return [s.line + "\n" for s in split_note(note)[1] if "/seat/" in s.name]


def _verify(data: bytes, tmp_path, *flags) -> tuple[int, str]:
    p = tmp_path / "game.aar"
    p.write_bytes(data)
    return main(["verify", *flags, str(p)]), str(p)


@pytest.fixture
def game(server):
    c, gid, seats = play_bots(server.target, "duel", seed="cosign")
    return server, c, gid, seats


def test_spec_4_5_both_seats_cosign_the_final_checkpoint_and_the_export_carries_it(game, tmp_path, capsys):
    server, c, gid, seats = game
    data = c.export(gid)
    h, frames = _frames(data)
    assert {s.cosigned_size for s in seats} == {len(frames)}
    lines = _cosig_lines(frames[-1][1])
    assert len(lines) == 2 and all(not _cosig_lines(cp) for _, cp in frames[:-1])
    rep = verify_bundle(io.BytesIO(data), require_cosigned=True)
    assert rep.verified and rep.replayed and rep.cosigned == ["a", "b"]
    code, _ = _verify(data, tmp_path, "--require-cosigned")
    out = capsys.readouterr().out
    assert code == 0 and "cosigned the final checkpoint: a, b" in out
    # GetCheckpoint serves the same cosigned note
    note = c.audit.GetCheckpoint(au.GetCheckpointRequest(game_id=gid)).checkpoint.note
    assert note == frames[-1][1]


def test_spec_4_5_a_missing_cosignature_fails_require_cosigned(game, tmp_path, capsys):
    server, c, gid, seats = game
    h, frames = _frames(c.export(gid))
    raw, note = frames[-1]
    a_line = next(x for x in _cosig_lines(note) if "/seat/a " in x)
    frames[-1] = (raw, note.replace(a_line, ""))
    data = _bundle(h, frames)
    assert verify_bundle(io.BytesIO(data)).cosigned == ["b"]  # still a verified log, cosigned by b only
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(data), require_cosigned=True)
    assert (e.value.step, e.value.seq) == ("5 (checkpoint)", len(frames) - 1)
    assert e.value.expected == ["a", "b"] and e.value.found == ["b"]
    code, _ = _verify(data, tmp_path, "--require-cosigned")
    assert code == 1 and "cosigned by every seat" in capsys.readouterr().out


def test_spec_4_5_the_server_key_cannot_rewrite_a_cosigned_game(game, tmp_path):
    """The server rewrites the end record (another reason) and re-signs every checkpoint: the
    seats' cosignatures do not cover the new root; without them, --require-cosigned fails."""
    server, c, gid, seats = game
    h, frames = _frames(c.export(gid))
    recs = [parse_record(raw) for raw, _ in frames]
    signer, origin = server.games.signer, recs[0].body["server"]["origin"]
    recs[-1].body["outcome"]["reason"] = "rewritten"
    tree, prev, out = CompactTree(), ZERO_HASH, []
    for r in recs:
        nr = make_record(r.game, r.seq, prev, r.kind, r.body, r.v)
        tree.append(nr.leaf)
        out.append((nr.raw, checkpoint_note(signer, origin, tree.size, tree.root())))
        prev = nr.hash
    lines = _cosig_lines(frames[-1][1])
    with_old = out[:-1] + [(out[-1][0], cosign.add_cosignatures(out[-1][1], lines))]
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_bundle(h, with_old)), replay=False)
    assert (e.value.step, e.value.seq) == ("5 (checkpoint)", len(out) - 1)
    assert "cosignature" in e.value.check
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_bundle(h, out)), replay=False, require_cosigned=True)
    assert (e.value.step, e.value.seq, e.value.found) == ("5 (checkpoint)", len(out) - 1, [])


def test_add_cosignature_refuses_what_is_not_the_seats_cosignature(game):
    server, c, gid, seats = game
    size = server.games.store.size(gid)
    note = server.games.store.records(gid, size - 1, 1)[0].checkpoint
    text = split_note(note)[0]
    origin = parse_record(server.games.store.records(gid, 0, 1)[0].raw).body["server"]["origin"]
    a, b = seats
    before = server.games.store.cosignatures(gid, size)

    def refused(seat: str, n: int, line: str) -> str:
        with pytest.raises(grpc.RpcError) as e:
            c.audit.AddCosignature(au.AddCosignatureRequest(game_id=gid, seat=seat, size=n, line=line))
        assert server.games.store.cosignatures(gid, size) == before  # nothing stored
        return error_info(e.value).reason

    b_line_as_a = cosign.cosign(text, origin, "a", b.signer.seed, 1)  # a's name, b's key
    assert refused("a", size, b_line_as_a) == "BAD_COSIGNATURE"
    older = split_note(server.games.store.records(gid, 0, 1)[0].checkpoint)[0]
    assert refused("a", size, cosign.cosign(older, origin, "a", a.signer.seed, 1)) == "BAD_COSIGNATURE"
    good = cosign.cosign(text, origin, "a", a.signer.seed, 1)
    assert refused("a", size + 1, good) == "OUT_OF_RANGE"
    assert refused("c", size, good) == "UNKNOWN_SEAT"
    assert refused("a", size, good + good) == "BAD_COSIGNATURE"
    assert refused("a", size, "x" * 2000) == "FIELD_TOO_LONG"  # service/limits.py: MAX_FIELD_BYTES
    # a valid cosignature of an earlier checkpoint is stored and served with that checkpoint only
    res = c.audit.AddCosignature(au.AddCosignatureRequest(
        game_id=gid, seat="a", size=1, line=cosign.cosign(older, origin, "a", a.signer.seed, 7)))
    assert cosign.seat_cosignatures(res.checkpoint.note, origin, {"a": a.signer.public}) == {"a": 7}
