"""A campaign-length NTND log verified sequentially and on two cores (`aar verify --jobs 1 | 2`).

Two logs:
- THE CAMPAIGN: the `campaign` scenario (63 turns) played to its end in-process by the demo bots
  (`aar demo --game ntnd --scenario campaign`'s, NtndRuleset.demo_bot on both seats, each seeing
  only its own seat's view), seed CAMPAIGN_SEED. Its bot-played game is what
  `ntnd_campaign_verify_s` is read from: one real log, verified as `aar verify` verifies it.
- THE CHAIN: Tet games chained until they hold RECORDS records (the stand-in the issue allowed until
  the campaign existed, kept as a stress figure far longer than any campaign the bots play), verified
  back to back the way one long log would be, with ONE replay process and ONE signature process
  (clients/cli/verify_signatures.py) for the whole chain, as one long log keeps them (their start-up
  is counted once, in the time): `ntnd_chain_verify_s`. (Chained games pay per game what one log
  pays once: three processes each check each game's three public keys, about 1.5 ms per key here.)
Each is verified sequentially and with the pipelined driver of `aar verify --jobs 2`
(clients/cli/verify_parallel.py), and also without the replay (steps 1-10, sequential): the crypto
steps' CPU time, the rest of the sequential CPU time being the replay's.
The games are played once and cached in the temp directory under a hash of the code that plays
them (bench_verify's way); a larger RECORDS reuses the games already played.

Measured bundle by bundle, interleaved (sequential, then pipelined, on the same bundle), so load
changes on a shared machine hit both alike; wall clock, since two cores are the point:
  ntnd_campaign_verify_s   wall seconds of `aar verify`'s pipelined verification of the campaign
                           (its records printed beside; target < 10 s)
  ntnd_chain_verify_s      the same for the chain
  ratio verify_parallel_vs_sequential   sequential wall time / pipelined wall time (> 1: faster),
                           on the chain
  ratio verify_parallel_vs_sequential_cpu   sequential CPU time / the pipeline's critical path (the
                           CPU time of the busiest of its three processes): the speed-up free cores
                           give. On this shared machine the wall ratio is bounded by the scheduler:
                           Linux autogroups share one CPU share among all processes of a session.
and the peak RSS of `aar verify --jobs 2` on the campaign's log and on the chain's longest bundle
(this process and the largest of its child processes), measured in a subprocess.

    .venv/bin/python -m bench campaign                                 (default: 3,000 records)
    AAR_BENCH_CAMPAIGN_RECORDS=100000 .venv/bin/python -m bench campaign    (the chain at the length the
        issue first guessed for a campaign; playing the 144 games the first time took 865 s here)
    AAR_BENCH_CAMPAIGN_LOG=FILE.aar  .venv/bin/python -m bench campaign    (one given log instead of both)
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

RECORDS = int(os.environ.get("AAR_BENCH_CAMPAIGN_RECORDS", "3000"))
LOG = os.environ.get("AAR_BENCH_CAMPAIGN_LOG")
SEED = "bench-campaign"
CAMPAIGN_SEED = "bench-campaign-63"

REPO = pathlib.Path(__file__).resolve().parents[1]


def _cache_dir() -> pathlib.Path:
    """Keyed by the code that plays and writes the games (not by the verifier)."""
    import inspect

    h = hashlib.sha256(inspect.getsource(_play).encode() + inspect.getsource(_play_campaign).encode()
                       + SEED.encode() + CAMPAIGN_SEED.encode())
    e = REPO / "engine"
    files = sorted([*e.glob("*.py"), *(e / "crypto").glob("*.py"),
                    *[p for p in (e / "log").glob("*.py") if p.name not in ("verify.py", "seats.py", "replay.py")],
                    *(e / "games" / "ntnd").rglob("*.py"), *(e / "games" / "ntnd" / "data").glob("*.json"),
                    *(REPO / "proto" / "afteraction" / "v1").glob("*.proto")])
    for p in files:
        h.update(str(p.relative_to(REPO)).encode() + b"\0" + p.read_bytes())
    d = pathlib.Path(tempfile.gettempdir()) / f"aar-bench-campaign-{h.hexdigest()[:16]}"
    d.mkdir(exist_ok=True)
    return d


def _play(path: pathlib.Path, i: int) -> None:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("ntnd", seed=f"{SEED}-{i}".encode())
    g.handshake()
    g.run_bots(random_bot(i))
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(g.bundle())
    tmp.replace(path)


def _play_campaign(path: pathlib.Path) -> None:
    """The campaign scenario to its end, the demo bots on both seats (each seeing its own view only)."""
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("ntnd", seed=CAMPAIGN_SEED.encode(), scenario="campaign")
    g.handshake()
    rs = g.referee.ruleset
    bots = {s: rs.demo_bot(f"{CAMPAIGN_SEED}/{s}", lambda seat: rs.view(g.referee.state, seat)) for s in rs.seats}
    g.run_bots(lambda seat, legal: bots[seat](seat, legal))
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(g.bundle())
    tmp.replace(path)


def the_campaign() -> pathlib.Path:
    """The bot-played campaign's log, cached."""
    p = _cache_dir() / "campaign.aar"
    if not p.exists():
        t0 = time.perf_counter()
        _play_campaign(p)
        print(f"campaign: played in {time.perf_counter() - t0:.0f} s (not measured)")
    return p


def _records(path: pathlib.Path) -> int:
    from afteraction.engine.log.bundle import read_bundle

    with open(path, "rb") as f:
        return read_bundle(f)[0]["records"]


def campaign(n: int) -> list[pathlib.Path]:
    """Tet games, cached, until they hold at least ``n`` records."""
    d = _cache_dir()
    paths, total, played, t0 = [], 0, 0, time.perf_counter()
    while total < n:
        p = d / f"tet-{len(paths)}.aar"
        if not p.exists():
            _play(p, len(paths))
            played += 1
        paths.append(p)
        total += _records(p)
    how = f"{played} played in {time.perf_counter() - t0:.0f} s, not measured" if played else "cached"
    print(f"log: {len(paths)} Tet games in {d} ({how})")
    return paths


def _verify(data: bytes, drive) -> object:
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.log.verify import verify_bundle

    forget_verdicts()   # each timed verification checks every signature
    rep = verify_bundle(io.BytesIO(data), drive=drive)
    if not rep.ended or not rep.replayed:
        raise SystemExit(f"bench: a bundle of game {rep.game} did not verify completely")
    return rep


def verify_bundle_crypto(data: bytes) -> None:
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.log.verify import verify_bundle

    forget_verdicts()
    rep = verify_bundle(io.BytesIO(data), replay=False)
    if not rep.ended:
        raise SystemExit(f"bench: a bundle of game {rep.game} did not verify")


def peak_rss(path: pathlib.Path, jobs: str) -> tuple[int, int]:
    """KB: (this process, the largest child: replay or signature process) of `aar verify --jobs JOBS FILE`."""
    code = ("import resource, sys\n"
            "from afteraction.cli.main import main\n"
            f"rc = main(['verify', '--json', '--jobs', {jobs!r}, {str(path)!r}])\n"
            "r = resource.getrusage\n"
            "print(rc, r(resource.RUSAGE_SELF).ru_maxrss, r(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600)
    rc, self_kb, child_kb = p.stderr.split()[-3:]
    if rc != "0" or not json.loads(p.stdout)["verified"]:
        raise SystemExit(f"bench: {path} did not verify: {p.stdout[-500:]}")
    return int(self_kb), int(child_kb)


def measure(paths: list[pathlib.Path], what: str) -> tuple[int, float, float, float]:
    """Verify ``paths`` (one log, or a chain) as the docstring says and print the figures;
    (records, pipelined wall s, sequential wall s, sequential CPU s / the pipeline's critical path)."""
    from afteraction.cli import verify_parallel as vp
    from afteraction.cli import verify_signatures as vs

    seq_drive = vp.driver("1")
    t_seq = t_par = c_seq = c_main = c_crypto = 0.0
    n = hits = misses = 0
    finish = vs.Lookahead.finish

    def counting(look) -> None:  # how many signature verdicts came from the signature process
        nonlocal hits, misses
        hits, misses = hits + look.hits, misses + look.misses
        finish(look)
    vs.Lookahead.finish = counting
    w0 = time.perf_counter()
    t0 = time.perf_counter()
    # started once for the chain, as for one long log
    with vp.ReplayProcess() as process, vs.SignatureProcess() as sigs:
        par_drive = vp.driver("2", process, sigs)
        t_par += time.perf_counter() - t0
        for p in paths:
            data = p.read_bytes()
            c0 = time.process_time()
            verify_bundle_crypto(data)  # steps 1-10 alone, sequential: the crypto steps' CPU time
            t0, c1 = time.perf_counter(), time.process_time()
            rep = _verify(data, seq_drive)
            t1, c2 = time.perf_counter(), time.process_time()
            rep2 = _verify(data, par_drive)
            t2, c3 = time.perf_counter(), time.process_time()
            if rep2.as_dict() != rep.as_dict():
                raise SystemExit(f"bench: the pipelined report differs on {p}")
            c_crypto += c1 - c0
            t_seq += t1 - t0
            t_par += t2 - t1
            c_seq += c2 - c1
            c_main += c3 - c2
            n += rep.records
        if process.bundles != len(paths) or sigs.bundles != len(paths):
            raise SystemExit("bench: the pipelined driver did not use the replay and signature processes")
        c_worker, c_sigs = process.cpu_s, sigs.cpu_s
    vs.Lookahead.finish = finish
    critical = max(c_main, c_worker, c_sigs)
    print(f"{what}: {n} records in {len(paths)} bundle(s); {time.perf_counter() - w0:.1f} s wall clock for all three runs")
    print(f"  crypto steps alone (steps 1-10, --no-replay --jobs 1): {c_crypto:.2f} CPU s = "
          f"{c_crypto / n * 1e6:.0f} us/record; the replay (sequential CPU - that): {c_seq - c_crypto:.2f} CPU s")
    print(f"  sequential (--jobs 1): {t_seq:.2f} s wall = {n / t_seq:,.0f} records/s; {c_seq:.2f} CPU s")
    print(f"  pipelined  (--jobs 2): {t_par:.2f} s wall = {n / t_par:,.0f} records/s (one replay and one signature "
          f"process, their start included); CPU s: {c_main:.2f} crypto steps here, {c_sigs:.2f} signature process "
          f"({sigs.verified} signatures verified; {hits} of {hits + misses} verdicts used came from it), "
          f"{c_worker:.2f} replay process")
    print(f"  pipelined critical path (CPU of the busiest process, the wall time with free cores): "
          f"{critical:.2f} s = {n / critical:,.0f} records/s")
    longest = max(paths, key=lambda p: p.stat().st_size)
    s_kb, c_kb = peak_rss(longest, "2")
    print(f"  peak RSS of aar verify --jobs 2 on {longest.name} ({_records(longest)} records, "
          f"{longest.stat().st_size / 1e6:.1f} MB): {s_kb / 1024:.0f} MB + the largest child process (replay or signatures) {c_kb / 1024:.0f} MB")
    return n, t_par, t_seq, c_seq / critical


def run() -> None:
    if LOG:
        measure([pathlib.Path(LOG)], f"log {LOG}")
        return
    camp = the_campaign()
    from afteraction.cli.campaign_summary import public_events
    from afteraction.cli.verify_parallel import choose_jobs
    from afteraction.engine.log.bundle import read_bundle

    last_turn = max((t for t, _ in public_events(camp.read_bytes())), default=0)
    with open(camp, "rb") as f:
        jobs = choose_jobs("auto", read_bundle(f)[0], True)
    n, t_par, t_seq, _ = measure([camp], f"the campaign (scenario campaign, the demo bots on both seats, played to "
                                         f"its end on turn {last_turn} of 63)")
    t = t_par if jobs == 2 else t_seq  # the wall time of the driver `aar verify` (--jobs auto) picks
    print(f"ntnd_campaign_verify_s {t:.2f} ({n} records of one bot-played campaign, turn {last_turn} of 63; "
          f"aar verify --jobs auto = {jobs} here, wall; target < 10 s)")
    paths = campaign(RECORDS)
    n, t, t_seq, cpu_ratio = measure(paths, "the chain")
    print(f"ntnd_chain_verify_s {t:.2f} ({n} records of {len(paths)} chained Tet games, wall)")
    print(f"ratio verify_parallel_vs_sequential_cpu {cpu_ratio:.3f}")
    print(f"ratio verify_parallel_vs_sequential {t_seq / t:.3f}")


if __name__ == "__main__":
    run()
