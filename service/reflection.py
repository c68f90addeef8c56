"""Health checking and server reflection, held to the service's rules: raw
request bytes parsed within the limits, every error a status with an ErrorInfo,
their streams counted against MAX_STREAMS.

Reflection answers under both names clients ask for: ``grpc.reflection.v1``
(newer grpcurl and Postman try it first) and ``grpc.reflection.v1alpha``.
grpcio-reflection ships only the v1alpha service. The v1 protocol is the same
protocol under another package name: its request and response messages have the
same fields with the same numbers, so the v1alpha messages parse and write v1's
bytes, and one servicer answers both.
"""
from __future__ import annotations

import grpc
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection, reflection_pb2

from . import limits
from .calls import parse, streaming, unary
from .servicer import Service
from .status import Refusal, quote
from afteraction.engine.codes import Code

V1 = "grpc.reflection.v1.ServerReflection"
V1ALPHA = reflection.SERVICE_NAME


def _ser(m) -> bytes:
    return m.SerializeToString()


def _parse(raw: bytes, package: str):
    """A reflection request of ``package`` (v1 or v1alpha: the same fields); a refusal names the
    package the caller asked, not the v1alpha message that parses both."""
    try:
        return parse(reflection_pb2.ServerReflectionRequest, raw, "message")
    except Refusal as e:
        if package == "grpc.reflection.v1alpha" or e.code != "MALFORMED":
            raise
        name = f"{package}.ServerReflectionRequest"
        raise Refusal(Code.MALFORMED, e.message.replace(reflection_pb2.ServerReflectionRequest.DESCRIPTOR.full_name, name),
                      type=name) from None


def add_reflection(server: grpc.aio.Server, svc: Service, service_names) -> None:
    servicer = reflection.aio.ReflectionServicer((*service_names, V1, V1ALPHA))

    def info_of(package: str):
        async def info(request_iterator, context):
            async def parsed():
                n = 0
                async for raw in request_iterator:
                    n += 1
                    if n > limits.MAX_REFLECTION_REQUESTS:
                        raise Refusal(Code.OVERLOADED, f"a reflection stream answers at most "
                                      f"{limits.MAX_REFLECTION_REQUESTS} requests; open another stream",
                                      limit=limits.MAX_REFLECTION_REQUESTS)
                    yield _parse(raw, package)
            async for m in servicer.ServerReflectionInfo(parsed(), context):
                yield m
        return info

    for name in (V1ALPHA, V1):
        info = info_of(name.rsplit(".", 1)[0])
        handler = grpc.stream_stream_rpc_method_handler(streaming(svc, "ServerReflectionInfo", info), None, _ser)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            name, {"ServerReflectionInfo": handler}),))


def add_health(server: grpc.aio.Server, svc: Service, hs: "health.aio.HealthServicer") -> None:
    """``grpc.health.v1.Health`` answered by grpc_health's aio servicer ``hs`` (its statuses)."""
    def check(req, context):
        status = hs._server_status.get(req.service)
        if status is None:
            raise Refusal(Code.UNKNOWN_SERVICE, f"no service {quote(req.service)} on this server", service=req.service)
        return health_pb2.HealthCheckResponse(status=status)

    async def watch(raw, context):
        req = parse(health_pb2.HealthCheckRequest, raw)
        async for m in hs.Watch(req, context):
            yield m

    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(health.SERVICE_NAME, {
        "Check": grpc.unary_unary_rpc_method_handler(
            unary(svc, "Check", health_pb2.HealthCheckRequest, check, blocking=False), None, _ser),
        "Watch": grpc.unary_stream_rpc_method_handler(streaming(svc, "Watch", watch), None, _ser),
    }),))
