"""Running the service: key file, store, gRPC (grpc.aio) server with health, reflection
(v1 and v1alpha), optional TLS, graceful shutdown. ``aar serve`` and ``aar demo`` call ``start``."""
from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys
import threading
from concurrent import futures
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2

from afteraction.engine.crypto.note import Signer, parse_skey
from afteraction.engine.errors import CryptoError
from afteraction.v1 import audit_service_pb2, game_service_pb2, league_service_pb2

from . import atrest, limits
from .calls import unknown_rpc_handler
from .games import GameManager
from .keyring import DEFAULT_NAME, load_or_create, load_or_create_key  # noqa: F401  (server.load_or_create_key: tests)
from .reflection import add_health, add_reflection
from .audit_servicer import AuditServicer
from .servicer import GameServicer, Service
from .store import Store, StoreError, private_dir
from .stores import open_store

log = logging.getLogger("afteraction.service")
STOP_SLACK_S = 10.0  # after the grace period, how long stop() waits for the server to report its shutdown
GIL_SWITCH_S = 0.001  # sys.setswitchinterval of a server process (see start)
SERVICES = (game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
            audit_service_pb2.DESCRIPTOR.services_by_name["AuditService"].full_name,
            league_service_pb2.DESCRIPTOR.services_by_name["LeagueService"].full_name)


@dataclass
class Running:
    server: grpc.aio.Server
    port: int
    service: Service
    store: Store
    health: object          # grpc_health's aio HealthServicer
    vkey: str
    loop: asyncio.AbstractEventLoop = None
    thread: threading.Thread = None
    pool: futures.ThreadPoolExecutor = None
    tls: bool = False
    web: object = None      # the web transport (service/web.py WebServer), when started
    _stop_lock: threading.Lock = field(default_factory=threading.Lock)
    _stopped: bool = False

    def call(self, coro, timeout: float | None = None):
        """Run ``coro`` on the server's event loop from another thread; its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self, grace: float = 10.0) -> None:
        """Refuse new commands, end open streams (UNAVAILABLE/SHUTTING_DOWN), let in-flight
        commands finish (and reach the disk), close the store. Safe to call from several
        threads at once: later callers wait for the first one's stop to finish."""
        with self._stop_lock:
            if self._stopped:
                return
            self.service.stopping.set()
            try:
                self.call(self._stop(grace), grace + STOP_SLACK_S)
            finally:
                self.pool.shutdown(wait=True)   # a command whose client left still finishes its append
                self.loop.call_soon_threadsafe(self.loop.stop)
                self.thread.join(10)
                self.store.close()
                self._stopped = True

    @property
    def web_port(self) -> int | None:
        return self.web.port if self.web is not None else None

    async def _stop(self, grace: float) -> None:
        await self.health.enter_graceful_shutdown()
        self.service.feeds.wake_all()
        if self.web is not None:
            await asyncio.gather(self.server.stop(grace), self.web.stop(grace))
        else:
            await self.server.stop(grace)
        for task in (getattr(self.service, "poller", None), getattr(self.service, "sweeper", None),
                     getattr(self.service, "league_timer", None)):
            if task is not None:
                task.cancel()


def server_options(reuseport: bool) -> list[tuple[str, int]]:
    """The gRPC channel arguments that carry service/limits.py's transport limits."""
    return [
        ("grpc.so_reuseport", 1 if reuseport else 0),
        ("grpc.max_concurrent_streams", limits.MAX_STREAMS_PER_CONNECTION),
        # gRPC's "overload protection" counts a stream its client ended until the server has freed it, and
        # refuses the connection's next streams past the bound of such streams: without it, a client that
        # opens and resets streams as fast as it can write ("rapid reset") piled up calls that other
        # clients' calls were cancelled behind. The bound is MAX_ENDED_STREAMS, not gRPC's default, which
        # refused a client's next stream (UNAVAILABLE) as soon as it had a few streams ended and not freed
        ("grpc.http.overload_protection", 1),
        ("grpc.http2.max_deallocating_streams", limits.MAX_ENDED_STREAMS),
        ("grpc.max_receive_message_length", limits.TRANSPORT_MAX_RECEIVE_BYTES),
        ("grpc.max_send_message_length", 4 * limits.MAX_RESPONSE_BYTES),
        ("grpc.keepalive_time_ms", limits.KEEPALIVE_TIME_MS),
        ("grpc.keepalive_timeout_ms", limits.KEEPALIVE_TIMEOUT_MS),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", limits.MIN_CLIENT_PING_INTERVAL_MS),
        ("grpc.http2.max_ping_strikes", 2),
        ("grpc.max_connection_idle_ms", limits.MAX_CONNECTION_IDLE_MS),
    ]


def check_tls(cert: str, key: str) -> tuple[bytes, bytes]:
    """The PEM certificate chain and private key of ``aar serve --tls-cert/--tls-key``, each checked
    here (OpenSSL, the ``ssl`` module) so that a bad one is a one-line StoreError naming the file and
    the cause, before anything is created on disk (gRPC itself only says it cannot listen)."""
    import ssl

    out = []
    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        try:
            with open(path, "rb") as f:
                out.append(f.read(1 << 20))
        except OSError as e:
            raise StoreError(f"{flag}: cannot read {path}: {e.strerror or e}") from None
    chain, pkey = out
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_verify_locations(cadata=chain.decode("ascii", "replace"))
    except (ssl.SSLError, ValueError):
        raise StoreError(f"--tls-cert: {cert} holds no PEM certificate (-----BEGIN CERTIFICATE-----): give the "
                         f"server's certificate chain, e.g. fullchain.pem") from None
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
    except ssl.SSLError as e:
        if getattr(e, "reason", None) == "KEY_VALUES_MISMATCH":
            raise StoreError(f"--tls-key: {key} is not the private key of the certificate in {cert}: give the key "
                             f"the certificate was issued for") from None
        raise StoreError(f"--tls-key: {key} holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----): "
                         f"give the certificate's key, e.g. privkey.pem") from None
    return chain, pkey


def read_tls(cert: str | None, key: str | None):
    """Server credentials from PEM files (checked: ``check_tls``), or None for plaintext."""
    if not cert and not key:
        return None
    if not (cert and key):
        raise StoreError("TLS needs both --tls-cert and --tls-key")
    chain, pkey = check_tls(cert, key)
    return grpc.ssl_server_credentials([(pkey, chain)])


def listen_problem(host: str, port: int, flag: str = "--listen") -> str | None:
    """Why ``host:port`` cannot be listened on, in words with what to do, or None when it can: a
    trial bind as gRPC and the web port bind (SO_REUSEADDR), made before anything starts, so that a
    busy port is named as such and not as gRPC's own ``add_port.cc`` lines."""
    import errno
    import socket

    h = host.strip("[]")
    where = f"{flag} {host}:{port}"
    try:
        infos = socket.getaddrinfo(h, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return f"{where}: the host {h!r} does not resolve ({e.strerror}): give an address of this machine, " \
               f"e.g. 127.0.0.1, or 0.0.0.0 for every interface"
    for fam, typ, proto, _, addr in infos[:1]:
        with socket.socket(fam, typ, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(addr)
            except OSError as e:
                if e.errno == errno.EADDRINUSE:
                    return f"{where}: the port is in use by another process (stop it, or choose another port; " \
                           f"port 0 picks a free one)"
                if e.errno == errno.EADDRNOTAVAIL:
                    return f"{where}: {h} is not an address of this machine (use one it has, e.g. 127.0.0.1, " \
                           f"or 0.0.0.0 for every interface)"
                if e.errno == errno.EACCES:
                    return f"{where}: permission denied (ports below 1024 need privileges: choose a port " \
                           f"of 1024 or more)"
                return f"{where}: cannot listen there ({e.strerror or e})"
    return None


def start(listen: str = "127.0.0.1:50051", store: str | Store | None = None, key: str | None = None,
          data_dir: str = "data", workers: int = limits.EXECUTOR_THREADS, name: str = DEFAULT_NAME,
          reuseport: bool = False, tls_cert: str | None = None, tls_key: str | None = None,
          web_listen: str | None = None, web_origins: tuple[str, ...] = (), web_page=None, now=None,
          homes: tuple[int, ...] = (), home: int = -1) -> Running:
    """A grpc.aio server on its own event-loop thread; the blocking work runs in a pool of
    ``workers`` threads. ``reuseport``: share the listening port with sibling processes
    (``aar serve --workers N``). ``tls_cert``/``tls_key``: PEM files; plaintext without them.
    ``web_listen``: also serve the RPCs over Connect and gRPC-Web there (service/web.py), with CORS
    for ``web_origins`` only; ``web_page``: the ASGI app of every other path there (the web client).

    The data directory is made (or tightened to) 0700; the store's private columns are encrypted
    under the data key beside the server key (``atrest.py``, docs/service.md). ``now``: the service's
    clock, a function giving milliseconds since the epoch (SPEC.md 8.2; default the wall clock).
    ``homes``, ``home``: every worker's own port and this one's index (``aar serve --workers N``):
    this process also listens on ``homes[home]`` of the same host, and sends a Play join that
    follows homes to its game's home (``Service.home_elsewhere``)."""
    creds = read_tls(tls_cert, tls_key)
    # The loop thread runs the commands and the store's writer thread needs the GIL back after
    # every SQLite statement: hand it over within GIL_SWITCH_S, not CPython's default 5 ms.
    sys.setswitchinterval(GIL_SWITCH_S)
    key = key or os.path.join(data_dir, "server.key")
    if store is None or store == "" or os.path.abspath(os.path.dirname(key)) == os.path.abspath(data_dir):
        private_dir(data_dir)
    ring = load_or_create(key, name)   # every key of the ring signs its own games; new ones the newest
    signer = ring.newest
    st = store if isinstance(store, Store) else open_store(store, data_dir, atrest.beside(key))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="aar-grpc-loop", daemon=True)
    thread.start()
    pool = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aar-work")
    svc = Service(GameManager(st, signer, ring=ring.signers, **({} if now is None else {"now": now})), pool, loop)
    svc.key_history = ring.history   # GetServerKey's key_history (SPEC.md 4.6)
    svc.homes, svc.home = tuple(homes), home
    from .league.manager import LeagueManager, league_signer   # the LeagueService's leagues (service/league/manager.py)

    svc.league = LeagueManager(st, svc.games, league_signer(key, signer.name), AuditServicer(svc).export)
    try:
        server, port, hs, poller, web = asyncio.run_coroutine_threadsafe(
            _start(svc, listen, creds, reuseport, web_listen, web_origins, web_page), loop).result(30)
    except BaseException:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        pool.shutdown()
        st.close()
        raise
    svc.poller = poller
    return Running(server, port, svc, st, hs, signer.verifier.vkey, loop, thread, pool, creds is not None, web)


async def _start(svc: Service, listen: str, creds, reuseport: bool, web_listen=None, web_origins=(), web_page=None):
    server = grpc.aio.server(options=server_options(reuseport))
    from .league.servicer import LeagueServicer

    game, audit, league = GameServicer(svc), AuditServicer(svc), LeagueServicer(svc, svc.league)
    server.add_generic_rpc_handlers((
        grpc.method_handlers_generic_handler(SERVICES[0], game.handlers()),
        grpc.method_handlers_generic_handler(SERVICES[1], audit.handlers()),
        grpc.method_handlers_generic_handler(SERVICES[2], league.handlers()),
    ))
    hs = health.aio.HealthServicer()
    add_health(server, svc, hs)
    for s in (*SERVICES, ""):
        await hs.set(s, health_pb2.HealthCheckResponse.SERVING)
    add_reflection(server, svc, (*SERVICES, health.SERVICE_NAME))
    server.add_generic_rpc_handlers((unknown_rpc_handler(),))
    port = _add_port(server, listen, creds)
    if svc.homes:   # this worker's own port, where the games whose home it is are joined (Play)
        _add_port(server, f"{listen.rpartition(':')[0]}:{svc.homes[svc.home]}", creds)
    web = None
    if web_listen:   # the same methods, over Connect and gRPC-Web (service/web.py)
        from .web import WebApp, WebServer

        descs = (game_service_pb2.DESCRIPTOR.services_by_name["GameService"],
                 audit_service_pb2.DESCRIPTOR.services_by_name["AuditService"],
                 league_service_pb2.DESCRIPTOR.services_by_name["LeagueService"])
        app = WebApp(svc, [(SERVICES[0], descs[0], game.methods()), (SERVICES[1], descs[1], audit.methods()),
                           (SERVICES[2], descs[2], league.methods())], web_origins, web_page)
        try:
            web = WebServer(app, web_listen)
        except OSError as e:
            await server.stop(0)
            raise StoreError(str(e)) from None
    await server.start()
    if web is not None:
        await web.start()
    poller = asyncio.get_running_loop().create_task(
        svc.feeds.poll_forever(svc.run_stream, svc.sizes, svc.games.store))
    svc.sweeper = asyncio.get_running_loop().create_task(sweep_forever(svc))
    svc.league_timer = asyncio.get_running_loop().create_task(svc.league.run_forever(svc))   # service/league/manager.py
    return server, port, hs, poller, web


def _add_port(server, listen: str, creds) -> int:
    """Listen on ``listen`` (TLS with ``creds``); the port, or StoreError saying why it cannot."""
    try:
        port = server.add_secure_port(listen, creds) if creds is not None else server.add_insecure_port(listen)
    except RuntimeError:
        port = 0
    if port == 0:
        host, _, p = listen.rpartition(":")
        why = listen_problem(host, int(p)) if p.isdigit() else None
        raise StoreError(why or f"cannot listen on {listen}")
    return port


async def sweep_forever(svc: Service) -> None:
    """The timer of time controls (SPEC.md 8.2): every CLOCK_SWEEP_S, end the cached games whose
    deadline passed (any other game ends at its next request)."""
    while True:
        await asyncio.sleep(limits.CLOCK_SWEEP_S)
        try:
            await svc.run_stream(svc.games.sweep)
        except Exception as e:  # noqa: BLE001 -- the store is down: the next sweep tries again
            log.warning("clock sweep failed: %s", type(e).__name__)


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
    """Block until SIGTERM/SIGINT, then shut down gracefully. A process that only serves (``aar
    serve`` and each of its ``--workers``) first moves everything made so far (modules, protobuf
    descriptors, rulesets, the registry: they live as long as the process) out of the collector's
    generations, so a full collection under load walks only what the games allocated since: a
    pause of 7-10 ms instead of 48-99 ms at 100 games (docs/service.md). Not in ``start``: a
    process that starts servers among other work (tests, ``aar demo``) keeps its own collector."""
    gc.collect()
    gc.freeze()
    try:
        wait_for_stop(threading.Event())
    finally:
        log.info("shutting down: finishing in-flight commands")
        run.stop(grace)
