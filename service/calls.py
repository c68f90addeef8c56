"""The shapes of every handler: requests parsed from raw bytes within service/limits.py,
errors mapped to statuses with ErrorInfo, streams counted. Used by servicer.py and
reflection.py (health, reflection)."""
from __future__ import annotations

import asyncio

import grpc
from google.protobuf.message import DecodeError

from . import limits
from .games import WouldWait
from .status import Refusal, quote, rich_status, status_of


# -- requests: parsed here, within the limits --------------------------------------
_TEXT_LIMITS = {
    "game_id": limits.MAX_GAME_ID_CHARS, "seat": limits.MAX_NAME_CHARS, "game": limits.MAX_NAME_CHARS,
    "version": limits.MAX_NAME_CHARS, "scenario": limits.MAX_NAME_CHARS,
    "options_json": limits.MAX_OPTIONS_JSON_BYTES, "envelope": limits.MAX_ENVELOPE_BYTES,
}
_REPEATED_LIMITS = {"seats": limits.MAX_SEATS}
_STR, _BYTES, _MSG = 9, 12, 11   # FieldDescriptor.TYPE_STRING / TYPE_BYTES / TYPE_MESSAGE


def parse(cls, raw: bytes, what: str = "request"):
    """A request message from its bytes, or a Refusal (REQUEST_TOO_LARGE, MALFORMED, FIELD_TOO_LONG, OUT_OF_RANGE)."""
    if len(raw) > limits.MAX_REQUEST_BYTES:
        raise Refusal("REQUEST_TOO_LARGE", f"the {what} is {len(raw)} bytes; the limit is {limits.MAX_REQUEST_BYTES}",
                      limit=limits.MAX_REQUEST_BYTES, size=len(raw))
    try:
        msg = cls.FromString(raw)
    except (DecodeError, ValueError, RuntimeError):  # includes invalid UTF-8 in a string field
        raise Refusal("MALFORMED", f"the {what} is not a serialized {cls.DESCRIPTOR.full_name} "
                      "(or a string field is not UTF-8)", type=cls.DESCRIPTOR.full_name) from None
    check_fields(msg)
    return msg


def check_fields(msg, prefix: str = "") -> None:
    for fd, v in msg.ListFields():
        name = prefix + fd.name
        repeated = fd.is_repeated
        items = list(v) if repeated else [v]
        if repeated and len(items) > _REPEATED_LIMITS.get(fd.name, limits.MAX_SEATS):
            n = _REPEATED_LIMITS.get(fd.name, limits.MAX_SEATS)
            raise Refusal("FIELD_TOO_LONG", f"{name} has {len(items)} entries; the limit is {n}",
                          field=name, limit=n, size=len(items))
        for x in items:
            if fd.type == _MSG:
                check_fields(x, name + ".")
            elif fd.type in (_STR, _BYTES):
                n = _TEXT_LIMITS.get(fd.name, limits.MAX_FIELD_BYTES)
                if len(x) > n:
                    raise Refusal("FIELD_TOO_LONG", f"{name} is {len(x)} {'characters' if fd.type == _STR else 'bytes'}"
                                  f"; the limit is {n}", field=name, limit=n, size=len(x))
            elif isinstance(x, int) and not isinstance(x, bool) and x > limits.MAX_SEQ:
                raise Refusal("OUT_OF_RANGE", f"{name} is past {limits.MAX_SEQ}", field=name, max=limits.MAX_SEQ)


async def abort(context, st: grpc.Status):
    await context.abort(st.code, st.details, st.trailing_metadata)


def in_log(name: str, v: int, size: int, gid: str) -> None:
    if v > size:
        raise Refusal("OUT_OF_RANGE", f"{name} {v} is past the end of game {quote(gid)}'s log ({size} records)",
                      field=name, size=size)


def unary(svc, rpc: str, cls, fn, blocking: bool | str = True):
    """An async unary handler: parse, run ``fn(request, context)`` in the pool, map every error.
    ``blocking="try"``: a read first tried on the event loop (``GameManager.inline``), in the
    pool only if it would wait (one thread hop less per call in the common case);
    ``blocking="async"``: ``fn`` is a coroutine function run on the loop."""
    async def handler(raw: bytes, context):
        try:
            req = parse(cls, raw)
            if blocking == "async":   # a coroutine function, on the loop
                return await fn(req, context)
            if blocking == "try":
                try:
                    with svc.games.inline():
                        return fn(req, context)
                except WouldWait:
                    pass
            return await svc.run(fn, req, context) if blocking else fn(req, context)
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as e:  # noqa: BLE001 -- every error becomes a status with details
            st = status_of(e, rpc)
        await abort(context, st)
    handler.__name__ = rpc
    return handler


def streaming(svc, rpc: str, body):
    """An async streaming handler around the async generator ``body(request(s), context)``:
    counts against MAX_STREAMS and maps every error to a status with details."""
    async def handler(req, context):
        try:
            svc.open_stream()
        except Refusal as e:
            await abort(context, status_of(e, rpc))
        st = None
        try:
            async for m in body(req, context):
                yield m
        except (asyncio.CancelledError, grpc.aio.AbortError):
            raise
        except Exception as e:  # noqa: BLE001
            st = status_of(e, rpc)
        finally:
            svc.close_stream()
        if st is not None:
            await abort(context, st)
    handler.__name__ = rpc
    return handler


def _ser(m) -> bytes:
    return m.SerializeToString()


def unknown_rpc_handler():
    """A catch-all generic handler: any method no service here has gets UNIMPLEMENTED/UNKNOWN_RPC with details."""
    def make(method: str):
        async def handler(request_iterator, context):
            await abort(context, rich_status("UNKNOWN_RPC", f"no method {quote(method)} on this server", {"rpc": method}))
            yield b""  # pragma: no cover -- makes this an async generator
        return handler

    class _Unknown(grpc.GenericRpcHandler):
        def service(self, handler_call_details):
            m = handler_call_details.method
            m = m.decode(errors="replace") if isinstance(m, bytes) else str(m)
            return grpc.stream_stream_rpc_method_handler(make(m), None, None)
    return _Unknown()
