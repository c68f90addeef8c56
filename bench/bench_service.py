"""Service benchmark: commands/s and command latency through the real gRPC
service (SQLite store, `aar serve` in its own process) for 1, 10 and 100
concurrent games driven by bots, beside a bare gRPC echo service (own process)
with the same message sizes and call pattern, measured in the same run.

One command = ListLegalCommands (seat-authenticated) + SubmitCommand (a signed
envelope), as a bot plays it; the echo does two unary calls carrying the same
request and response sizes. Nothing is traded: the service checks every
signature and every acknowledged command is on disk (WAL, synchronous=FULL,
group commit across games) before the reply. The bench client skips the
client-side checkpoint/opening checks (they would add calls the echo lacks).

Prints one line per configuration, then ``ratio service_vs_echo VALUE`` (10 games).
Run: ``python -m bench`` (calls run()) or ``python bench/bench_service.py``.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

GAMES = (1, 10, 100)
ROUNDS_PER_CONFIG = 3  # service and echo windows alternate, so load drift on a shared machine hits both
ROUNDS_AT_10 = 5       # the configuration the ratio is read from gets more alternations
WINDOW_S = 1.2     # measured window per round
WARMUP_S = 0.4
ROUNDS = 100000    # a duel long enough never to end inside a window
WORKERS = 2        # aar serve processes on one port and one store: this machine has 2 cores
# gRPC Python shares a connection between channels to the same target unless told not to.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


# -- servers in their own processes ---------------------------------------------------
def _spawn(args: list[str]) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    for line in p.stdout:
        if "listening on" in line:
            return p, line.strip().rsplit(" ", 1)[1]
    raise RuntimeError(f"server {args} did not start")


def _stop(p: subprocess.Popen) -> None:
    p.terminate()
    try:
        p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def echo_server() -> None:
    """A bare gRPC server: the first 4 bytes of a request give the response size."""
    from concurrent import futures

    import grpc

    def call(req: bytes, ctx) -> bytes:
        return bytes(int.from_bytes(req[:4], "big"))

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Echo", {
        "Call": grpc.unary_unary_rpc_method_handler(call)})])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(f"echo listening on 127.0.0.1:{port}", flush=True)
    server.wait_for_termination()


# -- drivers -------------------------------------------------------------------------------
class Meter:
    def __init__(self) -> None:
        self.lat: list[float] = []
        self.lock = threading.Lock()
        self.sizes = [0, 0, 0, 0]
        self.n_sized = 0

    def add(self, t0: float, t1: float, start: float, end: float) -> None:
        if start <= t0 and t1 <= end:
            with self.lock:
                self.lat.append(t1 - t0)


def _service_games(target: str, n: int):
    import grpc

    from afteraction.engine.seat import Head, SeatSigner
    from afteraction.service.auth import make_auth
    from afteraction.v1 import envelope_pb2
    from afteraction.v1 import game_service_pb2 as gs
    from afteraction.v1 import game_service_pb2_grpc as gs_grpc

    channels, games = [], []
    for _ in range(n):
        # Each game is played by its own client over its own connection, as separate players are.
        ch = grpc.insecure_channel(target, options=OWN_CONNECTION)
        stub = gs_grpc.GameServiceStub(ch)
        channels.append(ch)
        seeds = {s: os.urandom(32) for s in ("a", "b")}
        signers = {s: SeatSigner(s, seeds[s]) for s in seeds}
        created = stub.CreateGame(gs.CreateGameRequest(game="duel", options_json=f'{{"rounds": {ROUNDS}}}', seats=[
            gs.SeatKey(seat=s, public_key=signers[s].public) for s in signers]))
        gid = created.game_id
        # the driver is both seats and sees every record: it binds each envelope to the log's end
        # (format version 2) from the records in the replies, without verifying them
        head = [Head(1, created.genesis.record_hash, created.genesis.record_hash)]
        ent = {s: os.urandom(32) for s in signers}
        for step in ("entropy_commit", "entropy_reveal"):
            for s, sg in signers.items():
                signed = getattr(sg, step)(gid, ent[s], head[0])
                res = stub.SubmitCommand(gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed)))
                head[0] = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head[0].genesis)
        auths = {s: make_auth(seeds[s], gid, s) for s in seeds}
        games.append((stub, gid, signers, auths, head))
    return channels, games


def run_service(target: str, n: int, prepared=None, m: Meter | None = None) -> tuple[Meter, list]:
    from afteraction.engine.bots import Prng
    from afteraction.v1 import envelope_pb2
    from afteraction.v1 import game_service_pb2 as gs

    channels, games = prepared or _service_games(target, n)
    m = m or Meter()
    t_start = time.perf_counter() + 0.2
    start, end = t_start + WARMUP_S, t_start + WARMUP_S + WINDOW_S

    from afteraction.engine.seat import Head

    def drive(stub, gid, signers, auths, head, i):
        prng = Prng(os.urandom(8))
        seat = _next_seat(stub, gid, auths)
        while time.perf_counter() < t_start:
            time.sleep(0.001)
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            lreq = gs.ListLegalCommandsRequest(game_id=gid, auth=auths[seat])
            lg = stub.ListLegalCommands(lreq, timeout=30)
            signed = signers[seat].command(gid, lg.state_seq, prng.choice(list(lg.commands)), head[0])
            sreq = gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed))
            res = stub.SubmitCommand(sreq, timeout=30)
            head[0] = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head[0].genesis)
            t1 = time.perf_counter()
            m.add(t0, t1, start, end)
            if m.n_sized < 200:
                m.sizes = [a + b for a, b in zip(m.sizes, (lreq.ByteSize(), lg.ByteSize(), sreq.ByteSize(), res.ByteSize()))]
                m.n_sized += 1
            seat = res.next_decision.seat

    ts = [threading.Thread(target=drive, args=(*g, i)) for i, g in enumerate(games)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if prepared is None:
        for ch in channels:
            ch.close()
    sizes = [s // max(1, m.n_sized) for s in m.sizes]
    return m, sizes


def _next_seat(stub, gid, auths) -> str:
    from afteraction.v1 import game_service_pb2 as gs

    return stub.GetState(gs.GetStateRequest(game_id=gid), timeout=30).decision.seat


def run_echo(target: str, n: int, sizes: list[int], m: Meter | None = None) -> Meter:
    import grpc

    channels = [grpc.insecure_channel(target, options=OWN_CONNECTION) for _ in range(n)]  # as for the service
    try:
        return echo_window([ch.unary_unary("/bench.Echo/Call") for ch in channels], sizes, time.monotonic() + 0.2, m)
    finally:
        for ch in channels:
            ch.close()


def echo_window(calls: list, sizes: list[int], t_start: float, m: Meter | None = None) -> Meter:
    """One window of the echo, a thread per call (connection), from ``t_start`` (time.monotonic, the same
    clock in every process): two calls a command carrying the service's mean sizes (``sizes``: legal
    request/response, submit request/response), the first 4 bytes asking for the response's size."""
    m = m or Meter()
    lreq = sizes[1].to_bytes(4, "big") + bytes(max(0, sizes[0] - 4))
    sreq = sizes[3].to_bytes(4, "big") + bytes(max(0, sizes[2] - 4))
    start, end = t_start + WARMUP_S, t_start + WARMUP_S + WINDOW_S

    def drive(call):
        call(lreq, timeout=30)  # the connection is up before the window
        while time.monotonic() < t_start:
            time.sleep(0.001)
        while time.monotonic() < end:
            t0 = time.monotonic()
            call(lreq, timeout=30)
            call(sreq, timeout=30)
            m.add(t0, time.monotonic(), start, end)

    ts = [threading.Thread(target=drive, args=(call,)) for call in calls]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return m


def _line(name: str, n: int, m: Meter, rounds: int) -> float:
    rate = len(m.lat) / (WINDOW_S * rounds)
    q = statistics.quantiles(m.lat, n=100) if len(m.lat) >= 2 else [m.lat[0] if m.lat else 0.0] * 99
    print(f"{name:8s} games={n:<4d} commands/s={rate:8.1f}  p50_ms={q[49] * 1000:7.2f}  p99_ms={q[98] * 1000:7.2f}",
          flush=True)
    return rate


def run() -> None:
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="aar-bench-") as d:
        svc, svc_target = _spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                  "--workers", str(WORKERS),
                                  "--store", f"sqlite:{os.path.join(d, 'bench.sqlite')}", "--data-dir", d])
        echo, echo_target = _spawn([os.path.abspath(__file__), "--echo-server"])
        rates = {}
        try:
            print(f"service benchmark: duel bots through `aar serve --workers {WORKERS}` (SQLite, WAL, "
                  "synchronous=FULL) vs a bare gRPC echo; one command = ListLegalCommands + SubmitCommand; "
                  "each game (and each echo driver) on its own connection", flush=True)
            for n in GAMES:
                prepared = _service_games(svc_target, n)
                m, me = Meter(), Meter()
                rounds = ROUNDS_AT_10 if n == 10 else ROUNDS_PER_CONFIG
                for _ in range(rounds):
                    _, sizes = run_service(svc_target, n, prepared, m)
                    run_echo(echo_target, n, sizes, me)
                for ch in prepared[0]:
                    ch.close()
                rates[n] = (_line("service", n, m, rounds), _line("echo", n, me, rounds))
            print(f"message sizes (bytes): legal req/resp {sizes[0]}/{sizes[1]}, submit req/resp {sizes[2]}/{sizes[3]}")
        finally:
            _stop(svc)
            _stop(echo)
    rs, re_ = rates[10]
    print(f"bench_service took {time.monotonic() - t0:.1f} s")
    print(f"ratio service_vs_echo {rs / re_ if re_ else 0.0:.3f}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--echo-server"]:
        echo_server()
    else:
        run()
