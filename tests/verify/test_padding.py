"""SPEC.md 6.5, format v2: every hidden value is padded to the size genesis declares for its
kind; the verifier checks the public ciphertext length (steps 6/7, during play too) and the
length prefix and zero padding after opening (step 9); the referee never writes a longer one."""
from __future__ import annotations

import copy

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.errors import Rejection
from afteraction.engine.games.duel.rules import DuelRuleset, _cmd
from afteraction.engine.local import LocalGame
from afteraction.engine.protocol import FORMAT_VERSION

from .surgery import bodies, failure, rechain


def _sealed_event(recs):
    return next((r[1], ev) for r in recs for ev in r[3].get("events", []) if ev.get("t") == "sealed")


def _reseal(h, recs, n, k, plaintext_of):
    """The dishonest server re-encrypts hidden value (n, k) with plaintext_of(inner plaintext)."""
    game, secret = recs[0][0], h["secret"]
    key = _commit.seal_key(secret, game)
    body = recs[n][3]
    sealed = body["sealed"] if k == 0 else next(e for e in body["events"] if e.get("t") == "sealed" and e["k"] == k)
    op = _commit.unseal(key, game, n, k, sealed["commit"], sealed["ct"], len(sealed["ct"]) - 16)
    pt = plaintext_of(canon.encode({"salt": op.salt, "value": op.value}))
    sealed["ct"] = ChaCha20Poly1305(key).encrypt(_commit.seal_nonce(game, n, k), pt, sealed["commit"])


def test_new_logs_are_v2_and_declare_every_kind_they_seal(duel_game):
    g = duel_game.records[0]
    assert g.v == FORMAT_VERSION >= 2  # format 3 pads as format 2
    assert g.body["sealed_sizes"] == {"command": {"a": 256}, "event": {"a": 80}}


@pytest.mark.parametrize("in_progress", [False, True])
def test_spec_6_2_an_unpadded_private_event_fails_step_7_even_during_play(duel_game, duel_bundle, in_progress):
    h, recs = bodies(duel_bundle)
    n, ev = _sealed_event(recs)
    _reseal(h, recs, n, ev["k"], lambda pt: pt)  # the v1 plaintext: its length is the value's
    if in_progress:  # a spectator's copy before the end: no secret, no end record
        h = {k: v for k, v in h.items() if k != "secret"}
        h["records"] = n + 1
        recs = recs[:n + 1]
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("7 (openings)", n), e
    assert "ciphertext length" in e.check and (e.expected, e.found) == (96, len(ev["ct"]))


def test_spec_6_2_a_sealed_command_one_byte_longer_fails_step_6(duel_game, duel_bundle):
    h, recs = bodies(duel_bundle)
    n = next(r[1] for r in recs if "sealed" in r[3])
    _reseal(h, recs, n, 0, lambda pt: _commit.pad(pt, 257))
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", n) and "ciphertext length" in e.check, e


@pytest.mark.parametrize("bad,words", [
    (lambda pt: _commit.pad(pt, 80)[:-1] + b"\x01", "not all zero"),                 # a covert channel
    (lambda pt: (77).to_bytes(4, "big") + _commit.pad(pt, 80)[4:], "length prefix"),  # past the size
    (lambda pt: pt + bytes(80 - len(pt)), "length prefix"),                         # no prefix at all
])
def test_spec_6_2_wrong_padding_of_the_right_length_fails_step_9(duel_game, duel_bundle, bad, words):
    h, recs = bodies(duel_bundle)
    n, ev = _sealed_event(recs)
    _reseal(h, recs, n, ev["k"], bad)
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("9 (sealed)", n) and words in e.detail, e


@pytest.mark.parametrize("sizes", [None, {"command": {"a": 256}}, {"command": {"a": 256}, "event": {"c": 80}},
                                   {"command": {"a": True}, "event": {}}, {"command": {"a": 3}, "event": {}},
                                   {"command": {"a": 65537}, "event": {}}])
def test_spec_6_2_genesis_of_v2_must_declare_well_formed_sizes(duel_game, duel_bundle, sizes):
    h, recs = bodies(duel_bundle)
    g = copy.deepcopy(recs[0][3])
    if sizes is None:
        del g["sealed_sizes"]
    else:
        g["sealed_sizes"] = sizes
    recs[0] = (recs[0][0], 0, "genesis", g)
    e = failure(rechain(h, recs, duel_game.server), replay=False)
    assert e is not None and (e.step, e.seq) == ("4 (genesis)", 0) and "sealed_sizes" in e.check, e


class _TinyDuel(DuelRuleset):
    """A duel whose declared sizes are too small: the referee must refuse or fail, never seal longer."""
    def __init__(self, command: int, event: dict) -> None:
        super().__init__()
        self.sealed_sizes = {"command": {"a": command}, "event": event}


def _started(rs) -> LocalGame:
    g = LocalGame.create("duel", seed=b"tiny", ruleset=rs)
    g.handshake()
    return g


def test_spec_6_2_a_private_event_that_does_not_fit_is_a_loud_ruleset_bug_and_changes_nothing():
    g = _started(_TinyDuel(256, {"a": 60}))  # a pick event needs 73 bytes
    before = (g.referee.seq, g.referee.counters["a"], len(g.records))
    with pytest.raises(_commit.SealedSizeError, match="does not fit the declared size 60"):
        g.play("a", _cmd("pick", 3))
    assert (g.referee.seq, g.referee.counters["a"], len(g.records)) == before


def test_spec_6_2_a_seat_without_a_declared_event_size_cannot_receive_a_private_event():
    g = _started(_TinyDuel(256, {}))
    with pytest.raises(_commit.SealedSizeError, match="declares no sealed event size for seat a"):
        g.play("a", _cmd("pick", 3))


def test_spec_7_3_a_sealed_command_that_does_not_fit_is_refused_COMMAND_TOO_LARGE():
    g = _started(_TinyDuel(150, {"a": 80}))  # a pick envelope needs about 160 bytes
    before = g.referee.seq
    with pytest.raises(Rejection) as e:
        g.play("a", _cmd("pick", 3))
    assert e.value.code == "COMMAND_TOO_LARGE" and g.referee.seq == before and g.referee.counters["a"] == 2


def test_v1_logs_have_no_padding_rule():
    """A v1 genesis declares nothing and its sealed values keep their own length (SPEC.md 1.2)."""
    from afteraction.engine.referee import Referee
    rs = DuelRuleset()
    g = LocalGame.create("duel", seed=b"v1")
    genesis = Referee.new_genesis("g1", rs, "standard", {}, {s: k.public for s, k in g.seats.items()},
                                  g.server.verifier.vkey, "afteraction.test/game/g1", bytes(32), version=1)
    assert "sealed_sizes" not in genesis.body and Referee(genesis, rs, bytes(32)).sealed_sizes is None


def test_a_v2_genesis_without_sizes_is_refused_by_the_referee():
    from afteraction.engine.protocol import make_record
    from afteraction.engine.referee import Referee
    g = LocalGame.create("duel", seed=b"v2")
    body = {k: v for k, v in g.records[0].body.items() if k != "sealed_sizes"}
    genesis = make_record(g.records[0].game, 0, bytes(32), "genesis", body, 2)
    secret = g.referee._secret
    with pytest.raises(Rejection) as e:
        Referee(genesis, DuelRuleset(), secret)
    assert e.value.code == "BAD_GENESIS" and "sealed_sizes" in e.value.message
