"""The web transport against native gRPC: SOG bot games through one `aar serve
--web-listen` process (SQLite, every signature checked, every acknowledged command fsynced before
its reply), driven over the native gRPC port and over the web port (Connect, binary codec,
HTTP/1.1 keep-alive: one connection per game slot, as a browser tab keeps one) in alternating
windows of the same run, at GAMES concurrent games.

One command = ListLegalCommands (seat-authenticated) + SubmitCommand (a signed envelope), as a
bot plays it (bench_service_games's driver, the random bot). Games are created and their
handshake done before a window, over the same transport.

Prints commands/s and p50/p99 latency per transport, then ``ratio web_vs_grpc`` (web commands/s
over gRPC commands/s) and ``ratio web_p99_ms`` / ``ratio grpc_p99_ms``.
Run: ``python -m bench web`` or ``python bench/bench_web.py [--quick]``.
"""
from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"

GAMES = 4          # concurrent game slots (threads in this process, each its own connection)
ROUNDS = 3         # alternating windows per transport
WINDOW_S = 3.0
WARMUP_S = 0.5
POOL = 6           # games ready per slot before a window


def quick() -> None:
    global GAMES, ROUNDS, WINDOW_S, WARMUP_S, POOL
    GAMES, ROUNDS, WINDOW_S, WARMUP_S, POOL = 2, 1, 0.6, 0.1, 3


class WebStub:
    """GameService's unary calls over Connect (binary codec) on one keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=60)

    def _call(self, name: str, req, resp_cls):
        self.conn.request("POST", f"/afteraction.v1.GameService/{name}", body=req.SerializeToString(),
                          headers={"Content-Type": "application/proto", "Connect-Protocol-Version": "1"})
        r = self.conn.getresponse()
        data = r.read()
        if r.status != 200:
            raise RuntimeError(f"{name}: HTTP {r.status}: {json.loads(data).get('message')}")
        return resp_cls.FromString(data)

    def __getattr__(self, name):
        from afteraction.v1 import game_service_pb2 as gs

        cls = getattr(gs, f"{name}Response")
        return lambda req, timeout=None: self._call(name, req, cls)

    def close(self) -> None:
        self.conn.close()


class GrpcStub:
    def __init__(self, target: str) -> None:
        import grpc

        from afteraction.v1 import game_service_pb2_grpc as gs_grpc

        self.ch = grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
        self.stub = gs_grpc.GameServiceStub(self.ch)

    def __getattr__(self, name):
        return getattr(self.stub, name)

    def close(self) -> None:
        self.ch.close()


class Slot:
    """One concurrent game: its own connection, a pool of games with the handshake done."""

    def __init__(self, stub) -> None:
        self.stub, self.pool, self.current = stub, [], None

    def new_game(self):
        from afteraction.engine.seat import Head, SeatSigner
        from afteraction.service.auth import make_auth
        from afteraction.v1 import envelope_pb2
        from afteraction.v1 import game_service_pb2 as gs

        seeds = {s: os.urandom(32) for s in ("sog", "nva")}
        signers = {s: SeatSigner(s, seeds[s]) for s in seeds}
        created = self.stub.CreateGame(gs.CreateGameRequest(game="sog", seats=[
            gs.SeatKey(seat=s, public_key=signers[s].public) for s in signers]), timeout=60)
        gid = created.game_id
        head = Head(1, created.genesis.record_hash, created.genesis.record_hash)
        ent = {s: os.urandom(32) for s in signers}
        res = None
        for step in ("entropy_commit", "entropy_reveal"):
            for s, sg in signers.items():
                res = self.stub.SubmitCommand(gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(
                    getattr(sg, step)(gid, ent[s], head))), timeout=60)
                head = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head.genesis)
        return [gid, signers, {s: make_auth(seeds[s], gid, s) for s in seeds}, res.next_decision.seat, head]

    def top_up(self) -> None:
        while len(self.pool) < POOL:
            self.pool.append(self.new_game())
        if self.current is None:
            self.current = self.pool.pop(0)


def window(slots: list[Slot]) -> tuple[int, list[float]]:
    """Every slot plays for WINDOW_S after WARMUP_S: (commands in the window, their latencies in s)."""
    from afteraction.engine.bots import Prng
    from afteraction.engine.seat import Head
    from afteraction.v1 import envelope_pb2
    from afteraction.v1 import game_service_pb2 as gs

    t_start = time.perf_counter() + 0.1
    start, end = t_start + WARMUP_S, t_start + WARMUP_S + WINDOW_S
    lat: list[float] = []
    lock = threading.Lock()

    def drive(sl: Slot):
        prng = Prng(os.urandom(8))
        while time.perf_counter() < t_start:
            time.sleep(0.001)
        while time.perf_counter() < end:
            gid, signers, auths, seat, head = sl.current
            t0 = time.perf_counter()
            lg = sl.stub.ListLegalCommands(gs.ListLegalCommandsRequest(game_id=gid, auth=auths[seat]), timeout=60)
            signed = signers[seat].command(gid, lg.state_seq, prng.choice(list(lg.commands)), head)
            res = sl.stub.SubmitCommand(gs.SubmitCommandRequest(
                command=envelope_pb2.SignedCommand.FromString(signed)), timeout=60)
            t1 = time.perf_counter()
            if start <= t0 and t1 <= end:
                with lock:
                    lat.append(t1 - t0)
            sl.current[4] = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head.genesis)
            if res.HasField("next_decision") and res.next_decision.seat:
                sl.current[3] = res.next_decision.seat
            else:
                sl.current = sl.pool.pop(0) if sl.pool else sl.new_game()

    ts = [threading.Thread(target=drive, args=(s,)) for s in slots]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return len(lat), lat


def _spawn(data_dir: str) -> tuple[subprocess.Popen, str, tuple[str, int]]:
    p = subprocess.Popen([sys.executable, "-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                          "--web-listen", "127.0.0.1:0", "--data-dir", data_dir],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    grpc_target = web = None
    for line in p.stdout:
        if "listening on" in line:
            grpc_target = line.strip().rsplit(" ", 1)[1]
        if line.startswith("web "):
            host, port = line.split(" on ", 1)[1].split(":", 2)[:2]
            web = (host, int(port.split()[0].rstrip(":")))
            break
    if grpc_target is None or web is None:
        raise RuntimeError("aar serve --web-listen did not start")
    return p, grpc_target, web


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run() -> None:
    with tempfile.TemporaryDirectory(prefix="aar-bench-web-") as d:
        p, target, (host, port) = _spawn(d)
        try:
            results = {"grpc": [0, []], "web": [0, []]}
            slots = {"grpc": [Slot(GrpcStub(target)) for _ in range(GAMES)],
                     "web": [Slot(WebStub(host, port)) for _ in range(GAMES)]}
            for _ in range(ROUNDS):
                for name in ("grpc", "web"):
                    for sl in slots[name]:
                        sl.top_up()
                    n, lat = window(slots[name])
                    results[name][0] += n
                    results[name][1] += lat
            for ss in slots.values():
                for sl in ss:
                    sl.stub.close()
        finally:
            p.terminate()
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        secs = ROUNDS * WINDOW_S
        rate = {}
        print(f"web transport benchmark: SOG random bots, {GAMES} concurrent games, one `aar serve --web-listen` "
              f"(SQLite), {ROUNDS} alternating windows of {WINDOW_S} s per transport")
        for name in ("grpc", "web"):
            n, lat = results[name]
            rate[name] = n / secs
            print(f"  {name:4s}: {n} commands, {rate[name]:.0f} commands/s, p50 "
                  f"{1000 * statistics.median(lat) if lat else float('nan'):.1f} ms, p99 {1000 * _pct(lat, 0.99):.1f} ms")
        print(f"ratio web_vs_grpc {rate['web'] / rate['grpc'] if rate['grpc'] else 0:.3f}")
        print(f"ratio web_p99_ms {1000 * _pct(results['web'][1], 0.99):.1f}")
        print(f"ratio grpc_p99_ms {1000 * _pct(results['grpc'][1], 0.99):.1f}")


if __name__ == "__main__":
    if "--quick" in sys.argv:
        quick()
    run()
