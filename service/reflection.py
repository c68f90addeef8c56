"""Server reflection under both names clients ask for: ``grpc.reflection.v1``
(newer grpcurl and Postman try it first) and ``grpc.reflection.v1alpha``.

grpcio-reflection ships only the v1alpha service. The v1 protocol is the same
protocol under another package name: its request and response messages have the
same fields with the same numbers, so the v1alpha messages parse and write v1's
bytes, and one servicer answers both.
"""
from __future__ import annotations

import grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2

V1 = "grpc.reflection.v1.ServerReflection"
V1ALPHA = reflection.SERVICE_NAME


def add_reflection(server: grpc.aio.Server, service_names) -> None:
    names = (*service_names, V1, V1ALPHA)
    servicer = reflection.aio.ReflectionServicer(names)
    for svc_name in (V1ALPHA, V1):
        handler = grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            svc_name, {"ServerReflectionInfo": handler}),))
