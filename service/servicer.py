"""gRPC servicers (grpc.aio): thin translation between proto messages and service/games.py. This
module is GameService and the ``Service`` both servicers share; AuditService is service/audit_servicer.py.

Every handler is registered with a raw (bytes) request deserializer and parses
the request itself (``parse``): bytes that do not parse, or that pass a limit of
service/limits.py, are answered with a precise status and an ErrorInfo like
every other error. The blocking work (store, referee) runs in a bounded thread
pool (``Service.run``); streams wait on the event loop, holding no thread, so
open streams cannot starve unary calls. ListLegalCommands and SubmitCommand run on
the loop when they need not wait (``GameManager.inline``, ``submit_async``).
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading


from afteraction.engine import receipt as _receipt
from afteraction.engine.crypto import canon
from afteraction.engine.errors import Rejection
from afteraction.engine.codes import Code
from afteraction.engine.protocol import parse_record
from afteraction.engine.match import match_value
from afteraction.v1 import game_service_pb2 as gs

from . import events, limits
from .auth import AuthChecker
from .calls import BIDI, SERVER_STREAM, UNARY, Method, grpc_handlers, in_log, options_of, parse
from .catalog import _summary, names_pb, rulesets_pb, to_json  # noqa: F401  (servicer.names_pb, .rulesets_pb: cli, bench)
from .clocks import clocks_pb, control_of
from .envelopes import Command, envelope_or_none
from .feeds import Feeds
from .games import Appending, GameManager, WouldWait
from .status import Refusal, quote, status_for, status_of
from .store import RecordRow

log = logging.getLogger("afteraction.service")


def decision_pb(d, ruleset=None) -> gs.Decision:
    """The pending Decision; with the game's ``ruleset``, what its decision table declares of it:
    whether the legal commands are only a sample of the answers (engine/decisions.py ``complete``),
    the answers in words (``space``) and the rule."""
    out = gs.Decision(seat=d.seat, kind=d.kind, prompt=d.prompt, data_json=to_json(d.data or {}))
    table = getattr(ruleset, "decisions", None)
    if table is not None and d.seat != "*":
        try:
            k = table.kind_of(d)
        except LookupError:  # a ruleset bug (UndeclaredDecision): the referee refuses every answer anyway
            return out
        out.sampled, out.space, out.rule = not k.complete, k.space, k.rule
    return out


def record_pb(r: RecordRow) -> gs.LogRecord:
    return gs.LogRecord(seq=r.seq, record=r.raw, record_hash=r.hash, checkpoint=r.checkpoint)


def checkpoint_pb(r: RecordRow) -> gs.SignedCheckpoint:
    return gs.SignedCheckpoint(size=r.seq + 1, note=r.checkpoint)


def opening_pb(o) -> gs.SeatOpening:
    return gs.SeatOpening(seq=o.seq, k=o.k, salt=o.salt, value=o.value, value_json=to_json(canon.decode(o.value)))


class Service:
    """State shared by both servicers: the games, the thread pool, the stream feeds and counters."""

    def __init__(self, games: GameManager, pool=None, loop=None) -> None:
        self.games = games
        self.auth = AuthChecker(cache_size=limits.AUTH_CACHE_ENTRIES)
        self.stopping = threading.Event()
        self.pool = pool
        self.loop = loop
        self.feeds = Feeds()
        self.pending = 0     # unary calls in progress (loop thread only)
        self.streams = 0     # open streams (loop thread only)
        self.stream_slots = None
        self.exports = 0     # ExportBundle calls in progress (loop thread only)
        self.key_history = ""   # the key ring's public history (keyring.py), "" while it has one key
        self.homes: tuple[int, ...] = ()   # each worker's own port (`aar serve --workers N`), () for one process
        self.home = -1                     # this process's index in ``homes``
        games.on_append = self._appended
        self.feeds.told_hooks = (games.told, games.listening)   # what other processes tell: the games' freshness

    def _appended(self, gid: str) -> None:
        # Only a game someone watches costs a wake-up of the loop. Safe unlocked: a stream subscribes
        # before its first read of the store, and this runs after the append is stored, so a stream
        # that subscribed too late to be seen here reads the new records on its first read.
        if self.loop is not None and self.feeds.is_watched(gid):
            if asyncio._get_running_loop() is self.loop:  # an append on the loop (submit_async): no self-pipe write
                self.feeds.notify(gid)
            else:
                self.loop.call_soon_threadsafe(self.feeds.notify, gid)

    def _admit(self) -> None:
        if self.pending >= limits.MAX_PENDING_CALLS:
            raise Refusal(Code.OVERLOADED, f"the server has {self.pending} calls in progress; retry later",
                          limit=limits.MAX_PENDING_CALLS)

    @contextlib.asynccontextmanager
    async def counted(self):
        """A call on the event loop, counted among the pending calls (MAX_PENDING_CALLS) while it runs."""
        self._admit()
        self.pending += 1
        try:
            yield
        finally:
            self.pending -= 1

    async def run(self, fn, *args, counted: bool = False):
        """A unary call's ``fn(*args)`` in the thread pool. A call whose client leaves stops waiting,
        but the work finishes (an append is never cut in half) and still counts as pending.
        ``counted``: the caller is already counted (``counted()``)."""
        if counted:
            return await asyncio.shield(self.loop.run_in_executor(self.pool, fn, *args))
        self._admit()
        self.pending += 1
        fut = self.loop.run_in_executor(self.pool, fn, *args)

        def done(_):
            self.pending -= 1
        fut.add_done_callback(done)
        return await asyncio.shield(fut)

    async def run_counted(self, fn, *args):
        return await self.run(fn, *args, counted=True)

    async def run_stream(self, fn, *args):
        """A stream's ``fn(*args)`` in the thread pool: streams wait for one of STREAM_WORK_SLOTS
        (holding no thread meanwhile), so they never take more than that share of the pool."""
        if self.stream_slots is None:
            self.stream_slots = asyncio.Semaphore(limits.STREAM_WORK_SLOTS)
        async with self.stream_slots:
            return await self.loop.run_in_executor(self.pool, fn, *args)

    def open_stream(self) -> None:
        if self.streams >= limits.MAX_STREAMS:
            raise Refusal(Code.TOO_MANY_STREAMS, f"the server has {self.streams} streams open; the limit is "
                          f"{limits.MAX_STREAMS}", limit=limits.MAX_STREAMS)
        if self.stopping.is_set():
            raise Refusal(Code.SHUTTING_DOWN, "the server is shutting down; retry on another replica")
        self.streams += 1

    def close_stream(self) -> None:
        self.streams -= 1

    def home_elsewhere(self, gid: str) -> int:
        """The port of the worker that is game ``gid``'s home when that is another process, else 0
        (PlayJoin.follow_home): both seats of a game in one process spare each command a second
        process's catch-up and a second writer (docs/service.md "Workers")."""
        if len(self.homes) < 2:
            return 0
        i = home_of(gid, len(self.homes))
        return 0 if i == self.home else self.homes[i]

    def authenticate(self, gid: str, auth: gs.SeatAuth, live=None) -> str:
        keys = live.referee.seat_keys if live is not None else self.games.seat_keys(gid)
        return self.auth.check(auth, gid, keys)

    def log_size(self, gid: str) -> tuple[int, bool]:
        """(size, ended) of a known game, caught up with the store; UNKNOWN_GAME otherwise."""
        with self.games.locked(gid) as live:
            return live.size, live.referee.ended

    def sizes(self, gids: list[str]) -> dict[str, int]:
        """The streams' poll: each watched game's size in the store (the games' freshness learns it too)."""
        out = {g: self.games.store.size(g) for g in gids}
        for g, n in out.items():
            self.games.told(g, n)
        return out


class GameServicer:
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.games = svc.games

    def methods(self) -> list[Method]:
        """Every RPC of GameService: the one table both transports serve (grpc.aio here, Connect and
        gRPC-Web in service/web.py, which leaves out the bidirectional Play)."""
        return [
            Method("CreateGame", UNARY, gs.CreateGameRequest, self.CreateGame),
            Method("SubmitCommand", UNARY, gs.SubmitCommandRequest, self.SubmitCommand, blocking="async"),
            Method("Play", BIDI, gs.PlayRequest, self.Play),
            Method("Watch", SERVER_STREAM, gs.WatchRequest, self.Watch),
            Method("GetState", UNARY, gs.GetStateRequest, self.GetState),
            Method("ListLegalCommands", UNARY, gs.ListLegalCommandsRequest, self.ListLegalCommands,
                   blocking="try"),
            Method("GetServerKey", UNARY, gs.GetServerKeyRequest, self.GetServerKey, blocking=False),
            Method("ListRulesets", UNARY, gs.ListRulesetsRequest, self.ListRulesets, blocking=False),
            Method("ListGames", UNARY, gs.ListGamesRequest, self.ListGames),
        ]

    def handlers(self) -> dict:
        return grpc_handlers(self.svc, self.methods())

    def CreateGame(self, request, context):
        options = options_of(request.options_json)
        keys = {}
        for s in request.seats:
            if s.seat in keys:
                raise Rejection(Code.BAD_SEATS, f"seat {quote(s.seat)} given twice")
            keys[s.seat] = bytes(s.public_key)
        match = None
        if request.HasField("match"):
            m = request.match
            match = match_value(m.label, dict(m.players), m.date)
            if match is None:
                raise Rejection(Code.BAD_MATCH, "match is set but has no label, players or date")
        gid, row = self.games.create(request.game, request.version, request.scenario, options, keys,
                                     match=match, clock=control_of(request))
        events.game_event("created", game=gid, ruleset=request.game, scenario=parse_record(row.raw).body["scenario"],
                          seats=sorted(keys), match=match)
        return gs.CreateGameResponse(game_id=gid, genesis=record_pb(row),
                                     checkpoint=gs.SignedCheckpoint(size=1, note=row.checkpoint),
                                     server_vkey=self.games.vkey)

    def ListGames(self, request, context):
        size = request.page_size or limits.LIST_GAMES_DEFAULT
        if size > limits.MAX_LIST_GAMES:
            raise Rejection(Code.BAD_ARGUMENT, f"page_size is at most {limits.MAX_LIST_GAMES}")
        if request.status not in (gs.GAME_STATUS_UNSPECIFIED, gs.GAME_STATUS_IN_PROGRESS, gs.GAME_STATUS_ENDED):
            raise Rejection(Code.BAD_ARGUMENT, f"status {request.status} is not a GameStatus")
        token = request.page_token
        if len(token) > limits.MAX_PAGE_TOKEN or not all(c in "0123456789abcdef" for c in token):
            raise Rejection(Code.BAD_ARGUMENT, "page_token is a next_page_token of ListGames")
        ended = {gs.GAME_STATUS_IN_PROGRESS: False, gs.GAME_STATUS_ENDED: True}.get(request.status)
        rows = self.games.store.list_games(token, size + 1, ended)
        out = gs.ListGamesResponse(games=[_summary(*r) for r in rows[:size]])
        if len(rows) > size:
            out.next_page_token = rows[size - 1][0]
        return out

    async def SubmitCommand(self, request, context):
        """On the event loop (``GameManager.submit_async``; the pool when it would wait). The command
        is parsed once (``Command``): its bounds, the referee, the receipt and the log line read it."""
        env = None
        try:
            cmd = Command.of(request.command)
            env = cmd.env
            if self.svc.stopping.is_set():
                raise Rejection(Code.SHUTTING_DOWN, "the server is shutting down; retry on another replica")
            async with self.svc.counted():
                res = await self.games.submit_async(cmd, _deadline_ok(context), self.svc.run_counted)
        except Exception as e:
            env = env or envelope_or_none(request.command.envelope)
            events.refused(e, "SubmitCommand", *((env.game_id, env.seat, env.counter) if env else ()))
            self._refusal_receipt(e, request.command, env)
            raise
        events.submitted(res, env.game_id)
        if res.duplicate and res.openings:
            out = await self.svc.run(self._duplicate, request, res)
        else:
            out = self._result(res)
        out.receipt.CopyFrom(self._receipt(request.command, env, None, res))
        return out

    # -- receipts (SPEC.md 7.5) ------------------------------------------------------
    def _receipt(self, cmd, env, code: str | None, res=None, at: int | None = None):
        """The server key's signed receipt for ``cmd`` (parsed: ``env``): accepted (``code`` None,
        ``res`` the Submitted) or refused with ``code``."""
        if at is None:
            at = res.received_ms if res is not None and res.received_ms is not None else self.games.now()
        seq = res.records[0].seq if code is None else 0
        return _receipt.make(self.games.signer_of(env.game_id).sign, cmd.envelope, env, code, seq, at)

    def _refusal_receipt(self, e: Exception, cmd, env) -> None:
        """Attach the receipt to a refusal of a parsed envelope (the status carries it beside the
        ErrorInfo). A failure that is no decision (the store, an internal error) has none: the
        client retries."""
        if env is None or not isinstance(e, Rejection):
            return
        try:
            e.receipt = self._receipt(cmd, env, e.code, at=getattr(e, "received_ms", None))
        except Exception:  # noqa: BLE001 -- a receipt that cannot be made leaves the refusal as it is
            log.exception("receipt not made")

    def _duplicate(self, request, res) -> gs.SubmitCommandResponse:
        """A retry's result: its openings only to the seat that proves it is the command's."""
        out = self._result(res)
        ok = False
        if request.HasField("auth"):
            gid = envelope_or_none(request.command.envelope).game_id
            ok = self.svc.authenticate(gid, request.auth) == res.seat
        if not ok:
            del out.openings[:]
            out.openings_withheld = True
        return out

    def _result(self, res) -> gs.SubmitCommandResponse:
        out = gs.SubmitCommandResponse(records=[record_pb(r) for r in res.records],
                                       checkpoint=checkpoint_pb(res.records[-1]),
                                       openings=[opening_pb(o) for o in res.openings], duplicate=res.duplicate)
        if res.next_decision is not None:
            out.next_decision.CopyFrom(decision_pb(res.next_decision, res.ruleset))
        return out

    # -- streams -------------------------------------------------------------------
    async def Play(self, request_iterator, context):
        svc = self.svc
        try:
            first_raw = await request_iterator.__anext__()
        except StopAsyncIteration:
            return
        first = parse(gs.PlayRequest, first_raw, "first message")
        if first.WhichOneof("kind") != "join":
            raise Rejection(Code.BAD_ARGUMENT, "the first message of Play is a join")
        gid = first.join.game_id
        home = svc.home_elsewhere(gid) if first.join.follow_home else 0
        if home:   # another worker serves this game: the client joins again there
            yield gs.PlayResponse(home=gs.PlayHome(port=home))
            return
        seat = await svc.run_stream(svc.authenticate, gid, first.join.auth)
        size, _ = await svc.run_stream(svc.log_size, gid)
        in_log("from_seq", first.join.from_seq, size, gid)
        wake = svc.feeds.subscribe(gid)
        results: asyncio.Queue = asyncio.Queue(maxsize=8)
        busy = [False]   # the reader is judging a command (its result still to come)
        reader = asyncio.create_task(self._play_reader(request_iterator, gid, seat, results, wake, busy))
        try:
            follow = _follow(svc, gid, first.join.from_seq, wake, seat, results, named=first.join.with_names,
                             judging=busy)
            async for m in (_batched(follow) if first.join.batched else _unbatched(follow)):
                yield m
            while busy[0] or not results.empty():  # the end was sent before the last command's result
                yield (await results.get())[0]
        finally:
            reader.cancel()
            svc.feeds.unsubscribe(gid, wake)

    async def _play_reader(self, it, gid, seat, results: asyncio.Queue, wake: asyncio.Event, busy: list) -> None:
        try:
            async for raw in it:
                busy[0] = True
                try:
                    req = parse(gs.PlayRequest, raw, "message")
                    if req.WhichOneof("kind") != "command":
                        raise Rejection(Code.BAD_ARGUMENT, "after the join, Play takes commands only")
                    out = await self._play_command(req.command, gid, seat)
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001 -- every error becomes a CommandRejected
                    out = (_rejected(e, 0), None)
                await results.put(out)
                busy[0] = False
                wake.set()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 -- the client went away
            log.debug("play reader ended", exc_info=True)

    async def _play_command(self, sc, gid, seat) -> tuple:
        """One command of a Play stream, on the event loop as SubmitCommand's (the pool only when it
        would wait): (the PlayResponse, the Submitted or None). The stream sends the Submitted's
        records and the seat's openings itself (``_follow``), with no read of the store."""
        counter = 0
        env = None
        try:
            cmd = Command.of(sc)
            env = cmd.env
            counter = env.counter
            if env.seat != seat or env.game_id != gid:
                raise Rejection(Code.WRONG_SEAT, f"this Play stream is seat {quote(seat)}'s in game {quote(gid)}")
            if self.svc.stopping.is_set():
                raise Rejection(Code.SHUTTING_DOWN, "the server is shutting down; retry on another replica")
            async with self.svc.counted():
                res = await self.games.submit_async(cmd, _always, self.svc.run_counted)
            events.submitted(res, gid)
            return gs.PlayResponse(accepted=gs.CommandAccepted(counter=res.counter, seqs=[r.seq for r in res.records],
                                                               duplicate=res.duplicate,
                                                               receipt=self._receipt(sc, env, None, res))), res
        except Exception as e:  # noqa: BLE001 -- every error becomes a CommandRejected
            env = env or envelope_or_none(sc.envelope)
            counter = counter or (env.counter if env is not None else 0)
            events.refused(e, "Play", gid, seat, counter)
            out = _rejected(e, counter if counter <= limits.MAX_SEQ else 0)
            self._refusal_receipt(e, sc, env)
            if getattr(e, "receipt", None) is not None:
                out.rejected.receipt.CopyFrom(e.receipt)
            return out, None

    async def Watch(self, raw, context):
        svc = self.svc
        req = parse(gs.WatchRequest, raw)
        gid = req.game_id
        size, ended = await svc.run_stream(svc.log_size, gid)   # NOT_FOUND early
        # with a SeatAuth: that seat's openings and prompts too (a browser's Play: docs/service.md)
        seat = await svc.run_stream(svc.authenticate, gid, req.auth) if req.HasField("auth") else None
        in_log("from_seq", req.from_seq, size, gid)
        if ended and req.from_seq == size:
            return  # everything of an ended game was sent already: OK
        wake = svc.feeds.subscribe(gid)
        try:
            async for item in _unbatched(_follow(svc, gid, req.from_seq, wake, seat, None, self._clocks,
                                                 named=req.with_names)):
                k = item.WhichOneof("kind")
                if k == "record":
                    yield gs.WatchResponse(record=item.record)
                elif k == "checkpoint":
                    yield gs.WatchResponse(checkpoint=item.checkpoint)
                elif k == "opening":
                    yield gs.WatchResponse(opening=item.opening)
                elif k == "your_decision":
                    yield gs.WatchResponse(your_decision=item.your_decision)
                elif k == "clocks":  # SPEC.md 8.2: each seat's time left, after a batch of records
                    yield item
        finally:
            svc.feeds.unsubscribe(gid, wake)

    # -- reads -----------------------------------------------------------------------
    def GetState(self, request, context):
        with self.games.locked(request.game_id) as live:
            seat = self.svc.authenticate(request.game_id, request.auth, live) if request.HasField("auth") else None
            ref = live.referee
            view = ref.ruleset.view(ref.state, seat) if ref.state is not None else {
                "handshake": {"committed": sorted(ref.entropy_commits), "revealed": sorted(ref.entropy)}}
            out = gs.GetStateResponse(state_seq=ref.seq, view=canon.encode(view), view_json=to_json(view),
                                      ended=ref.ended, seat=seat or "", game=ref.ruleset.game)
            d = ref.pending()
            if d is not None:
                out.decision.CopyFrom(decision_pb(d, ref.ruleset))
            if ref.ended:  # an engine ending (SPEC.md 8.1) has its own outcome and cause
                out.outcome_json = to_json(ref.ending[0] if ref.ending else ref.ruleset.outcome(ref.state))
                out.cause_json = to_json(ref.ending[1]) if ref.ending else ""
            clocks = clocks_pb(ref, self.games.now())
            if clocks is not None:
                out.clocks.CopyFrom(clocks)
        return out

    def _clocks(self, gid: str):
        """A Watch's clocks message after a batch of records (the cached referee: no store query)."""
        with self.games.locked(gid, fresh=False) as live:
            c = clocks_pb(live.referee, self.games.now())
        return None if c is None else gs.WatchResponse(clocks=c)

    def ListLegalCommands(self, request, context):
        with self.games.locked(request.game_id) as live:
            seat = self.svc.authenticate(request.game_id, request.auth, live)
            out = gs.ListLegalCommandsResponse(state_seq=live.referee.seq)
            d = live.referee.pending()
            if d is not None:
                out.decision.CopyFrom(decision_pb(d, live.referee.ruleset))
            turn = self.games.seat_turn(live, seat)
            if turn is not None:
                out.commands.extend(turn[1])
                if request.with_names:
                    out.names.extend(names_pb(live.referee, seat, *turn))
        return out

    def GetServerKey(self, request, context):
        return gs.GetServerKeyResponse(vkey=self.games.vkey, key_history=self.svc.key_history)

    def ListRulesets(self, request, context):
        return rulesets_pb()


def home_of(gid: str, workers: int) -> int:
    """The index of game ``gid``'s home among ``workers`` processes: the first 8 bytes of the id's
    SHA-256 as a big-endian number, modulo ``workers`` (the same in every process)."""
    return int.from_bytes(hashlib.sha256(gid.encode()).digest()[:8], "big") % workers


def _always() -> bool:
    return True


def _deadline_ok(context):
    def ok() -> bool:
        t = context.time_remaining()
        return t is None or t > 0
    return ok


def _rejected(e: Exception, counter: int) -> gs.PlayResponse:
    """A refusal inside a Play stream (the stream goes on); unexpected errors are logged with an incident id."""
    from .store import StoreError

    st = status_of(e, "Play")
    reason = e.code if isinstance(e, Rejection) else "STORE_UNAVAILABLE" if isinstance(e, StoreError) else "INTERNAL"
    return gs.PlayResponse(rejected=gs.CommandRejected(counter=counter, code=status_for(reason).value[0],
                                                       reason=reason, message=st.details))


def _snapshot(svc: Service, gid: str, sent: int, seat: str | None, named: bool = False):
    """What a stream sends next: (records from ``sent``, the seat's openings by seq, ended, prompt);
    ``named``: the prompt carries the legal commands' names."""
    games = svc.games
    if seat is not None:  # a seat's stream of a cached game: what was just appended, from the game's tail
        with games.locked(gid, told=True) as live:
            got = live.recent(sent, seat)
            if got is not None and len(got[0]) <= limits.STREAM_BATCH:
                recs, ops = got
                return recs, ops, live.referee.ended, _prompt(live, games, seat, named)
    recs = games.store.records(gid, sent, limits.STREAM_BATCH)
    ops: dict[int, list] = {}
    nxt = recs[-1].seq + 1 if recs else sent
    if seat is None:  # Watch: the end record closes the log (SPEC.md 8)
        ended = bool(recs) and parse_record(recs[-1].raw).kind == "end"
        return recs, ops, ended, None
    if recs:
        for o in games.store.openings(gid, seat, sent, nxt):
            ops.setdefault(o.seq, []).append(o)
    with games.locked(gid) as live:   # asks the store: the records just read may be ahead of what was told
        ended = live.referee.ended and nxt >= live.size
        prompt = _prompt(live, games, seat, named) if nxt >= live.size else None
    return recs, ops, ended, prompt


def _prompt(live, games: GameManager, seat: str, named: bool):
    """The seat's ``your_decision`` (its legal commands in it) if the game waits for it, else None."""
    turn = games.seat_turn(live, seat)
    if turn is None:
        return None
    ref = live.referee
    return gs.PlayResponse(your_decision=gs.YourDecision(
        state_seq=ref.seq, decision=decision_pb(turn[0], ref.ruleset), legal_commands=turn[1],
        names=names_pb(ref, seat, *turn) if named else ()))


async def _read(svc: Service, gid: str, sent: int, seat: str | None, named: bool):
    """``_snapshot`` on the event loop when it need not wait (the game cached, its lock free, the store
    holding nothing newer: indexed reads only); nothing yet while a command of the game is on its way
    to the disk (its append wakes the stream when stored, as the pool's read would have waited for
    it); else in the pool as a stream's work."""
    if seat is not None:
        try:
            with svc.games.inline():
                return _snapshot(svc, gid, sent, seat, named)
        except Appending:   # a command of the game is being stored: its wake brings what there is to send
            return [], {}, False, None
        except WouldWait:
            pass
    return await svc.run_stream(_snapshot, svc, gid, sent, seat, named)


def _own(done: list, sent: int, seat: str):
    """The records of this stream's own accepted commands as the referee made them (``Submitted``),
    if they continue what the stream sent: (records, openings by seq, ended, whether the seat may be
    prompted now), or None (another seat's records came between: the store is read)."""
    recs, ops, nxt = [], {}, None
    for _, res in done:
        if res is None:
            continue
        if res.duplicate or not res.records or res.records[0].seq != sent + len(recs):
            return None
        recs.extend(res.records)
        nxt = res.next_decision
        for o in res.openings:
            ops.setdefault(o.seq, []).append(o)
    if not recs:
        return None
    mine = nxt is not None and nxt.seat in (seat, "*")
    return recs, ops, nxt is None, mine


async def _follow(svc: Service, gid: str, from_seq: int, wake: asyncio.Event, seat: str | None,
                  results: asyncio.Queue | None, tail=None, named: bool = False, judging: list = (False,)):
    """Yield PlayResponses: every record from ``from_seq`` on, each followed by the seat's openings
    in it and the checkpoint after it; command results and decision prompts (Play); until the end
    record was sent (OK), the client leaves, or the server stops (UNAVAILABLE/SHUTTING_DOWN).
    A Play seat's own command: its records come from its result, not the store, and its next
    prompt is looked for only if the next decision is the seat's. While the seat's command is being
    judged (``judging[0]``), a wake (its own append's, stored before the result reaches the stream)
    waits for the result, so the records and the acceptance go as one batch, not two messages."""
    sent = from_seq
    last_prompt = None
    while True:
        if svc.stopping.is_set():  # not a finished stream: tell the client to resume elsewhere
            raise Rejection(Code.SHUTTING_DOWN, "the server is shutting down; resume on another replica")
        wake.clear()
        if judging[0] and results.empty():
            await wake.wait()   # the reader sets it once the result is queued
            continue
        done = []
        while results is not None and not results.empty():
            done.append(results.get_nowait())
        own = _own(done, sent, seat) if done else None
        skipped = own is not None and not (own[3] or own[2])
        if skipped:
            recs, ops, ended, prompt = own[0], own[1], False, None
        else:
            recs, ops, ended, prompt = await _read(svc, gid, sent, seat, named)
        for r in recs:
            yield gs.PlayResponse(record=record_pb(r))
            for o in ops.get(r.seq, ()):
                yield gs.PlayResponse(opening=opening_pb(o))
            yield gs.PlayResponse(checkpoint=checkpoint_pb(r))
        if recs:
            sent = recs[-1].seq + 1
            t = await svc.run_stream(tail, gid) if tail is not None and not ended else None
            if t is not None:
                yield t
        for res, _ in done:
            yield res
            if res.WhichOneof("kind") == "rejected":
                last_prompt = None
        if prompt is not None and (last_prompt is None or last_prompt != (sent, prompt.your_decision.decision.kind)):
            last_prompt = (sent, prompt.your_decision.decision.kind)
            yield prompt
        yield FLUSH
        if ended:
            return
        if len(recs) == limits.STREAM_BATCH:
            continue  # more to send at once
        if skipped and svc.games.ahead(gid, sent):
            continue  # appended after the seat's own command: a wake for it may have been taken meanwhile
        await wake.wait()


FLUSH = object()          # _follow's mark: what was yielded since the last one may go as one message
PLAY_BATCH_BYTES = 1 << 20   # a batch is cut before it passes this size (the clients' 4 MB message limit)


async def _unbatched(follow):
    async for m in follow:
        if m is not FLUSH:
            yield m


async def _batched(follow):
    """``_follow``'s messages, each run up to a FLUSH as one PlayResponse ``batch`` (PlayJoin.batched),
    as serialized bytes (calls._ser sends them as they are): each item is serialized once, not copied
    into a PlayBatch, sized and serialized again inside it."""
    parts, size = [], 0
    async for m in follow:
        if m is FLUSH or size > PLAY_BATCH_BYTES:
            if parts:
                yield parts[0] if len(parts) == 1 else batch_bytes(parts)
            parts, size = [], 0
        if m is not FLUSH:
            b = m.SerializeToString()
            parts.append(b)
            size += len(b)
    if parts:
        yield batch_bytes(parts)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def batch_bytes(parts: list[bytes]) -> bytes:
    """The bytes of ``PlayResponse(batch=PlayBatch(items=...))`` from its items' bytes: field 7 (batch)
    and, inside, field 1 (items) once an item, each length-delimited (protobuf's wire format: a tag
    byte, the length as a varint, the bytes)."""
    inner = b"".join(b"\x0a" + _varint(len(p)) + p for p in parts)
    return b"\x3a" + _varint(len(inner)) + inner
