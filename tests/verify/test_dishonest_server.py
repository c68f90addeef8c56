"""Forgeries that only a dishonest server (holding the secret and the checkpoint key), possibly
with a colluding seat, can write: each is caught at its record with replay off, by the check
SPEC.md 10 names (each test was checked by disabling that one check: it then fails)."""
from __future__ import annotations

import base64
import copy

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.local import checkpoint_note
from afteraction.v1 import envelope_pb2

from .surgery import bodies, failure, join, rechain, split


def test_spec_10_b9_a_skipped_seat_counter_fails_at_the_gap(duel_game, duel_bundle):
    """Seat a signs its reveal with counter 3 instead of 2 (the referee says COUNTER_GAP); a
    log that carries it fails step 6 at that record, not later."""
    h, recs = bodies(duel_bundle)
    g = duel_game
    game, seq, kind, body = recs[3]
    assert (kind, body["seat"], body["ctr"]) == ("reveal", "a", 2)
    env = envelope_pb2.CommandEnvelope.FromString(body["env"])
    signer = copy.copy(g.seats["a"])
    signer.counter = 2  # the next signature uses counter 3
    env.ClearField("counter")
    sc = envelope_pb2.SignedCommand.FromString(signer.sign(env))
    recs[3] = (game, seq, kind, {**body, "ctr": 3, "env": sc.envelope, "sig": sc.signature})
    e = failure(rechain(h, recs, g.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", 3), e
    assert (e.expected, e.found) == (2, 3)


def test_spec_6_2_a_sealed_value_that_decrypts_but_differs_from_its_commitment(duel_game, duel_bundle):
    """The server keeps the public commitment of a's pick but encrypts another pick under it
    (the commitment is only the AEAD's associated data): the AEAD opens, the commitment check of
    6.2 must refuse it (step 9 at that record)."""
    h, recs = bodies(duel_bundle)
    secret = h["secret"]
    n, k, ev = next((r[1], ev["k"], ev) for r in recs for ev in r[3].get("events", []) if ev.get("t") == "sealed")
    game = recs[0][0]
    key = _commit.seal_key(secret, game)
    size = recs[0][3]["sealed_sizes"]["event"][ev["to"]]  # v2 pads (SPEC.md 6.5)
    honest = _commit.unseal(key, game, n, k, ev["commit"], ev["ct"], size)
    other = {**honest.value, "number": honest.value["number"] % 6 + 1}
    pt = _commit.pad(canon.encode({"salt": honest.salt, "value": other}), size)
    forged_ct = ChaCha20Poly1305(key).encrypt(_commit.seal_nonce(game, n, k), pt, ev["commit"])
    g, s, kind, body = recs[n]
    body = copy.deepcopy(body)
    next(e for e in body["events"] if e.get("t") == "sealed" and e["k"] == k)["ct"] = forged_ct
    recs[n] = (g, s, kind, body)
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("9 (sealed)", n), e
    assert "commitment" in e.detail


def test_spec_4_2_a_checkpoint_for_another_origin_fails_step_5(duel_game, duel_bundle):
    """The server's key signs the checkpoints of all its games: a checkpoint with the right size
    and root but another game's origin (a valid signature) must not pass for this log's."""
    h, frames = split(duel_bundle)
    k = 4
    origin, size, root = frames[k][1].split("\n")[:3]
    other = origin.rsplit("/", 1)[0] + "/0000000000000000"
    frames[k] = (frames[k][0], checkpoint_note(duel_game.server, other, int(size), base64.b64decode(root)))
    e = failure(join(h, frames), replay=False)
    assert e is not None and (e.step, e.seq) == ("5 (checkpoint)", k), e
    assert (e.expected, e.found) == (origin, other)


def test_spec_7_2_a_command_signed_for_another_position_fails_step_6(duel_game, duel_bundle):
    """Seat b's guess is re-signed (b colluding) with state_seq one past the record it stands
    in; the referee says STALE_STATE, a log that carries it fails step 6 there (replay off)."""
    h, recs = bodies(duel_bundle)
    n = next(r[1] for r in recs if r[2] == "command" and r[3].get("seat") == "b")
    game, seq, kind, body = recs[n]
    env = envelope_pb2.CommandEnvelope.FromString(body["env"])
    assert env.state_seq == n
    env.state_seq = n + 1
    signer = copy.copy(duel_game.seats["b"])
    signer.counter = body["ctr"] - 1
    sc = envelope_pb2.SignedCommand.FromString(signer.sign(env))
    recs[n] = (game, seq, kind, {**body, "env": sc.envelope, "sig": sc.signature})
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", n), e
    assert (e.expected, e.found) == (n, n + 1)
