"""Raw bytes to every LeagueService RPC (tests/faults/test_fuzz.py's strategies: random bytes,
protobuf field soups, mutations and extreme overrides of real requests, sent with no serializer):
every answer is OK or an error meeting tests/faults/contract.py (a documented status with an
ErrorInfo reason of engine/codes.py, a bounded message), the server stays healthy, and the league's
ledger is byte-identical afterwards. The real requests mutated are ones the league refuses or
only reads, so no mutation that keeps their meaning can append an entry."""
from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings

from afteraction.client.client import Client
from afteraction.client.league import LeagueClient
from afteraction.engine.crypto import canon
from afteraction.engine.league.entries import Author, bundle_hash
from afteraction.engine.league.local import policy
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import league_service_pb2 as lg

from faults.contract import check_error
from faults.test_fuzz import wire

from .conftest import Server
from .test_league_service import ORG, key, new_league, play

EXAMPLES = 60
LS = "/afteraction.v1.LeagueService/"
STREAMS = {"ExportLedger", "ExportLedgerBundle"}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A one-round league: one game ended with its result, a bye, a round already opened (the policy
    has one round), and a second league whose game is live."""
    srv = Server(tmp_path_factory.mktemp("league-fuzz"))
    c = LeagueClient(srv.target)
    try:
        new_league(c, players=("ann", "bob", "cat"), rounds=1)
        [g] = c.open_round("spring", ORG).games
        play(srv.target, [g])
        new_league(c, "autumn", players=("ann", "bob"), rounds=1)
        [live] = c.open_round("autumn", ORG).games
        ledger, bundles = c.download("spring")
        note = Client(srv.target).call(Client(srv.target).audit.GetCheckpoint,
                                       au.GetCheckpointRequest(game_id=live.game_id)).checkpoint.note
        s = lambda m: m.SerializeToString()  # noqa: E731
        dup = LeagueClient.signed("spring", "player", {"name": "ann", "key": bytes.fromhex(
            "00" * 32)}, key("ann"))
        stranger = LeagueClient.signed("spring", "dispute", {"game": g.game_id, "claim": "x", "evidence": []},
                                       key("mallory"))
        ruling = LeagueClient.signed("spring", "ruling", {"game": g.game_id, "decision": "annul", "reason": "x",
                                                          "dispute": None}, key("ann"))
        requests = {
            "CreateLeague": [s(lg.CreateLeagueRequest(league_id="spring", name="x", policy=canon.encode(policy()),
                                                   organiser=Author(key("organiser")).public))],
            "GetLeague": [s(lg.GetLeagueRequest(league_id="spring"))],
            "RegisterPlayer": [s(lg.RegisterPlayerRequest(league_id="spring", registration=dup))],
            "OpenRound": [s(lg.OpenRoundRequest(league_id="spring", auth=c.organiser_auth("spring", "OpenRound", ORG))),
                          s(lg.OpenRoundRequest(league_id="autumn"))],
            "ReplayBoard": [s(lg.ReplayBoardRequest(league_id="spring", round=1, board=1,
                                                    auth=c.organiser_auth("spring", "ReplayBoard", ORG)))],
            "ListLeagueGames": [s(lg.ListLeagueGamesRequest(league_id="spring"))],
            "GetStandings": [s(lg.GetStandingsRequest(league_id="autumn"))],
            "PublishStandings": [s(lg.PublishStandingsRequest(league_id="winter"))],
            "FileDispute": [s(lg.FileDisputeRequest(league_id="spring", dispute=stranger))],
            "Rule": [s(lg.RuleRequest(league_id="spring", ruling=ruling))],
            "CosignLedger": [s(lg.CosignLedgerRequest(league_id="spring", size=3, line="\u2014 x AAAA\n"))],
            "ExportLedger": [s(lg.ExportLedgerRequest(league_id="spring"))],
            "ExportLedgerBundle": [s(lg.ExportLedgerBundleRequest(league_id="spring", hash=next(iter(bundles))))],
            "WitnessCheckpoint": [s(lg.WitnessCheckpointRequest(league_id="autumn", game_id=live.game_id,
                                                                checkpoint=note))],
            "TimestampEnvelope": [s(lg.TimestampEnvelopeRequest(league_id="autumn", game_id=live.game_id,
                                                                envelope=b"\x0a\x00"))],
        }
        assert bundle_hash(next(iter(bundles.values()))) == next(iter(bundles))
        yield {"srv": srv, "c": c, "requests": requests}
    finally:
        c.close()
        srv.stop()


RPCS = ["CreateLeague", "GetLeague", "RegisterPlayer", "OpenRound", "ReplayBoard", "ListLeagueGames", "GetStandings",
        "PublishStandings", "FileDispute", "Rule", "CosignLedger", "ExportLedger", "ExportLedgerBundle",
        "WitnessCheckpoint", "TimestampEnvelope"]


def test_the_fuzzed_rpcs_are_the_services():
    assert set(RPCS) == {m.name for m in lg.DESCRIPTOR.services_by_name["LeagueService"].methods}


def _call(channel, rpc: str, raw: bytes) -> None:
    try:
        if rpc in STREAMS:
            for _ in channel.unary_stream(LS + rpc, request_serializer=None, response_deserializer=None)(raw, timeout=10):
                pass
        else:
            channel.unary_unary(LS + rpc, request_serializer=None, response_deserializer=None)(raw, timeout=10)
    except grpc.RpcError as e:
        assert e.code() != grpc.StatusCode.INTERNAL, f"{rpc}: {e.details()}"
        check_error(e, f"{rpc}({raw!r:.120})")


@pytest.mark.parametrize("rpc", RPCS)
def test_raw_bytes_to_every_league_rpc_get_a_documented_status_and_change_no_ledger(world, rpc):
    c = world["c"]
    before = {x: c.export_ledger(x) for x in ("spring", "autumn")}

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(raw=wire(world["requests"][rpc]))
    def one(raw):
        _call(c.channel, rpc, raw)

    one()
    assert {x: c.export_ledger(x) for x in ("spring", "autumn")} == before
    assert [p.name for p in c.get_league("spring").players] == ["ann", "bob", "cat"]

