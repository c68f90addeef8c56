"""The cost of the Prometheus metrics: commands/s of the same bot load through two
`aar serve --workers 2` servers, one with `--metrics-listen` (every call, stream, command and append
counted; scraped every 15 s, Prometheus' default interval) and one without, driven **at the same time** in
every round, so that whatever else runs on a shared machine loads both alike at every instant. One
command = ListLegalCommands + SubmitCommand, as in bench_service.py (whose drivers this reuses), 10
concurrent duel games per server.

Prints a line per server, each round's ratio, the commands per server CPU second of each, what the
metrics hooks alone cost per command, then ``ratio metrics_on_vs_off VALUE`` (commands/s on over
off: the median of the rounds' ratios; the target: >= 0.97) and ``ratio metrics_cpu_on_vs_off
VALUE`` (commands per server CPU second on over off: the capacity a server of the same cores keeps).
Run: ``python -m bench metrics`` or ``python bench/bench_metrics.py [--quick]``.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import bench.bench_service as bench_service  # noqa: E402
from bench.bench_service import WORKERS, Meter, _line, _service_games, _spawn, _stop, run_service  # noqa: E402

GAMES = 10
ROUNDS = 9
WINDOW_S = 3.0   # each round's measured window (both servers at once)
SCRAPE_S = 15.0  # how often the metrics are scraped: Prometheus' default scrape_interval


def _serve(d: str, metrics: bool):
    args = ["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0", "--workers", str(WORKERS),
            "--store", f"sqlite:{os.path.join(d, 'bench.sqlite')}", "--data-dir", d]
    if metrics:
        args += ["--metrics-listen", "127.0.0.1:0"]
    p, target = _spawn(args)
    url = None
    if metrics:
        for line in p.stdout:
            if line.startswith("metrics (Prometheus) on "):
                url = line.split(" on ", 1)[1].strip()
                break
    return p, target, url


def _cpu_s(pid: int, children: bool = True) -> float:
    """CPU seconds (user + system) of a server: the parent and (``children``) its worker processes."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(x) for x in f.read().split()] if children else []
    except OSError:
        pass
    total = 0
    for q in pids:
        try:
            with open(f"/proc/{q}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / tick


HOOKS = """
import time
from afteraction.service import metrics
metrics.enable()
N = 20000
t = time.perf_counter()
for i in range(N):   # what one command adds: two unary calls and one append
    metrics.call("ListLegalCommands", "OK", 0.003)
    metrics.call("SubmitCommand", "OK", 0.003)
    metrics.command("duel", 0.002)
    if i % 300 == 299:   # the flush a second makes, at 300 commands a second
        metrics.flush()
print((time.perf_counter() - t) / N * 1e6)
"""


def hook_cost_us() -> float:
    """Microseconds the metrics add to one command in a worker (multiprocess files, as --workers
    writes them): the hooks alone, in a process of their own."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="aar-metrics-") as d:
        out = subprocess.run([sys.executable, "-c", HOOKS], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PROMETHEUS_MULTIPROC_DIR=d)).stdout
    return float(out.strip())


def run() -> None:
    measure(ROUNDS)


def measure(rounds: int) -> None:
    t0 = time.monotonic()
    window = bench_service.WINDOW_S
    bench_service.WINDOW_S = WINDOW_S   # run_service's window, and _line's rate
    try:
        _measure(rounds)
    finally:
        bench_service.WINDOW_S = window
    print(f"bench_metrics took {time.monotonic() - t0:.1f} s")


def _measure(rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="aar-bench-off-") as d_off, \
            tempfile.TemporaryDirectory(prefix="aar-bench-on-") as d_on:
        off, off_target, _ = _serve(d_off, False)
        on, on_target, url = _serve(d_on, True)
        stop = threading.Event()

        def scraper():  # as Prometheus would
            while not stop.wait(SCRAPE_S):
                try:
                    urllib.request.urlopen(url, timeout=5).read()
                except OSError:
                    pass

        threading.Thread(target=scraper, daemon=True).start()
        try:
            print(f"metrics cost: {GAMES} duel bot games through each of two `aar serve --workers {WORKERS}` "
                  f"(SQLite), one with --metrics-listen (scraped every {SCRAPE_S:.0f} s), driven at the same time, "
                  f"{rounds} rounds of {WINDOW_S} s; load average {os.getloadavg()[0]:.1f} on "
                  f"{os.cpu_count()} cores", flush=True)
            prep = {"off": _service_games(off_target, GAMES), "on": _service_games(on_target, GAMES)}
            servers = {"off": (off, off_target), "on": (on, on_target)}
            meters = {"off": Meter(), "on": Meter()}
            ratios = []
            cpu = {"off": [0.0, 0], "on": [0.0, 0]}   # the servers' CPU seconds, and the commands they served
            for _ in range(rounds):
                got, c0 = {}, {k: _cpu_s(servers[k][0].pid) for k in servers}
                before = {k: len(meters[k].lat) for k in meters}
                ts = [threading.Thread(target=run_service, args=(servers[k][1], GAMES, prep[k], meters[k]))
                      for k in ("off", "on")]
                for t in ts:
                    t.start()
                for t in ts:
                    t.join()
                for k in servers:
                    got[k] = len(meters[k].lat) - before[k]
                    cpu[k][0] += _cpu_s(servers[k][0].pid) - c0[k]
                    cpu[k][1] += got[k]
                ratios.append(got["on"] / got["off"] if got["off"] else 0.0)
            _line("off", GAMES, meters["off"], rounds)
            _line("on", GAMES, meters["on"], rounds)
            print("per-round ratios on/off: " + " ".join(f"{r:.3f}" for r in ratios))
            per = {k: (v[1] / v[0] if v[0] else 0.0) for k, v in cpu.items()}
            print(f"commands per server CPU second: off {per['off']:.1f}, on {per['on']:.1f}")
            scraped = urllib.request.urlopen(url, timeout=5).read().decode()
            n = sum(float(line.rsplit(" ", 1)[1]) for line in scraped.splitlines()
                    if line.startswith("aar_commands_total{"))
            print(f"commands counted by the metrics server: {n:.0f} (served: {len(meters['on'].lat)} in the "
                  "windows, and those before and between them)")
            for p in prep.values():
                for ch in p[0]:
                    ch.close()
            c0, n_scrapes = _cpu_s(on.pid, children=False), 20
            for _ in range(n_scrapes):   # what one scrape costs the server: the parent sums the workers' files
                urllib.request.urlopen(url, timeout=5).read()
            scrape_ms = (_cpu_s(on.pid, children=False) - c0) / n_scrapes * 1000
            print(f"one scrape: {scrape_ms:.1f} ms of server CPU ({scrape_ms / SCRAPE_S / 10:.3f}% of one core at "
                  f"one scrape every {SCRAPE_S:.0f} s; {scrape_ms / 10:.1f}% at one a second)")
        finally:
            stop.set()
            _stop(off)
            _stop(on)
    us = hook_cost_us()
    print(f"metrics hooks per command: {us:.1f} us (of {1e6 / per['off']:.0f} us of server CPU per command "
          f"without them: {us * per['off'] / 1e6 * 100:.2f}%)")
    print(f"ratio metrics_on_vs_off {statistics.median(ratios):.3f}")
    print(f"ratio metrics_cpu_on_vs_off {per['on'] / per['off'] if per['off'] else 0.0:.3f}")


if __name__ == "__main__":
    measure(2 if sys.argv[1:] == ["--quick"] else ROUNDS)
