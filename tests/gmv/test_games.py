"""Whole GMV games with bots: they end, replay-verify, leak nothing hidden to the
American seat, and a log with an altered sealed hidden move fails verification."""
from __future__ import annotations

import io
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from afteraction.engine.bots import random_bot
from afteraction.engine.codes import Code
from afteraction.engine.crypto import commit as _commit
from afteraction.engine.crypto.merkle import CompactTree
from afteraction.engine.errors import Rejection, VerificationError
from afteraction.engine.games.gmv import board
from afteraction.engine.games.gmv.bots import gmv_bot
from afteraction.engine.games.gmv.zones import ZONES
from afteraction.engine.local import LocalGame, checkpoint_note
from afteraction.engine.log.bundle import read_bundle, write_bundle
from afteraction.engine.protocol import make_record, parse_record
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import command_signing_bytes
from afteraction.v1 import envelope_pb2

from .leakcheck import check_record, check_sealed_alternatives, check_us_commands, check_views, leaked_pairs, us_probes
from .util import cmd

SEEDS = [b"gmv-1", b"gmv-2", b"gmv-3"]
TURNS = 3


def test_gmv_leak_checker_would_catch_a_leak():
    hidden = {"u7": "kontum"}
    assert leaked_pairs({"t": "move", "ids": ["u7"], "path": ["kontum"]}, hidden)
    assert leaked_pairs([{"t": "x", "units": [{"id": "u7", "zone": "kontum"}]}], hidden)
    assert not leaked_pairs({"t": "infiltrated", "ids": ["u7"], "from": "pleiku"}, hidden)


def _probe_rejections(g: LocalGame, hidden: dict[str, str]) -> int:
    """US commands naming hidden units are refused exactly as for a unit that does
    not exist: the message carries neither the zone nor the fact that it exists."""
    rs = g.referee.ruleset
    s = g.referee.state
    n = 0
    for uid, zone in sorted(hidden.items())[:2]:
        for make in (lambda u: cmd("patrol", unit_ids=[u]), lambda u: cmd("move", unit_ids=[u], path=[zone]),
                     lambda u: cmd("support", unit_ids=[u]), lambda u: cmd("casualties", unit_ids=[u]),
                     lambda u: cmd("build", unit_id=u, improvement=1)):
            msgs = []
            for u in (uid, "u99999"):
                try:
                    rs.apply(rs.copy_state(s), "us", make(u), _Ctx())
                    msgs.append(None)
                except Rejection as e:
                    msgs.append(e.message.replace(u, "<id>"))
            assert msgs[0] == msgs[1], msgs
            assert msgs[0] is None or ZONES[zone]["name"] not in msgs[0] and f"'{zone}'" not in msgs[0]
            n += 1
    return n


class _Ctx:
    """A context that must never be reached by a refused command."""
    def roll(self, *a, **k):
        raise Rejection(Code.ILLEGAL_COMMAND, "rolled")

    def emit(self, *a, **k):
        return (0, 1)

    def reveal(self, *a, **k):
        raise Rejection(Code.ILLEGAL_COMMAND, "revealed")


def play_checked(seed: bytes, turns: int = TURNS, probe_every: int = 5) -> tuple[LocalGame, dict]:
    """A whole bot game, checking the hidden-board guarantees after every command
    (tests/gmv/leakcheck.py). Returns the game and how many checks of each kind ran."""
    g = LocalGame.create("gmv", seed=seed, options={"turns": turns})
    g.handshake()
    rs = g.referee.ruleset
    bot = gmv_bot(seed)
    nva_openings = []
    n = {"views": 0, "us_commands": 0, "probes": 0, "sealed_alternatives": 0, "records": 0, "openings": 0}
    steps = 0
    while not g.referee.ended:
        d = g.referee.pending()
        s0 = g.referee.state
        legal = rs.legal_commands(s0, d.seat)
        assert legal, d
        choice = bot(d.seat, legal)
        if d.seat == "nva":
            n["sealed_alternatives"] += check_sealed_alternatives(s0, choice)
        elif board.units(s0, hidden=True) and steps % probe_every == 0:
            sample = legal[::max(1, len(legal) // 12)] + us_probes(s0)
            n["us_commands"] += check_us_commands(s0, sample)
            n["probes"] += _probe_rejections(g, {u["id"]: u["zone"] for u in board.units(s0, hidden=True)})
        before = len(g.records)
        acc = g.play(d.seat, choice)
        nva_openings += acc.openings.get("nva", [])
        s = g.referee.state
        hidden = {u["id"]: u["zone"] for u in board.units(s, hidden=True)}
        for seat in ("us", None):  # the American seat and spectators
            view = rs.view(s, seat)
            assert "nva" not in view["money"] and "nva" not in view["pool"] and "hidden" not in view
            assert view["hidden_count"] == len(hidden)
        if hidden:
            check_views(s)
            n["views"] += 1
        for r in g.records[before:]:
            c = None
            if r.kind == "command" and "env" in r.body:
                env = envelope_pb2.CommandEnvelope.FromString(r.body["env"])
                c = env.command if env.WhichOneof("action") == "command" else None
            n["openings"] += check_record(r.body, c, hidden)
            n["records"] += 1
        steps += 1
    # salts of commitments never opened appear nowhere in the public log
    raw = b"".join(r.raw for r in g.records[:-1])  # the end record reveals the secret, not salts
    opened = {bytes(e["salt"]) for r in g.records for e in r.body.get("events", []) if e.get("t") == "open"}
    for op in nva_openings:
        if op.salt not in opened:
            assert op.salt not in raw
    return g, n


@pytest.mark.parametrize("seed", SEEDS)
def test_gmv_bot_games_end_replay_verify_and_leak_nothing(seed):
    g, n = play_checked(seed)
    out = g.records[-1].body["outcome"]
    assert g.referee.ended and out["winner"] in ("us", "nva", None) and out["reason"]
    rep = verify_bundle(io.BytesIO(g.bundle()))
    assert rep.verified and rep.replayed and rep.sealed > 0 and rep.opened > 0
    # the verifier opened every sealed value (hidden-board commitments and sealed commands)
    n_sealed = sum(("sealed" in r.body) + sum(e.get("t") == "sealed" for e in r.body.get("events", []))
                   for r in g.records)
    assert rep.sealed == n_sealed
    # every hidden unit left at the end was revealed in the end-of-game reveal
    assert not board.units(g.referee.state, hidden=True)
    sealed_cmds = [r for r in g.records if "sealed" in r.body]
    assert sealed_cmds and all(r.body["seat"] == "nva" for r in sealed_cmds)
    # the replay re-executed hidden moves and infiltrations (opened from their seals)
    key = _commit.seal_key(g.records[-1].body["secret"], g.records[0].game)
    kinds = sorted({envelope_pb2.CommandEnvelope.FromString(
        _commit.unseal(key, r.game, r.seq, 0, r.body["sealed"]["commit"], r.body["sealed"]["ct"],
                       _command_size(g)).value["env"]
    ).command.gmv.WhichOneof("action") for r in sealed_cmds})
    assert {"hidden_move", "infiltrate", "buy"} <= set(kinds), kinds
    # the hidden units left at the end were revealed by publicly opening their commitments
    evs = [e for r in g.records for e in r.body.get("events", [])]
    ends = [e for e in evs if e.get("t") == "revealed" and e["why"] == "end of the game"]
    assert ends and rep.opened == sum(e.get("t") == "open" for e in evs) >= len(ends)
    assert n["openings"] > 0 and n["probes"] > 0 and n["views"] > 0 and n["us_commands"] > 0 and n["sealed_alternatives"] > 0, n


def test_gmv_random_bot_finishes_games():
    g = LocalGame.create("gmv", seed=b"gmv-random", options={"turns": 2})
    g.handshake()
    g.run_bots(random_bot(b"gmv-random"))
    assert g.referee.ended
    assert verify_bundle(io.BytesIO(g.bundle())).replayed


@pytest.fixture(scope="module")
def game():
    g = LocalGame.create("gmv", seed=b"gmv-tamper", options={"turns": 2})
    g.handshake()
    g.run_bots(gmv_bot(b"gmv-tamper"))
    return g


def _command_size(g) -> int:
    """The padded size of the NVA's sealed commands in this (v2) game (SPEC.md 6.5)."""
    return g.records[0].body["sealed_sizes"]["command"]["nva"]


def _hidden_move_record(g):
    for r in g.records:
        if "sealed" in r.body:
            op = _commit.unseal(_commit.seal_key(g.records[-1].body["secret"], r.game), r.game, r.seq, 0,
                                r.body["sealed"]["commit"], r.body["sealed"]["ct"], _command_size(g))
            env = envelope_pb2.CommandEnvelope.FromString(op.value["env"])
            if env.command.gmv.WhichOneof("action") == "hidden_move" and env.command.gmv.hidden_move.to_zone:
                return r, env                     # a unit moved (not the turn's "no move")
    raise AssertionError("no hidden move in the game")


def _rebuild(g, seq: int, body: dict) -> bytes:
    """The bundle with record ``seq``'s body replaced and everything after re-chained and
    re-signed by the server: only the seats' signatures and the seals can catch it."""
    header, frames = read_bundle(io.BytesIO(g.bundle()))
    recs = [parse_record(raw) for raw, _ in frames]
    tree = CompactTree()
    out, prev = [], None
    origin = g.referee.genesis.body["server"]["origin"]
    for r in recs:
        b = body if r.seq == seq else r.body
        nr = r if r.seq < seq else make_record(r.game, r.seq, prev, r.kind, b, r.v)
        tree.append(nr.leaf)
        out.append((nr.raw, checkpoint_note(g.server, origin, tree.size, tree.root())))
        prev = nr.hash
    f = io.BytesIO()
    write_bundle(f, g.referee.game_id, g.server.verifier.vkey, out, len(out), header.get("secret"))
    return f.getvalue()


def test_gmv_tamper_flipped_sealed_hidden_move_fails_at_that_record(game):
    r, _ = _hidden_move_record(game)
    raw = bytearray(game.bundle())
    ct = r.body["sealed"]["ct"]
    i = bytes(raw).index(ct)
    raw[i + 5] ^= 1
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(bytes(raw)))
    assert e.value.seq == r.seq and e.value.step.startswith("5")


def test_gmv_tamper_resealed_ciphertext_fails_sealed_step_at_that_record(game):
    r, _ = _hidden_move_record(game)
    body = dict(r.body)
    body["sealed"] = {"commit": r.body["sealed"]["commit"], "ct": bytes(len(r.body["sealed"]["ct"]))}
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_rebuild(game, r.seq, body)))
    assert e.value.seq == r.seq and e.value.step.startswith("9")


def test_gmv_tamper_other_hidden_move_validly_sealed_fails_replay_at_that_record(game):
    """Even the server (secret) with the NVA's key cannot swap a hidden move: the
    re-executed move produces other commitments than the log holds."""
    r, env = _hidden_move_record(game)
    s_ids = list(env.command.gmv.hidden_move.unit_ids)
    new = envelope_pb2.CommandEnvelope()
    new.CopyFrom(env)
    zones = [z for z in ZONES[new.command.gmv.hidden_move.to_zone]["adj"] if z != "carrier"]
    new.command.gmv.hidden_move.to_zone = zones[0]
    assert s_ids
    raw_env = new.SerializeToString(deterministic=True)
    sig = Ed25519PrivateKey.from_private_bytes(game.seats["nva"].seed).sign(command_signing_bytes(raw_env))
    secret = game.records[-1].body["secret"]
    _, c, ct = _commit.seal(secret, r.game, r.seq, 0, {"env": raw_env, "sig": sig}, _command_size(game))
    body = dict(r.body)
    body["sealed"] = {"commit": c, "ct": ct}
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(_rebuild(game, r.seq, body)))
    assert e.value.seq == r.seq and e.value.step.startswith("11")


def test_gmv_every_listed_legal_command_is_accepted():
    """legal_commands lists only commands apply accepts (one short game, every step)."""
    from afteraction.engine.ruleset import Context

    g = LocalGame.create("gmv", seed=b"gmv-legal", options={"turns": 1})
    g.handshake()
    rs = g.referee.ruleset
    bot = gmv_bot(b"gmv-legal")
    tried = 0
    while not g.referee.ended:
        d = g.referee.pending()
        legal = rs.legal_commands(g.referee.state, d.seat)
        for c in legal:
            rs.apply(rs.copy_state(g.referee.state), d.seat, c, Context.for_tests())
            tried += 1
        g.play(d.seat, bot(d.seat, legal))
    assert tried > 500
