"""The peer benchmark (`make bench-peer`): the duel (engine/games/duel, SPEC.md 12) through
our service and through boardgame.io 0.50.2 (bench/peer/game.js, server.js, load.js), in one run.

Systems, each its own server process, N concurrent games, each seat its own connection:
  service        `aar serve --workers 2` as `make bench` runs it (SQLite, WAL, synchronous=FULL, every
                 command signed and verified, a signed checkpoint per record), played over the fast
                 path: each seat's ``Play`` stream on its own connection, a prompt carrying the legal
                 commands, one message each way per move (bench/play_load.py's client process).
  service_unary  the same server played with two unary calls per command, ListLegalCommands +
                 SubmitCommand, both seats of a game over one connection (bench_service_games'
                 drivers and client process; what `make bench` measures), for comparison.
  bgio_memory    boardgame.io's Server, its in-memory store, no crypto (for reference).
  bgio_crypto    the same with the per-move crypto (Ed25519 verify of the seat's signed
                 move, a SHA-256 chain, an Ed25519 server signature per move; game.js).
  bgio_flatfile  boardgame.io's FlatFile store (node-persist files; no crypto).
  service_sog, service_gmv
                 SOG and GMV over Play as ``service`` plays the duel (``--rulesets``; ours only: the
                 peer has no such game), printed beside it with ``ratio service_G_moves_per_s_at_N``,
                 ``ratio service_G_cpu_ms_per_command_at_N`` and ``ratio service_G_p99_ms_at_N``, no target.
For each number of games, ROUNDS rounds of one window per system, the systems' order rotated each
round; games (and matches) are created before a window, so windows measure moves. Figures: moves per
second (pooled over the rounds), p50/p99 latency of one move as the seat to move sees it, the server
process's CPU per move over the windows (/proc: user + system, the server's worker processes included),
the client process's CPU per move (approximate).

Prints ``ratio service_vs_bgio_crypto_at_N``, ``ratio service_vs_bgio_flatfile_at_N`` and
``ratio service_vs_bgio_memory_at_N`` for each N, ``ratio service_vs_bgio_crypto`` and
``ratio service_vs_bgio_flatfile`` (the lower over the Ns: the targets hold at every N),
``ratio service_p99_ms_at_N`` and ``ratio bgio_crypto_p99_ms_at_N`` at the largest N,
``ratio service_cpu_ms_per_command`` and ``ratio bgio_crypto_cpu_ms_per_move`` (at the largest N), and
``ratio service_vs_bgio_crypto_cpu_at_N`` / ``ratio service_vs_bgio_flatfile_cpu_at_N``: the peer's
server CPU per move over ours (moves per second of server CPU, ours over the peer's), the figure the
machine's other load moves least.
No target is asserted: the figures are read (docs/service.md, "The peer benchmark").

Run: ``make bench-peer`` (npm ci, then this) or ``python bench/peer/compare.py [--quick] [--games 10,100]
[--rounds 2] [--window 2] [--systems service,service_unary,...] [--base COMMIT] [--workers 2]``; needs node and
bench/peer/node_modules. ``--base COMMIT`` adds that commit's service over unary calls (its whole package
extracted with git archive, first on PYTHONPATH) as ``service_base``, and over Play as
``service_base_play`` when ``service`` runs, and prints ``ratio service_unary_vs_service_base_cpu_at_N``
and ``ratio service_vs_service_base_play_cpu_at_N`` (the base's server CPU per command over ours) and
the moves/s ratios: before and after in the same windows' conditions; ``--systems service,service_unary --base COMMIT`` runs
only our side.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)

from bench import play_load  # noqa: E402
from bench import bench_service as base  # noqa: E402
from bench import bench_service_games as bg  # noqa: E402
from bench.profile_service import _cpu  # noqa: E402  (a process's CPU and its children's, from /proc)

GAMES = (10, 100)
ROUNDS = 2
WINDOW_S = 2.0
WARMUP_S = 0.5
WORKERS = 2                 # as `make bench` runs the service (bench_service_games.WORKERS)
MOVES_PER_GAME = 6          # the duel: three rounds of a pick and a guess
EXPECT = {"service": 800.0, "service_unary": 500.0, "bgio_memory": 2000.0, "bgio_crypto": 1500.0,
          "bgio_flatfile": 600.0, "service_sog": 500.0, "service_gmv": 500.0}  # first guesses
SYSTEMS = ("service", "service_unary", "bgio_memory", "bgio_crypto", "bgio_flatfile")
RULESETS = ("sog", "gmv")   # played over Play beside the duel ("service_sog", "service_gmv"), ours only
MOVES: dict = {}            # commands per game of each of RULESETS (random bots: bench_service_games)
BASE_PATH = ""              # --base COMMIT: that commit's service, systems "service_base" (unary) and "service_base_play"


def quick() -> None:
    """For tests/test_bench.py: the same code paths at 2 games in a few seconds."""
    global GAMES, ROUNDS, WINDOW_S, WARMUP_S
    GAMES, ROUNDS, WINDOW_S, WARMUP_S = (2,), 1, 0.5, 0.2
    for k in EXPECT:  # small pools: a slot that runs dry creates its next game inside the window
        EXPECT[k] = 50.0


def missing() -> str | None:
    """Why the peer cannot run here (no node, or boardgame.io not installed), or None (also when
    only our systems are asked for: they need neither)."""
    if all(s.startswith("service") for s in SYSTEMS):
        return None
    if shutil.which("node") is None:
        return "no node on PATH"
    if not os.path.isdir(os.path.join(HERE, "node_modules", "boardgame.io")):
        return "bench/peer/node_modules has no boardgame.io (make bench-peer runs npm ci there)"
    return None


def _pool(rate: float, n: int, margin: float = 2.0, moves: int = MOVES_PER_GAME) -> int:
    """Games each slot needs for one window at ``rate`` moves/s: ``margin`` times the guess and two more
    (``moves``: commands per game)."""
    return int(margin * rate * (WINDOW_S + WARMUP_S + 0.5) / n / moves) + 2


class Service:
    """`aar serve` and one client process playing the duel: over Play streams (play_load.PlayProc,
    ``name`` "service") or unary calls (bench_service_games' drivers, "service_unary"); ``game``
    another ruleset over Play ("service_sog", "service_gmv": ours only, the peer has no such game)."""

    def __init__(self, tmp: str, n: int, name: str = "service", game: str = "duel") -> None:
        self.name = name if game == "duel" else f"{name}_{game}"
        self.game = game
        old = os.environ.get("PYTHONPATH")
        base_of = name.startswith("service_base")
        if base_of:  # --base: that commit's engine and service first on the path
            os.environ["PYTHONPATH"] = BASE_PATH + (os.pathsep + old if old else "")
        try:
            self.proc, self.target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                                  "--workers", str(WORKERS), "--store",
                                                  f"sqlite:{os.path.join(tmp, 'bench.sqlite')}", "--data-dir", tmp])
            # the echo target is unused (no echo window here): the service's own address
            self.play = name in ("service", "service_base_play")
            self.clients = play_load.PlayProc(self.target, game, n) if self.play else \
                bg.ClientProc(self.target, self.target, game, n)
        finally:
            if base_of:
                os.environ.pop("PYTHONPATH") if old is None else os.environ.__setitem__("PYTHONPATH", old)

    def window(self, rate: float, n: int) -> dict:
        c = self.clients
        bg._all([c], op="top_up", want=_pool(rate, n, moves=MOVES.get(self.game, MOVES_PER_GAME)))
        if not self.play:
            bg._all([c], op="refresh")
        t_start = time.monotonic() + bg.START_S
        c.send(op="service", t_start=t_start, window=WINDOW_S, warmup=WARMUP_S)
        time.sleep(max(0.0, t_start + WARMUP_S - time.monotonic()))
        cpu0 = _cpu(self.proc.pid)
        time.sleep(max(0.0, t_start + WARMUP_S + WINDOW_S - time.monotonic()))
        cpu1 = _cpu(self.proc.pid)
        a = c.answer()
        return {"lat": a["lat"], "server_cpu": cpu1 - cpu0,
                "client_cpu": a["cpu"] * WINDOW_S / (WINDOW_S + WARMUP_S), "inline": a["inline"],
                "msgs": a.get("msgs"), "accepted": a.get("accepted")}

    def close(self) -> None:
        self.clients.close()
        base._stop(self.proc)


class Peer:
    """server.js with a store, and one load.js process per window."""

    def __init__(self, name: str, tmp: str) -> None:
        self.name = name
        self.crypto = name == "bgio_crypto"
        cmd = ["node", os.path.join(HERE, "server.js")]
        if name == "bgio_flatfile":
            cmd += ["--store", "flatfile", "--dir", os.path.join(tmp, "flatfile")]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE)
        line = self.proc.stdout.readline()
        if not line.startswith("port "):
            raise RuntimeError(f"boardgame.io's server did not start ({line!r})")
        self.url = f"http://127.0.0.1:{int(line.split()[1])}"

    def window(self, rate: float, n: int) -> dict:
        pool = _pool(rate, n, 1.5)  # each pooled match holds two sockets: a smaller margin
        cmd = ["node", os.path.join(HERE, "load.js"), "--server", self.url, "--games", str(n), "--pool",
               str(pool), "--warmup", str(WARMUP_S), "--window", str(WINDOW_S)]
        p = subprocess.Popen(cmd + (["--crypto"] if self.crypto else []), stdout=subprocess.PIPE, text=True,
                             cwd=HERE)
        cpu0 = cpu1 = None
        try:
            for line in p.stdout:
                if line == "window-start\n":
                    cpu0 = _cpu(self.proc.pid)
                elif line == "window-end\n":
                    cpu1 = _cpu(self.proc.pid)
                elif line.startswith("{"):
                    a = json.loads(line)
                    break
            else:
                raise RuntimeError(f"the load generator stopped ({p.wait()})")
        finally:
            p.wait(30)
        return {"lat": a["lat"], "server_cpu": cpu1 - cpu0, "client_cpu": a["cpu"] * WINDOW_S / (WINDOW_S + WARMUP_S),
                "inline": a["inline"]}

    def close(self) -> None:
        self.proc.stdin.close()  # server.js stops when its stdin closes
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def extract(commit: str) -> str:
    """COMMIT's whole ``afteraction`` package (engine, service, the clients, the protos) in a temporary
    directory, for PYTHONPATH (the bench's own code stays this tree's)."""
    pkgs = {"engine": "engine", "service": "service", "client": "clients/python", "cli": "clients/cli",
            "v1": "proto/afteraction/v1", "webclient": "clients/web/static"}
    into = tempfile.mkdtemp(prefix="aar-bench-base-")
    tar = subprocess.run(["git", "-C", ROOT, "archive", commit, *pkgs.values()], check=True, capture_output=True).stdout
    src = os.path.join(into, "src")
    os.makedirs(src)
    subprocess.run(["tar", "-x", "-C", src], input=tar, check=True)
    os.makedirs(os.path.join(into, "afteraction"))
    for name, path in pkgs.items():
        os.rename(os.path.join(src, path), os.path.join(into, "afteraction", name))
    return into


def bench_size(n: int, tmp: str) -> dict:
    systems = []
    try:
        for name in SYSTEMS:
            d = os.path.join(tmp, f"{name}-{n}")
            os.makedirs(d)
            systems.append(Service(d, n, name) if name.startswith("service") else Peer(name, d))
        for g in RULESETS if "service" in SYSTEMS else ():
            for name in ("service", "service_base_play"):   # with --base, that commit's too
                if name in SYSTEMS:
                    d = os.path.join(tmp, f"{name}_{g}-{n}")
                    os.makedirs(d)
                    systems.append(Service(d, n, name, g))
        got: dict = {s.name: [] for s in systems}
        rate = {s.name: EXPECT.get(s.name, EXPECT["service"]) for s in systems}
        for r in range(ROUNDS):
            for s in systems[r % len(systems):] + systems[:r % len(systems)]:  # the order rotates each round
                w = s.window(rate[s.name], n)
                # the next window's pools: this one's rate, or half the guess if it was slower (a window
                # that other load hit would leave the next one's pools too small)
                rate[s.name] = max(20.0, len(w["lat"]) / WINDOW_S, rate[s.name] / 2)
                got[s.name].append(w)
    finally:
        for s in systems:
            s.close()
    out = {}
    for name, ws in got.items():
        lat = sorted(x for w in ws for x in w["lat"])
        moves = len(lat)
        q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
        out[name] = {"rate": moves / (WINDOW_S * len(ws)), "p50": 1000 * q[49], "p99": 1000 * q[98],
                     "server_ms": 1000 * sum(w["server_cpu"] for w in ws) / max(1, moves),
                     "client_ms": 1000 * sum(w["client_cpu"] for w in ws) / max(1, moves),
                     "inline": sum(w["inline"] for w in ws), "per_window": [len(w["lat"]) / WINDOW_S for w in ws]}
        f = out[name]
        msgs = [(w["msgs"], w["accepted"]) for w in ws if w.get("msgs") is not None]   # our Play systems
        per = f"  {sum(m for m, _ in msgs) / max(1, sum(c for _, c in msgs)):.2f} stream messages a command" if msgs else ""
        print(f"{name:14s} games={n:<4d} {f['rate']:8.1f} moves/s  p50 {f['p50']:7.1f} ms  p99 {f['p99']:7.1f} ms  "
              f"server CPU {f['server_ms']:5.2f} ms/move  client CPU {f['client_ms']:5.2f} ms/move (approximate)  "
              f"windows " + " ".join(f"{x:.0f}" for x in f["per_window"]) + per
              + (f"  ({f['inline']} games created inside a window: pool ran dry)" if f["inline"] else ""), flush=True)
    return out


def run() -> None:
    why = missing()
    if why:
        raise SystemExit(f"bench-peer: {why}")
    t0 = time.monotonic()
    print(f"peer benchmark: the duel through `aar serve --workers {WORKERS}` (SQLite, WAL, "
          "synchronous=FULL; service: one Play message each way per command; service_unary: ListLegalCommands + "
          "SubmitCommand) and through boardgame.io 0.50.2 "
          "(SocketIO, moves applied on the server); each seat its own connection; "
          f"{ROUNDS} rounds of a {WINDOW_S} s window (after {WARMUP_S} s of warm-up) per system and size; "
          f"load average before: {open('/proc/loadavg').read().split()[:3]}", flush=True)
    if RULESETS and "service" in SYSTEMS:
        MOVES.update(bg._cmds_per_game())
        print("commands per game (random bots, for the pools): " + ", ".join(f"{g} {MOVES[g]}" for g in RULESETS),
              flush=True)
    with tempfile.TemporaryDirectory(prefix="aar-bench-peer-") as tmp:
        figures = {n: bench_size(n, tmp) for n in GAMES}
    print(f"bench-peer took {time.monotonic() - t0:.1f} s; load average after: "
          f"{open('/proc/loadavg').read().split()[:3]}", flush=True)
    ratios = {}
    have = set(figures[GAMES[0]])
    pairs = (("service", "service_base_play"), ("service_unary", "service_base"),
             *((f"service_{g}", f"service_base_play_{g}") for g in RULESETS))
    for name, before in pairs:
        if {name, before} <= have:  # before / after, in the same windows' conditions
            for n in GAMES:
                print(f"ratio {name}_vs_{before}_cpu_at_{n} "
                      f"{figures[n][before]['server_ms'] / max(1e-9, figures[n][name]['server_ms']):.3f}")
                print(f"ratio {name}_vs_{before}_at_{n} "
                      f"{figures[n][name]['rate'] / max(1e-9, figures[n][before]['rate']):.3f}")
    for g in RULESETS:  # the war games over Play beside the duel: no target, read beside it
        if f"service_{g}" in have:
            for n in GAMES:
                f = figures[n][f"service_{g}"]
                print(f"ratio service_{g}_moves_per_s_at_{n} {f['rate']:.1f}")
                print(f"ratio service_{g}_cpu_ms_per_command_at_{n} {f['server_ms']:.3f}")
                print(f"ratio service_{g}_p99_ms_at_{n} {f['p99']:.1f}")
    if not {"bgio_memory", "bgio_crypto", "bgio_flatfile"} <= have:
        return
    for peer in ("crypto", "flatfile", "memory"):
        for n in GAMES:
            ratios[f"service_vs_bgio_{peer}_at_{n}"] = figures[n]["service"]["rate"] / max(
                1e-9, figures[n][f"bgio_{peer}"]["rate"])
    for name, v in ratios.items():
        print(f"ratio {name} {v:.3f}")
    for peer in ("crypto", "flatfile"):
        print(f"ratio service_vs_bgio_{peer} {min(ratios[f'service_vs_bgio_{peer}_at_{n}'] for n in GAMES):.3f}")
    # moves per second of server CPU, ours over the peer's: the figure that the machine's other load
    # moves least (a loaded machine's run queue gives more turns to a server of more threads)
    for peer in ("crypto", "flatfile"):
        for n in GAMES:
            print(f"ratio service_vs_bgio_{peer}_cpu_at_{n} "
                  f"{figures[n][f'bgio_{peer}']['server_ms'] / max(1e-9, figures[n]['service']['server_ms']):.3f}")
    top = GAMES[-1]
    print(f"ratio service_p99_ms_at_{top} {figures[top]['service']['p99']:.1f}")
    print(f"ratio bgio_crypto_p99_ms_at_{top} {figures[top]['bgio_crypto']['p99']:.1f}")
    print(f"ratio service_cpu_ms_per_command {figures[top]['service']['server_ms']:.3f}")
    print(f"ratio service_unary_cpu_ms_per_command {figures[top]['service_unary']['server_ms']:.3f}")
    for n in GAMES:  # the fast path over the unary calls, moves per second of server CPU
        print(f"ratio service_vs_service_unary_cpu_at_{n} "
              f"{figures[n]['service_unary']['server_ms'] / max(1e-9, figures[n]['service']['server_ms']):.3f}")
    print(f"ratio bgio_crypto_cpu_ms_per_move {figures[top]['bgio_crypto']['server_ms']:.3f}")


def main() -> None:
    global GAMES, ROUNDS, WINDOW_S, SYSTEMS, BASE_PATH, RULESETS, WORKERS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", help="comma-separated numbers of concurrent games (default 10,100)")
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--window", type=float)
    ap.add_argument("--systems", help="comma-separated systems to run (default: all)")
    ap.add_argument("--rulesets", help="comma-separated rulesets played over Play beside the duel when "
                                       "system service runs (default sog,gmv; \"\" for none)")
    ap.add_argument("--base", metavar="COMMIT", help="also run that commit's service over unary calls "
                                                     "(\"service_base\": before / after in one run) and, with "
                                                     "system service, over Play (\"service_base_play\", and "
                                                     "\"service_base_play_G\" for each of --rulesets)")
    ap.add_argument("--workers", type=int, help=f"`aar serve --workers N` for our systems (default {WORKERS}: as "
                                                 "`make bench`; 1 shows what a game split over two processes costs)")
    a = ap.parse_args()
    if a.quick:
        quick()
    if a.games:
        GAMES = tuple(int(x) for x in a.games.split(","))
    if a.rounds:
        ROUNDS = a.rounds
    if a.window:
        WINDOW_S = a.window
    if a.systems:
        SYSTEMS = tuple(x for x in a.systems.split(","))
    if a.workers:
        WORKERS = a.workers
    if a.rulesets is not None:
        RULESETS = tuple(x for x in a.rulesets.split(",") if x)
    if a.base:
        BASE_PATH = extract(a.base)
        SYSTEMS = SYSTEMS + ("service_base",) + (("service_base_play",) if "service" in SYSTEMS else ())
        EXPECT["service_base"] = EXPECT["service_unary"]
        EXPECT["service_base_play"] = EXPECT["service"]
    run()


if __name__ == "__main__":
    main()
