"""The verifier holds every field to the type SPEC.md 1.2-1.4 gives it, also without replay.

A dishonest server re-signs each log below (so chain and checkpoints hold). Python's
``True == 1`` made a boolean pass for an integer (a counter, a hidden value's index, a
reference), a sealed event without its ciphertext passed while the game was in progress, and
a seat's signed reveal of 31 bytes of entropy passed (or crashed the dice key derivation).
Each is caught at its record, at the step named, with replay off."""
from __future__ import annotations

import copy

import pytest

from afteraction.engine.crypto import canon
from afteraction.engine.errors import EncodingError
from afteraction.engine.local import LocalGame
from afteraction.engine.protocol import parse_record
from afteraction.v1 import envelope_pb2

from .surgery import bodies, failure, rechain


def _forge(game, bundle, seq, edit) -> bytes:
    h, recs = bodies(bundle)
    g, s, kind, body = recs[seq]
    body = copy.deepcopy(body)
    edit(body)
    recs[seq] = (g, s, kind, body)
    return rechain(h, recs, game.server)


def _first(bundle, pred) -> int:
    _, recs = bodies(bundle)
    return next(r[1] for r in recs if pred(r[2], r[3]))


def test_spec_1_2_version_true_is_not_version_1(duel_bundle):
    _, recs = bodies(duel_bundle)
    g, seq, kind, body = recs[1]
    raw = canon.encode({"v": True, "game": g, "seq": seq, "prev": bytes(32), "kind": kind, "body": body})
    with pytest.raises(EncodingError, match="version"):
        parse_record(raw)


def test_spec_7_2_counter_true_is_not_counter_1(duel_game, duel_bundle):
    e = failure(_forge(duel_game, duel_bundle, 1, lambda b: b.update(ctr=True)), replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", 1), e


def test_spec_6_1_sealed_index_true_is_not_index_1(duel_game, duel_bundle):
    n = _first(duel_bundle, lambda kind, b: any(ev.get("t") == "sealed" for ev in b.get("events", [])))

    def edit(b):
        next(ev for ev in b["events"] if ev.get("t") == "sealed")["k"] = True

    e = failure(_forge(duel_game, duel_bundle, n, edit), replay=False)
    assert e is not None and (e.step, e.seq) == ("7 (openings)", n), e


def test_spec_6_4_open_reference_must_be_integers(duel_game, duel_bundle):
    n = _first(duel_bundle, lambda kind, b: any(ev.get("t") == "open" for ev in b.get("events", [])))

    def edit(b):
        ev = next(ev for ev in b["events"] if ev.get("t") == "open")
        ev["ref"] = [ev["ref"][0], True]

    e = failure(_forge(duel_game, duel_bundle, n, edit), replay=False)
    assert e is not None and (e.step, e.seq) == ("7 (openings)", n), e


def test_spec_1_4_sealed_event_needs_its_ciphertext_even_in_progress(duel_game, duel_bundle):
    n = _first(duel_bundle, lambda kind, b: any(ev.get("t") == "sealed" for ev in b.get("events", [])))

    def edit(b):
        del next(ev for ev in b["events"] if ev.get("t") == "sealed")["ct"]

    forged = _forge(duel_game, duel_bundle, n, edit)
    e = failure(forged, replay=False)
    assert e is not None and (e.step, e.seq) == ("7 (openings)", n), e


def _reveal_body(g: LocalGame, seat: str, entropy: bytes) -> dict:
    sc = envelope_pb2.SignedCommand.FromString(g.seats[seat].entropy_reveal(g.referee.game_id, entropy, g.head()))
    return {"seat": seat, "ctr": g.seats[seat].counter, "env": sc.envelope, "sig": sc.signature,
            "events": [{"t": "entropy-reveal", "seat": seat, "entropy": entropy}]}


@pytest.mark.parametrize("length", [31, 33, 0])
def test_spec_5_2_revealed_entropy_is_32_bytes(length):
    """Seat a (colluding with the server) commits to and signs a reveal of entropy of another
    length; the referee refuses it (BAD_REVEAL), a log that carries it fails step 6 there."""
    g = LocalGame.create("duel", seed=b"tests/short-entropy")
    gid = g.referee.game_id
    g.entropy["a"] = bytes(range(length))
    for s, k in g.seats.items():
        g.submit(k.entropy_commit(gid, g.entropy[s], g.head()))
    h, recs = bodies(g.bundle())
    recs.append((gid, 3, "reveal", _reveal_body(g, "a", g.entropy["a"])))
    h["records"] = len(recs)
    e = failure(rechain(h, recs, g.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", 3), e
