"""Service benchmark on real games: SOG, GMV and NTND bot games through the real gRPC service
(`aar serve --workers 2`, SQLite, every signature checked, every acknowledged command fsynced
before its reply) at 1, 10 and 100 concurrent games, beside the bare gRPC echo of
``bench_service`` (own process, the same request and response sizes as that game's
commands, the same call pattern), measured in the same run in alternating windows.

One command = ListLegalCommands (seat-authenticated) + SubmitCommand (a signed envelope),
as a bot plays it. Each game is played over its own connection, as separate players'
clients are, by client processes of at most GAMES_PER_CLIENT games each (``ClientProc``, a
thread per game); the echo's drivers run in the same processes, the same number per process. Games are created and their entropy handshake done before a window (a pool per
driver, topped up between windows); a driver whose game ends goes on with the next one of
its pool, so windows measure moves, at any number of games. Default options: SOG's one
mission, GMV's 8 turns (~700 commands a game), NTND's Tet Offensive (~600 commands a game; a Communist
movement phase's ListLegalCommands answer holds thousands of moves).

Then the stream-exhaustion figure, by ``bench_streams.compare`` on this
server: GetState's p50/p99 in windows of 1,000 calls with no stream open, alternated four times with
windows with 1,000 idle Watch streams open (100 per connection over 10 connections), pooled;
a GetState not answered within 2 s is reported as such.

Prints one line per configuration and each window pair's ratio (the service's commands in
its window over the echo's in the window right after it), then ``ratio service_sog_vs_echo``,
``ratio service_gmv_vs_echo`` and ``ratio service_ntnd_vs_echo`` (at 10 games: the median of the nine
pairs' ratios, so one window that the machine's other load hit harder does not move it; the ratio of all
windows pooled is printed beside; NTND's has no target: NTND is measured "when fast enough"),
``ratio sog_p99_ms_at_100`` (the p99 in ms at 100 SOG games) and
``ratio getstate_p99_watch1000_vs_idle``.
Run: ``python -m bench service_games`` or ``python bench/bench_service_games.py [--quick]``.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"

from . import bench_service as base  # noqa: E402  (the echo server, its driver and the Meter)

try:
    from .common import JsonLinesProc
except ImportError:  # run as a script: the client process, which needs no process class of its own
    JsonLinesProc = object

GAME_NAMES = ("sog", "gmv", "ntnd")
GAMES = (1, 10, 100)
RATIO_AT, P99_AT = 10, 100  # the ratios are read at 10 games, the p99 target at 100
ROUNDS_PER_CONFIG = 3
ROUNDS_AT_10 = 9       # the ratios' window pairs: their median is the figure
WORKERS = 2             # the windows (1.2 s measured after 0.4 s of warm-up) are bench_service's
STREAMS = 1000
STREAMS_PER_CONNECTION = 100   # bench_streams' grouping (below service/limits.py MAX_STREAMS_PER_CONNECTION)
STREAM_ROUNDS = 4         # alternations of the windows (bench_streams.ROUNDS): a p99 near 1 ms moves with any hiccup
PROBES = 1000            # GetState calls a window (a p99 of 200 calls is their second slowest)
PROBE_DEADLINE_S = 2.0
EXPECT_CMDS_S = 800.0   # first guess of the service's commands/s, to size the first pools
# games (and echo drivers) per client process. 25 (four processes at 100 games) gave a longer tail than
# one process at a load average of 6-9 (p99 at 100 SOG games, medians of five alternated runs: 476 ms
# with 25, 392 with 50, 388 with 100, docs/service.md): one process, unless a quieter machine says otherwise
GAMES_PER_CLIENT = 100
START_S = 0.3           # the client processes start a window this long after they are told to
CPG_GAMES = {"sog": 10, "gmv": 2, "ntnd": 2}   # seeded bot games a ruleset's mean commands per game is taken from


def quick() -> None:
    """A small configuration for tests/test_bench.py: the same code paths in a few seconds."""
    global GAMES, RATIO_AT, P99_AT, ROUNDS_PER_CONFIG, ROUNDS_AT_10, WORKERS, STREAMS, STREAMS_PER_CONNECTION
    global STREAM_ROUNDS, PROBES, CPG_GAMES
    GAMES, RATIO_AT, P99_AT, ROUNDS_PER_CONFIG, ROUNDS_AT_10 = (1, 3), 3, 3, 1, 1
    CPG_GAMES = {g: 1 for g in GAME_NAMES}   # the pools' first size only: one game each sizes them
    base.WINDOW_S, base.WARMUP_S = 0.3, 0.1
    WORKERS, STREAMS, STREAMS_PER_CONNECTION, STREAM_ROUNDS, PROBES = 1, 20, 10, 1, 20


class Driver:
    """One concurrent game slot: its own connection, a pool of games ready to play."""

    def __init__(self, target: str, game: str) -> None:
        import grpc

        from afteraction.v1 import game_service_pb2_grpc as gs_grpc

        self.game = game
        self.ch = grpc.insecure_channel(target, options=base.OWN_CONNECTION)
        self.stub = gs_grpc.GameServiceStub(self.ch)
        self.pool: list = []
        self.current = None
        self.created = self.ended = self.inline = 0

    def new_game(self):
        from afteraction.engine import registry
        from afteraction.engine.seat import Head, SeatSigner
        from afteraction.service.auth import make_auth
        from afteraction.v1 import envelope_pb2
        from afteraction.v1 import game_service_pb2 as gs

        seeds = {s: os.urandom(32) for s in registry.get(self.game).seats}
        signers = {s: SeatSigner(s, seeds[s]) for s in seeds}
        created = self.stub.CreateGame(gs.CreateGameRequest(game=self.game, seats=[
            gs.SeatKey(seat=s, public_key=signers[s].public) for s in signers]), timeout=60)
        gid = created.game_id
        # the driver plays both seats and sees every record: it binds each envelope to the log's
        # end (format version 2) from the records in the replies, without verifying them
        head = Head(1, created.genesis.record_hash, created.genesis.record_hash)
        ent = {s: os.urandom(32) for s in signers}
        res = None
        for step in ("entropy_commit", "entropy_reveal"):
            for s, sg in signers.items():
                signed = getattr(sg, step)(gid, ent[s], head)
                res = self.stub.SubmitCommand(gs.SubmitCommandRequest(
                    command=envelope_pb2.SignedCommand.FromString(signed)), timeout=60)
                head = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head.genesis)
        self.created += 1
        # [gid, signers, auths, seat to move, seat seeds, head of the log]
        return [gid, signers, {s: make_auth(seeds[s], gid, s) for s in seeds}, res.next_decision.seat, seeds, head]

    def top_up(self, n: int) -> None:
        while len(self.pool) < n:
            self.pool.append(self.new_game())
        if self.current is None:
            self.current = self.pool.pop(0)

    def step(self, prng, timeout: float = 60) -> tuple:
        """One command as a bot plays it: ListLegalCommands for the seat to move, one of the legal
        commands (``prng``'s choice) signed and submitted; the log's head and the seat to move follow
        the reply. (list request, its reply, submit request, its reply, whether the game ended:
        then ``next_game``, outside the caller's timing)."""
        from afteraction.engine.seat import Head
        from afteraction.v1 import envelope_pb2
        from afteraction.v1 import game_service_pb2 as gs

        gid, signers, auths, seat, _, head = self.current
        lreq = gs.ListLegalCommandsRequest(game_id=gid, auth=auths[seat])
        lg = self.stub.ListLegalCommands(lreq, timeout=timeout)
        signed = signers[seat].command(gid, lg.state_seq, prng.choice(list(lg.commands)), head)
        sreq = gs.SubmitCommandRequest(command=envelope_pb2.SignedCommand.FromString(signed))
        res = self.stub.SubmitCommand(sreq, timeout=timeout)
        if res.records:
            self.current[5] = Head(res.records[-1].seq + 1, res.records[-1].record_hash, head.genesis)
        ended = not (res.HasField("next_decision") and res.next_decision.seat)
        if not ended:
            self.current[3] = res.next_decision.seat
        return lreq, lg, sreq, res, ended

    def next_game(self) -> None:
        self.ended += 1
        if self.pool:
            self.current = self.pool.pop(0)
        else:  # the pool ran dry inside a window: counted, so a reader knows
            self.inline += 1
            self.current = self.new_game()

    def close(self) -> None:
        self.ch.close()


def run_service(drivers: list[Driver], m: base.Meter, t_start: float | None = None) -> list[int]:
    """One window of ``drivers`` (threads of this process); ``t_start``: when they start (time.monotonic,
    the same clock in every process on Linux: the client processes' windows start together)."""
    from afteraction.engine.bots import Prng

    t_start = time.monotonic() + 0.2 if t_start is None else t_start
    start, end = t_start + base.WARMUP_S, t_start + base.WARMUP_S + base.WINDOW_S

    def drive(d: Driver):
        prng = Prng(os.urandom(8))
        while time.monotonic() < t_start:
            time.sleep(0.001)
        while time.monotonic() < end:
            t0 = time.monotonic()
            lreq, lg, sreq, res, ended = d.step(prng)
            t1 = time.monotonic()
            m.add(t0, t1, start, end)
            with m.lock:
                if m.n_sized < 400:
                    m.sizes = [a + b for a, b in zip(m.sizes, (lreq.ByteSize(), lg.ByteSize(), sreq.ByteSize(),
                                                               res.ByteSize()))]
                    m.n_sized += 1
            if ended:
                d.next_game()

    ts = [threading.Thread(target=drive, args=(d,)) for d in drivers]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return [s // max(1, m.n_sized) for s in m.sizes]


class ClientProc(JsonLinesProc):
    """Up to GAMES_PER_CLIENT drivers (and as many echo drivers) in a client process of their own
    (so the clients of many games can be spread over processes rather than be
    threads behind one GIL; how many per process is GAMES_PER_CLIENT's measured choice).
    The parent tells it, over JSON lines on its stdin/stdout, to top up its pools, renew the seat
    tokens, play one window from a given start (time.monotonic, shared by every process) and run
    the echo's window; it answers with the latencies inside the window."""

    def __init__(self, svc_target: str, echo_target: str, game: str, n: int) -> None:
        super().__init__([os.path.abspath(__file__), "--client", svc_target, echo_target, game, str(n)],
                         "a bench client process")
        self.n = n


def _all(procs: list[ClientProc], **msg) -> list[dict]:
    for c in procs:
        c.send(**msg)
    return [c.answer() for c in procs]


def client_main(svc_target: str, echo_target: str, game: str, n: int) -> None:
    """A client process (ClientProc): ``n`` drivers of ``game`` and ``n`` echo connections."""
    import json

    import grpc

    drivers = [Driver(svc_target, game) for _ in range(n)]
    echo_ch = [grpc.insecure_channel(echo_target, options=base.OWN_CONNECTION) for _ in range(n)]
    echo_calls = [ch.unary_unary("/bench.Echo/Call") for ch in echo_ch]
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write on the answers' pipe
    for line in sys.stdin:
        msg = json.loads(line)
        op = msg["op"]
        if "window" in msg:  # the parent's (quick mode's) window
            base.WINDOW_S, base.WARMUP_S = msg["window"], msg["warmup"]
        if op == "close":
            break
        if op == "top_up":
            ts = [threading.Thread(target=d.top_up, args=(msg["want"],)) for d in drivers]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            ans = {}
        elif op == "refresh":
            _refresh_auth(drivers)
            ans = {}
        elif op == "service":
            m = base.Meter()
            ended0, inline0 = sum(d.ended for d in drivers), sum(d.inline for d in drivers)
            cpu0 = time.process_time()
            run_service(drivers, m, msg["t_start"])
            ans = {"lat": m.lat, "sizes": m.sizes, "n_sized": m.n_sized, "cpu": time.process_time() - cpu0,
                   "ended": sum(d.ended for d in drivers) - ended0, "inline": sum(d.inline for d in drivers) - inline0}
        elif op == "echo":
            ans = {"lat": base.echo_window(echo_calls, msg["sizes"], msg["t_start"]).lat}
        else:
            raise ValueError(op)
        out.write(json.dumps(ans) + "\n")
        out.flush()
    for d in drivers:
        d.close()
    for ch in echo_ch:
        ch.close()


def _refresh_auth(drivers: list[Driver]) -> None:
    """Seat tokens are good for 5 minutes: renew those of the games in use between configurations."""
    from afteraction.service.auth import make_auth

    for d in drivers:
        for g in [d.current, *d.pool]:
            g[2] = {s: make_auth(g[4][s], g[0], s) for s in g[4]}


def bench_game(game: str, svc_target: str, echo_target: str, cmds_per_game: dict) -> dict:
    out = {}
    rate_guess = EXPECT_CMDS_S
    for n in GAMES:
        k = -(-n // GAMES_PER_CLIENT)  # client processes, the games spread evenly over them
        procs = [ClientProc(svc_target, echo_target, game, n // k + (i < n % k)) for i in range(k)]
        m, me = base.Meter(), base.Meter()
        rounds = ROUNDS_AT_10 if n == RATIO_AT else ROUNDS_PER_CONFIG
        sizes, pairs, ended, inline, cpu = [0, 0, 0, 0], [], 0, 0, 0.0
        try:
            for _ in range(rounds):
                per_driver = rate_guess * (base.WINDOW_S + base.WARMUP_S + 0.2) / n
                want = int(2 * per_driver / cmds_per_game[game]) + 2  # twice the guess and two more: few run dry
                _all(procs, op="top_up", want=want)
                _all(procs, op="refresh")  # seat tokens are good for 5 minutes
                n_svc, n_echo = len(m.lat), len(me.lat)
                got = _all(procs, op="service", t_start=time.monotonic() + START_S, window=base.WINDOW_S,
                           warmup=base.WARMUP_S)
                for a in got:
                    m.lat.extend(a["lat"])
                n_sized = sum(a["n_sized"] for a in got)
                sizes = [sum(a["sizes"][i] for a in got) // max(1, n_sized) for i in range(4)]
                ended += sum(a["ended"] for a in got)
                cpu += sum(a["cpu"] for a in got)
                inline += sum(a["inline"] for a in got)
                rate_guess = max(50.0, (len(m.lat) - n_svc) / base.WINDOW_S * 1.5)
                # right after: the same moment's machine, the same client processes
                for a in _all(procs, op="echo", sizes=sizes, t_start=time.monotonic() + START_S, window=base.WINDOW_S,
                              warmup=base.WARMUP_S):
                    me.lat.extend(a["lat"])
                pairs.append((len(m.lat) - n_svc) / max(1, len(me.lat) - n_echo))
        finally:
            for c in procs:
                c.close()
        rs = base._line(f"{game}", n, m, rounds)
        re_ = base._line("echo", n, me, rounds)
        print(f"         {game} games={n} in {k} client process{'es' if k > 1 else ''}: {ended} games ended inside "
              f"the windows{f', {inline} created inside a window (pool ran dry)' if inline else ''}; "
              f"message sizes legal {sizes[0]}/{sizes[1]} submit {sizes[2]}/{sizes[3]} bytes; the clients' CPU "
              f"{1000 * cpu / max(1, len(m.lat)) * base.WINDOW_S / (base.WINDOW_S + base.WARMUP_S):.2f} ms "
              "per command (approximate)", flush=True)
        print(f"         {game} games={n}: {game}/echo commands per window pair " + " ".join(f"{r:.3f}" for r in pairs)
              + f"; median {statistics.median(pairs):.3f} (all windows pooled {rs / re_ if re_ else 0.0:.3f})",
              flush=True)
        q = statistics.quantiles(m.lat, n=100) if len(m.lat) >= 2 else [0.0] * 99
        out[n] = (rs, re_, q[49] * 1000, q[98] * 1000, statistics.median(pairs))
    return out


def bench_streams(target: str) -> tuple[float, float | None, str]:
    """GetState p99 idle and with STREAMS idle Watch streams, by bench_streams.compare on this
    server and an SOG game of it; (idle p99, loaded p99 or None if calls went unanswered, note)."""
    from afteraction.v1 import game_service_pb2 as gs

    from . import bench_streams as bs

    d = Driver(target, "sog")
    d.top_up(1)
    req = gs.GetStateRequest(game_id=d.current[0])
    try:
        r = bs.compare(target, req.game_id, lambda timeout: d.stub.GetState(req, timeout=timeout), STREAMS,
                       STREAMS_PER_CONNECTION, STREAM_ROUNDS, PROBES, PROBE_DEADLINE_S)
    finally:
        d.close()
    base, loaded = r["base"], r["loaded"]
    note = f"{r['refused']} of {STREAMS} Watch streams refused"
    print(f"getstate idle                 p50_ms={bs._pct(base, .5):7.2f}  p99_ms={bs._pct(base, .99):7.2f}  "
          f"({len(base)} calls pooled)", flush=True)
    if r["missed"] or len(loaded) < 2:
        print(f"getstate with {STREAMS} idle Watch streams: {r['missed']} calls not answered within "
              f"{PROBE_DEADLINE_S:.0f} s ({note})", flush=True)
        return bs._pct(base, .99) / 1000, None, note
    print(f"getstate with {STREAMS} Watch  p50_ms={bs._pct(loaded, .5):7.2f}  p99_ms={bs._pct(loaded, .99):7.2f}  "
          f"({len(loaded)} calls pooled; {note})", flush=True)
    return bs._pct(base, .99) / 1000, bs._pct(loaded, .99) / 1000, note


def _cmds_per_game() -> dict:
    """Mean commands per game of each ruleset's default options (random bots, a few seeded games)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    out = {}
    for game in GAME_NAMES:
        n = []
        for i in range(CPG_GAMES[game]):  # SOG's games are short: more of them
            g = LocalGame.create(game, seed=f"bench-svc-{game}-{i}".encode())
            g.handshake()
            n.append(g.run_bots(random_bot(i)))
        out[game] = max(1, sum(n) // len(n))
    return out


def run() -> None:
    t0 = time.monotonic()
    cpg = _cmds_per_game()
    with tempfile.TemporaryDirectory(prefix="aar-bench-games-") as d:
        svc, svc_target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                       "--workers", str(WORKERS),
                                       "--store", f"sqlite:{os.path.join(d, 'bench.sqlite')}", "--data-dir", d])
        echo, echo_target = base._spawn([os.path.abspath(base.__file__), "--echo-server"])
        try:
            print(f"service benchmark on real games: random bots through `aar serve --workers {WORKERS}` "
                  "(SQLite, WAL, synchronous=FULL) vs a bare gRPC echo with the same message sizes; "
                  "one command = ListLegalCommands + SubmitCommand; each game on its own connection; "
                  f"mean commands per game of a few seeded games: {cpg}", flush=True)
            figures = {g: bench_game(g, svc_target, echo_target, cpg) for g in GAME_NAMES}
            p99_idle, p99_loaded, _ = bench_streams(svc_target)
        finally:
            base._stop(svc)
            base._stop(echo)
    print(f"bench_service_games took {time.monotonic() - t0:.1f} s")
    ratios = {g: f[RATIO_AT][4] for g, f in figures.items()}  # the median of the window pairs' ratios
    sog_p99_100 = figures["sog"][P99_AT][3]
    stream_ratio = p99_loaded / p99_idle if p99_loaded is not None else PROBE_DEADLINE_S / p99_idle
    print(f"targets: service_sog_vs_echo >= 0.33 at {RATIO_AT} games: {ratios['sog']:.3f}; "
          f"p99 at {P99_AT} SOG games < 250 ms: {sog_p99_100:.1f} ms; GetState p99 with {STREAMS} Watch streams "
          f"<= 2x idle: {'not answered' if p99_loaded is None else f'{stream_ratio:.2f}x'}")
    if p99_loaded is None:
        print(f"(getstate_p99_watch1000_vs_idle below is a lower bound: the {PROBE_DEADLINE_S:.0f} s deadline "
              "over the idle p99)")
    print(f"ratio service_sog_vs_echo {ratios['sog']:.3f}")
    print(f"ratio service_gmv_vs_echo {ratios['gmv']:.3f}")
    print(f"ratio service_ntnd_vs_echo {ratios['ntnd']:.3f}")
    print(f"ratio sog_p99_ms_at_100 {sog_p99_100:.1f}")
    print(f"ratio getstate_p99_watch1000_vs_idle {stream_ratio:.2f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--client"]:
        client_main(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        if "--quick" in sys.argv[1:]:
            quick()
        run()
