"""Running the service: key file, store, gRPC server with health and reflection,
graceful shutdown. ``aar serve`` and ``aar demo`` call ``start``."""
from __future__ import annotations

import logging
import os
import signal
import threading
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from afteraction.engine.crypto.note import Signer, parse_skey
from afteraction.engine.errors import CryptoError
from afteraction.v1 import audit_service_pb2, audit_service_pb2_grpc, game_service_pb2, game_service_pb2_grpc

from .games import GameManager
from .servicer import AuditServicer, GameServicer, Service
from .store import Store, StoreError, open_store

log = logging.getLogger("afteraction.service")
DEFAULT_NAME = "afteraction.local"
STOP_SLACK_S = 2.0  # after the grace period, how long stop() waits for gRPC to report its shutdown
SERVICES = (game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
            audit_service_pb2.DESCRIPTOR.services_by_name["AuditService"].full_name)


def load_or_create_key(path: str, name: str = DEFAULT_NAME) -> Signer:
    """The server's checkpoint signing key: read from ``path`` or generated there
    on first start (file mode 0600, the C2SP signer key text)."""
    try:
        with open(path) as f:
            return parse_skey(f.read().strip())
    except FileNotFoundError:
        pass
    except CryptoError as e:
        raise StoreError(f"key file {path} is not a signer key: {e}") from None
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    signer = Signer(name, os.urandom(32))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(signer.skey + "\n")
    return signer


@dataclass
class Running:
    server: grpc.Server
    port: int
    service: Service
    store: Store
    health: health.HealthServicer
    vkey: str

    def stop(self, grace: float = 10.0) -> None:
        """Refuse new commands, let in-flight ones finish (and reach the disk), close the store.

        The wait for gRPC's shutdown is bounded: grpc's sync server never reports the end of
        shutdown once a Play stream got a message it could not deserialize (that call's state
        is never released), and SIGTERM must still stop the server (tests/faults/test_fuzz.py)."""
        self.service.stopping.set()
        self.health.enter_graceful_shutdown()
        if not self.server.stop(grace).wait(grace + STOP_SLACK_S):
            log.warning("gRPC shutdown did not complete %.0f s after the grace period; stopping anyway", STOP_SLACK_S)
        self.store.close()


def start(listen: str = "127.0.0.1:50051", store: str | Store | None = None, key: str | None = None,
          data_dir: str = "data", workers: int = 64, name: str = DEFAULT_NAME, reuseport: bool = False) -> Running:
    """``reuseport``: share the listening port with sibling processes (``aar serve --workers N``)."""
    st = store if isinstance(store, Store) else open_store(store, data_dir)
    signer = load_or_create_key(key or os.path.join(data_dir, "server.key"), name)
    svc = Service(GameManager(st, signer))
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aar-grpc"),
                         options=[("grpc.so_reuseport", 1 if reuseport else 0)])
    game_service_pb2_grpc.add_GameServiceServicer_to_server(GameServicer(svc), server)
    audit_service_pb2_grpc.add_AuditServiceServicer_to_server(AuditServicer(svc), server)
    hs = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(hs, server)
    for s in (*SERVICES, ""):
        hs.set(s, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((*SERVICES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(listen)
    if port == 0:
        st.close()
        raise StoreError(f"cannot listen on {listen}")
    server.start()
    return Running(server, port, svc, st, hs, signer.verifier.vkey)


def wait_for_stop(done: threading.Event) -> None:
    """Block until SIGTERM/SIGINT (or ``done`` is set by someone else); handlers restored after."""
    def on_signal(signum, frame):
        done.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        while not done.wait(0.5):
            pass
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def serve_forever(run: Running, grace: float = 10.0) -> None:
    """Block until SIGTERM/SIGINT, then shut down gracefully."""
    try:
        wait_for_stop(threading.Event())
    finally:
        log.info("shutting down: finishing in-flight commands")
        run.stop(grace)
