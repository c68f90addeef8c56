"""Prometheus metrics of ``aar serve --metrics-listen HOST:PORT`` (docs/operations.md lists each).

Off by default: every metric below is then ``NULL``, whose methods do nothing, so a server without
the flag pays one attribute lookup and call per hook. ``enable()`` makes them real
(``prometheus_client``); ``serve()`` exposes them at ``http://HOST:PORT/metrics``.

``--workers N``: each worker process writes its values into files of one directory
(``PROMETHEUS_MULTIPROC_DIR``, set by the parent before it starts the workers), and the parent
alone serves the sum over the workers (``prometheus_client.multiprocess``), so a scrape counts every
worker whichever got the connection. Gauges there are summed over the live workers (``livesum``).

What is never a label: a game id, a seat, a key, a message, an opening: the labels are the RPC's
name, the ruleset's name, a reason code of engine/codes.py (a bounded set) and an ending's kind.
"""
from __future__ import annotations

import os


class _Null:
    """A metric that is off: every method does nothing."""

    def labels(self, *a, **k):
        return self

    def inc(self, *a, **k) -> None:
        pass

    def dec(self, *a, **k) -> None:
        pass

    def set(self, *a, **k) -> None:
        pass

    def observe(self, *a, **k) -> None:
        pass


NULL = _Null()
ON = False
CALLS = NULL            # aar_rpc_calls_total{rpc, reason}
CALL_SECONDS = NULL     # aar_rpc_seconds{rpc}
STREAMS = NULL          # aar_open_streams
COMMANDS = NULL         # aar_commands_total{game}
APPEND_SECONDS = NULL   # aar_append_seconds
ENDINGS = NULL          # aar_endings_written_total{kind}
CACHED_GAMES = NULL     # aar_cached_games
WEB_CONNECTIONS = NULL  # aar_web_connections

# seconds: a command's round trip is about 1-10 ms here (docs/service.md); the tail to 10 s
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5, 10.0)
_CHILDREN: dict = {}   # (metric, labels) -> its labelled child: prometheus_client's labels() takes a lock


def _child(metric, *labels):
    key = (id(metric), labels)
    c = _CHILDREN.get(key)
    if c is None:
        c = _CHILDREN[key] = metric.labels(*labels)
    return c


def call(rpc: str, reason: str, seconds: float | None = None) -> None:
    """One call answered: its outcome (OK or a reason code) and, for a unary call, its time."""
    _child(CALLS, rpc, reason).inc()
    if seconds is not None:
        _child(CALL_SECONDS, rpc).observe(seconds)


def command(game: str, append_seconds: float) -> None:
    """One command accepted and durably appended, and the time of its append."""
    _child(COMMANDS, game).inc()
    APPEND_SECONDS.observe(append_seconds)


def enable() -> None:
    """Make the metrics real (once per process; later calls keep the first ones)."""
    global ON, CALLS, CALL_SECONDS, STREAMS, COMMANDS, APPEND_SECONDS, ENDINGS, CACHED_GAMES, WEB_CONNECTIONS
    if ON:
        return
    from prometheus_client import Counter, Gauge, Histogram

    CALLS = Counter("aar_rpc_calls", "Calls answered, by RPC and outcome: OK, or the reason code of the "
                    "refusal (docs/service-codes.md; INTERNAL and STORE_UNAVAILABLE included)", ["rpc", "reason"])
    CALL_SECONDS = Histogram("aar_rpc_seconds", "Time to answer a unary call, by RPC (both ports)", ["rpc"],
                             buckets=BUCKETS)
    STREAMS = Gauge("aar_open_streams", "Open Watch, Play, ExportBundle and reflection streams",
                    multiprocess_mode="livesum")
    COMMANDS = Counter("aar_commands", "Commands accepted and durably appended, by ruleset (game)", ["game"])
    APPEND_SECONDS = Histogram("aar_append_seconds", "Time of one durable append to the store (records, checkpoint, "
                               "command row; the fsync or the PostgreSQL commit included)", buckets=BUCKETS)
    ENDINGS = Counter("aar_endings_written", "End records the server wrote itself (SPEC.md 8.2), by kind: timeout, "
                      "abandon", ["kind"])
    CACHED_GAMES = Gauge("aar_cached_games", "Games kept caught up in memory (at most MAX_LIVE_GAMES per process)",
                         multiprocess_mode="livesum")
    WEB_CONNECTIONS = Gauge("aar_web_connections", "Open connections on the web port (--web-listen)",
                            multiprocess_mode="livesum")
    ON = True


def serve(host: str, port: int, multiproc_dir: str | None = None):
    """The exposition endpoint on ``host:port`` (port 0: a free one): (http server, its port). With
    ``multiproc_dir``: the sum over the worker processes writing there, not this process's own."""
    from prometheus_client import REGISTRY, CollectorRegistry, start_http_server

    registry = REGISTRY
    if multiproc_dir is not None:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiproc_dir)
    httpd, _ = start_http_server(port, host.strip("[]"), registry=registry)
    return httpd, httpd.server_port


def multiproc_dir(data_dir: str) -> str:
    """A fresh directory for the workers' metric files (the last run's removed: its counts are not ours)."""
    import shutil

    d = os.path.join(data_dir, "metrics")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d, mode=0o700)
    return d
