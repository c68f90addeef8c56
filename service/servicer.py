"""gRPC servicers: thin translation between proto messages and service/games.py."""
from __future__ import annotations

import io
import json
import logging
import queue
import threading

import grpc

from afteraction.engine.crypto import canon
from afteraction.engine.crypto import merkle
from afteraction.engine.errors import CryptoError, Rejection
from afteraction.engine.log.bundle import write_bundle
from afteraction.v1 import audit_service_pb2 as au
from afteraction.v1 import audit_service_pb2_grpc as au_grpc
from afteraction.v1 import game_service_pb2 as gs
from afteraction.v1 import game_service_pb2_grpc as gs_grpc

from .auth import AuthChecker
from .games import GameManager, Internal
from .status import rich_status, status_for
from .store import RecordRow, StoreError

log = logging.getLogger("afteraction.service")
POLL_S = 1.0          # streams re-check the store this often (appends by other processes)
CHUNK = 64 * 1024
MAX_RESPONSE_BYTES = 2 * 1024 * 1024


def to_json(v) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), default=_jsonable)


def _jsonable(v):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    raise TypeError(type(v).__name__)


def decision_pb(d) -> gs.Decision:
    return gs.Decision(seat=d.seat, kind=d.kind, prompt=d.prompt, data_json=to_json(d.data or {}))


def record_pb(r: RecordRow) -> gs.LogRecord:
    return gs.LogRecord(seq=r.seq, record=r.raw, record_hash=r.hash, checkpoint=r.checkpoint)


def opening_pb(o) -> gs.SeatOpening:
    return gs.SeatOpening(seq=o.seq, k=o.k, salt=o.salt, value=o.value, value_json=to_json(canon.decode(o.value)))


def _guard(fn):
    """Map every error to a status with ErrorInfo; never a traceback to the caller."""
    def wrapper(self, request, context):
        try:
            return fn(self, request, context)
        except Rejection as e:
            context.abort_with_status(rich_status(e.code, e.message))
        except Internal as e:
            log.error("internal error: %s", e)
            context.abort_with_status(rich_status("INTERNAL", "the stored log and the referee disagree"))
        except StoreError as e:
            log.error("store error: %s", e)
            context.abort_with_status(rich_status("STORE_UNAVAILABLE", "the store is unavailable; retry"))
    wrapper.__name__ = fn.__name__
    return wrapper


class Service:
    """State shared by both servicers."""

    def __init__(self, games: GameManager) -> None:
        self.games = games
        self.auth = AuthChecker()
        self.stopping = threading.Event()

    def authenticate(self, gid: str, auth: gs.SeatAuth, live=None) -> str:
        keys = live.referee.seat_keys if live is not None else self.games.seat_keys(gid)
        return self.auth.check(auth, gid, keys)


class GameServicer(gs_grpc.GameServiceServicer):
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.games = svc.games

    @_guard
    def CreateGame(self, request, context):
        try:
            options = json.loads(request.options_json) if request.options_json else {}
        except ValueError:
            raise Rejection("BAD_ARGUMENT", "options_json is not JSON") from None
        if not isinstance(options, dict):
            raise Rejection("BAD_ARGUMENT", "options_json must be a JSON object")
        keys = {}
        for s in request.seats:
            if s.seat in keys:
                raise Rejection("BAD_SEATS", f"seat {s.seat} given twice")
            keys[s.seat] = bytes(s.public_key)
        gid, row = self.games.create(request.game, request.version, request.scenario, options, keys)
        return gs.CreateGameResponse(game_id=gid, genesis=record_pb(row),
                                     checkpoint=gs.SignedCheckpoint(size=1, note=row.checkpoint),
                                     server_vkey=self.games.vkey)

    @_guard
    def SubmitCommand(self, request, context):
        if self.svc.stopping.is_set():
            raise Rejection("SHUTTING_DOWN", "the server is shutting down; retry on another replica")
        res = self.games.submit(request.command.SerializeToString(), _deadline_ok(context))
        out = self._result(res)
        if res.duplicate and res.openings:
            ok = False
            if request.HasField("auth"):
                gid = request.command and _gid_of(request.command)
                ok = self.svc.authenticate(gid, request.auth) == res.seat
            if not ok:
                del out.openings[:]
                out.openings_withheld = True
        return out

    def _result(self, res) -> gs.SubmitCommandResponse:
        out = gs.SubmitCommandResponse(records=[record_pb(r) for r in res.records],
                                       checkpoint=gs.SignedCheckpoint(size=res.records[-1].seq + 1,
                                                                      note=res.records[-1].checkpoint),
                                       openings=[opening_pb(o) for o in res.openings], duplicate=res.duplicate)
        if res.next_decision is not None:
            out.next_decision.CopyFrom(decision_pb(res.next_decision))
        return out

    def Play(self, request_iterator, context):
        try:
            first = next(request_iterator)
        except StopIteration:
            return
        try:
            if first.WhichOneof("kind") != "join":
                raise Rejection("BAD_ARGUMENT", "the first message of Play is a join")
            gid = first.join.game_id
            seat = self.svc.authenticate(gid, first.join.auth)
        except Rejection as e:
            context.abort_with_status(rich_status(e.code, e.message))
        except (Internal, StoreError):
            context.abort_with_status(rich_status("STORE_UNAVAILABLE", "the store is unavailable; retry"))
        q: queue.Queue = queue.Queue()
        self.games.listen(gid, q)
        reader = threading.Thread(target=self._play_reader, args=(request_iterator, gid, seat, q, context),
                                  daemon=True, name="aar-play-reader")
        reader.start()
        try:
            yield from _follow(self.svc, gid, first.join.from_seq, q, context, seat)
        finally:
            self.games.unlisten(gid, q)

    def _play_reader(self, it, gid, seat, q, context) -> None:
        try:
            for req in it:
                if req.WhichOneof("kind") != "command":
                    q.put(gs.PlayResponse(rejected=gs.CommandRejected(
                        code=status_for("BAD_ARGUMENT").value[0], reason="BAD_ARGUMENT",
                        message="after the join, Play takes commands only")))
                    continue
                q.put(self._play_command(req.command, gid, seat))
        except grpc.RpcError:
            pass
        except Exception:  # the stream was cancelled under us
            log.debug("play reader ended", exc_info=True)

    def _play_command(self, cmd, gid, seat) -> gs.PlayResponse:
        from afteraction.v1 import envelope_pb2

        counter = 0
        try:
            env = envelope_pb2.CommandEnvelope.FromString(cmd.envelope)
            counter = env.counter
            if env.seat != seat or env.game_id != gid:
                raise Rejection("WRONG_SEAT", f"this Play stream is seat {seat}'s in game {gid}")
            if self.svc.stopping.is_set():
                raise Rejection("SHUTTING_DOWN", "the server is shutting down; retry on another replica")
            res = self.games.submit(cmd.SerializeToString())
            return gs.PlayResponse(accepted=gs.CommandAccepted(counter=res.counter, seqs=[r.seq for r in res.records],
                                                               duplicate=res.duplicate))
        except Exception as e:  # noqa: BLE001 -- every error becomes a CommandRejected
            code, msg = _code_of(e)
            return gs.PlayResponse(rejected=gs.CommandRejected(counter=counter, code=status_for(code).value[0],
                                                               reason=code, message=msg))

    def Watch(self, request, context):
        try:
            self.games.seat_keys(request.game_id)  # NOT_FOUND early
        except Rejection as e:
            context.abort_with_status(rich_status(e.code, e.message))
        q: queue.Queue = queue.Queue()
        self.games.listen(request.game_id, q)
        try:
            for item in _follow(self.svc, request.game_id, request.from_seq, q, context, None):
                k = item.WhichOneof("kind")
                if k == "record":
                    yield gs.WatchResponse(record=item.record)
                elif k == "checkpoint":
                    yield gs.WatchResponse(checkpoint=item.checkpoint)
        finally:
            self.games.unlisten(request.game_id, q)

    @_guard
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
                out.decision.CopyFrom(decision_pb(d))
            if ref.ended:
                out.outcome_json = to_json(ref.ruleset.outcome(ref.state))
        return out

    @_guard
    def ListLegalCommands(self, request, context):
        with self.games.locked(request.game_id) as live:
            seat = self.svc.authenticate(request.game_id, request.auth, live)
            out = gs.ListLegalCommandsResponse(state_seq=live.referee.seq)
            d = live.referee.pending()
            if d is not None:
                out.decision.CopyFrom(decision_pb(d))
            turn = self.games.seat_turn(live, seat)
            if turn is not None:
                out.commands.extend(turn[1])
        return out

    @_guard
    def GetServerKey(self, request, context):
        return gs.GetServerKeyResponse(vkey=self.games.vkey)


def _gid_of(cmd) -> str:
    from afteraction.v1 import envelope_pb2

    return envelope_pb2.CommandEnvelope.FromString(cmd.envelope).game_id


def _deadline_ok(context):
    def ok() -> bool:
        t = context.time_remaining()
        return t is None or t > 0
    return ok


def _code_of(e: Exception) -> tuple[str, str]:
    if isinstance(e, Rejection):
        return e.code, e.message
    if isinstance(e, StoreError):
        return "STORE_UNAVAILABLE", "the store is unavailable; retry"
    log.error("internal error in Play: %r", e)
    return "INTERNAL", "internal error"


def _follow(svc: Service, gid: str, from_seq: int, q: queue.Queue, context, seat: str | None):
    """Yield PlayResponses: records from ``from_seq`` (then live ones), the seat's
    openings, checkpoints, command results and decision prompts, until the game
    has ended and everything was sent, the client leaves, or the server stops."""
    games = svc.games
    sent = from_seq
    last_prompt = None
    q.put(None)  # send what is there at once
    while context.is_active() and not svc.stopping.is_set():
        results = []
        try:
            item = q.get(timeout=POLL_S)
            while True:
                if item is not None:
                    results.append(item)
                item = q.get_nowait()
        except queue.Empty:
            pass
        try:
            recs = games.store.records(gid, sent, 500)
            for r in recs:
                yield gs.PlayResponse(record=record_pb(r))
            if recs:
                if seat is not None:
                    for o in games.store.openings(gid, seat, sent, recs[-1].seq + 1):
                        yield gs.PlayResponse(opening=opening_pb(o))
                sent = recs[-1].seq + 1
                yield gs.PlayResponse(checkpoint=gs.SignedCheckpoint(size=sent, note=recs[-1].checkpoint))
                if len(recs) == 500:
                    q.put(None)  # more to send: come back at once
            for res in results:
                yield res
                if res.WhichOneof("kind") == "rejected":
                    last_prompt = None
            with games.locked(gid) as live:
                ended = live.referee.ended and sent >= live.size
                turn = games.seat_turn(live, seat) if seat is not None and sent >= live.size else None
                prompt = None
                if turn is not None:
                    prompt = gs.PlayResponse(your_decision=gs.YourDecision(
                        state_seq=live.referee.seq, decision=decision_pb(turn[0]), legal_commands=turn[1]))
            if prompt is not None and (last_prompt is None or last_prompt != (sent, prompt.your_decision.decision.kind)):
                last_prompt = (sent, prompt.your_decision.decision.kind)
                yield prompt
            if ended:
                return
        except (Rejection, Internal, StoreError) as e:
            code, msg = (e.code, e.message) if isinstance(e, Rejection) else ("STORE_UNAVAILABLE", str(e))
            context.abort_with_status(rich_status(code, msg))
    if svc.stopping.is_set() and context.is_active():  # not a finished stream: tell the client to resume elsewhere
        context.abort_with_status(rich_status("SHUTTING_DOWN", "the server is shutting down; resume on another replica"))


class AuditServicer(au_grpc.AuditServiceServicer):
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.games = svc.games

    @_guard
    def GetRecords(self, request, context):
        limit = request.limit or 1000
        with self.games.locked(request.game_id) as live:
            size = live.size
        recs = self.games.store.records(request.game_id, request.from_seq, min(limit, 1000))
        out = au.GetRecordsResponse(size=size)
        total = 0
        for r in recs:  # stay well under gRPC's default 4 MiB message limit; the caller asks again
            total += len(r.raw) + len(r.checkpoint) + 48
            if total > MAX_RESPONSE_BYTES and out.records:
                break
            out.records.append(record_pb(r))
        return out

    @_guard
    def GetCheckpoint(self, request, context):
        with self.games.locked(request.game_id):
            last = self.games.store.latest(request.game_id)
        note = self.games.cosigned_note(request.game_id, last.seq + 1, last.checkpoint)  # SPEC.md 4.5
        return au.GetCheckpointResponse(checkpoint=gs.SignedCheckpoint(size=last.seq + 1, note=note))

    @_guard
    def AddCosignature(self, request, context):
        note = self.games.add_cosignature(request.game_id, request.seat, request.size, request.line)
        return au.AddCosignatureResponse(checkpoint=gs.SignedCheckpoint(size=request.size, note=note))

    @_guard
    def GetInclusionProof(self, request, context):
        with self.games.locked(request.game_id) as live:
            leaves = list(live.leaves)
        size = request.tree_size or len(leaves)
        if not request.seq < size <= len(leaves):
            raise Rejection("OUT_OF_RANGE", f"need seq < tree_size <= {len(leaves)}")
        return au.GetInclusionProofResponse(tree_size=size, hashes=merkle.inclusion_proof(leaves[:size], request.seq))

    @_guard
    def GetConsistencyProof(self, request, context):
        with self.games.locked(request.game_id) as live:
            leaves = list(live.leaves)
        to = request.to_size or len(leaves)
        if not 0 < request.from_size <= to <= len(leaves):
            raise Rejection("OUT_OF_RANGE", f"need 0 < from_size <= to_size <= {len(leaves)}")
        try:
            proof = merkle.consistency_proof(leaves[:to], request.from_size)
        except CryptoError as e:
            raise Rejection("OUT_OF_RANGE", str(e)) from None
        return au.GetConsistencyProofResponse(from_size=request.from_size, to_size=to, hashes=proof)

    def ExportBundle(self, request, context):
        try:
            data = self.export(request.game_id)
        except Rejection as e:
            context.abort_with_status(rich_status(e.code, e.message))
        for i in range(0, len(data), CHUNK):
            yield au.ExportBundleResponse(chunk=data[i:i + CHUNK])

    def export(self, gid: str) -> bytes:
        with self.games.locked(gid) as live:
            size = live.size
            ended = live.referee.ended
            vkey = live.referee.genesis.body["server"]["vkey"]
            secret = live.row.secret if ended else None
        out = io.BytesIO()

        def items():
            seq = 0
            while seq < size:
                for r in self.games.store.records(gid, seq, min(1000, size - seq)):
                    # the final checkpoint with the seats' cosignatures of it (SPEC.md 4.5, 9)
                    yield r.raw, (self.games.cosigned_note(gid, size, r.checkpoint) if r.seq == size - 1
                                  else r.checkpoint)
                    seq = r.seq + 1
        write_bundle(out, gid, vkey, items(), size, secret)
        return out.getvalue()

    @_guard
    def GetReveal(self, request, context):
        with self.games.locked(request.game_id) as live:
            if not live.referee.ended:
                raise Rejection("NOT_ENDED", "the server secret is revealed only after the game has ended")
            return au.GetRevealResponse(secret=live.row.secret)
