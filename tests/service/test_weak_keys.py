"""Over the real gRPC service: CreateGame refuses a seat key anyone could sign for
(the identity point, other small-order points, non-canonical encodings, mixed order) and one
key for two seats, precisely (INVALID_ARGUMENT, ErrorInfo reason, the seat named) and stores
nothing (SPEC.md 7.4). And every reason the service can answer is in docs/service.md."""
from __future__ import annotations

import json
import re
import sqlite3

import grpc
import pytest

from afteraction.engine.crypto import ed25519 as E
from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner
from afteraction.service import status
from afteraction.client.client import error_info
from afteraction.v1 import game_service_pb2 as gs

from conftest import REPO

HONEST = SeatSigner("sog", derive_bytes(b"tests/weak-keys", "sog")).public
# each weak key of fixtures/vectors/ed25519.json that is 32 bytes (the 31-byte one is BAD_SEAT_KEY)
WEAK = [(c["description"], bytes.fromhex(c["public"]), c["reason"])
        for c in json.loads((REPO / "fixtures" / "vectors" / "ed25519.json").read_text())["keys"]
        if not c["accepted"] and len(c["public"]) == 64]


def _games_stored(server) -> int:
    with sqlite3.connect(server.store_spec.removeprefix("sqlite:")) as db:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]


def _create(server, seats: dict[str, bytes], game: str = "sog"):
    ch = grpc.insecure_channel(server.target)
    try:
        from afteraction.v1 import game_service_pb2_grpc

        stub = game_service_pb2_grpc.GameServiceStub(ch)
        return stub.CreateGame(gs.CreateGameRequest(
            game=game, seats=[gs.SeatKey(seat=s, public_key=k) for s, k in seats.items()]), timeout=10)
    finally:
        ch.close()


def _refused(server, seats, reason: str) -> grpc.RpcError:
    before = _games_stored(server)
    with pytest.raises(grpc.RpcError) as e:
        _create(server, seats)
    err = e.value
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, err.details()
    info = error_info(err)
    assert info is not None and info.reason == reason and info.domain == "afteraction"
    assert _games_stored(server) == before, "a refused CreateGame stored a game"
    return err


def test_weak_keys_cover_the_kinds_of_the_issue():
    reasons = {r for _, _, r in WEAK}
    assert "is the identity point (small order 1)" in reasons
    assert {"has small order 2", "has small order 4", "has small order 8"} <= reasons
    assert {"is not canonical (y >= p)", "is not canonical (x = 0 with the sign bit set)"} <= reasons
    assert any(r.startswith("has mixed order") for r in reasons)


@pytest.mark.parametrize("what,key,reason", WEAK, ids=[w[0][:40] for w in WEAK])
def test_issue_24_create_game_refuses_a_weak_seat_key(server, what, key, reason):
    err = _refused(server, {"sog": HONEST, "nva": key}, "WEAK_SEAT_KEY")
    assert err.details().startswith("seat nva: ") and reason in err.details()


def test_issue_24_create_game_refuses_one_key_for_both_seats(server):
    err = _refused(server, {"sog": HONEST, "nva": HONEST}, "SHARED_SEAT_KEY")
    assert "seat nva" in err.details() and "seat sog" in err.details()


def test_issue_24_an_honest_pair_is_still_accepted(server):
    other = SeatSigner("nva", derive_bytes(b"tests/weak-keys", "nva")).public
    before = _games_stored(server)
    res = _create(server, {"sog": HONEST, "nva": other})
    assert res.game_id and _games_stored(server) == before + 1


def test_identity_key_forgery_is_what_the_check_stops():
    """The measurement of the issue: under the identity key, R = identity, S = 0 verifies for
    any message with the library alone; by the rule it does not (and the key is refused)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    identity = E.encode(E.IDENTITY)
    forged = identity + bytes(32)
    for msg in (b"", b"any command", bytes(100)):
        Ed25519PublicKey.from_public_bytes(identity).verify(forged, msg)  # raises if refused
        assert not E.verify_signature(identity, msg, forged)


def test_docs_list_every_reason_the_service_maps():
    doc = (REPO / "docs" / "service-codes.md").read_text()
    table = doc.split("<!-- codes:begin -->")[1]
    missing = [c for c in status._BY_CODE if f"`{c}`" not in table]
    assert not missing, f"reasons in service/status.py but not in docs/service-codes.md: {missing}"
    for code in ("WEAK_SEAT_KEY", "SHARED_SEAT_KEY"):
        assert status.status_for(code) == grpc.StatusCode.INVALID_ARGUMENT
        row = next(line for line in table.splitlines() if f"`{code}`" in line)
        assert re.match(rf"\| `{code}` \| `INVALID_ARGUMENT` \|", row)


def test_seat_auth_uses_the_rule():
    """A SeatAuth under a weak key (a game stored before the rule) with the forgery that needs
    no private key is BAD_AUTH: service/auth.py verifies by SPEC.md 7.4."""
    from afteraction.engine.errors import Rejection
    from afteraction.service.auth import AuthChecker, now_ms

    identity = E.encode(E.IDENTITY)
    auth = gs.SeatAuth(seat="nva", issued_at_ms=now_ms(), nonce=bytes(16), signature=identity + bytes(32))
    with pytest.raises(Rejection) as e:
        AuthChecker().check(auth, "0123456789abcdef", {"nva": identity})
    assert e.value.code == "BAD_AUTH"
