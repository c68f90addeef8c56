// The service's two browser transports (docs/service.md "Browsers"): Connect (default) or gRPC-Web.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { AuditService } from "../gen/afteraction/v1/audit_service_pb.js";
import { GameService } from "../gen/afteraction/v1/game_service_pb.js";
import type { Clients } from "./seat.js";

export function connect(baseUrl: string, protocol: "connect" | "grpc-web" = "connect"): Clients {
  const transport = protocol === "grpc-web"
    ? createGrpcWebTransport({ baseUrl, useBinaryFormat: true })
    : createConnectTransport({ baseUrl, useBinaryFormat: true });
  return { game: createClient(GameService, transport), audit: createClient(AuditService, transport) };
}
