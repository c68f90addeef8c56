"""The shapes of every handler: requests parsed from raw bytes within service/limits.py,
errors mapped to statuses with ErrorInfo, streams counted. Used by servicer.py and
reflection.py (health, reflection)."""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import grpc
from google.protobuf.message import DecodeError

from afteraction.engine.errors import Rejection

from . import limits, metrics
from .games import WouldWait
from .status import Refusal, quote, rich_status, status_of
from afteraction.engine.codes import Code


# -- requests: parsed here, within the limits --------------------------------------
_TEXT_LIMITS = {
    "game_id": limits.MAX_GAME_ID_CHARS, "seat": limits.MAX_NAME_CHARS, "game": limits.MAX_NAME_CHARS,
    "version": limits.MAX_NAME_CHARS, "scenario": limits.MAX_NAME_CHARS,
    "options_json": limits.MAX_OPTIONS_JSON_BYTES, "envelope": limits.MAX_ENVELOPE_BYTES,
    "league_id": limits.MAX_LEAGUE_ID_CHARS, "policy": limits.MAX_LEAGUE_POLICY_BYTES,
    "body": limits.MAX_LEAGUE_STATEMENT_BYTES, "checkpoint": limits.MAX_WITNESS_NOTE_BYTES,
}
_REPEATED_LIMITS = {"seats": limits.MAX_SEATS}
_STR, _BYTES, _MSG = 9, 12, 11   # FieldDescriptor.TYPE_STRING / TYPE_BYTES / TYPE_MESSAGE


def parse(cls, raw: bytes, what: str = "request"):
    """A request message from its bytes, or a Refusal (REQUEST_TOO_LARGE, MALFORMED, FIELD_TOO_LONG, OUT_OF_RANGE)."""
    if len(raw) > limits.MAX_REQUEST_BYTES:
        raise Refusal(Code.REQUEST_TOO_LARGE, f"the {what} is {len(raw)} bytes; the limit is {limits.MAX_REQUEST_BYTES}",
                      limit=limits.MAX_REQUEST_BYTES, size=len(raw))
    try:
        msg = cls.FromString(raw)
    except (DecodeError, ValueError, RuntimeError):  # includes invalid UTF-8 in a string field
        raise Refusal(Code.MALFORMED, f"the {what} is not a serialized {cls.DESCRIPTOR.full_name} "
                      "(or a string field is not UTF-8)", type=cls.DESCRIPTOR.full_name) from None
    check_fields(msg)
    return msg


def check_fields(msg, prefix: str = "") -> None:
    for fd, v in msg.ListFields():
        name = prefix + fd.name
        repeated = fd.is_repeated
        if fd.type == _MSG and fd.message_type.GetOptions().map_entry:  # a map<string, string> (MatchInfo.players)
            if len(v) > limits.MAX_SEATS:
                raise Refusal(Code.FIELD_TOO_LONG, f"{name} has {len(v)} entries; the limit is {limits.MAX_SEATS}",
                              field=name, limit=limits.MAX_SEATS, size=len(v))
            for k, x in v.items():
                for part, n in ((k, limits.MAX_NAME_CHARS), (x, limits.MAX_NAME_CHARS)):
                    if len(part) > n:
                        raise Refusal(Code.FIELD_TOO_LONG, f"an entry of {name} is {len(part)} characters; the limit "
                                      f"is {n}", field=name, limit=n, size=len(part))
            continue
        items = list(v) if repeated else [v]
        if repeated and len(items) > _REPEATED_LIMITS.get(fd.name, limits.MAX_SEATS):
            n = _REPEATED_LIMITS.get(fd.name, limits.MAX_SEATS)
            raise Refusal(Code.FIELD_TOO_LONG, f"{name} has {len(items)} entries; the limit is {n}",
                          field=name, limit=n, size=len(items))
        for x in items:
            if fd.type == _MSG:
                check_fields(x, name + ".")
            elif fd.type in (_STR, _BYTES):
                n = _TEXT_LIMITS.get(fd.name, limits.MAX_FIELD_BYTES)
                if len(x) > n:
                    raise Refusal(Code.FIELD_TOO_LONG, f"{name} is {len(x)} {'characters' if fd.type == _STR else 'bytes'}"
                                  f"; the limit is {n}", field=name, limit=n, size=len(x))
            elif isinstance(x, int) and not isinstance(x, bool) and x > limits.MAX_SEQ:
                raise Refusal(Code.OUT_OF_RANGE, f"{name} is past {limits.MAX_SEQ}", field=name, max=limits.MAX_SEQ)


async def abort(context, st: grpc.Status):
    await context.abort(st.code, st.details, st.trailing_metadata)


def options_of(options_json: str) -> dict:
    """A request's ``options_json`` (already within MAX_OPTIONS_JSON_BYTES): empty is ``{}``, else a
    JSON object, else BAD_ARGUMENT (CreateGame's and the league's OpenRound/ReplayBoard's)."""
    try:
        options = json.loads(options_json) if options_json else {}
    except ValueError:
        raise Rejection(Code.BAD_ARGUMENT, "options_json is not JSON") from None
    if not isinstance(options, dict):
        raise Rejection(Code.BAD_ARGUMENT, "options_json must be a JSON object")
    return options


def in_log(name: str, v: int, size: int, gid: str) -> None:
    if v > size:
        raise Refusal(Code.OUT_OF_RANGE, f"{name} {v} is past the end of game {quote(gid)}'s log ({size} records)",
                      field=name, size=size)


class CallFailed(Exception):
    """A call's refusal as a status with ErrorInfo (``st``), for the transport to send its own way."""

    def __init__(self, st: grpc.Status) -> None:
        super().__init__(st.details)
        self.status = st


def unary_core(svc, rpc: str, cls, fn, blocking: bool | str = True):
    """The transport-independent unary call: parse the raw request, run ``fn(request, context)``
    (in the pool when ``blocking``), map every error to CallFailed. Both transports call this:
    grpc.aio (``unary``) and Connect/gRPC-Web (service/web.py). ``blocking="try"``: a read first
    tried on the event loop (``GameManager.inline``), in the pool only if it would wait (one
    thread hop less per call in the common case); ``blocking="async"``: ``fn`` is a coroutine
    function run on the loop."""
    async def answer(req, context):
        if blocking == "async":   # a coroutine function, on the loop
            return await fn(req, context)
        if blocking == "try":
            try:
                with svc.games.inline():
                    return fn(req, context)
            except WouldWait:
                pass
        return await svc.run(fn, req, context) if blocking else fn(req, context)

    async def core(raw: bytes, context):
        t0 = time.perf_counter() if metrics.ON else 0.0
        try:
            out = await answer(parse(cls, raw), context)
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as e:  # noqa: BLE001 -- every error becomes a status with details
            st = status_of(e, rpc)
            if metrics.ON:
                metrics.call(rpc, reason_of(e), time.perf_counter() - t0)
            raise CallFailed(st) from None
        if metrics.ON:
            metrics.call(rpc, "OK", time.perf_counter() - t0)
        return out
    return core


def reason_of(e: BaseException) -> str:
    """The reason code a refusal's ErrorInfo carries (status_of's): a metric's bounded label."""
    from .store import StoreError

    if isinstance(e, Rejection):
        return e.code
    return "STORE_UNAVAILABLE" if isinstance(e, StoreError) else "INTERNAL"


def streaming_core(svc, rpc: str, body):
    """The transport-independent streaming call around the async generator ``body(request(s), context)``:
    counts against MAX_STREAMS and maps every error to CallFailed (after what was yielded)."""
    async def core(req, context):
        try:
            svc.open_stream()
        except Refusal as e:
            if metrics.ON:
                metrics.call(rpc, e.code)
            raise CallFailed(status_of(e, rpc)) from None
        st = None
        metrics.STREAMS.inc()
        messages = body(req, context)
        try:
            async for m in messages:
                yield m
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as e:  # noqa: BLE001
            st = status_of(e, rpc)
            if metrics.ON:
                metrics.call(rpc, reason_of(e))
        else:
            if metrics.ON:
                metrics.call(rpc, "OK")
        finally:
            try:
                await messages.aclose()   # its finally blocks now (a stream left early), not at collection
            finally:
                svc.close_stream()
                metrics.STREAMS.dec()
        if st is not None:
            raise CallFailed(st)
    return core


def unary(svc, rpc: str, cls, fn, blocking: bool | str = True):
    """An async grpc.aio unary handler around ``unary_core``."""
    core = unary_core(svc, rpc, cls, fn, blocking)

    async def handler(raw: bytes, context):
        try:
            return await core(raw, context)
        except CallFailed as e:
            st = e.status
        await abort(context, st)
    handler.__name__ = rpc
    return handler


def streaming(svc, rpc: str, body):
    """An async grpc.aio streaming handler around ``streaming_core``, with the gRPC port's budget of
    a stream whose client stops reading (docs/service-limits.md ``STALLED_STREAM_S``): HTTP/2 flow
    control pauses its writes (the stream then holds one message and what it read of the store);
    a message that waits STALLED_STREAM_S to be taken ends the stream RESOURCE_EXHAUSTED/SLOW_READER."""
    core = streaming_core(svc, rpc, body)

    async def handler(req, context):
        task = asyncio.current_task()
        stalled = []

        def stall() -> None:   # the write waited too long: interrupt it (it stays queued in gRPC)
            stalled.append(True)
            task.cancel()

        st = None
        messages = core(req, context)
        try:
            async for m in messages:
                timer = task.get_loop().call_later(limits.STALLED_STREAM_S, stall)
                try:
                    await context.write(m)
                finally:
                    timer.cancel()
        except CallFailed as e:
            st = e.status
        except asyncio.CancelledError:
            if not stalled:
                raise
            task.uncancel()
            st = slow_reader(rpc)
        finally:
            await messages.aclose()   # the body's store reads and its count of open streams end here
        if st is not None:
            await _abort_or_leave(context, st)
    handler.__name__ = rpc
    return handler


def slow_reader(rpc: str) -> grpc.Status:
    """The status of a stream dropped because its client read nothing for STALLED_STREAM_S."""
    n = limits.STALLED_STREAM_S
    if metrics.ON:
        metrics.call(rpc, "SLOW_READER")
    return status_of(Refusal(Code.SLOW_READER, f"this stream's client read nothing for {n} s while a message waited "
                             "for it: the stream is ended; open it again from the next record", limit=n), rpc)


async def _abort_or_leave(context, st: grpc.Status) -> None:
    """End the call with ``st``. A client that reads nothing does not take the status either: it
    stays queued in gRPC behind the message that waited (the client meets it when it reads) and the
    handler leaves, keeping nothing of the stream."""
    try:
        await asyncio.wait_for(abort(context, st), ABORT_WAIT_S)
    except asyncio.TimeoutError:
        raise asyncio.CancelledError from None


ABORT_WAIT_S = 1.0   # how long a stream's handler waits for its error status to be taken


def _ser(m) -> bytes:
    """A response's bytes; a stream may yield its messages serialized already (servicer._batched)."""
    return m if type(m) is bytes else m.SerializeToString()


UNARY, SERVER_STREAM, BIDI = "unary", "server_stream", "bidi"


@dataclass(frozen=True)
class Method:
    """One RPC: its name, shape, request message and the function (or async generator) behind it.
    A unary ``fn(request, context)`` gets the parsed request; a stream's ``fn`` the raw bytes (or
    their iterator) and parses them itself."""
    name: str
    kind: str
    request: type
    fn: object
    blocking: bool | str = True  # True: in the pool; False: on the loop; "try"/"async": see unary_core


def grpc_handlers(svc, methods: list[Method]) -> dict:
    """The grpc.aio method handlers of a service's table."""
    out = {}
    for m in methods:
        if m.kind == UNARY:
            out[m.name] = grpc.unary_unary_rpc_method_handler(
                unary(svc, m.name, m.request, m.fn, m.blocking), None, _ser)
        elif m.kind == SERVER_STREAM:
            out[m.name] = grpc.unary_stream_rpc_method_handler(streaming(svc, m.name, m.fn), None, _ser)
        else:
            out[m.name] = grpc.stream_stream_rpc_method_handler(streaming(svc, m.name, m.fn), None, _ser)
    return out


def unknown_rpc_handler():
    """A catch-all generic handler: any method no service here has gets UNIMPLEMENTED/UNKNOWN_RPC with details."""
    def make(method: str):
        async def handler(request_iterator, context):
            await abort(context, rich_status(Code.UNKNOWN_RPC, f"no method {quote(method)} on this server", {"rpc": method}))
            yield b""  # pragma: no cover -- makes this an async generator
        return handler

    class _Unknown(grpc.GenericRpcHandler):
        def service(self, handler_call_details):
            m = handler_call_details.method
            m = m.decode(errors="replace") if isinstance(m, bytes) else str(m)
            return grpc.stream_stream_rpc_method_handler(make(m), None, None)
    return _Unknown()
