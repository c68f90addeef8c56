"""Raw-bytes fuzzing of every RPC of GameService and AuditService, as an outside client's
gRPC stack (or an attacker) can send them: grpc's generic calls with no serializer, so the
bytes go over the wire as they are. Hypothesis draws random bytes, protobuf-shaped field soups
(wrong wire types, invalid UTF-8 in strings, 2^64-1 varints, unknown fields) and mutations of
real serialized requests (bit flips, truncations, insertions, splices). Each answer is OK or an
error meeting the contract of ``contract.check_error`` (a documented status with ErrorInfo
details). After every RPC's run the server is healthy (health check SERVING and a real GetState)
and the games already in the store are byte-identical (records, commands, game rows)."""
from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afteraction.engine.bots import random_bot
from afteraction.service.auth import make_auth
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import envelope_pb2
from afteraction.v1 import game_service_pb2 as gs

from .contract import check_error
from .load import BotGame, client

EXAMPLES = 100         # per RPC
UNARY_TIMEOUT_S = 10   # a unary call must be answered: a client-side deadline fails the test
STREAM_TIMEOUT_S = 0.3  # a valid Watch/Play of a live game stays open: a deadline with no message is "open"
HUGE = b"\x0a" + bytes(5 * 2**20)  # a 5 MiB request, over gRPC's default 4 MiB receive limit
GS, AU = "/afteraction.v1.GameService/", "/afteraction.v1.AuditService/"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A server on port 0 with an ended duel, a live SOG game (mid-game) and real requests."""
    from service.conftest import Server

    srv = Server(tmp_path_factory.mktemp("fuzz"))
    c = client(srv.target, own_connection=False)
    try:
        ended = BotGame("duel", b"fuzz/ended").create(c)
        ended.play(random_bot(b"fuzz/ended"))
        live = BotGame("sog", b"fuzz/live").create(c)
        for _ in range(8):
            live.step(random_bot(b"fuzz/live"))
        seat = next(iter(live.seats))
        auth = make_auth(live.key(seat), live.gid, seat)
        last = c.audit.GetRecords(au.GetRecordsRequest(game_id=live.gid)).size
        stored = srv.games.store.command(live.gid, seat, 1)  # a stored command: resending it is a duplicate
        cmd = envelope_pb2.SignedCommand.FromString(stored.signed)
        yield {"srv": srv, "c": c, "ended": ended, "live": live, "requests": _requests(ended, live, auth, cmd, last)}
    finally:
        c.close()
        srv.stop()


def _requests(ended, live, auth, cmd, size) -> dict[str, tuple[str, list[bytes]]]:
    """Per RPC: its kind and real serialized requests to mutate."""
    g, e = live.gid, ended.gid
    join = gs.PlayRequest(join=gs.PlayJoin(game_id=g, auth=auth, from_seq=size))
    s = lambda m: m.SerializeToString()  # noqa: E731
    return {
        "CreateGame": ("uu", [s(gs.CreateGameRequest(game="duel", seats=[
            gs.SeatKey(seat=k, public_key=bytes(32)) for k in ("a", "b")]))]),
        "SubmitCommand": ("uu", [s(gs.SubmitCommandRequest(command=cmd)), s(gs.SubmitCommandRequest(command=cmd, auth=auth))]),
        "Play": ("ss", [s(join), s(gs.PlayRequest(command=cmd))]),
        "Watch": ("us", [s(gs.WatchRequest(game_id=e)), s(gs.WatchRequest(game_id=g, from_seq=size))]),
        "GetState": ("uu", [s(gs.GetStateRequest(game_id=g)), s(gs.GetStateRequest(game_id=g, auth=auth))]),
        "ListLegalCommands": ("uu", [s(gs.ListLegalCommandsRequest(game_id=g, auth=auth))]),
        "GetServerKey": ("uu", [s(gs.GetServerKeyRequest())]),
        "GetRecords": ("uu", [s(au.GetRecordsRequest(game_id=g, from_seq=1, limit=3))]),
        "GetCheckpoint": ("uu", [s(au.GetCheckpointRequest(game_id=e))]),
        "GetInclusionProof": ("uu", [s(au.GetInclusionProofRequest(game_id=g, seq=2, tree_size=size))]),
        "GetConsistencyProof": ("uu", [s(au.GetConsistencyProofRequest(game_id=g, from_size=2, to_size=size))]),
        "ExportBundle": ("us", [s(au.ExportBundleRequest(game_id=e))]),
        "GetReveal": ("uu", [s(au.GetRevealRequest(game_id=e)), s(au.GetRevealRequest(game_id=g))]),
    }


RPCS = ["CreateGame", "SubmitCommand", "Play", "Watch", "GetState", "ListLegalCommands", "GetServerKey",
        "GetRecords", "GetCheckpoint", "GetInclusionProof", "GetConsistencyProof", "ExportBundle", "GetReveal"]


# -- strategies -------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


_payload = st.one_of(st.binary(max_size=40), st.sampled_from([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"a" * 300]))
_field = st.tuples(st.integers(1, 9), st.sampled_from([0, 1, 2, 5, 3, 7]),
                   st.one_of(st.integers(0, 2**64 - 1), st.just(2**64 - 1), st.just(2**63)), _payload)


def _encode_field(f) -> bytes:
    num, wt, n, payload = f
    key = _varint(num << 3 | wt)
    if wt == 0:
        return key + _varint(n)
    if wt == 1:
        return key + (n & (2**64 - 1)).to_bytes(8, "little")
    if wt == 5:
        return key + (n & 0xFFFFFFFF).to_bytes(4, "little")
    if wt == 2:
        return key + _varint(len(payload)) + payload
    return key  # group start/end or an invalid wire type


soups = st.lists(_field, max_size=6).map(lambda fs: b"".join(_encode_field(f) for f in fs))


@st.composite
def mutated(draw, bases: list[bytes]) -> bytes:
    b = bytearray(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "splice", "append", "soup"]))
        i = draw(st.integers(0, len(b)))
        if op == "flip" and b:
            j = min(i, len(b) - 1)
            b[j] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del b[i:]
        elif op == "insert":
            b[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op == "splice":
            b[i:i + draw(st.integers(1, 16))] = draw(st.binary(max_size=16))
        elif op == "append":
            b += draw(st.binary(min_size=1, max_size=8))
        else:
            b += draw(soups)
    return bytes(b)


_EXTREME_INTS = [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]
_EXTREME_BYTES = [b"", b"\x00", b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"a" * 300, b"g" * 20_000]


@st.composite
def overridden(draw, bases: list[bytes]) -> bytes:
    """A real request with one field set again (the last occurrence wins in protobuf) to an
    extreme value: a 2^64-1 sequence number, invalid UTF-8 or a 20 KB game id (over the
    8 KiB of metadata a client accepts, if it were echoed in the error)."""
    b = draw(st.sampled_from(bases))
    num = draw(st.integers(1, 5))
    if draw(st.booleans()):
        return b + _varint(num << 3) + _varint(draw(st.sampled_from(_EXTREME_INTS)))
    v = draw(st.sampled_from(_EXTREME_BYTES))
    return b + _varint(num << 3 | 2) + _varint(len(v)) + v


def wire(bases: list[bytes]):
    return st.one_of(st.binary(max_size=120), soups, mutated(bases), overridden(bases), overridden(bases),
                     st.sampled_from(bases))


# -- one call -----------------------------------------------------------------------------
def call(channel: grpc.Channel, rpc: str, kind: str, raw: bytes | list[bytes]) -> None:
    path = (GS if rpc in _GAME_RPCS else AU) + rpc
    try:
        if kind == "uu":
            channel.unary_unary(path, request_serializer=None, response_deserializer=None)(raw, timeout=UNARY_TIMEOUT_S)
            return
        if kind == "us":
            it = channel.unary_stream(path, request_serializer=None, response_deserializer=None)(raw, timeout=STREAM_TIMEOUT_S)
        else:
            it = channel.stream_stream(path, request_serializer=None, response_deserializer=None)(iter(raw), timeout=STREAM_TIMEOUT_S)
        got = 0
        try:
            for _ in it:
                got += 1
                if got >= 3:  # the stream answers: enough
                    it.cancel()
                    return
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.CANCELLED and got >= 3:
                return
            if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED and not _server_sent(e):
                return  # an open stream waiting for more: the client gave up, not the server
            raise
    except grpc.RpcError as e:
        check_error(e, f"{rpc}({raw!r:.120})")


def _server_sent(e: grpc.RpcError) -> bool:
    return any(k == "grpc-status-details-bin" for k, _ in (e.trailing_metadata() or ()))


_GAME_RPCS = {"CreateGame", "SubmitCommand", "Play", "Watch", "GetState", "ListLegalCommands", "GetServerKey"}


def snapshot(world) -> dict:
    st_ = world["srv"].games.store
    out = {}
    for g in (world["ended"], world["live"]):
        out[g.gid] = (st_.game(g.gid), [(r.seq, r.raw, r.checkpoint) for r in st_.records(g.gid, 0)],
                      [(x.seat, x.counter, x.signed) for x in st_.commands(g.gid, 0)])
    return out


def healthy(world) -> None:
    ch = world["c"].channel
    h = health_pb2_grpc.HealthStub(ch)
    for name in ("", "afteraction.v1.GameService", "afteraction.v1.AuditService"):
        assert h.Check(health_pb2.HealthCheckRequest(service=name), timeout=10).status == health_pb2.HealthCheckResponse.SERVING
    live = world["live"]
    st_ = world["c"].state(live.gid)
    assert st_.state_seq == len(snapshot(world)[live.gid][1]) and not st_.ended


@pytest.mark.parametrize("rpc", RPCS)
def test_raw_bytes_to_every_rpc_get_a_documented_status_with_details_and_change_nothing(world, rpc):
    kind, bases = world["requests"][rpc]
    before = snapshot(world)
    channel = world["c"].channel
    strategy = st.lists(wire(bases), min_size=1, max_size=3) if kind == "ss" else wire(bases)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(raw=strategy)
    def one(raw):
        call(channel, rpc, kind, raw)

    one()
    healthy(world)
    assert snapshot(world) == before, "a game already in the store changed"


@pytest.mark.parametrize("rpc", RPCS)
def test_a_request_over_the_size_limit_gets_a_documented_status_with_details(world, rpc):
    """5 MiB to each RPC: refused (gRPC's 4 MiB default, or the server's own limit) with details."""
    kind, _ = world["requests"][rpc]
    before = snapshot(world)
    call(world["c"].channel, rpc, kind, [HUGE] if kind == "ss" else HUGE)
    healthy(world)
    assert snapshot(world) == before
