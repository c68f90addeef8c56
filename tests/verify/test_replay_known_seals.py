"""Step 11 re-seals a record's hidden values from step 9's openings (commit.seal's ``known``,
replay.known_values): a value that is the one step 9 opened at its place (its salt, size
and value, canon.same) takes the logged commitment and ciphertext instead of being encrypted again.
The verdicts are those of sealing every value again, for the fixture logs and for a dishonest server's log whose sealed
values open but are not the ones the rules make (each such test fails if the replay takes the
logged bytes without comparing the values)."""
from __future__ import annotations

import copy
import io
import pathlib

import pytest

from afteraction.cli.verify_parallel import driver
from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.log import replay
from afteraction.engine.log.verify import verify_bundle

from conftest import REPO

from .surgery import bodies, rechain

FIXTURES = sorted(str(p.relative_to(REPO)) for p in (REPO / "fixtures").rglob("*.aar"))


def _verdict(data: bytes, drive=None):
    try:
        r = verify_bundle(io.BytesIO(data), replay=True, drive=drive)
        return ("verified", r.records, r.replayed, r.sealed, r.rolls, r.opened)
    except Exception as e:   # VerificationError: everything it names
        return (type(e).__name__, getattr(e, "step", None), getattr(e, "seq", None), getattr(e, "check", None),
                repr(getattr(e, "expected", None)), repr(getattr(e, "found", None)), getattr(e, "detail", None))


def _both(data: bytes, monkeypatch, drive=None):
    """(verdict with step 9's openings, verdict sealing every value again)."""
    with_known = _verdict(data, drive)
    with monkeypatch.context() as m:
        m.setattr(replay, "known_values", lambda v, rec: None)
        return with_known, _verdict(data, drive)


def test_every_fixture_log_has_the_verdict_of_sealing_again(monkeypatch):
    assert len(FIXTURES) > 30
    for f in FIXTURES:
        data = pathlib.Path(REPO / f).read_bytes()
        a, b = _both(data, monkeypatch)
        assert a == b, f


def _reseal(h, recs, n, k, value) -> None:
    """The dishonest server's record ``n``: its hidden value ``k`` replaced by ``value``, committed and
    sealed with the right salt, key and nonce, so that step 9 opens it."""
    secret, game = h["secret"], recs[0][0]
    sizes = recs[0][3]["sealed_sizes"]
    g, s, kind, body = recs[n]
    body = copy.deepcopy(body)
    if k == 0:
        place, size = body["sealed"], sizes["command"][body["seat"]]
    else:
        place = next(e for e in body["events"] if e.get("t") == "sealed" and e["k"] == k)
        size = sizes["event"][place["to"]]
    _, place["commit"], place["ct"] = _commit.seal(secret, game, n, k, value, size)
    recs[n] = (g, s, kind, body)


def _opened(h, recs, n, k):
    secret, game = h["secret"], recs[0][0]
    body = recs[n][3]
    place = body["sealed"] if k == 0 else next(e for e in body["events"] if e.get("t") == "sealed" and e["k"] == k)
    sizes = recs[0][3]["sealed_sizes"]
    size = sizes["command"][body["seat"]] if k == 0 else sizes["event"][place["to"]]
    return _commit.unseal(_commit.seal_key(secret, game), game, n, k, place["commit"], place["ct"], size).value


@pytest.mark.parametrize("what", ["event", "command"])
def test_a_resealed_value_that_opens_fails_the_replay_at_its_record(what, duel_game, duel_bundle, monkeypatch):
    """Record 5's sealed pick (an event, k = 1) or its sealed command (k = 0, a key added beside the
    envelope and signature: step 9 still accepts it) re-sealed by the server: step 9 opens it, step 11
    must refuse the record, with the verdict of sealing again (taking the logged bytes would pass it)."""
    h, recs = bodies(duel_bundle)
    n = next(r[1] for r in recs if "sealed" in r[3])
    k = 1 if what == "event" else 0
    v = _opened(h, recs, n, k)
    other = {**v, "number": v["number"] % 6 + 1} if what == "event" else {**v, "x": 1}
    assert canon.encode(other) != canon.encode(v)
    _reseal(h, recs, n, k, other)
    data = rechain(h, recs, duel_game.server)
    a, b = _both(data, monkeypatch)
    assert a == b
    assert a[:3] == ("VerificationError", "11 (replay)", n), a
    assert _both(data, monkeypatch, driver(2)) == (a, a)   # the replay process gets step 9's plaintexts too


def test_an_honest_replay_takes_every_logged_ciphertext(duel_bundle, monkeypatch):
    """Every hidden value of an honest log is taken from step 9's opening, none encrypted again."""
    sealed, encrypted = [], []
    real = _commit.seal

    def seal(*a, **kw):
        out = real(*a, **kw)
        known = kw.get("known") if "known" in kw else (a[7] if len(a) > 7 else None)
        (sealed if known is not None and out[2] is known[4] else encrypted).append(a[2:4])
        return out

    monkeypatch.setattr(_commit, "seal", seal)
    r = verify_bundle(io.BytesIO(duel_bundle), replay=True)
    assert r.replayed and len(sealed) == r.sealed >= 6 and encrypted == []
