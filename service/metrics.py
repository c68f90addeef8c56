"""Prometheus metrics of ``aar serve --metrics-listen HOST:PORT`` (docs/operations.md lists each).

Off by default: every metric below is then ``NULL``, whose methods do nothing, so a server without
the flag pays one attribute lookup and call per hook. On, the hooks of every call and command add
to plain counts that ``flush`` hands to prometheus_client once a second (and before a scrape). ``enable()`` makes them real
(``prometheus_client``); ``serve()`` exposes them at ``http://HOST:PORT/metrics``.

``--workers N``: each worker process writes its values into files of one directory
(``PROMETHEUS_MULTIPROC_DIR``, set by the parent before it starts the workers), and the parent
alone serves the sum over the workers (``prometheus_client.multiprocess``), so a scrape counts every
worker whichever got the connection. Gauges there are summed over the live workers (``livesum``).

What is never a label: a game id, a seat, a key, a message, an opening: the labels are the RPC's
name, the ruleset's name, a reason code of engine/codes.py (a bounded set) and an ending's kind.
"""
from __future__ import annotations

import atexit
import bisect
import os
import threading
import time


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


# The hooks of every call and command add to these plain counts (a lock and a few dict operations,
# about 1 us); ``flush`` hands them to prometheus_client every FLUSH_S, before each scrape of a single
# process, and at exit. prometheus_client's own inc/observe cost 5-10 us each in multiprocess mode
# (a lock and a write into its mmap file per value: ~9 of them per command).
FLUSH_S = 1.0
_LOCK = threading.Lock()
_COUNTS: dict = {}   # (metric, *labels) -> count to add
_HISTS: dict = {}    # (metric, *labels) -> [count per bucket (BUCKETS, then +Inf)..., sum]


def _observe(key: tuple, v: float) -> None:
    h = _HISTS.get(key)
    if h is None:
        h = _HISTS[key] = [0] * (len(BUCKETS) + 1) + [0.0]
    h[bisect.bisect_left(BUCKETS, v)] += 1   # the first bucket whose bound is >= v, as Histogram.observe
    h[-1] += v


def call(rpc: str, reason: str, seconds: float | None = None) -> None:
    """One call answered: its outcome (OK or a reason code) and, for a unary call, its time."""
    if not ON:
        return
    with _LOCK:
        k = ("calls", rpc, reason)
        _COUNTS[k] = _COUNTS.get(k, 0) + 1
        if seconds is not None:
            _observe(("call_seconds", rpc), seconds)


def command(game: str, append_seconds: float) -> None:
    """One command accepted and durably appended, and the time of its append."""
    if not ON:
        return
    with _LOCK:
        k = ("commands", game)
        _COUNTS[k] = _COUNTS.get(k, 0) + 1
        _observe(("append_seconds",), append_seconds)


def flush() -> None:
    """Hand the counts gathered since the last flush to prometheus_client."""
    global _COUNTS, _HISTS
    with _LOCK:
        counts, hists, _COUNTS, _HISTS = _COUNTS, _HISTS, {}, {}
    if not ON:
        return
    metric = {"calls": CALLS, "commands": COMMANDS, "call_seconds": CALL_SECONDS, "append_seconds": APPEND_SECONDS}
    for (name, *labels), n in counts.items():
        _child(metric[name], *labels).inc(n)
    for (name, *labels), h in hists.items():
        child = _child(metric[name], *labels) if labels else metric[name]
        for i, n in enumerate(h[:-1]):   # prometheus_client's buckets: one value per bound, added to here
            if n:
                child._buckets[i].inc(n)
        child._sum.inc(h[-1])


def _flush_forever() -> None:
    while True:
        time.sleep(FLUSH_S)
        try:
            flush()
        except Exception:  # noqa: BLE001 -- a metric lost is no reason to stop counting
            pass


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
    threading.Thread(target=_flush_forever, name="aar-metrics-flush", daemon=True).start()
    atexit.register(flush)


def serve(host: str, port: int, multiproc_dir: str | None = None):
    """The exposition endpoint on ``host:port`` (port 0: a free one): (http server, its port). With
    ``multiproc_dir``: the sum over the worker processes writing there, not this process's own."""
    from prometheus_client import REGISTRY, CollectorRegistry, start_http_server

    registry = REGISTRY
    if multiproc_dir is not None:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiproc_dir)
    else:
        registry = _FlushFirst(registry)   # this process's own counts: flushed at each scrape
    httpd, _ = start_http_server(port, host.strip("[]"), registry=registry)
    return httpd, httpd.server_port


class _FlushFirst:
    """A registry whose collection first flushes the hooks' counts (``flush``)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def collect(self):
        flush()
        return self.inner.collect()

    def restricted_registry(self, names):
        flush()
        return self.inner.restricted_registry(names)


def multiproc_dir(data_dir: str) -> str:
    """A fresh directory for the workers' metric files (the last run's removed: its counts are not ours)."""
    import shutil

    d = os.path.join(data_dir, "metrics")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d, mode=0o700)
    return d
