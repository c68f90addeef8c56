"""Step 11 takes the logged record as the replay's when the referee's record would have its bytes
(protocol.is_record_of: the same fields and a body canon.same as the logged one), instead of encoding
and hashing it. The verdicts are those of making every record, for the fixture logs and
for a dishonest server's record that Python's == cannot tell from the replay's (1 logged as true)."""
from __future__ import annotations

import copy
import io
import pathlib

from afteraction.engine import protocol, referee
from afteraction.engine.log import replay
from afteraction.engine.log.verify import verify_bundle

from conftest import REPO

from .surgery import bodies, rechain
from .test_replay_known_seals import FIXTURES, _verdict


def _both(data: bytes, monkeypatch):
    """(verdict taking the logged records, verdict making every record)."""
    taken = _verdict(data)
    with monkeypatch.context() as m:
        m.setattr(replay, "is_record_of", lambda *a: False)
        return taken, _verdict(data)


def test_every_fixture_log_has_the_verdict_of_making_every_record(monkeypatch):
    for f in FIXTURES:
        a, b = _both(pathlib.Path(REPO / f).read_bytes(), monkeypatch)
        assert a == b, f


def test_a_record_equal_in_python_but_not_in_bytes_fails_the_replay(duel_game, duel_bundle, monkeypatch):
    """The server logs record 5's event {"round": 1} as {"round": true} (== in Python, other bytes),
    re-chained and re-signed: step 11 must refuse it there, as making the record does."""
    h, recs = bodies(duel_bundle)
    n = next(r[1] for r in recs if any(e.get("t") == "picked" for e in r[3].get("events", [])))
    g, s, kind, body = recs[n]
    body = copy.deepcopy(body)
    ev = next(e for e in body["events"] if e.get("t") == "picked")
    assert ev["round"] == 1
    ev["round"] = True
    recs[n] = (g, s, kind, body)
    data = rechain(h, recs, duel_game.server)
    a, b = _both(data, monkeypatch)
    assert a == b
    assert a[:3] == ("VerificationError", "11 (replay)", n), a


def test_an_honest_replay_takes_every_command_record(duel_bundle, monkeypatch):
    """Every seat record of an honest log is the logged one (only the end record, which the replay makes
    ahead of the log, is encoded)."""
    taken, made = [], []
    real_make, real_is = referee.make_record, protocol.is_record_of

    def is_record_of(rec, *a):
        out = real_is(rec, *a)
        (taken if out else made).append(a[1])
        return out

    monkeypatch.setattr(replay, "is_record_of", is_record_of)
    monkeypatch.setattr(referee, "make_record", lambda *a: made.append(("made", a[1])) or real_make(*a))
    r = verify_bundle(io.BytesIO(duel_bundle), replay=True)
    assert r.replayed and taken == list(range(1, r.records - 1))
    assert made == [r.records - 1, ("made", r.records - 1)]
