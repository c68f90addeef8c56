"""The server seen from outside while the bench's clients play (docs/service.md, "Benchmark on
real games"): a companion of profile_service.py, not a benchmark of `make bench`.

    python bench/profile_server.py threads sog [--games 10] [--window 4]
        `aar serve --workers 2` under one window of the bench's client processes: each server
        thread's CPU (/proc/PID/task/TID/stat), run-queue wait (schedstat) and voluntary and
        involuntary context switches per command, the threads named (event loop, store writer,
        gRPC poller, gRPC's event_engine threads, the pool).
    python bench/profile_server.py instructions sog [--commands 400] [--pool 10]
        `aar serve --workers 1` under valgrind's callgrind, instrumented only while one driver
        plays ``--commands`` commands one at a time (games created and their handshakes done
        before, ``--pool`` of them): the server's instructions per command, exact on a loaded
        machine (the games' dice still differ from run to run), and the top objects and functions.
    python bench/profile_server.py floor [--connections 10] [--window 4]
        the transport's own cost: the bench's echo server (``bench_service``, grpc's thread-pool
        server) and a grpc.aio echo (one event loop, as `aar serve` runs), each driven by
        bench_service.echo_window over ``--connections`` connections with SOG's message sizes:
        pairs of calls per second and the server's CPU per pair, alternated twice.
    python bench/profile_server.py commit-gil [--commits 300]
        what a busy event loop costs a store commit: SQLite (WAL, synchronous=FULL, a temp file)
        commits of 1, 3 and 10 rows, as ``executemany`` (one statement step a row) and as one
        multi-row INSERT, alone and beside a thread spinning in Python (as the event loop does);
        the p50 per commit under the server's GIL switch interval (server.GIL_SWITCH_S).
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import bench_service as base  # noqa: E402
from bench import bench_service_games as bg  # noqa: E402
from bench.profile_service import _children, _cpu  # noqa: E402


def _thread_names(pid: int) -> dict[str, str]:
    """Thread id -> name: the kernel's comm, or for the interpreter's threads (all "python" there)
    the order they are started in by ``server.start`` (the store's writer, the event loop, then
    gRPC's poller; the pool's threads after them)."""
    out, py = {}, []
    for t in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
        try:
            comm = open(f"/proc/{pid}/task/{t}/comm").read().strip()
        except OSError:
            continue
        if comm == "python":
            py.append(t)
        else:
            out[t] = comm
    for i, t in enumerate(py):
        out[t] = (["main", "store writer", "event loop", "grpc poller"] + [f"pool {j}" for j in range(99)])[i]
    return out


def _thread_stats(pid: int) -> dict[str, tuple]:
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            f = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
            run, wait, _ = map(int, open(f"/proc/{pid}/task/{t}/schedstat").read().split())
            st = open(f"/proc/{pid}/task/{t}/status").read().split("\n")
            vol = int(next(x for x in st if x.startswith("voluntary_ctxt")).split()[1])
            inv = int(next(x for x in st if x.startswith("nonvoluntary_ctxt")).split()[1])
        except (OSError, StopIteration, ValueError):
            continue
        out[t] = ((int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"), wait / 1e9, vol, inv)
    return out


def threads(game: str, games: int, window: float) -> None:
    """Per server thread, during one window: CPU, run-queue wait and context switches per command."""
    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        svc, target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                   "--store", f"sqlite:{d}/p.sqlite", "--data-dir", d, "--workers", "2"])
        try:
            k = -(-games // bg.GAMES_PER_CLIENT)
            procs = [bg.ClientProc(target, target, game, games // k + (i < games % k)) for i in range(k)]
            try:
                bg._all(procs, op="top_up", want=max(2, int(700 * window / games / 8)))
                for cp in procs:
                    cp.send(op="service", t_start=time.monotonic() + bg.START_S, window=window, warmup=base.WARMUP_S)
                time.sleep(bg.START_S + base.WARMUP_S)
                kids = [int(c) for c in _children(svc.pid)]
                names = {k_: _thread_names(k_) for k_ in kids}
                s0 = {k_: _thread_stats(k_) for k_ in kids}
                time.sleep(window)
                s1 = {k_: _thread_stats(k_) for k_ in kids}
                n = sum(len(cp.answer()["lat"]) for cp in procs)
            finally:
                for cp in procs:
                    cp.close()
        finally:
            base._stop(svc)
    print(f"{game} games={games}: {n} commands in the {window} s window ({n / window:.0f}/s, load "
          f"{os.getloadavg()[0]:.1f}); per command of the two workers together:")
    rows: dict[str, list] = {}
    for k_ in kids:
        for t, b in s1[k_].items():
            a = s0[k_].get(t)
            if a is None:
                continue
            r = rows.setdefault(names[k_].get(t, "?"), [0.0, 0.0, 0, 0, 0])
            for i in range(4):
                r[i] += b[i] - a[i]
            r[4] += 1
    total = 0.0
    for name, r in sorted(rows.items(), key=lambda x: -x[1][0]):
        total += r[0]
        if 1000 * r[0] / n >= 0.001:  # threads that did something (the pool's idle threads are left out)
            print(f"  {name:14s} x{r[4]:<2d} CPU {1000 * r[0] / n:6.3f} ms  run-queue wait {1000 * r[1] / n:6.3f} ms  "
                  f"switches {r[2] / n:5.2f} voluntary {r[3] / n:5.2f} involuntary")
    print(f"  all threads: CPU {1000 * total / n:.3f} ms per command")


def instructions(game: str, commands: int, pool: int) -> None:
    """The server's instructions per command under callgrind (instrumented for the played commands only)."""
    import re
    import subprocess

    from afteraction.engine.bots import Prng

    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                              f"--callgrind-out-file={d}/cg.%p", sys.executable, "-m", "afteraction.cli", "serve",
                              "--listen", "127.0.0.1:0", "--workers", "1", "--store", f"sqlite:{d}/s.sqlite",
                              "--data-dir", d], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=dict(os.environ, PYTHONUNBUFFERED="1"))
        target = next(ln.strip().rsplit(" ", 1)[1] for ln in p.stdout if "listening on" in ln)
        dr, prng = bg.Driver(target, game), Prng(b"profile-instructions")

        def play(n: int) -> None:
            for _ in range(n):
                if dr.step(prng, timeout=600)[4]:
                    dr.next_game()
        try:
            dr.top_up(pool)
            play(20)  # caches warm
            subprocess.run(["callgrind_control", "-i", "on", str(p.pid)], capture_output=True, check=True)
            play(commands)
            subprocess.run(["callgrind_control", "-i", "off", str(p.pid)], capture_output=True, check=True)
            subprocess.run(["callgrind_control", "-d", str(p.pid)], capture_output=True, check=True)
        finally:
            dr.close()
            p.terminate()
            p.wait(120)
        dump = max(glob.glob(f"{d}/cg.*.1"), key=os.path.getsize)
        ann = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", dump], capture_output=True,
                             text=True).stdout
    total = int(re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", ann).group(1).replace(",", ""))
    by_obj: dict[str, int] = {}
    funcs = []
    for ln in ann.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*?)\s+\[(.*)\]$", ln)
        if m:
            ir = int(m.group(1).replace(",", ""))
            by_obj[os.path.basename(m.group(3))] = by_obj.get(os.path.basename(m.group(3)), 0) + ir
            funcs.append((ir, m.group(2).rsplit(":", 1)[-1]))
    print(f"{game}: {commands} commands, {total / commands / 1e6:.3f} M instructions per command in the server "
          f"(callgrind; {dr.ended} games ended, {dr.inline} created inside the measured commands)")
    for o, ir in sorted(by_obj.items(), key=lambda x: -x[1])[:8]:
        print(f"  {100 * ir / total:5.1f}%  {o}")
    for ir, f in sorted(funcs, reverse=True)[:8]:
        print(f"  {100 * ir / total:5.1f}%  {f}")


def _aio_echo_server() -> None:
    """bench_service's echo on grpc.aio (one event loop), for ``floor``."""
    import asyncio

    import grpc

    async def call(req: bytes, ctx) -> bytes:
        return bytes(int.from_bytes(req[:4], "big"))

    async def serve() -> None:
        server = grpc.aio.server()
        server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Echo", {
            "Call": grpc.unary_unary_rpc_method_handler(call)})])
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        print(f"echo listening on 127.0.0.1:{port}", flush=True)
        await server.wait_for_termination()
    asyncio.run(serve())


def floor(connections: int, window: float) -> None:
    """Echo servers' CPU per pair of calls (the gRPC floor under the service's figures)."""
    import threading

    import grpc

    base.WINDOW_S = window
    sizes = [116, 329, 155, 1280]  # SOG's mean message sizes (bench_service_games' line, 2026-12-04)
    for r in range(2):
        for label, args in (("thread pool", [os.path.abspath(base.__file__), "--echo-server"]),
                            ("grpc.aio", [os.path.abspath(__file__), "_aio_echo"])):
            svc, target = base._spawn(args)
            chans = [grpc.insecure_channel(target, options=base.OWN_CONNECTION) for _ in range(connections)]
            try:
                t_start = time.monotonic() + 0.5
                c0 = [0.0]

                def mark() -> None:
                    time.sleep(max(0.0, t_start + base.WARMUP_S - time.monotonic()))
                    c0[0] = _cpu(svc.pid)
                th = threading.Thread(target=mark)
                th.start()
                m = base.echo_window([c.unary_unary("/bench.Echo/Call") for c in chans], sizes, t_start)
                cpu = _cpu(svc.pid) - c0[0]
                th.join()
            finally:
                for c in chans:
                    c.close()
                base._stop(svc)
            n = len(m.lat)
            print(f"{label:12s} {connections} connections: {n / window:7.1f} pairs/s, server CPU "
                  f"{1000 * cpu / max(1, n):.3f} ms per pair (load {os.getloadavg()[0]:.1f})", flush=True)



def commit_gil(commits: int) -> None:
    """SQLite commits with and without a busy Python thread beside them: how many GIL round trips they pay."""
    import sqlite3
    import statistics
    import threading

    from afteraction.service.server import GIL_SWITCH_S

    sys.setswitchinterval(GIL_SWITCH_S)
    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        c = sqlite3.connect(os.path.join(d, "t.sqlite"), isolation_level=None, check_same_thread=False)
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=FULL")
        c.execute("CREATE TABLE r (g TEXT, s INTEGER, b BLOB, PRIMARY KEY (g, s))")
        seq = [0]

        def commit(k: int, multi: bool) -> float:
            rows = [(f"g{i}", seq[0], bytes(300)) for i in range(k)]
            seq[0] += 1
            t0 = time.perf_counter()
            c.execute("BEGIN IMMEDIATE")
            if multi:
                c.execute("INSERT INTO r VALUES " + ",".join(["(?,?,?)"] * k), [x for r in rows for x in r])
            else:
                c.executemany("INSERT INTO r VALUES (?,?,?)", rows)
            c.execute("COMMIT")
            return time.perf_counter() - t0

        stop = threading.Event()

        def spin() -> None:
            while not stop.is_set():
                pass
        for busy in (False, True):
            th = threading.Thread(target=spin) if busy else None
            if th:
                th.start()
            try:
                for k in (1, 3, 10):
                    for multi in (False, True):
                        p50 = statistics.median(commit(k, multi) for _ in range(commits))
                        print(f"{'beside a busy thread' if busy else 'alone':21s} {k:2d} rows "
                              f"{'one INSERT' if multi else 'executemany'}: p50 {p50 * 1000:.2f} ms per commit", flush=True)
            finally:
                stop.set()
                if th:
                    th.join()
                stop.clear()
        c.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("threads")
    t.add_argument("game")
    t.add_argument("--games", type=int, default=10)
    t.add_argument("--window", type=float, default=4.0)
    n = sub.add_parser("instructions")
    n.add_argument("game")
    n.add_argument("--commands", type=int, default=400)
    n.add_argument("--pool", type=int, default=10)
    f = sub.add_parser("floor")
    f.add_argument("--connections", type=int, default=10)
    f.add_argument("--window", type=float, default=4.0)
    g = sub.add_parser("commit-gil")
    g.add_argument("--commits", type=int, default=300)
    a = ap.parse_args()
    if a.what == "threads":
        threads(a.game, a.games, a.window)
    elif a.what == "instructions":
        instructions(a.game, a.commands, a.pool)
    elif a.what == "commit-gil":
        commit_gil(a.commits)
    else:
        floor(a.connections, a.window)


if __name__ == "__main__":
    if sys.argv[1:] == ["_aio_echo"]:
        _aio_echo_server()
    else:
        main()
