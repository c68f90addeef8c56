"""Idle streams against unary calls: GetState latency with 1,000 idle Watch streams
open, against the same server with none, measured in the same run.

`aar serve` runs in its own process (SQLite store in a temp dir). One duel game
is created and its handshake played. Then, alternating: a window of sequential
GetState calls with no stream open (the baseline), and a window with STREAMS idle
Watch streams of that game open (spread over connections of
MAX_STREAMS_PER_CONNECTION-sized groups, as separate clients would be); each
window's p50/p99 is printed. The line ``ratio watch_idle_getstate_p99 VALUE`` is
loaded p99 / unloaded p99 (pooled over the windows): the target is <= 2; the
p50 ratio before it is the steadier figure on a shared machine.
Run: ``python -m bench streams`` or ``python bench/bench_streams.py``.
"""
from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time

STREAMS = 1000
PER_CONNECTION = 100
CALLS = 1000       # GetState calls per window
ROUNDS = 4         # alternating unloaded/loaded windows
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _window(get_state, calls: int, deadline: float) -> tuple[list[float], int]:
    """``calls`` sequential GetState calls: their latencies (ms) and how many were not answered
    within ``deadline`` s (the window stops at the third: a starved server)."""
    import grpc

    out, missed = [], 0
    for _ in range(calls):
        t = time.perf_counter()
        try:
            get_state(timeout=deadline)
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                raise
            missed += 1
            if missed >= 3:
                break
            continue
        out.append((time.perf_counter() - t) * 1000)
    return out, missed


def _open_streams(target: str, gid: str, streams: int, per_connection: int, from_seq: int):
    import grpc

    from afteraction.v1 import game_service_pb2 as gs
    from afteraction.v1 import game_service_pb2_grpc as gs_grpc

    chans = [grpc.insecure_channel(target, options=OWN_CONNECTION) for _ in range(-(-streams // per_connection))]
    calls = [gs_grpc.GameServiceStub(chans[i // per_connection]).Watch(
        gs.WatchRequest(game_id=gid, from_seq=from_seq), timeout=600) for i in range(streams)]
    return chans, calls


def compare(target: str, gid: str, get_state, streams: int = STREAMS, per_connection: int = PER_CONNECTION,
            rounds: int = ROUNDS, calls: int = CALLS, deadline: float = 30.0) -> dict:
    """The one measurement stream target (this file's ``run`` and
    bench_service_games): ``rounds`` alternations of a window of ``calls`` GetState calls
    (``get_state(timeout=...)``, on a connection of its own) with no stream open and a window
    with ``streams`` idle Watch streams of ``gid`` open (``per_connection`` to a connection, as
    separate clients' would be), each window's p50/p99 printed. Idle: each stream is caught up,
    from the log's end (GetState's state_seq), so the server has nothing to send it until the
    game moves (streams from 0 are first sent the log: ``from_zero``). Returns the pooled
    latencies (ms) of each side, the calls not answered within ``deadline`` and the streams the server
    refused."""
    import grpc

    base, loaded, missed, refused = [], [], 0, 0
    _window(get_state, min(calls, 100), deadline)  # warm-up
    at = get_state(timeout=deadline).state_seq   # the log's end: where a caught-up watcher waits
    for _ in range(rounds):
        w, m = _window(get_state, calls, deadline)
        base += w
        print(f"unloaded      calls={len(w)}  p50_ms={_pct(w, .5):7.3f}  p99_ms={_pct(w, .99):7.3f}", flush=True)
        t = time.perf_counter()
        chans, opened = _open_streams(target, gid, streams, per_connection, at)
        try:
            time.sleep(1.0)  # let them open: caught up, they are idle from here on
            refused += sum(1 for c in opened if c.done() and c.code() != grpc.StatusCode.OK)
            took = time.perf_counter() - t
            w, m = _window(get_state, calls, deadline)
            loaded += w
            missed += m
            tail = f"; {m} not answered within {deadline:.0f} s" if m else ""
            print(f"streams={streams}  calls={len(w)}  p50_ms={_pct(w, .5) if w else 0:7.3f}  "
                  f"p99_ms={_pct(w, .99) if w else 0:7.3f}  (opened in {took:.1f} s{tail})", flush=True)
        finally:
            for c in opened:
                c.cancel()
            for ch in chans:
                ch.close()
        time.sleep(0.5)
        if m:
            break
    return {"base": base, "loaded": loaded, "missed": missed, "refused": refused}


@contextlib.contextmanager
def _duel_server():
    """`aar serve` in its own process (SQLite in a temp dir) and one duel after its handshake:
    (target, a Client on its own connection, the game id, GetState of it as compare wants it,
    the server's pid)."""
    from afteraction.client.client import Client
    from afteraction.client.seat import Seat
    from afteraction.engine.local import derive_bytes
    from afteraction.engine.seat import SeatSigner
    from afteraction.v1 import game_service_pb2 as gs

    with tempfile.TemporaryDirectory(prefix="aar-bench-streams-") as d:
        p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                              "--data-dir", d], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=dict(os.environ, PYTHONUNBUFFERED="1"))
        try:
            target = p.stdout.readline().split("listening on ")[1].split()[0]
            c = Client(target, options=OWN_CONNECTION)
            keys = {s: derive_bytes(b"bench-streams", s) for s in ("a", "b")}
            gid = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
            seats = [Seat(c, gid, s, k) for s, k in keys.items()]
            for s in seats:
                s.submit(s.sign_commit())
            for s in seats:
                s.submit(s.sign_reveal())
            yield (target, c, gid, lambda timeout: c.game.GetState(gs.GetStateRequest(game_id=gid), timeout=timeout),
                   p.pid)
            c.close()
        finally:
            p.terminate()
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def run() -> None:
    with _duel_server() as (target, c, gid, get_state, _):
        r = compare(target, gid, get_state)
        base, loaded = r["base"], r["loaded"]
        print(f"pooled: unloaded p99 {_pct(base, .99):.3f} ms (p50 {statistics.median(base):.3f}), "
              f"with {STREAMS} idle Watch streams p99 {_pct(loaded, .99):.3f} ms "
              f"(p50 {statistics.median(loaded):.3f}; {r['refused']} streams refused)")
        print(f"ratio watch_idle_getstate_p50 {statistics.median(loaded) / statistics.median(base):.3f}")
        ratio = _pct(loaded, .99) / _pct(base, .99)
        print(f"ratio watch_idle_getstate_p99 {ratio:.3f}")


def from_zero(rounds: int = ROUNDS) -> None:
    """Not a benchmark of `make bench` (docs/service.md, bench_streams section): streams opened
    from 0 instead of caught up. ``rounds`` alternations of a window of GetState calls with no
    stream open and one while another process (``--hold``) holds STREAMS Watch streams of the duel
    opened from 0 and never read; the server's CPU from 1 s to 4 s after they opened (each stream
    is sent the log first), then the window. ``python bench/bench_streams.py --from-zero``."""
    from bench.profile_service import _cpu as cpu_s  # the process's CPU (its children's too), from /proc

    with _duel_server() as (target, c, gid, get_state, server):
        _window(get_state, 100, 30.0)
        base, loaded = [], []
        for _ in range(rounds):
            w, _m = _window(get_state, CALLS, 30.0)
            base += w
            h = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--hold", target, gid],
                                 stdout=subprocess.PIPE, text=True)
            try:
                h.stdout.readline()  # "open"
                time.sleep(1.0)
                c0 = cpu_s(server)
                time.sleep(3.0)
                idle_cpu = cpu_s(server) - c0
                w2, _m = _window(get_state, CALLS, 30.0)
                loaded += w2
            finally:
                h.kill()
                h.wait()
            print(f"unloaded p50_ms={_pct(w, .5):7.3f} p99_ms={_pct(w, .99):7.3f}; {STREAMS} streams from 0 "
                  f"(another process) p50_ms={_pct(w2, .5):7.3f} p99_ms={_pct(w2, .99):7.3f}; the server's CPU in "
                  f"the 3 s after their first second {idle_cpu:.2f} s", flush=True)
            time.sleep(0.5)
        print(f"pooled p99: unloaded {_pct(base, .99):.3f} ms, with {STREAMS} streams from 0 {_pct(loaded, .99):.3f} ms")


def _hold(target: str, gid: str) -> None:
    chans, calls = _open_streams(target, gid, STREAMS, PER_CONNECTION, 0)
    print("open", flush=True)
    time.sleep(600)


def steps(counts=(32, 63, 64, 65, 100)) -> None:
    """In-process: open idle Watch streams one by one; does GetState answer within 3 s at each count?
    ``python bench/bench_streams.py --steps`` (with PYTHONPATH pointing at another checkout's
    afteraction package, the same on older code)."""
    import grpc

    from afteraction.client.client import Client
    from afteraction.engine.seat import SeatSigner
    from afteraction.service.server import start
    from afteraction.v1 import game_service_pb2 as gs

    with tempfile.TemporaryDirectory(prefix="aar-bench-steps-") as d:
        run_ = start("127.0.0.1:0", f"sqlite:{d}/s.sqlite", None, d)
        t = f"127.0.0.1:{run_.port}"
        c, w = Client(t), Client(t)
        gid = c.create_game("duel", {s: SeatSigner(s, bytes([i + 1]) * 32).public for i, s in enumerate("ab")}).game_id
        calls = []
        for n in counts:
            while len(calls) < n:
                calls.append(w.game.Watch(gs.WatchRequest(game_id=gid), timeout=60))
                next(calls[-1])
            time.sleep(0.3)
            t0 = time.perf_counter()
            try:
                c.game.GetState(gs.GetStateRequest(game_id=gid), timeout=3)
                print(f"{n} idle Watch streams: GetState answered in {1000 * (time.perf_counter() - t0):.1f} ms")
            except grpc.RpcError as e:
                print(f"{n} idle Watch streams: GetState {e.code().name} after {time.perf_counter() - t0:.1f} s")
        for x in calls:
            x.cancel()
        run_.stop(1)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if "--steps" in sys.argv:
        steps()
    elif "--from-zero" in sys.argv:
        from_zero()
    elif sys.argv[1:2] == ["--hold"]:
        _hold(sys.argv[2], sys.argv[3])
    else:
        run()
