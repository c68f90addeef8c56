"""The referee's pipeline (SPEC.md 7): every rejection has a stable code and changes nothing."""
from __future__ import annotations

import io

import pytest

from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.errors import Rejection
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle
from afteraction.v1 import command_pb2, envelope_pb2


def duel_cmd(action: str, n: int) -> command_pb2.Command:
    c = command_pb2.Command()
    getattr(c.duel, action).number = n
    return c


def snapshot(g: LocalGame):
    r = g.referee
    return (r.seq, r.prev, dict(r.counters), r.rolls, repr(r.state), len(g.records))


def expect(code: str, g: LocalGame, signed: bytes) -> None:
    before = snapshot(g)
    with pytest.raises(Rejection) as e:
        g.submit(signed)
    assert e.value.code == code, e.value
    assert snapshot(g) == before


@pytest.fixture
def game() -> LocalGame:
    g = LocalGame.create("duel", seed=b"referee")
    g.handshake()
    return g


def test_command_before_handshake_is_refused():
    g = LocalGame.create("duel", seed=b"early")
    expect("HANDSHAKE_INCOMPLETE", g, g.seats["a"].command(g.referee.game_id, 1, duel_cmd("pick", 3), g.head()))


def test_reveal_before_every_seat_committed_is_refused():
    g = LocalGame.create("duel", seed=b"order")
    gid = g.referee.game_id
    g.submit(g.seats["a"].entropy_commit(gid, g.entropy["a"], g.head()))
    expect("HANDSHAKE_INCOMPLETE", g, g.seats["a"].entropy_reveal(gid, g.entropy["a"], g.head()))


def test_reveal_that_does_not_match_commitment_is_refused():
    g = LocalGame.create("duel", seed=b"bad-reveal")
    gid = g.referee.game_id
    for s in ("a", "b"):
        g.submit(g.seats[s].entropy_commit(gid, g.entropy[s], g.head()))
    expect("BAD_REVEAL", g, g.seats["a"].entropy_reveal(gid, bytes(32), g.head()))


def test_not_your_decision(game):
    expect("NOT_YOUR_DECISION", game, game.seats["b"].command(game.referee.game_id, game.referee.seq, duel_cmd("guess", 1), game.head()))


def test_stale_state_id(game):
    expect("STALE_STATE", game, game.seats["a"].command(game.referee.game_id, game.referee.seq - 1, duel_cmd("pick", 1), game.head()))


def test_bad_signature(game):
    signed = game.seats["a"].command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 1), game.head())
    sc = envelope_pb2.SignedCommand.FromString(signed)
    sc.signature = bytes([sc.signature[0] ^ 1]) + sc.signature[1:]
    game.seats["a"].counter -= 1
    expect("BAD_SIGNATURE", game, sc.SerializeToString())


def test_signature_by_the_other_seat_is_refused(game):
    # b signs an envelope claiming to be a: the signature check uses a's key.
    signer = game.seats["b"]
    env = envelope_pb2.CommandEnvelope(game_id=game.referee.game_id, state_seq=game.referee.seq)
    env.command.CopyFrom(duel_cmd("pick", 2))
    signed = signer.sign(env)
    sc = envelope_pb2.SignedCommand.FromString(signed)
    e2 = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
    e2.seat = "a"
    sc.envelope = e2.SerializeToString()
    expect("BAD_SIGNATURE", game, sc.SerializeToString())


def test_replayed_command_is_refused(game):
    signed = game.seats["a"].command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 4), game.head())
    game.submit(signed)
    expect("COUNTER_REUSED", game, signed)


def test_counter_gap(game):
    game.seats["a"].counter += 5
    expect("COUNTER_GAP", game, game.seats["a"].command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 4), game.head()))


def test_wrong_game_and_unknown_seat_and_malformed(game):
    expect("WRONG_GAME", game, game.seats["a"].command("other-game", game.referee.seq, duel_cmd("pick", 4), game.head()))
    game.seats["a"].counter -= 1
    expect("MALFORMED", game, b"\xff\xff not protobuf")
    from afteraction.engine.seat import SeatSigner
    stranger = SeatSigner("c", bytes(32))
    expect("UNKNOWN_SEAT", game, stranger.command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 4), game.head()))


def test_illegal_command_rejection_names_the_rule(game):
    before = snapshot(game)
    with pytest.raises(Rejection) as e:
        game.play("a", duel_cmd("pick", 9))
    assert e.value.code == "ILLEGAL_COMMAND" and "DUEL" in e.value.message
    assert snapshot(game) == before
    game.play("a", duel_cmd("pick", 2))  # the rejected command did not use up a's counter


def test_game_over_refuses_everything(game):
    game.run_bots(random_bot(3))
    assert game.referee.ended and game.records[-1].kind == "end"
    expect("GAME_OVER", game, game.seats["a"].command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 1), game.head()))


def test_sealed_command_hides_the_pick_and_opens_to_its_owner(game):
    acc = game.play("a", duel_cmd("pick", 5))
    rec = acc.records[0]
    assert "sealed" in rec.body and "env" not in rec.body
    assert all(op.value != {"t": "pick", "round": 1, "number": 5} or op.seq == rec.seq for op in acc.openings["a"])
    assert set(acc.openings) == {"a"}
    kinds = [ev["t"] for ev in rec.body["events"]]
    assert kinds == ["sealed", "picked"]
    assert game.referee.ruleset.view(game.referee.state, "b") == {"round": 1, "score": {"a": 0, "b": 0}, "picked": True}


@pytest.mark.parametrize("seed", [b"1", b"2", b"3", b"4", b"5"])
def test_same_genesis_and_commands_give_identical_bytes(seed):
    g1 = LocalGame.create("duel", seed=seed)
    g1.handshake()
    g1.run_bots(random_bot(seed))
    g2 = LocalGame.create("duel", seed=seed)
    g2.handshake()
    g2.run_bots(random_bot(seed))
    assert [r.raw for r in g1.records] == [r.raw for r in g2.records]
    assert g1.bundle() == g2.bundle()
    assert verify_bundle(io.BytesIO(g1.bundle())).replayed


def test_registry_knows_duel_and_refuses_unknown():
    assert registry.get("duel").game == "duel"
    with pytest.raises(Rejection) as e:
        registry.get("chess")
    assert e.value.code == "UNKNOWN_RULESET"


def _resigned(game, signed: bytes, env_bytes: bytes) -> bytes:
    """``env_bytes`` signed by seat a (the bytes as given, not re-serialized)."""
    from afteraction.engine.referee import command_signing_bytes
    sig = game.seats["a"]._key.sign(command_signing_bytes(env_bytes))
    return envelope_pb2.SignedCommand(envelope=env_bytes, signature=sig).SerializeToString()


@pytest.mark.parametrize("how", ["duplicate field", "unknown field", "non-minimal varint", "out of order",
                                 "explicit default", "unknown field in the command"])
def test_spec_7_1_v2_envelope_bytes_are_its_deterministic_encoding(game, how):
    """SPEC.md 7.1 (v >= 2): one command, one encoding; every other encoding of the same
    envelope, validly signed by its seat, is MALFORMED and changes nothing."""
    signed = game.seats["a"].command(game.referee.game_id, game.referee.seq, duel_cmd("pick", 4), game.head())
    game.seats["a"].counter -= 1
    raw = envelope_pb2.SignedCommand.FromString(signed).envelope
    env = envelope_pb2.CommandEnvelope.FromString(raw)
    ctr = bytes([0x18, env.counter])
    assert raw.count(ctr) == 1
    other = {
        "duplicate field": raw + ctr,
        "unknown field": raw + bytes([0xF8, 0x07, 0x01]),  # field 127, varint 1
        "non-minimal varint": raw.replace(ctr, bytes([0x18, 0x80 | env.counter, 0x00])),
        "out of order": ctr + raw.replace(ctr, b""),
        "explicit default": bytes([0x18, 0x00]) + raw,  # counter 0 written out, then the real one
    }.get(how)
    if how == "unknown field in the command":
        cmd = env.command.SerializeToString(deterministic=True) + bytes([0xF8, 0x07, 0x01])
        inner = bytes([0x62, len(cmd)]) + cmd  # field 12 (command), length-delimited
        e2 = envelope_pb2.CommandEnvelope()
        e2.CopyFrom(env)
        e2.ClearField("command")
        other = e2.SerializeToString(deterministic=True) + inner
    assert envelope_pb2.CommandEnvelope.FromString(other).command == env.command or how.startswith("unknown")
    assert other != raw
    expect("MALFORMED", game, _resigned(game, signed, other))
    game.submit(_resigned(game, signed, raw))  # the deterministic bytes of the same envelope are accepted


def test_spec_7_1_v1_envelope_bytes_are_not_checked():
    g = LocalGame.create("duel", seed=b"referee-v1", version=1)
    g.handshake()
    signed = g.seats["a"].command(g.referee.game_id, g.referee.seq, duel_cmd("pick", 4), g.head())
    raw = envelope_pb2.SignedCommand.FromString(signed).envelope
    g.submit(_resigned(g, signed, raw + bytes([0xF8, 0x07, 0x01])))
