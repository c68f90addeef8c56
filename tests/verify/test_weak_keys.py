"""As the verifier sees it (SPEC.md 7.4, 10 step 4): a hand-made log whose genesis
names the identity point as a seat key, every command of that seat "signed" with R = identity,
S = 0 (no private key), and one whose server key is the identity point (every checkpoint
"signed" the same way), both fail `aar verify` at step 4, exit 1, naming the seat or the server
key, in the one line and in --json. With the rule switched off (the library alone, as before
the fix) both logs verify: the tests below are what stops them."""
from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from unittest import mock

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from afteraction.cli.main import main
from afteraction.engine import protocol as protocol_mod  # the envelope signature check
from afteraction.engine import referee as referee_mod
from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.crypto import ed25519 as E
from afteraction.engine.crypto import note as note_mod
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import Rejection, VerificationError
from afteraction.engine.local import LocalGame, derive_bytes
from afteraction.engine.log import genesis as genesis_mod  # the verifier's step-4 checks
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.referee import Referee
from afteraction.engine.seat import SeatSigner

from .surgery import bodies, rechain

IDENTITY = E.encode(E.IDENTITY)
FORGED = IDENTITY + bytes(32)  # R = identity, S = 0: "verifies" under the identity key for any message


class _NoKey:
    def sign(self, msg: bytes) -> bytes:
        return FORGED


class Forger(SeatSigner):
    """A seat with the identity point as its key and no private key at all."""

    def __post_init__(self) -> None:
        self._key = _NoKey()
        self._public = IDENTITY


@dataclass(frozen=True)
class ForgedServer(Signer):
    """A server key that is the identity point; every checkpoint 'signed' with R = identity, S = 0."""

    @property
    def public(self) -> bytes:
        return IDENTITY

    def sign(self, msg: bytes) -> bytes:
        return FORGED


def _library_alone(public: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, msg)
        return True
    except (InvalidSignature, ValueError):
        return False


@contextlib.contextmanager
def rule_off():
    """The code as it was before the rule: any 32 bytes are a key, the library alone verifies."""
    with mock.patch.object(referee_mod, "seat_key_problem", lambda keys: None), \
            mock.patch.object(genesis_mod, "seat_key_problem", lambda keys: None), \
            mock.patch.object(protocol_mod, "verify_signature", _library_alone), \
            mock.patch.object(note_mod, "verify_signature", _library_alone), \
            mock.patch.object(note_mod, "key_problem", lambda k: None):
        yield


def _play(game: str, seed: bytes, forged_seat: str | None = None, server: Signer | None = None) -> bytes:
    rs = registry.get(game)
    server = server or Signer("afteraction.test", derive_bytes(seed, "server-key"))
    seats = {s: Forger(s, b"") if s == forged_seat else SeatSigner(s, derive_bytes(seed, f"seat-key/{s}"))
             for s in rs.seats}
    gid = derive_bytes(seed, "game-id")[:8].hex()
    secret = derive_bytes(seed, "server-secret")
    genesis = Referee.new_genesis(gid, rs, rs.scenarios[0], {}, {s: k.public for s, k in seats.items()},
                                  server.verifier.vkey, f"afteraction.test/game/{gid}", secret)
    g = LocalGame.start(Referee(genesis, rs, secret), server, seats, {s: derive_bytes(seed, f"entropy/{s}") for s in rs.seats})
    g.handshake()
    g.run_bots(random_bot(seed))
    assert g.referee.ended
    return g.bundle()


@pytest.fixture(scope="module")
def forged_seat_log() -> bytes:
    """A SOG game (as measured in the issue) in which seat nva holds no private key."""
    with rule_off():
        return _play("sog", b"tests/issue-24", forged_seat="nva")


@pytest.fixture(scope="module")
def forged_server_log() -> bytes:
    with rule_off():
        return _play("duel", b"tests/issue-24", server=ForgedServer("afteraction.test", bytes(32)))


def _verify(data: bytes) -> VerificationError | None:
    try:
        verify_bundle(io.BytesIO(data))
    except VerificationError as e:
        return e
    return None


def test_issue_24_the_forged_logs_verified_before_the_rule(forged_seat_log, forged_server_log):
    _, recs = bodies(forged_seat_log)
    nva = [b for _, _, k, b in recs if b.get("seat") == "nva" and "sig" in b]
    assert nva and all(b["sig"] == FORGED for b in nva)  # every public nva command: R = identity, S = 0
    with rule_off():
        assert _verify(forged_seat_log) is None
        assert _verify(forged_server_log) is None


def test_issue_24_identity_seat_key_fails_step_4(forged_seat_log):
    e = _verify(forged_seat_log)
    assert e is not None and e.step == "4 (genesis)" and e.seq == 0
    assert e.check == "seat nva key is weak" and e.found == IDENTITY
    assert "is the identity point" in e.detail


def test_issue_24_identity_seat_key_aar_verify_exit_1(forged_seat_log, tmp_path, capsys):
    p = tmp_path / "forged.aar"
    p.write_bytes(forged_seat_log)
    assert main(["verify", str(p)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("NOT VERIFIED: step 4 (genesis) failed at record 0: seat nva key is weak")
    assert main(["verify", "--json", str(p)]) == 1
    r = json.loads(capsys.readouterr().out)
    assert (r["verified"], r["step"], r["seq"], r["check"]) == (False, "4 (genesis)", 0, "seat nva key is weak")
    assert r["found"] == IDENTITY.hex() and "identity point" in r["detail"]


def test_issue_24_weak_server_key_fails_step_4(forged_server_log, tmp_path, capsys):
    e = _verify(forged_server_log)
    assert e is not None and e.step == "4 (genesis)"
    assert e.check == "server key is not a valid Ed25519 verifier key"
    assert "weak key: the public key is the identity point" in e.detail
    p = tmp_path / "forged-server.aar"
    p.write_bytes(forged_server_log)
    assert main(["verify", str(p)]) == 1
    assert "step 4 (genesis) failed" in capsys.readouterr().out
    assert main(["verify", "--json", str(p)]) == 1
    r = json.loads(capsys.readouterr().out)
    assert r["step"] == "4 (genesis)" and "weak key" in r["detail"]


def test_issue_24_weak_server_key_pinned_is_a_usage_error(forged_server_log, tmp_path, capsys):
    p = tmp_path / "forged-server.aar"
    p.write_bytes(forged_server_log)
    vkey = ForgedServer("afteraction.test", bytes(32)).verifier.vkey
    assert main(["verify", "--server-key", vkey, str(p)]) == 2
    assert "weak key" in capsys.readouterr().err


def test_issue_24_weak_pinned_seat_key_is_a_usage_error(forged_seat_log, tmp_path, capsys):
    p = tmp_path / "forged.aar"
    p.write_bytes(forged_seat_log)
    assert main(["verify", "--seat-key", f"nva={IDENTITY.hex()}", str(p)]) == 2
    assert "--seat-key nva: weak key: the public key is the identity point" in capsys.readouterr().err


def test_issue_24_shared_seat_key_fails_step_4(duel_bundle):
    """A dishonest server that writes one key for both seats (so either seat could sign for the
    other) and re-signs the whole log: step 4, naming the later seat."""
    header, recs = bodies(duel_bundle)
    game, seq, kind, body = recs[0]
    seats = body["seats"]
    body = dict(body, seats=[seats[0], dict(seats[1], key=seats[0]["key"])])
    server = Signer("afteraction.test", derive_bytes(b"tests/duel", "server-key"))
    data = rechain(header, [(game, seq, kind, body)] + recs[1:], server)
    e = _verify(data)
    assert e is not None and (e.step, e.seq, e.check) == ("4 (genesis)", 0, "seat b key is shared")
    assert "also seat a's" in e.detail


def test_issue_24_referee_refuses_a_stored_genesis_with_a_weak_key(forged_seat_log):
    """A game stored before the rule (the service reloads it into a referee): refused."""
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.protocol import parse_record

    header, frames = read_bundle(io.BytesIO(forged_seat_log))
    genesis = parse_record(next(iter(frames))[0])
    with pytest.raises(Rejection) as e:
        Referee(genesis, registry.get("sog"), header["secret"])
    assert e.value.code == "BAD_GENESIS" and "seat nva" in e.value.message


def test_issue_24_new_genesis_refuses_weak_and_shared_keys():
    rs = registry.get("duel")
    honest = SeatSigner("a", derive_bytes(b"t", "a")).public
    args = ("0123456789abcdef", rs, "standard", {})
    tail = (Signer("s", bytes(32)).verifier.vkey, "s/game/x", bytes(32))
    with pytest.raises(Rejection) as e:
        Referee.new_genesis(*args, {"a": honest, "b": IDENTITY}, *tail)
    assert e.value.code == "WEAK_SEAT_KEY" and e.value.message.startswith("seat b: ")
    with pytest.raises(Rejection) as e:
        Referee.new_genesis(*args, {"a": honest, "b": honest}, *tail)
    assert e.value.code == "SHARED_SEAT_KEY" and e.value.message.startswith("seat b: ")


def _identity_r_signature(seed: bytes, msg: bytes) -> bytes:
    """R = identity, S = k a (nonce r = 0) under the honest key of ``seed``: both equations
    hold and OpenSSL accepts it; clause 5 of SPEC.md 7.4 refuses it."""
    import hashlib

    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    pub = E.encode(E.mul(a, E.BASE))
    return IDENTITY + (E.sha512_scalar(IDENTITY, pub, msg) * a % E.L).to_bytes(32, "little")


def test_7_4_small_order_r_under_an_honest_key_is_refused_by_referee_and_verifier(duel_bundle):
    from afteraction.engine.referee import command_signing_bytes
    from afteraction.v1 import envelope_pb2

    seed = derive_bytes(b"tests/duel", "seat-key/a")
    header, recs = bodies(duel_bundle)
    game, seq, kind, body = recs[1]
    assert body["seat"] == "a" and kind == "commit"
    sig = _identity_r_signature(seed, command_signing_bytes(body["env"]))
    pub = SeatSigner("a", seed).public
    assert _library_alone(pub, command_signing_bytes(body["env"]), sig)  # what the rule adds a check for
    # the referee (CreateGame's game, SubmitCommand) refuses it
    g = LocalGame.create("duel", seed=b"tests/duel")
    signed = envelope_pb2.SignedCommand(envelope=body["env"], signature=sig).SerializeToString()
    with pytest.raises(Rejection) as e:
        g.referee.accept(signed)
    assert e.value.code == "BAD_SIGNATURE"
    # a log carrying it fails step 6 (and verified with the library alone). The log stops after
    # record 1 (a game in progress): in v2 every later envelope binds record 1's hash (`prev`),
    # which the new signature changed, so a longer log would fail at record 2 on that alone.
    server = Signer("afteraction.test", derive_bytes(b"tests/duel", "server-key"))
    head = {k: v for k, v in header.items() if k != "secret"} | {"records": 2}
    data = rechain(head, [recs[0], (game, seq, kind, dict(body, sig=sig))], server)
    with rule_off():
        assert _verify(data) is None
    err = _verify(data)
    assert err is not None and (err.step, err.seq, err.check) == ("6 (seats)", 1, "signature of seat a")
