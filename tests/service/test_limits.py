"""The service as strangers on the internet meet it: every request
parsed within service/limits.py, every refusal a precise status carrying a
google.rpc ErrorInfo, nothing stored past a limit, no input echoed unbounded, no
driver message, an incident id for the unexpected; nothing kept per probe.
Requests here are raw bytes on the wire, as another language's stack sends them."""
from __future__ import annotations

import logging

import grpc
import pytest

from afteraction.engine.referee import command_signing_bytes
from afteraction.service import limits
from afteraction.client.client import error_info
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

from .conftest import handshake, new_duel
from .test_errors import log_of

S = grpc.StatusCode
UNARY = {
    "afteraction.v1.GameService": ["CreateGame", "SubmitCommand", "GetState", "ListLegalCommands",
                                   "GetServerKey", "ListRulesets"],
    "afteraction.v1.AuditService": ["GetRecords", "GetCheckpoint", "GetInclusionProof", "GetConsistencyProof",
                                    "GetReveal"],
}
SERVER_STREAMS = ["/afteraction.v1.GameService/Watch", "/afteraction.v1.AuditService/ExportBundle"]


def raw_unary(ch, path):
    return ch.unary_unary(path, request_serializer=None, response_deserializer=None)


def raw_stream(ch, path):
    return ch.unary_stream(path, request_serializer=None, response_deserializer=None)


def refused(fn, code, reason):
    """Call ``fn``; it must fail with ``code`` and an ErrorInfo of ``reason`` in our domain. The error."""
    with pytest.raises(grpc.RpcError) as e:
        fn()
    err = e.value
    assert err.code() == code, (err.code(), err.details())
    info = error_info(err)
    assert info is not None, f"no ErrorInfo: {err.code()} {err.details()}"
    assert info.reason == reason and info.domain == "afteraction", (info.reason, err.details())
    return err, info


@pytest.fixture
def game(server):
    c, gid, seats = new_duel(server.target)
    yield c, gid, seats
    c.close()


def string_field(n: int, value: bytes) -> bytes:
    """Field ``n`` as a length-delimited value, written by hand (no protobuf check on the bytes)."""
    def varint(x):
        out = b""
        while True:
            b = x & 0x7F
            x >>= 7
            out += bytes([b | (0x80 if x else 0)])
            if not x:
                return out
    return varint(n << 3 | 2) + varint(len(value)) + value


# -- 2. every error is precise ---------------------------------------------------
@pytest.mark.parametrize("raw", [b"\xff\xff\xff", string_field(1, b"\xff\xfe not utf-8")],
                         ids=["garbage", "invalid-utf8"])
def test_bytes_that_do_not_parse_are_malformed_with_details_on_every_rpc(game, raw):
    c, gid, seats = game
    before = log_of(c, gid)
    for svc, methods in UNARY.items():
        for m in methods:
            if m in ("GetServerKey", "ListRulesets") and raw != b"\xff\xff\xff":
                continue  # an empty message has no field 1: any string there is an unknown field, not a string
            refused(lambda: raw_unary(c.channel, f"/{svc}/{m}")(raw, timeout=10), S.INVALID_ARGUMENT, "MALFORMED")
    for path in SERVER_STREAMS:
        refused(lambda: list(raw_stream(c.channel, path)(raw, timeout=10)), S.INVALID_ARGUMENT, "MALFORMED")
    play = c.channel.stream_stream("/afteraction.v1.GameService/Play", request_serializer=None,
                                   response_deserializer=None)
    refused(lambda: list(play(iter([raw]), timeout=10)), S.INVALID_ARGUMENT, "MALFORMED")
    assert log_of(c, gid) == before
    assert c.state(gid).state_seq == 1  # the server is fine


def test_an_unknown_method_is_unimplemented_with_details(game):
    c, gid, seats = game
    refused(lambda: raw_unary(c.channel, "/afteraction.v1.GameService/NoSuch")(b"", timeout=10),
            S.UNIMPLEMENTED, "UNKNOWN_RPC")
    err, info = refused(lambda: raw_unary(c.channel, "/nosuch.Service/X")(b"", timeout=10),
                        S.UNIMPLEMENTED, "UNKNOWN_RPC")
    assert info.metadata["rpc"] == "/nosuch.Service/X"


@pytest.mark.parametrize("size", [100 * 1024, 5 * 1024 * 1024])
def test_a_request_past_the_size_limit_is_resource_exhausted_with_details(game, size):
    c, gid, seats = game
    req = gs.GetStateRequest(game_id="x" * size).SerializeToString()
    err, info = refused(lambda: raw_unary(c.channel, "/afteraction.v1.GameService/GetState")(req, timeout=30),
                        S.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE")
    assert info.metadata["limit"] == str(limits.MAX_REQUEST_BYTES) and info.metadata["rpc"] == "GetState"
    assert c.state(gid).state_seq == 1  # the connection still works


def test_past_the_transport_cap_grpc_itself_refuses_without_details(game):
    """The one documented exception (docs/service-limits.md: TRANSPORT_MAX_RECEIVE_BYTES)."""
    c, gid, seats = game
    req = b"\x0a" + b"\x80\x80\x80\x05" + b"x" * (limits.TRANSPORT_MAX_RECEIVE_BYTES + 1024)
    with pytest.raises(grpc.RpcError) as e:
        raw_unary(c.channel, "/afteraction.v1.GameService/GetState")(req, timeout=30)
    assert e.value.code() == S.RESOURCE_EXHAUSTED
    assert c.state(gid).state_seq == 1


def test_a_long_game_id_is_refused_and_quoted_only_in_part(game):
    c, gid, seats = game
    long_id = "g" * 60_000  # under the request limit, past the game id limit
    for call in (lambda: c.game.GetState(gs.GetStateRequest(game_id=long_id), timeout=10),
                 lambda: c.audit.GetRecords(au.GetRecordsRequest(game_id=long_id), timeout=10),
                 lambda: list(c.game.Watch(gs.WatchRequest(game_id=long_id), timeout=10))):
        err, info = refused(call, S.INVALID_ARGUMENT, "FIELD_TOO_LONG")
        assert info.metadata["field"] == "game_id" and info.metadata["limit"] == str(limits.MAX_GAME_ID_CHARS)
        trailers = sum(len(k) + len(v) for k, v in err.trailing_metadata())
        assert trailers < 2048 and "ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg" not in err.details()
    # an unknown id within the limit is quoted, cut to QUOTE_CHARS
    err, info = refused(lambda: c.game.GetState(gs.GetStateRequest(game_id="h" * 64), timeout=10),
                        S.NOT_FOUND, "UNKNOWN_GAME")
    assert "h" * limits.QUOTE_CHARS in err.details() and "h" * (limits.QUOTE_CHARS + 1) not in err.details()


def sign_raw(signer, env_bytes: bytes) -> bytes:
    return envelope_pb2.SignedCommand(envelope=env_bytes,
                                      signature=signer._key.sign(command_signing_bytes(env_bytes))).SerializeToString()


def test_a_signed_envelope_with_a_big_unknown_field_is_refused_and_not_stored(game):
    c, gid, seats = game
    a = seats["a"]
    env = envelope_pb2.CommandEnvelope.FromString(
        envelope_pb2.SignedCommand.FromString(a.sign_commit()).envelope).SerializeToString()
    big = env + string_field(99, b"\x00" * (limits.MAX_ENVELOPE_BYTES + 1))  # a validly signed unknown field
    before = log_of(c, gid)
    err, info = refused(lambda: c.game.SubmitCommand(gs.SubmitCommandRequest(
        command=envelope_pb2.SignedCommand.FromString(sign_raw(a.signer, big))), timeout=10),
        S.INVALID_ARGUMENT, "FIELD_TOO_LONG")
    assert info.metadata["field"] == "command.envelope"
    assert log_of(c, gid) == before
    a.submit(a.sign_commit())  # a normal envelope still goes in


def test_a_record_past_its_limit_is_refused_and_nothing_changes(game, monkeypatch):
    c, gid, seats = game
    a = seats["a"]
    monkeypatch.setattr(limits, "MAX_RECORD_BYTES", 100)
    before = log_of(c, gid)
    signed = a.sign_commit()
    refused(lambda: c.game.SubmitCommand(gs.SubmitCommandRequest(
        command=envelope_pb2.SignedCommand.FromString(signed)), timeout=10), S.INVALID_ARGUMENT, "RECORD_TOO_LARGE")
    assert log_of(c, gid) == before
    monkeypatch.setattr(limits, "MAX_RECORD_BYTES", 256 * 1024)
    assert [r.seq for r in a.submit(signed).records] == [1]  # the referee's cache was not advanced by the refusal


def test_sequence_numbers_and_counters_out_of_range(game):
    c, gid, seats = game
    a = seats["a"]
    top = 2**64 - 1
    for call in (lambda: c.audit.GetRecords(au.GetRecordsRequest(game_id=gid, from_seq=top), timeout=10),
                 lambda: list(c.game.Watch(gs.WatchRequest(game_id=gid, from_seq=top), timeout=10)),
                 lambda: c.audit.GetInclusionProof(au.GetInclusionProofRequest(game_id=gid, seq=0, tree_size=top),
                                                   timeout=10),
                 lambda: c.audit.GetRecords(au.GetRecordsRequest(game_id=gid, from_seq=2), timeout=10),
                 lambda: list(c.game.Watch(gs.WatchRequest(game_id=gid, from_seq=2), timeout=10)),
                 lambda: list(c.game.Play(iter([gs.PlayRequest(join=gs.PlayJoin(game_id=gid, auth=a.auth(),
                                                                                from_seq=5))]), timeout=10))):
        err, info = refused(call, S.OUT_OF_RANGE, "OUT_OF_RANGE")
        assert "sqlite" not in err.details().lower() and "int" not in err.details().lower()
    assert c.audit.GetRecords(au.GetRecordsRequest(game_id=gid, from_seq=1), timeout=10).records == []
    before = log_of(c, gid)
    a.log_counter = -1  # the signer's next counter is then 0
    err, info = refused(lambda: c.game.SubmitCommand(gs.SubmitCommandRequest(
        command=envelope_pb2.SignedCommand.FromString(a.sign_commit())), timeout=10), S.OUT_OF_RANGE, "OUT_OF_RANGE")
    assert info.metadata["field"] == "envelope.counter" and "already used" not in err.details()
    assert log_of(c, gid) == before


def test_an_unexpected_exception_is_internal_with_an_incident_id_in_the_log(server, game, caplog):
    c, gid, seats = game
    store = server.games.store
    real = store.records

    def broken(*a, **kw):
        raise ValueError("driver detail: table records is corrupt at page 7")

    store.records = broken
    try:
        with caplog.at_level(logging.ERROR, logger="afteraction.service"):
            err, info = refused(lambda: c.audit.GetRecords(au.GetRecordsRequest(game_id=gid), timeout=10),
                                S.INTERNAL, "INTERNAL")
    finally:
        store.records = real
    inc = info.metadata["incident"]
    assert len(inc) == 16 and inc in err.details() and "page 7" not in err.details()
    assert any(inc in r.getMessage() for r in caplog.records)


def test_a_store_failure_does_not_pass_the_drivers_message(server, game):
    from afteraction.service.store import StoreError

    c, gid, seats = game
    store = server.games.store
    real = store.records
    store.records = lambda *a, **kw: (_ for _ in ()).throw(StoreError("psycopg: FATAL password for user x"))
    try:
        err, info = refused(lambda: c.audit.GetRecords(au.GetRecordsRequest(game_id=gid), timeout=10),
                            S.UNAVAILABLE, "STORE_UNAVAILABLE")
    finally:
        store.records = real
    assert "psycopg" not in err.details() and "incident" in info.metadata


# -- 1. bounded streams and calls ----------------------------------------------------
def test_streams_past_the_server_limit_are_resource_exhausted(server, game, monkeypatch):
    import time

    c, gid, seats = game
    monkeypatch.setattr(limits, "MAX_STREAMS", 3)
    calls = [c.game.Watch(gs.WatchRequest(game_id=gid), timeout=30) for _ in range(3)]
    for it in calls:
        next(it)
    svc = server.run.service
    assert svc.streams == 3
    err, info = refused(lambda: list(c.game.Watch(gs.WatchRequest(game_id=gid), timeout=10)),
                        S.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")
    assert info.metadata["limit"] == "3"
    assert c.state(gid).state_seq == 1  # unary calls still answer
    calls[0].cancel()
    deadline = time.monotonic() + 5
    while svc.streams > 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    it = c.game.Watch(gs.WatchRequest(game_id=gid), timeout=30)
    assert next(it).WhichOneof("kind") == "record"
    for x in calls[1:] + [it]:
        x.cancel()


def test_calls_past_the_pending_limit_are_resource_exhausted(server, game, monkeypatch):
    c, gid, seats = game
    monkeypatch.setattr(limits, "MAX_PENDING_CALLS", 0)
    refused(lambda: c.game.GetState(gs.GetStateRequest(game_id=gid), timeout=10), S.RESOURCE_EXHAUSTED, "OVERLOADED")
    monkeypatch.setattr(limits, "MAX_PENDING_CALLS", 512)
    assert c.state(gid).state_seq == 1


def test_a_thousand_idle_watch_streams_do_not_starve_unary_calls(server, game):
    """The old thread-per-stream server answered nothing once its 64 threads held streams."""
    import time

    from afteraction.client.client import Client

    c, gid, seats = game
    n_ch, per = 10, 100  # MAX_STREAMS_PER_CONNECTION is 128: spread over connections, as many clients are
    assert per <= limits.MAX_STREAMS_PER_CONNECTION
    clients = [Client(server.target, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(n_ch)]
    calls = []
    try:
        for cl in clients:
            for _ in range(per):
                calls.append(cl.game.Watch(gs.WatchRequest(game_id=gid), timeout=120))
        svc = server.run.service
        deadline = time.monotonic() + 60
        while svc.streams < n_ch * per and time.monotonic() < deadline:
            time.sleep(0.05)
        assert svc.streams == n_ch * per
        t0 = time.monotonic()
        for _ in range(20):
            assert c.state(gid).state_seq == 1
        assert time.monotonic() - t0 < 10
        handshake(seats)  # and a command reaches every stream
        for it in calls[:: per]:
            kinds = [k for k in (next(it).WhichOneof("kind") for _ in range(6)) if k != "clocks"][:4]
            assert kinds == ["record", "checkpoint", "record", "checkpoint"]
    finally:
        for x in calls:
            x.cancel()
        for cl in clients:
            cl.close()


def test_transport_limits_are_the_servers_channel_arguments():
    from afteraction.service.server import server_options

    opts = dict(server_options(False))
    assert opts["grpc.max_concurrent_streams"] == limits.MAX_STREAMS_PER_CONNECTION
    assert opts["grpc.max_receive_message_length"] == limits.TRANSPORT_MAX_RECEIVE_BYTES
    assert opts["grpc.keepalive_time_ms"] == limits.KEEPALIVE_TIME_MS
    assert opts["grpc.keepalive_timeout_ms"] == limits.KEEPALIVE_TIMEOUT_MS
    assert opts["grpc.max_connection_idle_ms"] == limits.MAX_CONNECTION_IDLE_MS
    assert opts["grpc.http2.min_ping_interval_without_data_ms"] == limits.MIN_CLIENT_PING_INTERVAL_MS


# -- 4. no per-probe state -----------------------------------------------------------
def test_probes_for_unknown_games_leave_nothing_in_memory(server, game):
    c, gid, seats = game
    games = server.games
    c.state(gid)
    live_before = set(games._live)
    for i in range(300):
        refused(lambda: c.game.GetState(gs.GetStateRequest(game_id=f"probe{i}"), timeout=10),
                S.NOT_FOUND, "UNKNOWN_GAME")
    for i in range(20):
        refused(lambda: list(c.game.Watch(gs.WatchRequest(game_id=f"w{i}"), timeout=10)),
                S.NOT_FOUND, "UNKNOWN_GAME")
    assert games._locks == {} and set(games._live) == live_before
    assert server.run.service.feeds.watched() == 0 and server.run.service.streams == 0


def test_the_game_cache_is_a_bounded_lru(server, monkeypatch):
    import afteraction.service.games as G

    monkeypatch.setattr(G, "MAX_LIVE", 3)
    made = [new_duel(server.target, f"lru{i}".encode()) for i in range(5)]
    for c, gid, seats in made:
        c.state(gid)
    assert list(server.games._live) == [gid for _, gid, _ in made[-3:]]
    c, gid, seats = made[0]
    handshake(seats)  # reloaded from the store
    assert list(server.games._live)[-1] == gid and len(server.games._live) == 3
    for c, _, _ in made:
        c.close()


# -- 3. Watch is exact ---------------------------------------------------------------
def test_watch_sends_every_record_and_every_checkpoint_and_ends_ok(server):
    from .test_e2e import play_bots

    c, gid, seats = play_bots(server.target, "duel")
    full = list(c.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records)
    n = len(full)
    for k in list(range(0, n + 1)):
        msgs = list(c.game.Watch(gs.WatchRequest(game_id=gid, from_seq=k), timeout=20))  # ends OK
        assert [m.WhichOneof("kind") for m in msgs] == ["record", "checkpoint"] * (n - k)
        assert [m.record for m in msgs[0::2]] == full[k:]
        assert [m.checkpoint.size for m in msgs[1::2]] == list(range(k + 1, n + 1))
    refused(lambda: list(c.game.Watch(gs.WatchRequest(game_id=gid, from_seq=n + 1), timeout=10)),
            S.OUT_OF_RANGE, "OUT_OF_RANGE")


def test_a_live_watch_follows_to_the_end_record_and_completes_ok(server):
    import threading

    from afteraction.engine.bots import random_bot

    from .test_restart import bot_moves

    c, gid, seats = new_duel(server.target, b"live")
    got = []
    t = threading.Thread(target=lambda: got.extend(c.game.Watch(gs.WatchRequest(game_id=gid), timeout=60)))
    t.start()
    handshake(seats)
    bot_moves(c, gid, seats, 100, random_bot(b"live"))
    t.join(60)
    assert not t.is_alive()
    recs = [m.record for m in got if m.WhichOneof("kind") == "record"]
    cps = [m.checkpoint.size for m in got if m.WhichOneof("kind") == "checkpoint"]
    full = list(c.audit.GetRecords(au.GetRecordsRequest(game_id=gid)).records)
    assert recs == full and cps == list(range(1, len(full) + 1))  # incl. the one between the last command and end
    c.close()


# -- 5. conventions ------------------------------------------------------------------
def test_reflection_answers_v1_and_v1alpha(server):
    from grpc_reflection.v1alpha import reflection_pb2

    ch = grpc.insecure_channel(server.target)
    for pkg in ("grpc.reflection.v1", "grpc.reflection.v1alpha"):
        call = ch.stream_stream(f"/{pkg}.ServerReflection/ServerReflectionInfo",
                                request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        reqs = [reflection_pb2.ServerReflectionRequest(list_services=""),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="afteraction.v1.GameService")]
        resps = list(call(iter(reqs), timeout=10))
        names = {s.name for s in resps[0].list_services_response.service}
        assert {"afteraction.v1.GameService", "afteraction.v1.AuditService", "grpc.reflection.v1.ServerReflection",
                "grpc.reflection.v1alpha.ServerReflection", "grpc.health.v1.Health"} <= names
        assert resps[1].file_descriptor_response.file_descriptor_proto
    ch.close()


def test_list_rulesets_names_every_seat_scenario_and_option(game):
    import json

    from afteraction.engine import registry

    c, gid, seats = game
    res = c.game.ListRulesets(gs.ListRulesetsRequest(), timeout=10)
    got = {(r.game, r.version): r for r in res.rulesets}
    assert set(got) == set(registry.available())
    for (g, v), r in got.items():
        rs = registry.get(g, v)
        assert tuple(r.seats) == rs.seats and tuple(r.scenarios) == rs.scenarios
        assert json.loads(r.options_json) == dict(rs.options)


def test_the_protos_name_every_rulesets_seats_scenarios_and_options():
    """game_service.proto's comments say what ListRulesets says (a reader of proto/ alone finds them)."""
    import re

    from afteraction.engine import registry
    from conftest import REPO

    text = (REPO / "proto/afteraction/v1/game_service.proto").read_text()
    for g, v in registry.available():
        rs = registry.get(g, v)
        line = re.search(rf'//\s+game "{g}":(.*?)(?=\n//\s+game "|\nmessage)', text, re.S)
        assert line, f"no comment line for {g}"
        body = line.group(1)
        for s in (*rs.seats, *rs.scenarios, *rs.options):
            assert f'"{s}"' in body, f"{g}: {s} missing from game_service.proto"


def test_gmv_proto_names_every_unit_type_and_zone_itself():
    """A reader of proto/ alone finds GMV's unit types and zone ids (no pointer into engine/)."""
    import json

    from afteraction.engine.games.gmv.units import UNITS
    from conftest import REPO

    head = (REPO / "proto/afteraction/v1/gmv.proto").read_text().split("message GmvCommand", 1)[0]
    zones = [z["id"] for z in json.loads((REPO / "engine/games/gmv/data/map.json").read_text())["zones"]]
    for name in (*UNITS, *zones):
        assert f'"{name}"' in head, name
    assert "engine/" not in head


def test_health_and_reflection_refuse_with_details_too(game):
    c, gid, seats = game
    from grpc_health.v1 import health_pb2

    refused(lambda: raw_unary(c.channel, "/grpc.health.v1.Health/Check")(b"\xff\xff", timeout=10),
            S.INVALID_ARGUMENT, "MALFORMED")
    refused(lambda: raw_unary(c.channel, "/grpc.health.v1.Health/Check")(
        health_pb2.HealthCheckRequest(service="nosuch").SerializeToString(), timeout=10), S.NOT_FOUND, "UNKNOWN_SERVICE")
    for pkg in ("grpc.reflection.v1", "grpc.reflection.v1alpha"):
        call = c.channel.stream_stream(f"/{pkg}.ServerReflection/ServerReflectionInfo", request_serializer=None,
                                       response_deserializer=None)
        refused(lambda: list(call(iter([b"\xff\xff"]), timeout=10)), S.INVALID_ARGUMENT, "MALFORMED")


def test_exports_past_their_limit_are_overloaded(game, monkeypatch):
    c, gid, seats = game
    monkeypatch.setattr(limits, "MAX_EXPORTS", 0)
    refused(lambda: list(c.audit.ExportBundle(au.ExportBundleRequest(game_id=gid), timeout=10)),
            S.RESOURCE_EXHAUSTED, "OVERLOADED")
    monkeypatch.setattr(limits, "MAX_EXPORTS", 16)
    assert c.export(gid)


def test_random_bytes_to_every_rpc_get_ok_or_a_status_with_details(game):
    """The contract the fault suite builds on (tests/faults/ fuzzes it harder)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    c, gid, seats = game
    paths = [f"/{s}/{m}" for s, ms in UNARY.items() for m in ms]
    before = log_of(c, gid)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(paths + SERVER_STREAMS + ["/afteraction.v1.GameService/Play"]), st.binary(max_size=300))
    def one(path, raw):
        try:
            if path in SERVER_STREAMS:
                list(raw_stream(c.channel, path)(raw, timeout=10))
            elif path.endswith("/Play"):
                list(c.channel.stream_stream(path, request_serializer=None, response_deserializer=None)(
                    iter([raw]), timeout=10))
            else:
                raw_unary(c.channel, path)(raw, timeout=10)
        except grpc.RpcError as e:
            info = error_info(e)
            assert info is not None and info.domain == "afteraction", (path, raw, e.code(), e.details())
            assert e.code() not in (S.UNKNOWN, S.INTERNAL), (path, raw, e.code(), e.details())

    one()
    assert log_of(c, gid) == before


def test_client_watch_from_the_end_of_an_ended_game_returns_at_once(server):
    from .test_e2e import play_bots

    c, gid, seats = play_bots(server.target, "duel", "tail")
    n = c.state(gid).state_seq
    seen = []
    v = c.watch(gid, seen.append, from_seq=n, retries=0)  # verifies from genesis, shows from n on
    assert seen == [] and v.tree.size == n and v.ended_at == n - 1
