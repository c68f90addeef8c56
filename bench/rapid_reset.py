"""Another client's calls during an HTTP/2 rapid reset (docs/service-limits.md, "Rapid reset"). Not
a benchmark of `make bench` (no ``bench_`` prefix): the measurement behind that section's table.

    python bench/rapid_reset.py [--streams 40000] [--runs 3] [--option NAME=VALUE ...]

`aar serve` in its own process on a temp SQLite store; a client calls ``GetServerKey`` every 10 ms
while one connection opens ``--streams`` streams and resets each at once (the hand-written frames of
tests/service/test_rapid_reset.py, ``attack``); prints, per run, that client's failed calls before,
during (from the first frame to 0.5 s after the last) and after the attack. ``--option`` replaces
one of the server's gRPC channel arguments (``server_options``, service/server.py) for the run, or
drops it with ``NAME=none``: e.g. ``--option grpc.http.overload_protection=0`` is the server as it
was before MAX_ENDED_STREAMS.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "service"))

from bench import bench_service as base  # noqa: E402

OPTIONS = '''
import json, os
try:
    from afteraction.service import server as _srv
    _orig, _over = _srv.server_options, json.loads(os.environ["AAR_RR_OPTIONS"])
    def server_options(reuseport):
        return [(k, v) for k, v in _orig(reuseport) if k not in _over] + \\
               [(k, v) for k, v in _over.items() if v is not None]
    _srv.server_options = server_options
except ImportError:
    pass
'''


def _serve(options: dict, tmp: str):
    env = dict(os.environ)
    if options:
        import json

        with open(os.path.join(tmp, "sitecustomize.py"), "w") as f:
            f.write(OPTIONS)
        os.environ["PYTHONPATH"] = tmp + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        os.environ["AAR_RR_OPTIONS"] = json.dumps(options)
    try:
        return base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                            "--store", f"sqlite:{os.path.join(tmp, 's.sqlite')}", "--data-dir", tmp])
    finally:
        os.environ.clear()
        os.environ.update(env)


def one_run(streams: int, options: dict) -> str:
    import grpc

    from afteraction.v1 import game_service_pb2 as gs
    from afteraction.v1 import game_service_pb2_grpc as gsg
    from test_rapid_reset import attack

    with tempfile.TemporaryDirectory() as tmp:
        proc, target = _serve(options, tmp)
        ch = grpc.insecure_channel(target)
        stub = gsg.GameServiceStub(ch)
        stub.GetServerKey(gs.GetServerKeyRequest(), timeout=10)
        stop, log = threading.Event(), []

        def other() -> None:
            while not stop.is_set():
                t = time.monotonic()
                try:
                    stub.GetServerKey(gs.GetServerKeyRequest(), timeout=10)
                    log.append((t, None))
                except grpc.RpcError as e:
                    log.append((t, e.code().name))
                time.sleep(0.01)
        th = threading.Thread(target=other)
        th.start()
        time.sleep(0.3)
        host, port = target.rsplit(":", 1)
        t0 = time.monotonic()
        attack(host, int(port), streams)   # sends, then keeps the connection 0.5 s
        t1 = time.monotonic()
        time.sleep(0.5)
        stop.set()
        th.join()
        ch.close()
        base._stop(proc)

    def failed(a: float, b: float) -> str:
        xs = [code for t, code in log if a <= t < b]
        bad = [c for c in xs if c is not None]
        return f"{len(bad)} of {len(xs)} failed" + (f" ({', '.join(sorted(set(bad)))})" if bad else "")
    return f"attack {t1 - t0:.2f} s: before {failed(0, t0)}; during {failed(t0, t1)}; after {failed(t1, 1e18)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=40_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    a = ap.parse_args()
    options = {}
    for o in a.option:
        k, _, v = o.partition("=")
        options[k] = None if v == "none" else int(v)
    print(f"rapid reset: {a.streams} streams on one connection, server options changed: {options or 'none'}")
    for i in range(a.runs):
        print(f"run {i + 1}: {one_run(a.streams, options)}", flush=True)


if __name__ == "__main__":
    main()
