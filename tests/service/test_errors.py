"""Every error path of SubmitCommand and the seat-authenticated reads: the gRPC
status code, the google.rpc.ErrorInfo reason, and that the log did not change."""
from __future__ import annotations

import grpc
import pytest

from afteraction.engine.local import derive_bytes
from afteraction.engine.seat import SeatSigner
from afteraction.service.auth import make_auth, now_ms
from afteraction.client.client import error_info
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import command_pb2
from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

from .conftest import handshake, new_duel

S = grpc.StatusCode


def duel(action: str, n: int) -> command_pb2.Command:
    c = command_pb2.Command()
    getattr(c.duel, action).number = n
    return c


def log_of(c, gid):
    r = c.audit.GetRecords(au.GetRecordsRequest(game_id=gid))
    cp = c.audit.GetCheckpoint(au.GetCheckpointRequest(game_id=gid)).checkpoint.note
    return [x.record for x in r.records], cp


def submit_raw(c, signed: bytes, auth=None):
    req = gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed))
    if auth is not None:
        req.auth.CopyFrom(auth)
    return c.game.SubmitCommand(req, timeout=10)


def unchecked(seat, make):
    """Sign as a client that skips the reference client's own checks (SPEC.md 11) would: what
    the server refuses, not what the reference client refuses to sign. ``make(signer, gid,
    head)``; the head is the end of the log the seat has read."""
    seat.catch_up()
    head = seat.head()
    return seat._sign(lambda: make(seat.signer, seat.game_id, head))


def expect(c, gid, code, reason, fn):
    before = log_of(c, gid)
    with pytest.raises(grpc.RpcError) as e:
        fn()
    assert e.value.code() == code, e.value.details()
    info = error_info(e.value)
    assert info is not None and info.reason == reason and info.domain == "afteraction"
    assert log_of(c, gid) == before, "the log changed"
    return e.value


@pytest.fixture
def game(server):
    c, gid, seats = new_duel(server.target)
    yield c, gid, seats
    c.close()


def test_bad_signature_is_unauthenticated(game):
    c, gid, seats = game
    forger = SeatSigner("a", derive_bytes(b"forger", "key"))
    expect(c, gid, S.UNAUTHENTICATED, "BAD_SIGNATURE", lambda: submit_raw(c, forger.entropy_commit(gid, bytes(32))))


def test_unknown_seat_is_permission_denied(game):
    c, gid, seats = game
    x = SeatSigner("x", derive_bytes(b"x", "key"))
    expect(c, gid, S.PERMISSION_DENIED, "UNKNOWN_SEAT", lambda: submit_raw(c, x.entropy_commit(gid, bytes(32))))


def test_command_out_of_turn_is_permission_denied(game):
    c, gid, seats = game
    handshake(seats)
    b = seats["b"]
    st = c.state(gid)
    expect(c, gid, S.PERMISSION_DENIED, "NOT_YOUR_DECISION",
           lambda: submit_raw(c, b.sign_command(st.state_seq, duel("guess", 3))))


def test_stale_state_is_failed_precondition(game):
    c, gid, seats = game
    handshake(seats)
    a = seats["a"]
    st = c.state(gid)
    expect(c, gid, S.FAILED_PRECONDITION, "STALE_STATE",
           lambda: submit_raw(c, unchecked(a, lambda s, g, h: s.command(g, st.state_seq - 1, duel("pick", 3), h))))


def test_an_envelope_bound_to_another_history_is_wrong_history(game):
    """Format version 2: the envelope's prev must be the hash of the log's last record (SPEC.md 7.3)."""
    c, gid, seats = game
    handshake(seats)
    a = seats["a"]
    st = c.state(gid)
    fork = lambda s, g, h: s.command(g, st.state_seq, duel("pick", 3), type(h)(h.seq, bytes(32), h.genesis))
    expect(c, gid, S.FAILED_PRECONDITION, "WRONG_HISTORY", lambda: submit_raw(c, unchecked(a, fork)))


def test_handshake_errors_are_failed_precondition(game):
    c, gid, seats = game
    a = seats["a"]
    expect(c, gid, S.FAILED_PRECONDITION, "HANDSHAKE_INCOMPLETE",
           lambda: submit_raw(c, a.sign_command(1, duel("pick", 3))))
    a.submit(a.sign_commit())
    expect(c, gid, S.FAILED_PRECONDITION, "HANDSHAKE_INCOMPLETE",
           lambda: submit_raw(c, unchecked(a, lambda s, g, h: s.entropy_reveal(g, a.entropy, h))))
    expect(c, gid, S.FAILED_PRECONDITION, "ALREADY_COMMITTED", lambda: submit_raw(c, a.sign_commit()))


def test_illegal_command_is_failed_precondition(game):
    c, gid, seats = game
    handshake(seats)
    a = seats["a"]
    st = c.state(gid)
    e = expect(c, gid, S.FAILED_PRECONDITION, "ILLEGAL_COMMAND",
               lambda: submit_raw(c, a.sign_command(st.state_seq, duel("pick", 7))))
    assert "DUEL" in e.details()


def test_game_over_is_failed_precondition(game):
    c, gid, seats = game
    handshake(seats)
    a, b = seats["a"], seats["b"]
    while True:
        st = c.state(gid)
        if st.ended:
            break
        s = a if st.decision.seat == "a" else b
        s.submit(s.sign_command(st.state_seq, duel(st.decision.kind, 2)))
    a.catch_up()
    expect(c, gid, S.FAILED_PRECONDITION, "GAME_OVER",
           lambda: submit_raw(c, a.sign_command(c.state(gid).state_seq, duel("pick", 1))))


def test_same_bytes_again_returns_the_original_result(game):
    c, gid, seats = game
    handshake(seats)
    a = seats["a"]
    signed = a.sign_command(c.state(gid).state_seq, duel("pick", 4))
    first = submit_raw(c, signed)
    assert not first.duplicate and first.openings  # the sealed command and the pick
    before = log_of(c, gid)
    again = submit_raw(c, signed)
    assert again.duplicate and list(again.records) == list(first.records)
    assert again.checkpoint == first.checkpoint
    # the bytes of a command may be public: without the seat's auth the openings are withheld
    assert again.openings_withheld and not again.openings
    with_auth = submit_raw(c, signed, make_auth(a.signer.seed, gid, "a"))
    assert list(with_auth.openings) == list(first.openings) and not with_auth.openings_withheld
    other_auth = submit_raw(c, signed, make_auth(seats["b"].signer.seed, gid, "b"))
    assert other_auth.openings_withheld
    assert log_of(c, gid) == before


def test_different_command_reusing_a_counter_is_already_exists(game):
    c, gid, seats = game
    handshake(seats)
    a = seats["a"]
    seq = c.state(gid).state_seq
    submit_raw(c, a.sign_command(seq, duel("pick", 4)))
    a.log_counter -= 1  # sign another command with the same counter
    expect(c, gid, S.ALREADY_EXISTS, "COUNTER_REUSED", lambda: submit_raw(c, a.sign_command(seq, duel("pick", 5))))


def test_counter_gap_is_failed_precondition(game):
    c, gid, seats = game
    a = seats["a"]
    a.log_counter = 5
    expect(c, gid, S.FAILED_PRECONDITION, "COUNTER_GAP", lambda: submit_raw(c, a.sign_commit()))


def test_malformed_is_invalid_argument(game):
    c, gid, seats = game
    sc = envelope_pb2.SignedCommand(envelope=b"\xff\xff\xff", signature=b"x")
    expect(c, gid, S.INVALID_ARGUMENT, "MALFORMED",
           lambda: c.game.SubmitCommand(gs.SubmitCommandRequest(command=sc), timeout=10))


def test_unknown_game_is_not_found(game):
    c, gid, seats = game
    s = SeatSigner("a", derive_bytes(b"t", "key/a"))
    with pytest.raises(grpc.RpcError) as e:
        submit_raw(c, s.entropy_commit("0000000000000000", bytes(32)))
    assert e.value.code() == S.NOT_FOUND and error_info(e.value).reason == "UNKNOWN_GAME"


@pytest.mark.parametrize("seats,reason", [
    ({"a": bytes(32)}, "BAD_SEATS"),
    ({"a": b"short", "b": bytes(32)}, "BAD_SEAT_KEY"),
])
def test_bad_create_is_invalid_argument(server, seats, reason):
    from afteraction.client.client import Client

    with Client(server.target) as c:
        with pytest.raises(Exception) as e:
            c.create_game("duel", seats)
        assert e.value.code == S.INVALID_ARGUMENT and e.value.reason == reason
        with pytest.raises(Exception) as e:
            c.create_game("nosuchgame", {"a": bytes(32)})
        assert e.value.code == S.INVALID_ARGUMENT and e.value.reason == "UNKNOWN_RULESET"


def test_seat_reads_need_a_valid_auth(game):
    c, gid, seats = game
    a = seats["a"]
    expect(c, gid, S.UNAUTHENTICATED, "AUTH_REQUIRED",
           lambda: c.game.ListLegalCommands(gs.ListLegalCommandsRequest(game_id=gid), timeout=10))
    forged = make_auth(derive_bytes(b"forger", "key"), gid, "a")
    expect(c, gid, S.UNAUTHENTICATED, "BAD_AUTH", lambda: c.game.GetState(
        gs.GetStateRequest(game_id=gid, auth=forged), timeout=10))
    old = make_auth(a.signer.seed, gid, "a", issued_at_ms=now_ms() - 3_600_000)
    expect(c, gid, S.UNAUTHENTICATED, "AUTH_EXPIRED",
           lambda: c.game.GetState(gs.GetStateRequest(game_id=gid, auth=old), timeout=10))
    other_game = make_auth(a.signer.seed, "ffffffffffffffff", "a")
    expect(c, gid, S.UNAUTHENTICATED, "BAD_AUTH",
           lambda: c.game.GetState(gs.GetStateRequest(game_id=gid, auth=other_game), timeout=10))
    assert c.game.GetState(gs.GetStateRequest(game_id=gid, auth=make_auth(a.signer.seed, gid, "a"))).seat == "a"


def test_play_stream_of_another_seat_refuses_commands(server, game):
    c, gid, seats = game
    handshake(seats)
    a, b = seats["a"], seats["b"]
    signed = a.sign_command(c.state(gid).state_seq, duel("pick", 1))
    reqs = [gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=b.auth(), from_seq=0)),
            gs.PlayRequest(command=envelope_pb2.SignedCommand.FromString(signed))]
    before = log_of(c, gid)
    call = c.game.Play(iter(reqs), timeout=5)
    rejected = None
    try:
        for m in call:
            if m.WhichOneof("kind") == "rejected":
                rejected = m.rejected
                break
    finally:
        call.cancel()
    assert rejected.reason == "WRONG_SEAT" and rejected.code == S.PERMISSION_DENIED.value[0]
    assert log_of(c, gid) == before


def test_lost_race_is_retried_and_never_forks(server, game):
    """Another process appends between this one's catch-up and its append: the
    append conflicts, the cache is rebuilt from the store and the command retried.
    Format version 2: a's commit is bound to the log before b's record, so on the rebuilt
    state it is stale (STALE_STATE, which the client re-signs); it is never written after
    b's record as if a had seen it."""
    from afteraction.service.games import GameManager

    c, gid, seats = game
    a, b = seats["a"], seats["b"]
    mgr = server.games
    other = GameManager(mgr.store, mgr.signer)  # a second replica on the same store
    real_append = mgr.store.append
    b_commit = b.sign_commit()
    fired = []

    def racing_append(ap):
        if not fired:
            fired.append(1)
            other.submit(b_commit)  # the other replica wins the race for this seq
        return real_append(ap)

    mgr.store.append = racing_append
    a_commit = a.sign_commit()
    try:
        with pytest.raises(grpc.RpcError) as e:
            submit_raw(c, a_commit)
        assert e.value.code() == S.FAILED_PRECONDITION and error_info(e.value).reason == "STALE_STATE"
    finally:
        mgr.store.append = real_append
    assert fired
    recs, _ = log_of(c, gid)
    assert len(recs) == 2  # b's commit, through the other replica
    res = a.submit(a.sign_commit())  # re-signed at the end of the log a now verified
    assert [r.seq for r in res.records] == [2]
    b.catch_up()  # b's commit went through the other replica
    for s in (a, b):
        s.submit(s.sign_reveal())
    assert c.state(gid).state_seq == 5


def test_persistent_conflict_is_aborted(server, game):
    from afteraction.service.store import Conflict

    c, gid, seats = game
    mgr = server.games
    real_append = mgr.store.append

    def always_lose(ap):
        raise Conflict("simulated: another writer always wins")

    mgr.store.append = always_lose
    try:
        expect(c, gid, S.ABORTED, "LOST_RACE", lambda: submit_raw(c, seats["a"].sign_commit()))
    finally:
        mgr.store.append = real_append
    seats["a"].submit(seats["a"].sign_commit())  # the cache was rebuilt and is consistent


def test_a_replica_with_another_key_refuses_to_append(server, game):
    from afteraction.engine.crypto.note import Signer
    from afteraction.engine.errors import Rejection
    from afteraction.service.games import GameManager

    c, gid, seats = game
    other = GameManager(server.games.store, Signer("afteraction.local", bytes(32)))
    before = log_of(c, gid)
    with pytest.raises(Rejection) as e:
        other.submit(seats["a"].sign_commit())
    assert e.value.code == "WRONG_SERVER_KEY"
    assert log_of(c, gid) == before


def test_evicted_games_are_rebuilt_from_the_store(server, game, monkeypatch):
    import afteraction.service.games as G

    c, gid, seats = game
    handshake(seats)
    monkeypatch.setattr(G, "MAX_LIVE", 1)
    c2, gid2, seats2 = new_duel(server.target, b"other")  # loading it evicts the first game
    handshake(seats2)
    assert gid not in server.games._live
    a = seats["a"]
    res = a.submit(a.sign_command(c.state(gid).state_seq, duel("pick", 2)))
    assert [r.seq for r in res.records] == [5]


def test_streams_refuse_bad_auth_and_unknown_games(game):
    c, gid, seats = game
    forged = make_auth(derive_bytes(b"forger", "key"), gid, "a")
    with pytest.raises(grpc.RpcError) as e:
        list(c.game.Play(iter([gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=forged))]), timeout=5))
    assert e.value.code() == S.UNAUTHENTICATED and error_info(e.value).reason == "BAD_AUTH"
    with pytest.raises(grpc.RpcError) as e:
        list(c.game.Play(iter([gs.PlayRequest(command=envelope_pb2.SignedCommand())]), timeout=5))
    assert e.value.code() == S.INVALID_ARGUMENT and error_info(e.value).reason == "BAD_ARGUMENT"
    with pytest.raises(grpc.RpcError) as e:
        list(c.game.Watch(gs.WatchRequest(game_id="nope"), timeout=5))
    assert e.value.code() == S.NOT_FOUND and error_info(e.value).reason == "UNKNOWN_GAME"


@pytest.mark.parametrize("scenario,options,reason", [
    ("nosuch", "", "UNKNOWN_SCENARIO"),
    ("", '{"nosuch": 1}', "UNKNOWN_OPTION"),
    ("", '{"rounds": "three"}', "BAD_OPTION"),
    ("", "{not json", "BAD_ARGUMENT"),
    ("", "[1]", "BAD_ARGUMENT"),
])
def test_bad_create_options_are_invalid_argument(server, scenario, options, reason):
    from afteraction.engine.seat import SeatSigner as S_

    c, gid, seats = new_duel(server.target)
    req = gs.CreateGameRequest(game="duel", scenario=scenario, options_json=options, seats=[
        gs.SeatKey(seat=s, public_key=S_(s, derive_bytes(b"o", s)).public) for s in ("a", "b")])
    before = log_of(c, gid)
    with pytest.raises(grpc.RpcError) as e:
        c.game.CreateGame(req, timeout=10)
    assert e.value.code() == S.INVALID_ARGUMENT and error_info(e.value).reason == reason
    assert log_of(c, gid) == before
    c.close()


def test_audit_errors_carry_their_reasons(game):
    c, gid, seats = game
    expect(c, gid, S.FAILED_PRECONDITION, "NOT_ENDED",
           lambda: c.audit.GetReveal(au.GetRevealRequest(game_id=gid), timeout=10))
    expect(c, gid, S.OUT_OF_RANGE, "OUT_OF_RANGE",
           lambda: c.audit.GetInclusionProof(au.GetInclusionProofRequest(game_id=gid, seq=5), timeout=10))
    expect(c, gid, S.OUT_OF_RANGE, "OUT_OF_RANGE",
           lambda: c.audit.GetConsistencyProof(au.GetConsistencyProofRequest(game_id=gid, from_size=9), timeout=10))


def test_a_stopping_server_refuses_commands_as_unavailable(server, game):
    c, gid, seats = game
    server.run.service.stopping.set()
    try:
        expect(c, gid, S.UNAVAILABLE, "SHUTTING_DOWN", lambda: submit_raw(c, seats["a"].sign_commit()))
    finally:
        server.run.service.stopping.clear()


def test_a_failing_store_is_unavailable_and_stores_nothing(server, game):
    from afteraction.service.store import StoreError

    c, gid, seats = game
    store = server.games.store
    real_append = store.append

    def broken(ap):
        raise StoreError("simulated: disk gone")

    store.append = broken
    try:
        expect(c, gid, S.UNAVAILABLE, "STORE_UNAVAILABLE", lambda: submit_raw(c, seats["a"].sign_commit()))
    finally:
        store.append = real_append
    seats["a"].submit(seats["a"].sign_commit())  # the cache was dropped with the failed append; it works again


def test_a_tampered_store_is_internal(server, game):
    """A stored record that differs from what the stored commands replay to: the
    service refuses to serve the game (INTERNAL) rather than sign on top of it."""
    import sqlite3

    c, gid, seats = game
    handshake(seats)
    signed = seats["a"].sign_command(c.state(gid).state_seq, duel("pick", 1))  # signed before the store is tampered
    server.games._live.clear()  # the next read rebuilds the game from the store
    db = sqlite3.connect(server.store_spec[len("sqlite:"):])
    raw = db.execute("SELECT record FROM records WHERE game_id=? AND seq=2", (gid,)).fetchone()[0]
    db.execute("UPDATE records SET record=? WHERE game_id=? AND seq=2", (bytes(raw[:-1]) + b"\x00", gid))
    db.commit()
    db.close()
    with pytest.raises(grpc.RpcError) as e:
        c.game.GetState(gs.GetStateRequest(game_id=gid), timeout=10)
    assert e.value.code() == S.INTERNAL and error_info(e.value).reason == "INTERNAL"
    with pytest.raises(grpc.RpcError) as e:
        submit_raw(c, signed)
    assert e.value.code() == S.INTERNAL and error_info(e.value).reason == "INTERNAL"
