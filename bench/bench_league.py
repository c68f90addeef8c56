"""What the league layer costs on top of its games: `aar league verify` of a Swiss
league of 64 players over 6 rounds (192 duels, the standings published after every round) against
verifying the same 192 bundles one by one as `aar verify` does (replay included).

The league is built in process by engine/league/local.py's LocalLeague (not measured) and kept in
the temp directory, keyed by a hash of the code that writes it. Measured, each side three times,
alternating, the fastest of each kept:
  league   clients/cli/league/verify.py's path: read the ledger and the bundles folder, verify_ledger
           (every entry, every result's bundle verified with replay and the keys pinned, every
           pairing, standing and rating recomputed);
  bundles  engine/log/verify.py's verify_bundle on each bundle file, replay included.
ratio league_over_bundles = league / bundles: 1 would be a league layer that costs nothing. Each
side is timed on the wall clock and in this process's CPU time (``time.process_time``: on a machine
shared with other work the wall clock mostly measures the others); the CPU ratio is printed too.
Then, where chromium and playwright are installed (tests/browsers.py), the league's page (`aar league
view`, written unmeasured): the time to load it and the time its "recompute in this browser" takes
(the fastest of three each).

    .venv/bin/python -m bench league          (AAR_BENCH_LEAGUE_PLAYERS=16 for a quick run)
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import tempfile
import time

PLAYERS = int(os.environ.get("AAR_BENCH_LEAGUE_PLAYERS", "64"))
ROUNDS = 6
SEED = b"bench/league"
REPO = pathlib.Path(__file__).resolve().parents[1]


def _cache_dir() -> pathlib.Path:
    import inspect

    h = hashlib.sha256(f"{PLAYERS}/{ROUNDS}".encode() + inspect.getsource(generate).encode() + SEED)
    e = REPO / "engine"
    for p in sorted([*e.glob("*.py"), *(e / "crypto").glob("*.py"), *(e / "log").glob("*.py"),
                     *(e / "league").glob("*.py"), *(e / "games" / "duel").glob("*.py")]):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return pathlib.Path(tempfile.gettempdir()) / f"aar-bench-league-{PLAYERS}-{h.hexdigest()[:16]}"


def generate(folder: pathlib.Path) -> None:
    from afteraction.engine.league.local import LocalLeague

    L = LocalLeague(players=PLAYERS, seed=SEED, rounds=ROUNDS)
    for _ in range(ROUNDS):
        L.play_round()
        L.publish()
    tmp = folder.with_suffix(f".{os.getpid()}.tmp")
    (tmp / "bundles").mkdir(parents=True)
    for gid, b in L.files.items():
        (tmp / "bundles" / f"{gid}.aar").write_bytes(b)
    (tmp / "league.aarl").write_bytes(L.ledger())
    tmp.rename(folder)


def _league(folder: pathlib.Path) -> float:
    from afteraction.cli.league.verify import read_bundles
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.league.ledger import verify_ledger

    forget_verdicts()   # the runs before this one checked the same signatures: none is remembered
    t, c = time.perf_counter(), time.process_time()
    rep = verify_ledger((folder / "league.aarl").read_bytes(), read_bundles(str(folder / "bundles")))
    dt, dc = time.perf_counter() - t, time.process_time() - c
    assert len(rep.standings.games) == PLAYERS // 2 * ROUNDS
    return dt, dc


def _bundles(folder: pathlib.Path) -> float:
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.log.verify import verify_bundle

    forget_verdicts()   # the runs before this one checked the same signatures: none is remembered
    t, c = time.perf_counter(), time.process_time()
    for p in sorted((folder / "bundles").iterdir()):
        with open(p, "rb") as f:
            verify_bundle(f)
    return time.perf_counter() - t, time.process_time() - c


def run() -> None:
    folder = _cache_dir()
    if not folder.exists():
        t = time.perf_counter()
        generate(folder)
        print(f"generated the league in {time.perf_counter() - t:.1f} s (not measured): {folder}")
    n = len(list((folder / "bundles").iterdir()))
    ledger = (folder / "league.aarl").stat().st_size
    league, bundles = [], []
    for _ in range(3):
        league.append(_league(folder))
        bundles.append(_bundles(folder))
    lg, bd = min(x[0] for x in league), min(x[0] for x in bundles)
    lc, bc = min(x[1] for x in league), min(x[1] for x in bundles)
    print(f"league: {PLAYERS} players, {ROUNDS} Swiss rounds, {n} games, ledger {ledger} bytes")
    print(f"aar league verify: {lg:.3f} s ({lc:.3f} s CPU); the {n} bundles one by one: {bd:.3f} s "
          f"({bc:.3f} s CPU); the league layer's own cost: {lg - bd:.3f} s ({lc - bc:.3f} s CPU)")
    _page(folder)
    print(f"ratio league_over_bundles_cpu {lc / bc:.3f}")
    print(f"ratio league_over_bundles {lg / bd:.3f}")


def _page(folder: pathlib.Path) -> None:
    import shutil
    import sys

    exe = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        exe = None
    if exe is None:
        print("page: not measured (no chromium or playwright)")
        return
    from afteraction.cli.main import main

    html = folder / "league.html"
    if main(["league", "view", str(folder / "league.aarl"), "--bundles", str(folder / "bundles"), "-o", str(html)]):
        raise RuntimeError("aar league view failed")
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from browsers import ARGS
    finally:
        sys.path.remove(str(REPO / "tests"))
    loads, checks = [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=ARGS)
        try:
            for _ in range(3):
                page = b.new_page()
                t = time.perf_counter()
                page.goto(html.as_uri())
                loads.append(time.perf_counter() - t)
                t = time.perf_counter()
                page.click("#recompute")
                page.wait_for_function("document.getElementById('verdict').className !== ''", timeout=600000)
                checks.append(time.perf_counter() - t)
                if page.inner_text("#verdict") != "recomputed in this browser: the same":
                    raise RuntimeError(f"the page does not agree: {page.inner_text('#checks')}")
                page.close()
        finally:
            b.close()
    print(f"page: {html.stat().st_size} bytes; loads in {min(loads):.3f} s; recomputes in the browser in "
          f"{min(checks):.3f} s")
