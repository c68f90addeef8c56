"""The LeagueService's RPCs (proto/afteraction/v1/league_service.proto) over the leagues of
service/league/manager.py's LeagueManager: each request parsed by the one table of methods (both
transports, service/server.py and service/web.py), the work done by the manager."""
from __future__ import annotations


from afteraction.engine import endings, registry
from afteraction.engine.crypto import canon
from afteraction.engine.league.standings import published, standings
from afteraction.v1 import league_service_pb2 as lg

from .. import limits
from ..calls import SERVER_STREAM, UNARY, Method, grpc_handlers, options_of, parse
from .manager import LeagueManager, to_json


def _auth(request):
    return request.auth if request.HasField("auth") else None



class LeagueServicer:
    def __init__(self, svc, manager: LeagueManager) -> None:
        self.svc = svc
        self.m = manager

    def methods(self) -> list[Method]:
        return [
            Method("CreateLeague", UNARY, lg.CreateLeagueRequest, self.CreateLeague),
            Method("GetLeague", UNARY, lg.GetLeagueRequest, self.GetLeague),
            Method("RegisterPlayer", UNARY, lg.RegisterPlayerRequest, self.RegisterPlayer),
            Method("OpenRound", UNARY, lg.OpenRoundRequest, self.OpenRound),
            Method("ReplayBoard", UNARY, lg.ReplayBoardRequest, self.ReplayBoard),
            Method("ListLeagueGames", UNARY, lg.ListLeagueGamesRequest, self.ListLeagueGames),
            Method("GetStandings", UNARY, lg.GetStandingsRequest, self.GetStandings),
            Method("PublishStandings", UNARY, lg.PublishStandingsRequest, self.PublishStandings),
            Method("FileDispute", UNARY, lg.FileDisputeRequest, self.FileDispute),
            Method("Rule", UNARY, lg.RuleRequest, self.Rule),
            Method("CosignLedger", UNARY, lg.CosignLedgerRequest, self.CosignLedger),
            Method("ExportLedger", SERVER_STREAM, lg.ExportLedgerRequest, self.ExportLedger),
            Method("ExportLedgerBundle", SERVER_STREAM, lg.ExportLedgerBundleRequest, self.ExportLedgerBundle),
            Method("WitnessCheckpoint", UNARY, lg.WitnessCheckpointRequest, self.WitnessCheckpoint),
            Method("TimestampEnvelope", UNARY, lg.TimestampEnvelopeRequest, self.TimestampEnvelope),
        ]

    def handlers(self) -> dict:
        return grpc_handlers(self.svc, self.methods())

    def _entry(self, w_or_id, e) -> lg.LedgerEntry:
        w = self.m.writer(w_or_id) if isinstance(w_or_id, str) else w_or_id
        return lg.LedgerEntry(seq=e.seq, entry=e.raw, checkpoint=w.checkpoints[e.seq])

    def CreateLeague(self, request, context):
        w = self.m.create(request.league_id, request.name, request.policy, bytes(request.organiser))
        return lg.CreateLeagueResponse(vkey=w.vkey, policy=self._entry(w, w.entries[1]))

    def GetLeague(self, request, context):
        with self.m._lock:   # the reads below see one state of the league
            return self._league(request)

    def _league(self, request):
        w = self.m.settle(request.league_id)
        s = w.state
        return lg.GetLeagueResponse(
            league_id=w.league, name=s.genesis["name"], vkey=w.vkey, origin=w.origin,
            policy=canon.encode(s.policy), size=len(w.entries), checkpoint=w.checkpoints[-1], rounds=len(s.rounds),
            players=[lg.LeaguePlayer(name=p.name, key=p.key, seq=p.seq)
                     for p in sorted(s.players.values(), key=lambda p: p.seq)],
            game_server_vkey=self.m.games.vkey, organiser=self.m.organiser_key(w) or b"")

    def RegisterPlayer(self, request, context):
        e = self.m.register(request.league_id, request.registration)
        return lg.RegisterPlayerResponse(entry=self._entry(request.league_id, e))

    def _options(self, request) -> tuple[dict, dict | None]:
        return options_of(request.options_json), (endings.control(request.decision_ms) if request.decision_ms else None)

    def OpenRound(self, request, context):
        options, clock = self._options(request)
        title = {"game": request.title.game, "scenario": request.title.scenario} if request.HasField("title") else None
        no, e, gids, byes = self.m.open_round(request.league_id, title, options, clock, _auth(request))
        games = [g for g in self._games(request.league_id) if g.round == no]
        return lg.OpenRoundResponse(round=no, games=games, byes=byes, entry=self._entry(request.league_id, e))

    def ReplayBoard(self, request, context):
        options, clock = self._options(request)
        self.m.replay_board(request.league_id, request.round, request.board, options, clock, _auth(request))
        [g] = [g for g in self._games(request.league_id) if (g.round, g.board) == (request.round, request.board)]
        return lg.ReplayBoardResponse(game=g)

    def _games(self, league_id: str) -> list[lg.LeagueGame]:
        with self.m._lock:
            return self._games_now(league_id)

    def _games_now(self, league_id: str) -> list[lg.LeagueGame]:
        w = self.m.settle(league_id)
        s = w.state
        status = {c.game: c for c in standings(s, self.m.now(w)).games}
        out = []
        for r in s.rounds:
            seats = registry.get(r.title["game"]).seats
            for b, (first, second) in enumerate(r.pairs, 1):
                live = [g for g in s.games.values() if (g.round, g.board) == (r.no, b) and not g.withdrawn]
                g = max(live, key=lambda g: g.seq) if live else None
                m = lg.LeagueGame(round=r.no, board=b, first=first, second=second, seats=list(seats[:2]),
                                  status="none")
                if g is not None:
                    m.game_id = g.id
                    c = status.get(g.id)
                    res = s.live_result(g.id)
                    if c is None:
                        m.status = "playing"
                    else:
                        m.status = ("confirmed" if c.status == "counted" and res is not None
                                    and len(res.cosigned) == 2 and s.decision(g.id) is None else c.status)
                        m.winner, m.cause = c.winner or "", c.cause
                out.append(m)
        return out

    def ListLeagueGames(self, request, context):
        with self.m._lock:
            games = self._games_now(request.league_id)
            w = self.m.writer(request.league_id)
            return lg.ListLeagueGamesResponse(
                games=games, rounds=[lg.LeagueRound(round=r.no, title=lg.Title(**r.title), byes=r.byes)
                                     for r in w.state.rounds])

    def GetStandings(self, request, context):
        with self.m._lock:
            w = self.m.settle(request.league_id)
            at = self.m.now(w)
            body = published(w.state, at)
            size = len(w.entries)
        return lg.GetStandingsResponse(table_json=to_json(body["table"]), ratings_json=to_json(body["ratings"]),
                                       size=size, at=at)

    def PublishStandings(self, request, context):
        e = self.m.publish(request.league_id, _auth(request))
        return lg.PublishStandingsResponse(entry=self._entry(request.league_id, e))

    def FileDispute(self, request, context):
        e = self.m.dispute(request.league_id, request.dispute)
        return lg.FileDisputeResponse(entry=self._entry(request.league_id, e))

    def Rule(self, request, context):
        e = self.m.rule(request.league_id, request.ruling)
        return lg.RuleResponse(entry=self._entry(request.league_id, e))

    def CosignLedger(self, request, context):
        return lg.CosignLedgerResponse(checkpoint=self.m.cosign(request.league_id, request.size, request.line))

    async def ExportLedger(self, raw, context):
        req = parse(lg.ExportLedgerRequest, raw)
        data = await self.svc.run_stream(self.m.ledger, req.league_id)
        for i in range(0, len(data), limits.EXPORT_CHUNK_BYTES):
            yield lg.ExportLedgerResponse(chunk=data[i:i + limits.EXPORT_CHUNK_BYTES])

    async def ExportLedgerBundle(self, raw, context):
        req = parse(lg.ExportLedgerBundleRequest, raw)
        data = await self.svc.run_stream(self.m.bundle, req.league_id, bytes(req.hash))
        for i in range(0, len(data), limits.EXPORT_CHUNK_BYTES):
            yield lg.ExportLedgerBundleResponse(chunk=data[i:i + limits.EXPORT_CHUNK_BYTES])

    def WitnessCheckpoint(self, request, context):
        return lg.WitnessCheckpointResponse(line=self.m.witness(request.league_id, request.game_id, request.checkpoint))

    def TimestampEnvelope(self, request, context):
        at, sig = self.m.timestamp(request.league_id, request.game_id, request.envelope)
        return lg.TimestampEnvelopeResponse(at=at, signature=sig, vkey=self.m.signer.verifier.vkey)
