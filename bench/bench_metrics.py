"""The cost of the Prometheus metrics (issue 47): commands/s of the same bot load through two
`aar serve --workers 2` servers, one with `--metrics-listen` (every call, stream, command and append
counted; scraped once a second as Prometheus would) and one without, measured in alternate windows
so that the load of a shared machine hits both alike. One command = ListLegalCommands +
SubmitCommand, as in bench_service.py (whose drivers this reuses), 10 concurrent duel games.

Prints a line per server, the ratio of each round (an "off" and an "on" window side by side, their
order alternating), then ``ratio metrics_on_vs_off VALUE``: the median of the rounds' ratios, less
moved by the load other processes put on a shared machine than the ratio of the totals (issue 47's
target: >= 0.97).
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

from bench.bench_service import WORKERS, Meter, _line, _service_games, _spawn, _stop, run_service  # noqa: E402

GAMES = 10
ROUNDS = 9


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


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a server: the parent and its worker processes."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(x) for x in f.read().split()]
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
    with tempfile.TemporaryDirectory(prefix="aar-bench-off-") as d_off, \
            tempfile.TemporaryDirectory(prefix="aar-bench-on-") as d_on:
        off, off_target, _ = _serve(d_off, False)
        on, on_target, url = _serve(d_on, True)
        stop = threading.Event()

        def scraper():  # as Prometheus would, but every second rather than every 15 s
            while not stop.wait(1.0):
                try:
                    urllib.request.urlopen(url, timeout=5).read()
                except OSError:
                    pass

        threading.Thread(target=scraper, daemon=True).start()
        try:
            print(f"metrics cost: {GAMES} duel bot games through `aar serve --workers {WORKERS}` (SQLite) with "
                  "--metrics-listen (scraped every second) and without, alternate windows", flush=True)
            prep_off, prep_on = _service_games(off_target, GAMES), _service_games(on_target, GAMES)
            m_off, m_on = Meter(), Meter()
            ratios = []
            cpu = {"off": [0.0, 0], "on": [0.0, 0]}   # the servers' CPU seconds, and the commands they served
            for i in range(rounds):   # adjacent windows, in alternating order: one ratio per round
                got = {}
                for name, proc, target, prep, m in (("off", off, off_target, prep_off, m_off),
                                                    ("on", on, on_target, prep_on, m_on))[::1 if i % 2 else -1]:
                    before, c0 = len(m.lat), _cpu_s(proc.pid)
                    run_service(target, GAMES, prep, m)
                    got[name] = len(m.lat) - before
                    cpu[name][0] += _cpu_s(proc.pid) - c0
                    cpu[name][1] += got[name]
                ratios.append(got["on"] / got["off"] if got["off"] else 0.0)
            _line("off", GAMES, m_off, rounds)
            _line("on", GAMES, m_on, rounds)
            print("per-round ratios on/off: " + " ".join(f"{r:.3f}" for r in ratios))
            per = {k: (v[1] / v[0] if v[0] else 0.0) for k, v in cpu.items()}
            print(f"commands per server CPU second: off {per['off']:.1f}, on {per['on']:.1f} "
                  f"(ratio {per['on'] / per['off'] if per['off'] else 0.0:.3f}; less moved by other load)")
            scraped = urllib.request.urlopen(url, timeout=5).read().decode()
            n = sum(float(line.rsplit(" ", 1)[1]) for line in scraped.splitlines()
                    if line.startswith("aar_commands_total{"))
            print(f"commands counted by the metrics server: {n:.0f}")
            for prep in (prep_off, prep_on):
                for ch in prep[0]:
                    ch.close()
        finally:
            stop.set()
            _stop(off)
            _stop(on)
    us = hook_cost_us()
    print(f"metrics hooks per command: {us:.1f} us (of {1e6 / per['off']:.0f} us of server CPU per command "
          f"without them: {us * per['off'] / 1e6 * 100:.2f}%)")
    print(f"bench_metrics took {time.monotonic() - t0:.1f} s")
    print(f"ratio metrics_on_vs_off {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    measure(2 if sys.argv[1:] == ["--quick"] else ROUNDS)
