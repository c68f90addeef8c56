"""Step 11 hands the referee the envelope step 6 or 9 checked (ReplayReferee.accept_checked: not
serialized, parsed or checked for its encoding again): the verdicts are the bytes
path's (Referee.accept), for logs that verify and for a command the ruleset refuses."""
from __future__ import annotations

import copy
import io

import pytest

from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.log.replay import ReplayReferee
from afteraction.v1 import envelope_pb2

from .surgery import bodies, failure, rechain


def _by_bytes(self, sc, env, now=None, known=None, logged=None):
    # the bytes path seals every hidden value and makes every record again (``known``, ``logged`` unused:
    # test_replay_known_seals.py, test_replay_logged_record.py)
    return self.accept(sc.SerializeToString(), signature_checked=True, now=now)


def _outcome(data: bytes):
    try:
        r = verify_bundle(io.BytesIO(data), replay=True)
        return ("verified", r.records, r.replayed, r.sealed, r.rolls)
    except Exception as e:   # VerificationError, with what it names
        return (type(e).__name__, getattr(e, "step", None), getattr(e, "seq", None), str(e))


def _refused_guess(duel_game, duel_bundle) -> bytes:
    """Seat b's first guess re-signed (b colluding) with a number the duel refuses (ILLEGAL_COMMAND)."""
    h, recs = bodies(duel_bundle)
    n = next(r[1] for r in recs if r[2] == "command" and r[3].get("seat") == "b" and "env" in r[3])
    game, seq, kind, body = recs[n]
    env = envelope_pb2.CommandEnvelope.FromString(body["env"])
    env.command.duel.guess.number = 9
    signer = copy.copy(duel_game.seats["b"])
    signer.counter = body["ctr"] - 1
    sc = envelope_pb2.SignedCommand.FromString(signer.sign(env))
    recs[n] = (game, seq, kind, {**body, "env": sc.envelope, "sig": sc.signature})
    return rechain(h, recs, duel_game.server)


@pytest.mark.parametrize("which", ["honest", "refused"])
def test_step_11_with_the_checked_envelope_is_the_bytes_path(which, duel_game, duel_bundle, monkeypatch):
    data = duel_bundle if which == "honest" else _refused_guess(duel_game, duel_bundle)
    checked = _outcome(data)
    monkeypatch.setattr(ReplayReferee, "accept_checked", _by_bytes)
    assert checked == _outcome(data)
    if which == "refused":
        e = failure(data)
        assert e is not None and e.step.startswith("11") and "ILLEGAL_COMMAND" in e.detail, e
    else:
        assert checked[0] == "verified" and checked[2]


def test_step_11_uses_the_checked_envelope(duel_bundle, monkeypatch):
    """Every command record of an honest log takes the checked envelope (none falls back to bytes)."""
    calls = []
    monkeypatch.setattr(ReplayReferee, "accept", lambda self, *a, **k: calls.append(a) or pytest.fail("bytes path"))
    verify_bundle(io.BytesIO(duel_bundle), replay=True)
    assert calls == []
