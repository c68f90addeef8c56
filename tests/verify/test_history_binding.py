"""format version 2: every envelope binds the history its seat verified
(CommandEnvelope.prev, state_seq, SPEC.md 7.1-7.2) and the entropy commitment covers the
genesis hash (5.2). Played as a dishonest server (it holds the secret and the checkpoint key)
with a colluding seat; each attack is refused by the referee and fails the verifier at the
step SPEC.md names. Version 1 logs keep their rules."""
from __future__ import annotations

import io

import pytest

from afteraction.engine import referee as referee_mod
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.errors import Rejection
from afteraction.engine.local import LocalGame, checkpoint_note, derive_bytes
from afteraction.engine.log.bundle import write_bundle
from afteraction.engine.protocol import ZERO_HASH, make_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import Referee
from afteraction.v1 import envelope_pb2

from .surgery import bodies, failure


def _bundle(g: LocalGame, records, secret=None) -> bytes:
    """Records (Record objects) with checkpoints signed by g's server key: what a dishonest
    server exports."""
    tree = CompactTree()
    origin = records[0].body["server"]["origin"]
    frames = []
    for r in records:
        tree.append(r.leaf)
        frames.append((r.raw, checkpoint_note(g.server, origin, tree.size, tree.root())))
    out = io.BytesIO()
    write_bundle(out, g.referee.game_id, g.server.verifier.vkey, frames, len(frames), secret)
    return out.getvalue()


def _rechain(g: LocalGame, recs, v: int) -> list:
    out, prev = [], ZERO_HASH
    for game, seq, kind, body in recs:
        r = make_record(game, seq, prev, kind, body, v)
        out.append(r)
        prev = r.hash
    return out


def _signed_commands(g: LocalGame) -> list[bytes]:
    """Every seat envelope of g's log as a SignedCommand, sealed ones opened with the secret."""
    out = []
    for r in g.records[1:]:
        b = r.body
        if r.kind == "end":
            continue
        if "sealed" in b:
            v = g.referee.opening((r.seq, 0)).value
            env, sig = v["env"], v["sig"]
        else:
            env, sig = b["env"], b["sig"]
        out.append(envelope_pb2.SignedCommand(envelope=env, signature=sig).SerializeToString())
    return out


def _reroll(g: LocalGame, monkeypatch) -> tuple[list, bytes]:
    """Attack 2: after the game the server picks a new secret, writes a new genesis
    (same game id, seats, keys, origin) and feeds the seats' original signed envelopes to a
    fresh referee. Its own referee would refuse them (WRONG_HISTORY, BAD_REVEAL), so the
    dishonest server's copy does not check them: it writes what it likes."""
    r0 = g.referee
    secret = derive_bytes(b"tests/reroll", "second-secret")
    gen = Referee.new_genesis(r0.game_id, r0.ruleset, r0.scenario, r0.options, r0.seat_keys,
                              g.server.verifier.vkey, r0.genesis.body["server"]["origin"], secret,
                              version=r0.version)
    old = r0.genesis.hash
    real = _commit.seat_entropy_commitment
    with monkeypatch.context() as m:
        m.setattr(Referee, "_check_history", lambda self, env: None, raising=False)
        m.setattr(referee_mod._commit, "seat_entropy_commitment",
                  lambda game, seat, e, genesis=None: real(game, seat, e, old if genesis is not None else None))
        ref = Referee(gen, r0.ruleset, secret)
        records = [gen]
        for sc in _signed_commands(g):
            records += ref.accept(sc).records
    return records, secret


def test_issue_23_attack_2_a_genesis_rewritten_after_the_game_fails_step_6_at_record_1(monkeypatch):
    """SPEC.md 11: the server cannot re-roll a finished game under a new secret. The first
    commit envelope is bound to the original genesis's hash: step 6 at record 1."""
    g = LocalGame.create("duel", seed=b"tests/reroll")
    g.handshake()
    g.run_bots(random_bot(b"tests/reroll"))
    assert g.referee.version >= 2  # format 3 binds envelopes as format 2 does (past offers only)
    records, secret = _reroll(g, monkeypatch)
    assert [r.body.get("outcome") for r in records[-1:]] != [g.records[-1].body["outcome"]] or \
        [ev for r in records for ev in r.body.get("events", []) if ev.get("t") == "roll"] != \
        [ev for r in g.records for ev in r.body.get("events", []) if ev.get("t") == "roll"]  # other dice
    forged = _bundle(g, records, secret)
    for replay in (False, True):
        e = failure(forged, replay=replay)
        assert e is not None and (e.step, e.seq) == ("6 (seats)", 1), e
        assert "another history" in e.check and e.expected == records[0].hash
    # the honest referee refuses the first original envelope on the new genesis
    ref = Referee(records[0], g.referee.ruleset, secret)
    with pytest.raises(Rejection) as r:
        ref.accept(_signed_commands(g)[0])
    assert r.value.code == "WRONG_HISTORY"


def test_issue_23_attack_2_in_version_1_verifies_and_only_a_kept_checkpoint_exposes_it(monkeypatch):
    """Version 1 rules stay as they were (the rewrite verifies, SPEC.md 14); a checkpoint a seat
    kept (aar verify --checkpoint) exposes it at step 5."""
    g = LocalGame.create("duel", seed=b"tests/reroll-v1", version=1)
    g.handshake()
    g.run_bots(random_bot(b"tests/reroll-v1"))
    honest = _bundle(g, g.records, g.records[-1].body["secret"])
    assert verify_bundle(io.BytesIO(honest)).replayed
    records, secret = _reroll(g, monkeypatch)
    forged = _bundle(g, records, secret)
    assert verify_bundle(io.BytesIO(forged)).replayed  # v1: nothing a seat signed covers genesis
    kept = g.checkpoints[6]  # what seat a kept after record 6
    e = None
    try:
        verify_bundle(io.BytesIO(forged), kept_checkpoint=kept)
    except Exception as x:
        e = x
    assert e is not None and (e.step, e.seq) == ("5 (checkpoint)", 6), e
    rep = verify_bundle(io.BytesIO(honest), kept_checkpoint=kept)
    assert rep.kept_checkpoint == 7


def _early_reveal_game():
    """Attack 1: seat a commits and (an old client) reveals at once, bound to the log
    [genesis, commit a]; the server hands the reveal to b, who then commits."""
    g = LocalGame.create("duel", seed=b"tests/early-reveal")
    gid = g.referee.game_id
    a, b = g.seats["a"], g.seats["b"]
    g.submit(a.entropy_commit(gid, g.entropy["a"], g.head()))
    early = a.entropy_reveal(gid, g.entropy["a"], g.head())  # bound to state 2: b has not committed
    g.submit(b.entropy_commit(gid, g.entropy["b"], g.head()))
    return g, early


def test_issue_23_attack_1_the_referee_refuses_a_reveal_bound_to_an_incomplete_handshake():
    g, early = _early_reveal_game()
    before = (g.referee.seq, g.referee.prev)
    with pytest.raises(Rejection) as e:
        g.submit(early)
    assert e.value.code == "HANDSHAKE_INCOMPLETE" and "before every seat had committed" in e.value.message
    assert (g.referee.seq, g.referee.prev) == before
    g.seats["a"].counter -= 1  # the refused envelope did not use up its counter
    g.submit(g.seats["a"].entropy_reveal(g.referee.game_id, g.entropy["a"], g.head()))  # re-signed: accepted


def test_issue_23_attack_1_the_verifier_refuses_a_reveal_bound_to_an_incomplete_handshake():
    """The dishonest server writes the early reveal into the log after b's commit, in the normal
    order (commit a, commit b, reveal a, reveal b): step 6 at record 3."""
    g, early = _early_reveal_game()
    sc = envelope_pb2.SignedCommand.FromString(early)
    gid = g.referee.game_id
    recs = [(r.game, r.seq, r.kind, r.body) for r in g.records]
    e_a = g.entropy["a"]
    recs.append((gid, 3, "reveal", {"seat": "a", "ctr": 2, "env": sc.envelope, "sig": sc.signature,
                                    "events": [{"t": "entropy-reveal", "seat": "a", "entropy": e_a}]}))
    forged = _bundle(g, _rechain(g, recs, g.referee.version))
    e = failure(forged, replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", 3), e
    assert "before every seat had committed" in e.check and (e.expected, e.found) == (3, 2)


def test_spec_5_2_v2_an_entropy_commitment_covers_the_genesis_hash():
    g = LocalGame.create("duel", seed=b"tests/commit-genesis")
    gid, e = g.referee.game_id, g.entropy["a"]
    v2 = _commit.seat_entropy_commitment(gid, "a", e, g.referee.genesis.hash)
    assert v2 != _commit.seat_entropy_commitment(gid, "a", e)
    g.submit(g.seats["a"].entropy_commit(gid, e, g.head()))
    assert g.records[-1].body["events"][0]["commit"] == v2


def test_spec_7_2_v2_every_envelope_carries_its_position_and_prev(duel_game):
    g = duel_game
    assert g.referee.version >= 2  # format 3 binds envelopes as format 2 does (past offers only)
    for r in g.records[1:-1]:
        b = r.body
        env_b = g.referee.opening((r.seq, 0)).value["env"] if "sealed" in b else b["env"]
        env = envelope_pb2.CommandEnvelope.FromString(env_b)
        assert (env.state_seq, env.prev) == (r.seq, r.prev)


def test_spec_7_3_v2_an_envelope_without_prev_is_malformed_and_a_forked_one_wrong_history():
    g = LocalGame.create("duel", seed=b"tests/no-prev")
    gid = g.referee.game_id
    a = g.seats["a"]
    with pytest.raises(Rejection) as e:
        g.submit(a.entropy_commit(gid, g.entropy["a"]))  # signed as in version 1
    assert e.value.code == "MALFORMED" and "prev" in e.value.message
    a.counter -= 1
    h = g.head()
    with pytest.raises(Rejection) as e:
        g.submit(a.entropy_commit(gid, g.entropy["a"], type(h)(h.seq, bytes(32), h.genesis)))
    assert e.value.code == "WRONG_HISTORY"
    a.counter -= 1
    with pytest.raises(Rejection) as e:
        g.submit(a.entropy_commit(gid, g.entropy["a"], type(h)(h.seq + 1, h.prev, h.genesis)))
    assert e.value.code == "STALE_STATE"
    assert g.referee.seq == 1


def test_spec_10_v2_a_forged_prev_fails_step_6_where_it_stands(duel_game, duel_bundle):
    """A command envelope re-signed by a colluding seat with the right position but another prev
    (the history another seat was shown): step 6 at that record, with the hashes."""
    h, recs = bodies(duel_bundle)
    n = next(i for i, r in enumerate(recs) if r[2] == "command" and "env" in r[3])
    game, seq, kind, body = recs[n]
    env = envelope_pb2.CommandEnvelope.FromString(body["env"])
    env.prev = bytes(32)
    seat = duel_game.seats[body["seat"]]
    signer = type(seat)(seat.seat, seat.seed, body["ctr"] - 1)
    env.ClearField("counter")
    sc = envelope_pb2.SignedCommand.FromString(signer.sign(env))
    recs[n] = (game, seq, kind, {**body, "env": sc.envelope, "sig": sc.signature})
    forged = _bundle(duel_game, _rechain(duel_game, recs, duel_game.referee.version), h.get("secret"))
    e = failure(forged, replay=False)
    assert e is not None and (e.step, e.seq) == ("6 (seats)", n), e
    assert e.found == bytes(32)


def test_v1_games_keep_the_v1_rules():
    """A version 1 game: envelopes without prev, handshake state_seq 0, the v1 commitment."""
    g = LocalGame.create("duel", seed=b"tests/v1", version=1)
    assert g.head() is None
    g.handshake()
    g.run_bots(random_bot(b"tests/v1"))
    for r in g.records[1:5]:
        env = envelope_pb2.CommandEnvelope.FromString(r.body["env"])
        assert env.prev == b"" and env.state_seq == 0
    rep = verify_bundle(io.BytesIO(g.bundle()))
    assert rep.replayed and g.records[0].v == 1


def _run(capsys, *argv):
    from afteraction.cli import main as cli

    code = cli.main(list(argv))
    return code, capsys.readouterr().out


def test_issue_16_a_fork_is_proved_by_two_envelopes(tmp_path, capsys):
    """The server shows seat a one genesis and seat b another (same game id, another secret):
    b's commit is refused where a's stands (WRONG_HISTORY), and the two commit envelopes, both
    for state 1 with different prev, are on their own a proof of the fork (aar evidence)."""
    from afteraction.engine.seat import Head

    g = LocalGame.create("duel", seed=b"tests/fork")
    r0 = g.referee
    gen2 = Referee.new_genesis(r0.game_id, r0.ruleset, r0.scenario, r0.options, r0.seat_keys, g.server.verifier.vkey,
                               r0.genesis.body["server"]["origin"], derive_bytes(b"tests/fork", "other-secret"))
    a = g.seats["a"].entropy_commit(r0.game_id, g.entropy["a"], g.head())
    b = g.seats["b"].entropy_commit(r0.game_id, g.entropy["b"], Head(1, gen2.hash, gen2.hash))
    g.submit(a)
    with pytest.raises(Rejection) as e:
        Referee(r0.genesis, r0.ruleset, derive_bytes(b"tests/fork", "server-secret")).accept(b)
    assert e.value.code == "WRONG_HISTORY"
    (tmp_path / "a.env").write_bytes(a)
    (tmp_path / "b.env").write_text(b.hex())
    keys = [f"--seat-key={s}={k.public.hex()}" for s, k in g.seats.items()]
    code, out = _run(capsys, "evidence", str(tmp_path / "a.env"), str(tmp_path / "b.env"), *keys)
    assert code == 1 and "INCONSISTENT: two envelopes" in out and "state 1" in out, out
    assert out.count("signature valid") == 2
    # the envelope against the log the server exports: the log is not what b was shown
    (tmp_path / "g.aar").write_bytes(g.bundle())
    code, out = _run(capsys, "evidence", str(tmp_path / "b.env"), str(tmp_path / "g.aar"))
    assert code == 1 and "not the history that seat was shown" in out, out
    code, out = _run(capsys, "evidence", str(tmp_path / "a.env"), str(tmp_path / "g.aar"))
    assert code == 0 and "consistent" in out, out
    # a forged signature proves nothing
    forged = envelope_pb2.SignedCommand.FromString(b)
    forged.signature = bytes(64)
    (tmp_path / "f.env").write_bytes(forged.SerializeToString())
    code, out = _run(capsys, "evidence", str(tmp_path / "a.env"), str(tmp_path / "f.env"), *keys)
    assert code == 0 and "signature INVALID" in out, out
    assert _run(capsys, "evidence", str(tmp_path / "a.env"), str(tmp_path / "missing"))[0] == 2


def test_issue_16_two_bundles_of_one_game_that_differ_prove_a_rewrite(tmp_path, capsys, monkeypatch):
    """Version 1 (where a re-roll verifies): the honest and the re-rolled bundle each verify, and
    together prove that the server signed two different trees of one origin."""
    g = LocalGame.create("duel", seed=b"tests/evidence-v1", version=1)
    g.handshake()
    g.run_bots(random_bot(b"tests/evidence-v1"))
    records, secret = _reroll(g, monkeypatch)
    (tmp_path / "honest.aar").write_bytes(_bundle(g, g.records, g.records[-1].body["secret"]))
    (tmp_path / "forged.aar").write_bytes(_bundle(g, records, secret))
    code, out = _run(capsys, "evidence", str(tmp_path / "honest.aar"), str(tmp_path / "forged.aar"))
    assert code == 1 and "INCONSISTENT: record 0 differs" in out and out.count("verifies") == 2, out
    (tmp_path / "prefix.aar").write_bytes(_bundle(g, g.records[:6]))
    code, out = _run(capsys, "evidence", str(tmp_path / "prefix.aar"), str(tmp_path / "honest.aar"))
    assert code == 0 and "extends" in out, out
