"""``aar serve --workers N``: N server processes on one listening address.

Each worker is a whole server (its own gRPC server, GameManager cache and store
connection) started with ``subprocess`` (never a fork after gRPC is initialised)
and bound with SO_REUSEPORT, so the kernel spreads incoming *connections* over
the workers. Each worker also listens on a port of its own (``--homes``): it is the
home of the games whose id hashes to it (servicer.home_of), and a Play join that
follows homes (PlayJoin.follow_home) reaching another worker is sent there, so both
seats of a game are served by one process. Nothing lives only in one process: a worker catches up from the
store before it appends, and appends are optimistic with a uniqueness guarantee
(tests/service/test_races.py), so the workers share one store like replicas.

The parent creates the key file and the store schema once (so the workers do not
race to make them), picks the port once when ``:0`` is given and the workers'
own ports, starts the
workers, waits until each one listens, then prints the single
"listening on HOST:PORT" line. SIGTERM/SIGINT to the parent is passed on to every
worker, each drains its in-flight commands, and the parent waits for all of them.
If one worker dies, the parent stops the others and exits non-zero.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import threading

log = logging.getLogger("afteraction.service")
READY = "worker ready"


def _free_ports(host: str, n: int) -> list[int]:
    """``n`` different free ports on ``host`` (bound with SO_REUSEPORT, as the workers will bind them)."""
    fam = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    socks = [socket.socket(fam, socket.SOCK_STREAM) for _ in range(n)]
    try:
        for s in socks:   # held open together, so the n ports differ
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            s.bind((host.strip("[]"), 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _die_with_parent() -> None:
    """Linux: a worker gets SIGTERM if the parent dies, so no worker outlives it."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # parent already gone before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class Workers:
    """The running workers (``serve_workers`` returns it; ``stop`` drains them all)."""

    def __init__(self, procs: list[subprocess.Popen], host: str, port: int, vkey: str,
                 metrics_dir: str | None = None, homes: tuple[int, ...] = ()) -> None:
        self.procs, self.host, self.port, self.vkey = procs, host, port, vkey
        self.homes = homes      # each worker's own port, in the order of procs (() for one worker)
        self.metrics_dir = metrics_dir  # where the workers write their metrics (PROMETHEUS_MULTIPROC_DIR)

    def stop(self, grace: float = 10.0) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(grace + 10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if self.metrics_dir:  # its live gauges no longer count
                from prometheus_client import multiprocess

                multiprocess.mark_process_dead(p.pid, self.metrics_dir)


def serve_workers(n: int, listen: str, store: str | None, key: str | None, data_dir: str,
                  tls_cert: str | None = None, tls_key: str | None = None, name: str | None = None,
                  metrics: bool = False, log_format: str = "text") -> Workers:
    """Start ``n`` worker processes on ``listen`` (port 0: one free port chosen here). ``metrics``:
    each worker counts into files of a fresh DATA_DIR/metrics (service/metrics.py), which
    ``Workers.metrics_dir`` names for the parent's endpoint."""
    from . import atrest
    from .keyring import DEFAULT_NAME, load_or_create_key
    from .store import StoreError, private_dir
    from .stores import open_store

    key = key or os.path.join(data_dir, "server.key")
    if not store or os.path.abspath(os.path.dirname(key)) == os.path.abspath(data_dir):
        private_dir(data_dir)
    signer = load_or_create_key(key, name or DEFAULT_NAME)  # made once, here, not raced by the workers
    from .league.manager import league_signer

    league_signer(key, signer.name)   # the league key too (service/league/manager.py)
    open_store(store, data_dir, atrest.beside(key)).close()  # schema, data key and migration once
    host, _, port = listen.rpartition(":")
    port_n = int(port) if port else 0
    if port_n == 0:
        port_n = _free_ports(host, 1)[0]
    homes = ",".join(map(str, _free_ports(host, n))) if n > 1 else ""   # each worker's own port (Play's homes)
    procs: list[subprocess.Popen] = []
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    mdir = None
    if metrics:
        from .metrics import multiproc_dir

        mdir = env["PROMETHEUS_MULTIPROC_DIR"] = multiproc_dir(data_dir)
    try:
        for i in range(n):
            cmd = [sys.executable, "-m", "afteraction.service.workers", "--listen", f"{host}:{port_n}",
                   "--key", key, "--data-dir", data_dir]
            if homes:
                cmd += ["--homes", homes, "--home", str(i)]
            if store:
                cmd += ["--store", store]
            if tls_cert or tls_key:
                cmd += ["--tls-cert", tls_cert or "", "--tls-key", tls_key or ""]
            if metrics:
                cmd += ["--metrics"]
            if log_format != "text":
                cmd += ["--log-format", log_format]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env))
        for p in procs:
            line = p.stdout.readline()
            if line.strip() != READY:
                raise StoreError(f"a worker did not start on {host}:{port_n} (exit {p.poll()})")
    except BaseException:
        Workers(procs, host, port_n, "").stop(2)
        raise
    return Workers(procs, host, port_n, signer.verifier.vkey, mdir, tuple(int(p) for p in homes.split(",") if p))


def wait_workers(w: Workers, grace: float = 10.0) -> int:
    """Block until SIGTERM/SIGINT or a worker's death, then stop them all; the exit code."""
    from .server import wait_for_stop

    done = threading.Event()
    lost: list[int] = []

    def watch(p: subprocess.Popen):
        p.wait()
        if not done.is_set():
            lost.append(p.pid)
            done.set()

    for p in w.procs:
        threading.Thread(target=watch, args=(p,), daemon=True).start()
    try:
        wait_for_stop(done)
    finally:
        if lost:
            log.error("worker %s exited; stopping the others", lost[0])
        log.info("shutting down %d workers: finishing in-flight commands", len(w.procs))
        w.stop(grace)
    return 1 if lost else 0


def _worker_main(argv: list[str]) -> int:
    """One worker: a whole server bound with SO_REUSEPORT; says READY on stdout, then only logs (stderr)."""
    ap = argparse.ArgumentParser(prog="afteraction.service.workers")
    ap.add_argument("--listen", required=True)
    ap.add_argument("--store")
    ap.add_argument("--key", required=True)
    ap.add_argument("--data-dir", default="data")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    ap.add_argument("--metrics", action="store_true")
    ap.add_argument("--log-format", choices=("text", "json"), default="text")
    ap.add_argument("--homes", default="", help="every worker's own port, comma-separated")
    ap.add_argument("--home", type=int, default=-1, help="this worker's index in --homes")
    a = ap.parse_args(argv)
    _die_with_parent()
    from .logs import configure

    configure(a.log_format, f"[{os.getpid()}]")
    from .server import serve_forever, start

    from .store import StoreError

    if a.metrics:  # into PROMETHEUS_MULTIPROC_DIR, which the parent set
        from . import metrics

        metrics.enable()
    try:
        run = start(a.listen, a.store, a.key, a.data_dir, reuseport=True, tls_cert=a.tls_cert, tls_key=a.tls_key,
                    homes=tuple(int(p) for p in a.homes.split(",") if p), home=a.home)
    except (RuntimeError, StoreError) as e:  # e.g. the port is held by a process without SO_REUSEPORT
        print(f"worker {os.getpid()}: {e}", file=sys.stderr)
        return 1
    print(READY, flush=True)
    serve_forever(run)
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
