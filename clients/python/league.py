"""The reference client of the LeagueService (proto/afteraction/v1/league_service.proto,
docs/league.md "A league server").

``LeagueClient`` is a ``Client`` (clients/python/client.py) with the league's RPCs. What a player
or an arbiter authors (a registration, a dispute, a ruling) is signed here with their own key
(engine/league/entries.py ``Author``: SPEC.md 15.1's statement) and only then sent: the server
appends it or refuses it, it cannot make or change it. ``download`` fetches the ledger and every
result's bundle, and ``verify`` checks them as `aar league verify` does (engine/league/ledger.py),
the league key pinned.
"""
from __future__ import annotations

import json

import grpc

from afteraction.engine.crypto import canon
from afteraction.engine.league.entries import Author, bundle_hash, parse_entry
from afteraction.engine.league.witness import timestamp_ok, witness_cosigned
from afteraction.v1 import league_service_pb2 as lg
from afteraction.v1 import league_service_pb2_grpc as lg_grpc

from .client import Client, ClientError, client_error

ORGANISER_ATTEMPTS = 3   # an organiser's call signed again when the ledger grew meanwhile


class LeagueClient(Client):
    def __init__(self, target: str, **kw) -> None:
        super().__init__(target, **kw)
        self.league = lg_grpc.LeagueServiceStub(self.channel)

    # -- the organiser (its calls signed with the organiser's key, SPEC.md 15.12) ----------
    def create_league(self, league_id: str, name: str, policy: dict, organiser: bytes) -> lg.CreateLeagueResponse:
        """``organiser``: the organiser's key seed; its public key is the league's organiser."""
        return self.call(self.league.CreateLeague, lg.CreateLeagueRequest(
            league_id=league_id, name=name, policy=canon.encode(policy), organiser=Author(organiser).public))

    def get_league(self, league_id: str) -> lg.GetLeagueResponse:
        return self.call(self.league.GetLeague, lg.GetLeagueRequest(league_id=league_id))

    def organiser_auth(self, league_id: str, rpc: str, organiser: bytes, title: dict | None = None) -> lg.OrganiserAuth:
        """The organiser's signature of ``rpc`` at the ledger's size now (it serves once; for
        OpenRound with the round's title, SPEC.md 15.12); ``title`` None for OpenRound: the policy's first."""
        from afteraction.engine.crypto.ed25519 import sign
        from afteraction.engine.league.entries import organiser_statement

        info = self.get_league(league_id)
        if rpc == "OpenRound" and title is None:
            title = canon.decode(info.policy)["titles"][0]
        sig = sign(organiser, organiser_statement(league_id, rpc, info.size, title))
        return lg.OrganiserAuth(size=info.size, signature=sig)

    def _as_organiser(self, league_id: str, rpc: str, organiser: bytes, send, title: dict | None = None):
        """``send(auth)``, signed again if the ledger grew between the signature and the call (the
        league's timer enters results as games end: the size signed was then no longer the size)."""
        for attempt in range(ORGANISER_ATTEMPTS):
            auth = self.organiser_auth(league_id, rpc, organiser, title)
            try:
                return send(auth)
            except ClientError as e:
                if e.reason != "ORGANISER_AUTH" or attempt == ORGANISER_ATTEMPTS - 1 \
                        or self.get_league(league_id).size == auth.size:
                    raise

    def open_round(self, league_id: str, organiser: bytes, title: dict | None = None, options: dict | None = None,
                   decision_ms: int = 0) -> lg.OpenRoundResponse:
        def send(auth):
            req = lg.OpenRoundRequest(league_id=league_id, options_json=json.dumps(options) if options else "",
                                      decision_ms=decision_ms, auth=auth)
            if title is not None:
                req.title.CopyFrom(lg.Title(**title))
            return self.call(self.league.OpenRound, req)
        return self._as_organiser(league_id, "OpenRound", organiser, send, title)

    def replay_board(self, league_id: str, round_no: int, board: int, organiser: bytes, options: dict | None = None,
                     decision_ms: int = 0) -> lg.ReplayBoardResponse:
        return self._as_organiser(league_id, "ReplayBoard", organiser, lambda auth: self.call(
            self.league.ReplayBoard, lg.ReplayBoardRequest(
                league_id=league_id, round=round_no, board=board, options_json=json.dumps(options) if options else "",
                decision_ms=decision_ms, auth=auth)))

    def games(self, league_id: str) -> lg.ListLeagueGamesResponse:
        return self.call(self.league.ListLeagueGames, lg.ListLeagueGamesRequest(league_id=league_id))

    def standings(self, league_id: str) -> dict:
        r = self.call(self.league.GetStandings, lg.GetStandingsRequest(league_id=league_id))
        return {"table": json.loads(r.table_json), "ratings": json.loads(r.ratings_json), "size": r.size, "at": r.at}

    def publish_standings(self, league_id: str, organiser: bytes) -> lg.PublishStandingsResponse:
        return self._as_organiser(league_id, "PublishStandings", organiser, lambda auth: self.call(
            self.league.PublishStandings, lg.PublishStandingsRequest(league_id=league_id, auth=auth)))

    # -- what players and arbiters sign ---------------------------------------------------
    @staticmethod
    def signed(league_id: str, kind: str, body: dict, seed: bytes) -> lg.SignedStatement:
        a = Author(seed)
        return lg.SignedStatement(body=canon.encode(body), by=a.public, sig=a.sign(league_id, kind, body))

    def join(self, league_id: str, name: str, seed: bytes) -> lg.RegisterPlayerResponse:
        """Register ``name`` with the seat key of ``seed`` (the player signs its own entry)."""
        body = {"name": name, "key": Author(seed).public}
        return self.call(self.league.RegisterPlayer, lg.RegisterPlayerRequest(
            league_id=league_id, registration=self.signed(league_id, "player", body, seed)))

    def dispute(self, league_id: str, game_id: str, claim: str, evidence: list[bytes], seed: bytes):
        body = {"game": game_id, "claim": claim, "evidence": list(evidence)}
        return self.call(self.league.FileDispute, lg.FileDisputeRequest(
            league_id=league_id, dispute=self.signed(league_id, "dispute", body, seed)))

    def rule(self, league_id: str, game_id: str, decision: str, reason: str, seed: bytes,
             dispute: int | None = None):
        body = {"game": game_id, "decision": decision, "reason": reason, "dispute": dispute}
        return self.call(self.league.Rule, lg.RuleRequest(
            league_id=league_id, ruling=self.signed(league_id, "ruling", body, seed)))

    # -- the ledger -----------------------------------------------------------------------
    def export_ledger(self, league_id: str) -> bytes:
        try:
            return b"".join(c.chunk for c in self.league.ExportLedger(lg.ExportLedgerRequest(league_id=league_id),
                                                                         timeout=max(self.timeout, 120)))
        except grpc.RpcError as e:
            raise client_error(e) from None

    def export_bundle(self, league_id: str, h: bytes) -> bytes:
        """The bundle a result entry names (the league keeps it as the result was entered)."""
        try:
            return b"".join(c.chunk for c in self.league.ExportLedgerBundle(
                lg.ExportLedgerBundleRequest(league_id=league_id, hash=h), timeout=max(self.timeout, 120)))
        except grpc.RpcError as e:
            raise client_error(e) from None

    def download(self, league_id: str) -> tuple[bytes, dict[bytes, bytes]]:
        """The ledger file and the bundle of every result entry (by hash; checked against it)."""
        from afteraction.engine.league.ledger import read_ledger

        ledger = self.export_ledger(league_id)
        _, _, items = read_ledger(ledger)
        bundles = {}
        for raw, _ in items:
            e = parse_entry(raw)
            if e.kind == "result" and e.body["bundle"] not in bundles:
                data = self.export_bundle(league_id, e.body["bundle"])
                if bundle_hash(data) != e.body["bundle"]:
                    raise ValueError(f"the server's bundle for entry {e.seq} is not the one the entry names")
                bundles[e.body["bundle"]] = data
        return ledger, bundles

    def cosign_ledger(self, league_id: str, name: str, seed: bytes, ledger: bytes, timestamp: int) -> str:
        """``name`` (registered with ``seed``) cosigns the last checkpoint of ``ledger``, a ledger the
        caller has verified (SPEC.md 15.2); the league's checkpoint with the kept cosignatures."""
        from afteraction.engine.crypto.cosign import cosign
        from afteraction.engine.crypto.note import split_note
        from afteraction.engine.league.ledger import read_ledger

        league, _, items = read_ledger(ledger)
        origin = split_note(items[0][1])[0].split("\n", 1)[0]
        seq = next(e.seq for e in map(parse_entry, (r for r, _ in items))
                   if e.kind == "player" and e.body["name"] == name)
        line = cosign(split_note(items[-1][1])[0], origin, str(seq), seed, timestamp)
        return self.call(self.league.CosignLedger, lg.CosignLedgerRequest(
            league_id=league_id, size=len(items), line=line)).checkpoint

    # -- the witness (SPEC.md 15.11) -------------------------------------------------------
    def witness(self, league_id: str, game_id: str, checkpoint: str, league_vkey: str) -> str:
        """The league's cosignature line of a game checkpoint, checked against the league key."""
        from afteraction.engine.crypto.cosign import add_cosignatures
        from afteraction.engine.crypto.note import parse_vkey
        from afteraction.engine.league.ledger import league_origin

        line = self.call(self.league.WitnessCheckpoint, lg.WitnessCheckpointRequest(
            league_id=league_id, game_id=game_id, checkpoint=checkpoint)).line
        v = parse_vkey(league_vkey)
        if witness_cosigned(add_cosignatures(checkpoint, [line]), league_origin(v.name, league_id), v.public) is None:
            raise ValueError("the league's witness line does not cosign this checkpoint with the league key")
        return line

    def timestamp(self, league_id: str, game_id: str, signed: bytes, league_vkey: str) -> tuple[int, bytes]:
        """The league's signed timestamp of a SignedCommand the seat sent, checked with the league key."""
        from afteraction.engine.crypto.note import parse_vkey

        r = self.call(self.league.TimestampEnvelope, lg.TimestampEnvelopeRequest(
            league_id=league_id, game_id=game_id, envelope=signed))
        if r.vkey != league_vkey or not timestamp_ok(parse_vkey(league_vkey).public, league_id, game_id, signed,
                                                     r.at, r.signature):
            raise ValueError("the league's timestamp does not verify with the league key")
        return r.at, r.signature
