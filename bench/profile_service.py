"""Where the service's time goes (docs/service.md, "Benchmark on real games"). Not a
benchmark of `make bench` (no ``bench_`` prefix): the measurements behind the profile text.

    python bench/profile_service.py cpu sog [--workers 2] [--games 10] [--commit-times]
        `aar serve` on a temp SQLite store, ``--games`` bot games for one window of
        bench_service_games: commands, p50/p99, the server's CPU per command (/proc, the
        parent's and its workers' together) and this client's; ``--commit-times`` also times
        every ``SqliteStore._commit`` in the server processes (a sitecustomize wrapper) and
        prints their distribution.
    python bench/profile_service.py ab sog --base COMMIT [--against COMMIT2] [--games 100] [--window 3] [--rounds 3] [--workers 2]
        this tree's `aar serve` against the service of COMMIT (extracted with `git archive`,
        put first on PYTHONPATH; the client, protos and bench stay this tree's) in alternating
        windows of bench_service_games' drivers (its client processes), the order swapped every
        round: commands/s, p50, p99 of each, and their means.
    python bench/profile_service.py loop sog [--games 100] [--window 4]
        cProfile of each server process's event-loop thread (where the commands run) during one
        window of the bench's client processes (switched on and off by SIGUSR1/SIGUSR2 through a
        sitecustomize hook, so game creation and the handshakes are not in it); the two
        processes' stats merged, top functions by own and by cumulative time.
    python bench/profile_service.py gc sog [--games 100] [--window 6] [--no-freeze]
        every garbage collection of the server processes during one window (gc.callbacks):
        count, total and longest pause per generation; ``--no-freeze`` makes the server's
        ``gc.freeze()`` a no-op, for the comparison.
    python bench/profile_service.py inproc duel sog gmv
        ``GameManager`` without gRPC on one thread under cProfile: the legal commands and
        the submit per command, and the top functions by own time.

    python bench/profile_service.py path duel [--games 1] [--window 8] [--workers 2] [--rate 250] [--play]
        the whole service path of one seat's commands: `aar serve --workers 2` sampled
        by py-spy (``pip install py-spy``; every thread of every server process, its own overhead kept
        small with --nonblocking) while ``--games`` bench drivers play for ``--window`` seconds (``--play``:
        bench/play_load.py's client process, each seat on its own Play stream and connection); each
        sample is put in one bucket: a rebuild of a game that is not among the cached live games
        (GameManager._load, whatever it calls), else by its innermost frame that names one (parsing, pending decision,
        legal-command enumeration, copies, authentication, logging, the store, crypto, the rules,
        the event log, the service's own code, gRPC/asyncio) and printed as sampled thread time per command
        beside the server's CPU per command (/proc over the same seconds), with the top functions by own
        samples; samples of threads waiting in select, a condition or a queue are set aside (WAITS).

The server's threads, its instructions per command and the transport's floor: profile_server.py.
"""
from __future__ import annotations

import argparse
import cProfile
import glob
import io
import os
import pstats
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import bench_service as base  # noqa: E402
from bench import bench_service_games as bg  # noqa: E402
from bench import play_load  # noqa: E402

WRAPPER = '''
import atexit, os, time
try:
    from afteraction.service import store_sqlite as _s
    _orig, _times = _s.SqliteStore._commit, []
    def _commit(self, batch):
        t0 = time.perf_counter()
        try:
            return _orig(self, batch)
        finally:
            _times.append((time.perf_counter() - t0, len(batch)))
    _s.SqliteStore._commit = _commit
    def _dump():
        if _times:
            with open(os.path.join(os.environ["AAR_PROFILE_DIR"], "commits-%d.txt" % os.getpid()), "w") as f:
                f.writelines("%.6f %d\\n" % t for t in _times)
    atexit.register(_dump)
except ImportError:
    pass
'''


HOOK = '''
import gc, json, os, signal, time
if os.environ.get("AAR_PROFILE_NOFREEZE"):
    gc.freeze = lambda: None
try:
    from afteraction.service import server as _srv
    _orig = _srv.start
    def start(*a, **k):
        run = _orig(*a, **k)
        out = os.environ["AAR_PROFILE_DIR"]
        if os.environ["AAR_PROFILE_WHAT"] == "loop":
            import cProfile
            prof = cProfile.Profile()
            def on(*_):
                run.loop.call_soon_threadsafe(prof.enable)
            def off(*_):
                def stop():
                    prof.disable()
                    prof.dump_stats(os.path.join(out, "loop-%d.prof" % os.getpid()))
                run.loop.call_soon_threadsafe(stop)
        else:
            rec, t0, live = [], [0.0], [False]
            def cb(phase, info):
                if live[0]:
                    if phase == "start":
                        t0[0] = time.perf_counter()
                    else:
                        rec.append((info["generation"], time.perf_counter() - t0[0]))
            gc.callbacks.append(cb)
            def on(*_):
                live[0] = True
            def off(*_):
                live[0] = False
                with open(os.path.join(out, "gc-%d.json" % os.getpid()), "w") as f:
                    json.dump({"rec": rec, "frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects())}, f)
        signal.signal(signal.SIGUSR1, on)
        signal.signal(signal.SIGUSR2, off)
        return run
    _srv.start = start
except ImportError:
    pass
'''


def hooked(what: str, game: str, games: int, window: float, no_freeze: bool = False) -> None:
    """``loop`` or ``gc``: one window of the bench's client processes against `aar serve --workers 2`
    whose processes run HOOK (switched on for the window only)."""
    import json
    import signal

    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        with open(os.path.join(d, "sitecustomize.py"), "w") as f:
            f.write(HOOK)
        env_before = dict(os.environ)
        os.environ.update(PYTHONPATH=d + os.pathsep + os.environ.get("PYTHONPATH", ""), AAR_PROFILE_DIR=d,
                          AAR_PROFILE_WHAT=what)
        if no_freeze:
            os.environ["AAR_PROFILE_NOFREEZE"] = "1"
        try:
            svc, target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                       "--store", f"sqlite:{d}/p.sqlite", "--data-dir", d, "--workers", "2"])
        finally:
            os.environ.clear()
            os.environ.update(env_before)
        try:
            k = -(-games // bg.GAMES_PER_CLIENT)
            procs = [bg.ClientProc(target, target, game, games // k + (i < games % k)) for i in range(k)]
            try:
                bg._all(procs, op="top_up", want=max(2, int(600 * window / games / 8)))
                for cp in procs:
                    cp.send(op="service", t_start=time.monotonic() + bg.START_S, window=window, warmup=base.WARMUP_S)
                time.sleep(bg.START_S + base.WARMUP_S)
                kids = [int(c) for c in _children(svc.pid)]
                for c in kids:
                    os.kill(c, signal.SIGUSR1)
                time.sleep(window)
                for c in kids:
                    os.kill(c, signal.SIGUSR2)
                lat = sorted(x for cp in procs for x in cp.answer()["lat"])
            finally:
                for cp in procs:
                    cp.close()
            time.sleep(0.5)
        finally:
            base._stop(svc)
        q = statistics.quantiles(lat, n=100)
        print(f"{game} games={games}: {len(lat) / window:.0f} commands/s, p50 {q[49] * 1000:.1f} ms, p99 "
              f"{q[98] * 1000:.1f} ms (load {os.getloadavg()[0]:.1f})")
        if what == "loop":
            st = pstats.Stats(*glob.glob(os.path.join(d, "loop-*.prof")))
            st.sort_stats("tottime").print_stats(25)
            st.sort_stats("cumtime").print_stats(50)
            return
        for fn in sorted(glob.glob(os.path.join(d, "gc-*.json"))):
            j = json.load(open(fn))
            parts = []
            for g in (0, 1, 2):
                ts = [r[1] for r in j["rec"] if r[0] == g]
                if ts:
                    parts.append(f"gen{g} {len(ts)} x, total {sum(ts) * 1000:.1f} ms, longest {max(ts) * 1000:.1f} ms")
            print(f"  server process {os.path.basename(fn)[3:-5]} ({j['frozen']} objects frozen, {j['tracked']} "
                  f"tracked): " + "; ".join(parts))


def _cpu(pid: int) -> float:
    total = 0.0
    for p in [pid] + [int(c) for c in _children(pid)]:
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[str]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if int(open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(d)
            except (OSError, ValueError, IndexError):
                pass
    return out


def cpu(game: str, workers: int, games: int, commit_times: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        env_before = dict(os.environ)
        if commit_times:
            with open(os.path.join(d, "sitecustomize.py"), "w") as f:
                f.write(WRAPPER)
            os.environ["PYTHONPATH"] = d + os.pathsep + os.environ.get("PYTHONPATH", "")
            os.environ["AAR_PROFILE_DIR"] = d
        try:
            svc, target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                       "--store", f"sqlite:{d}/p.sqlite", "--data-dir", d, "--workers", str(workers)])
        finally:
            os.environ.clear()
            os.environ.update(env_before)
        try:
            drivers = [bg.Driver(target, game) for _ in range(games)]
            for dr in drivers:
                dr.top_up(3 if game != "gmv" else 1)
            m = base.Meter()
            c0, me0 = _cpu(svc.pid), time.process_time()
            t0 = time.perf_counter()
            bg.run_service(drivers, m)
            dt = time.perf_counter() - t0
            c1, me1 = _cpu(svc.pid), time.process_time()
            for dr in drivers:
                dr.close()
        finally:
            base._stop(svc)
        n = len(m.lat)
        q = statistics.quantiles(m.lat, n=100)
        run_n = n * dt / base.WINDOW_S  # commands over the whole run (warm-up included), at the window's rate
        print(f"{game} games={games} workers={workers}: {n} commands in the {base.WINDOW_S} s window "
              f"({n / base.WINDOW_S:.0f}/s), p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms; "
              f"server CPU {1000 * (c1 - c0) / run_n:.2f} ms/command, client CPU {1000 * (me1 - me0) / run_n:.2f} "
              "ms/command (approximate: over the whole run)")
        if commit_times:
            rows = []
            for f in glob.glob(os.path.join(d, "commits-*.txt")):
                rows += [tuple(map(float, ln.split())) for ln in open(f)]
            t = sorted(r[0] for r in rows)
            if len(t) >= 2:
                qc = statistics.quantiles(t, n=100)
                print(f"  SqliteStore._commit: {len(t)} commits, {sum(r[1] for r in rows) / len(rows):.2f} appends each, "
                      f"p50 {qc[49] * 1000:.1f} p90 {qc[89] * 1000:.1f} p99 {qc[98] * 1000:.1f} max {t[-1] * 1000:.1f} ms")


def _extract(commit: str, into: str) -> str:
    """COMMIT's engine and service as the ``afteraction`` package under ``into`` (for PYTHONPATH)."""
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pkg = os.path.join(into, "afteraction")
    os.makedirs(pkg)
    tar = subprocess.run(["git", "-C", root, "archive", commit, "engine", "service"], check=True,
                         capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", pkg], input=tar, check=True)
    os.symlink(os.path.join(root, "clients", "python"), os.path.join(pkg, "client"))
    os.symlink(os.path.join(root, "clients", "cli"), os.path.join(pkg, "cli"))  # `aar`: this tree's
    os.symlink(os.path.join(root, "proto", "afteraction", "v1"), os.path.join(pkg, "v1"))
    return into


def ab(game: str, base_commit: str, games: int, window: float, rounds: int, workers: int,
       against: str | None = None) -> None:
    base.WINDOW_S = window
    with tempfile.TemporaryDirectory(prefix="aar-ab-") as tmp:
        cfgs = [(base_commit, _extract(base_commit, os.path.join(tmp, "base"))),
                (against, _extract(against, os.path.join(tmp, "against"))) if against else ("this tree", None)]
        res: dict = {label: [] for label, _ in cfgs}
        for r in range(rounds):
            # the order alternates: run second, a service lost about 5% (base against itself, 16:06 UTC
            # 2026-12-03: means 933.5 against 881.9 commands/s over six rounds)
            for label, path in cfgs if r % 2 == 0 else cfgs[::-1]:
                env_before = dict(os.environ)
                if path:
                    os.environ["PYTHONPATH"] = path + os.pathsep + os.environ.get("PYTHONPATH", "")
                d = tempfile.mkdtemp(dir=tmp)
                try:
                    svc, target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                               "--store", f"sqlite:{d}/p.sqlite", "--data-dir", d,
                                               "--workers", str(workers)])
                finally:
                    os.environ.clear()
                    os.environ.update(env_before)
                try:  # the bench's client processes (bench_service_games.ClientProc), service windows only
                    k = -(-games // bg.GAMES_PER_CLIENT)
                    procs = [bg.ClientProc(target, target, game, games // k + (i < games % k)) for i in range(k)]
                    m = base.Meter()
                    try:
                        bg._all(procs, op="top_up", want=max(2, int(600 * window / games / 8)))
                        c0 = _cpu(svc.pid)
                        for a in bg._all(procs, op="service", t_start=time.monotonic() + bg.START_S,
                                         window=base.WINDOW_S, warmup=base.WARMUP_S):
                            m.lat.extend(a["lat"])
                        # the server's CPU per command: over the warm-up and the window, at the window's rate
                        cpu_ms = 1000 * (_cpu(svc.pid) - c0) / max(1, len(m.lat) * (window + base.WARMUP_S) / window)
                    finally:
                        for cp in procs:
                            cp.close()
                finally:
                    base._stop(svc)
                q = statistics.quantiles(m.lat, n=100)
                res[label].append((len(m.lat) / window, q[49] * 1000, q[98] * 1000, cpu_ms))
                print(f"{label:12s} {game} games={games}: {len(m.lat) / window:7.1f} commands/s  p50 {q[49] * 1000:6.1f}"
                      f"  p99 {q[98] * 1000:6.1f} ms  server CPU {cpu_ms:5.2f} ms/command  (load {os.getloadavg()[0]:.1f})",
                      flush=True)
        for label, v in res.items():
            med = [statistics.median(x[i] for x in v) for i in range(4)]
            print(f"{label:12s} mean: {sum(x[0] for x in v) / len(v):7.1f} commands/s  p50 "
                  f"{sum(x[1] for x in v) / len(v):6.1f}  p99 {sum(x[2] for x in v) / len(v):6.1f} ms; medians "
                  f"{med[0]:.1f}/s, p50 {med[1]:.1f}, p99 {med[2]:.1f} ms, server CPU {med[3]:.2f} ms/command")


def inproc(games: list[str]) -> None:
    from afteraction.engine import registry
    from afteraction.engine.bots import Prng
    from afteraction.engine.crypto.note import Signer
    from afteraction.engine.seat import Head, SeatSigner
    from afteraction.service.games import GameManager
    from afteraction.service.stores import open_store

    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        st = open_store(f"sqlite:{d}/p.sqlite")
        gm = GameManager(st, Signer("profile", os.urandom(32)))

        def head(gid: str) -> Head:  # the log's end, which a version 2 envelope binds
            with gm.locked(gid) as live:
                r = live.referee
                return Head(r.seq, r.prev, r.genesis.hash)

        def play(game: str, ncmds: int):
            n, t_legal, t_sub, prng = 0, 0.0, 0.0, Prng(b"profile")
            while n < ncmds:
                seats = registry.get(game).seats
                sg = {s: SeatSigner(s, os.urandom(32)) for s in seats}
                gid, _ = gm.create(game, None, None, {}, {s: sg[s].public for s in seats})
                ent = {s: os.urandom(32) for s in seats}
                for step in ("entropy_commit", "entropy_reveal"):
                    for s in seats:
                        res = gm.submit(getattr(sg[s], step)(gid, ent[s], head(gid)))
                while res.next_decision is not None and n < ncmds:
                    seat = res.next_decision.seat
                    t0 = time.perf_counter()
                    with gm.locked(gid) as live:
                        turn, seq = gm.seat_turn(live, seat), live.referee.seq
                        r = live.referee
                        hd = Head(r.seq, r.prev, r.genesis.hash)
                    t1 = time.perf_counter()
                    signed = sg[seat].command(gid, seq, prng.choice(list(turn[1])), hd)
                    t2 = time.perf_counter()
                    res = gm.submit(signed)
                    t_legal += t1 - t0
                    t_sub += time.perf_counter() - t2
                    n += 1
            return n, t_legal, t_sub

        try:
            for game in games:
                play(game, 50)
                pr = cProfile.Profile()
                pr.enable()
                n, tl, ts = play(game, 400)
                pr.disable()
                print(f"{game}: legal commands {1000 * tl / n:.3f} ms, submit {1000 * ts / n:.3f} ms per command "
                      "(in-process, one thread, the fsync included)")
                out = io.StringIO()
                pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(10)
                print("\n".join(out.getvalue().splitlines()[6:18]))
        finally:
            st.close()


# (bucket, test on one frame "function (file:line)"): a sample goes to the bucket of its innermost
# frame that passes a test (the list is tried in this order for each frame, innermost first); a
# sample with none is "other" (C code of the interpreter and its threads with no Python frame above)
def _in(*parts):
    return lambda fn, f: any(p in f for p in parts)


def _fn(*names):
    return lambda fn, f: any(fn == n or fn.startswith(n) for n in names)


BUCKETS = [
    ("copies (copy.deepcopy, snapshots)", lambda fn, f: f.endswith("/copy.py") or "copy" in fn),
    ("logging", _in("/logging/")),
    ("authentication (seat tokens)", _in("/service/auth.py")),
    ("crypto (Ed25519 sign/verify, hashes, commitments, dice)",
     _in("/engine/crypto/ed25519.py", "/engine/crypto/cosign.py", "/engine/crypto/commit.py",
         "/engine/crypto/dice.py", "/engine/crypto/hashing.py", "/engine/crypto/merkle.py",
         "/engine/crypto/note.py", "/cryptography/", "/nacl/", "/hashlib.py")),
    ("parsing and encoding (protobuf, canonical CBOR/JSON)",
     lambda fn, f: "/google/protobuf/" in f or "/engine/crypto/canon.py" in f or "/json/" in f
     or fn in ("FromString", "SerializeToString", "ParseFromString", "_parse", "to_json", "_jsonable")),
    ("store: SqliteStore._commit's own statements (COMMIT: the WAL's fdatasync, mostly a wait on the disk)",
     lambda fn, f: fn == "SqliteStore._commit"),
    ("store: the rest (the batch's rows, BEGIN, reads, game creation)", _in("/service/store", "/sqlite3/")),
    ("pending decision", _fn("pending", "next_decision", "decision_pb")),
    ("legal-command enumeration", lambda fn, f: "legal" in fn or fn in ("seat_turn", "options")
     or "/engine/decisions.py" in f),
    ("the rules (engine/games)", _in("/engine/games/")),
    ("the event log and referee (records, checkpoints)", _in("/engine/log/", "/engine/referee.py",
                                                             "/engine/seat.py", "/engine/ruleset.py")),
    ("the service's own code (games manager, servicer, limits)", _in("/service/")),
    ("gRPC aio and asyncio (gRPC's Cython under Handle._run: calls, messages' protobuf bytes; wake-ups)",
     _in("/grpc/", "/asyncio/", "grpc/_cython", "cygrpc", "/threading.py", "/concurrent/")),
]


REBUILD = "rebuilding a game from the store (not among the MAX_LIVE_GAMES cached: reads, replay, key checks)"
CATCH_UP = "catching a cached game up with another process's appends (GameManager._catch_up: reads, replay)"


def _bucket(frames: list[str]) -> str:
    if any(fr.startswith("GameManager._load ") for fr in frames):  # whatever it calls, the rebuild's
        return REBUILD
    if any(fr.startswith("GameManager._catch_up ") for fr in frames):  # a seat on the other worker's, mostly
        return CATCH_UP
    for fr in reversed(frames):  # innermost first
        fn, _, where = fr.partition(" (")
        for name, test in BUCKETS:
            if test(fn, where):
                return name
    return "other (interpreter, C threads)"


# where a thread waits rather than runs: py-spy's Python-only samples count a thread blocked in C
# under one of these frames as active (epoll in the loop's select, a condition or queue wait, the
# gRPC poller's and the pool's C waits), so a sample whose innermost frame is one of them is set
# aside as waiting, and the others' shares are scaled to the CPU that /proc measured
WAITS = (("select", "/selectors.py"), ("Condition.wait", "/threading.py"), ("Thread.run", "/threading.py"),
         ("_worker", "/concurrent/futures/thread.py"), ("Event.wait", "/threading.py"),
         ("wait", "/threading.py"), ("_wait_for_tstate_lock", "/threading.py"))


def _waiting(frame: str) -> bool:
    fn, _, where = frame.partition(" (")
    return any((fn == w or fn.endswith("." + w)) and f in where for w, f in WAITS)


def path(game: str, games: int, window: float, workers: int, rate: int, raw: str | None = None,
         play: bool = False) -> None:
    import collections
    import shutil
    import subprocess

    spy = shutil.which("py-spy") or os.path.join(os.path.dirname(sys.executable), "py-spy")
    if not os.path.exists(spy):
        raise SystemExit("profile_service path: py-spy is not installed (pip install py-spy)")
    with tempfile.TemporaryDirectory(prefix="aar-profile-") as d:
        svc, target = base._spawn(["-m", "afteraction.cli", "serve", "--listen", "127.0.0.1:0",
                                   "--store", f"sqlite:{d}/p.sqlite", "--data-dir", d, "--workers", str(workers)])
        try:
            # games enough for the window (duel: 6 commands a game) at up to 600 commands/s: none made inside it
            want = int(600 * (window + 1) / games / 6) + 2 if game == "duel" else 3
            if play:  # each seat's Play stream on its own connection (bench/play_load.py, compare.py's "service")
                drivers = [play_load.PlayProc(target, game, games)]
                bg._all(drivers, op="top_up", want=want)
            else:
                drivers = [bg.Driver(target, game) for _ in range(games)]
                for dr in drivers:
                    dr.top_up(want)
            out = os.path.join(d, "spy.txt")
            base.WINDOW_S, base.WARMUP_S = window, 0.5
            c0 = _cpu(svc.pid)
            rec = subprocess.Popen([spy, "record", "--pid", str(svc.pid), "--subprocesses", "--nonblocking",
                                    "--format", "raw", "--full-filenames", "--rate", str(rate), "--threads",
                                    "--duration", str(int(window + 1)), "--output", out],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            m = base.Meter()
            if play:
                t0 = time.monotonic() + bg.START_S
                m.lat.extend(bg._all(drivers, op="service", t_start=t0, window=window, warmup=0.5)[0]["lat"])
            else:
                bg.run_service(drivers, m)
            rec.wait(120)
            c1 = _cpu(svc.pid)
            for dr in drivers:
                dr.close()
        finally:
            base._stop(svc)
        if not os.path.exists(out):
            raise SystemExit(f"py-spy wrote nothing: {rec.stderr.read()[-500:]}")
        if raw:
            shutil.copy(out, raw)
        n = len(m.lat)
        run_n = n * (window + 0.7) / window  # commands over the recorded seconds, at the window's rate
        ms_cmd = 1000 * (c1 - c0) / max(1, run_n)
        buckets: collections.Counter = collections.Counter()
        own: collections.Counter = collections.Counter()
        threads: collections.Counter = collections.Counter()
        waiting = 0
        for line in open(out):
            stack, _, cnt = line.rstrip("\n").rpartition(" ")
            if not cnt.isdigit():   # py-spy read a frame's name mid-change (a newline in it): its stack is lost
                continue
            frames = stack.split(";")
            k = int(cnt)
            thread = next((fr for fr in frames[:3] if fr.startswith("thread")), "?")
            tname = thread.split(": ", 1)[1].strip('"') if ": " in thread else thread
            py = [fr for fr in frames if " (" in fr and not fr.startswith(("process", "thread"))]
            if py and _waiting(py[-1]):
                waiting += k
                continue
            buckets[_bucket(py)] += k
            threads[tname.split(" (")[0]] += k
            if py:
                own[py[-1]] += k
        total = sum(buckets.values())
        q = statistics.quantiles(m.lat, n=100) if len(m.lat) >= 2 else [0.0] * 99
        print(f"{game} games={games} workers={workers}: {n} commands in {window} s ({n / window:.0f}/s), p50 "
              f"{q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms; server CPU {ms_cmd:.2f} ms/command (/proc, all "
              f"server processes); {total} py-spy samples at {rate}/s running, {waiting} waiting (set aside); load "
              f"{open('/proc/loadavg').read().split()[:3]}")
        busy = 1000 * total / rate / max(1, run_n)
        one = "one Play message each way" if play else "ListLegalCommands + SubmitCommand"
        print(f"where a command's busy thread time goes ({busy:.2f} ms sampled, one command = {one}; a thread in fdatasync counts as busy, so the sampled time exceeds the CPU by about "
              "the commit's wait):")
        for name, k in buckets.most_common():
            print(f"  {100 * k / total:5.1f}%  {busy * k / total:6.3f} ms  {name}")
        print("running samples by thread: " + ", ".join(f"{t} {100 * k / total:.0f}%" for t, k in threads.most_common(8)))
        print("top functions by own samples (innermost Python frame):")
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for fr, k in own.most_common(25):
            print(f"  {100 * k / total:5.1f}%  {fr.replace(root + '/', '')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("game")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--games", type=int, default=10)
    c.add_argument("--commit-times", action="store_true")
    b = sub.add_parser("ab")
    b.add_argument("game")
    b.add_argument("--base", required=True)
    b.add_argument("--games", type=int, default=100)
    b.add_argument("--window", type=float, default=3.0)
    b.add_argument("--rounds", type=int, default=3)
    b.add_argument("--workers", type=int, default=2)
    b.add_argument("--against", help="a second commit's service instead of this tree's")
    for what in ("loop", "gc"):
        h = sub.add_parser(what)
        h.add_argument("game")
        h.add_argument("--games", type=int, default=100)
        h.add_argument("--window", type=float, default=4.0 if what == "loop" else 6.0)
        if what == "gc":
            h.add_argument("--no-freeze", action="store_true")
    pa = sub.add_parser("path")
    pa.add_argument("game")
    pa.add_argument("--games", type=int, default=1)
    pa.add_argument("--window", type=float, default=8.0)
    pa.add_argument("--workers", type=int, default=2)
    pa.add_argument("--rate", type=int, default=250)
    pa.add_argument("--raw", help="keep py-spy's raw stacks in this file")
    pa.add_argument("--play", action="store_true", help="each seat over its own Play stream (bench/play_load.py)")
    i = sub.add_parser("inproc")
    i.add_argument("games", nargs="+")
    a = ap.parse_args()
    if a.what == "cpu":
        cpu(a.game, a.workers, a.games, a.commit_times)
    elif a.what in ("loop", "gc"):
        hooked(a.what, a.game, a.games, a.window, getattr(a, "no_freeze", False))
    elif a.what == "path":
        path(a.game, a.games, a.window, a.workers, a.rate, a.raw, a.play)
    elif a.what == "ab":
        ab(a.game, a.base, a.games, a.window, a.rounds, a.workers, a.against)
    else:
        inproc(a.games)


if __name__ == "__main__":
    main()
