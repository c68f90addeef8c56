"""An A/B of the game engines on CPU time: the same seeded random-bot games played and verified
by another commit's engine (its ``engine/`` and ``bench/``, exported with ``git archive``) and by
this tree's, alternately, ``--reps`` times. Prints per tree and game the CPU seconds of play and
of verification with and without replay, and the two ratios ``make bench`` prints
(``<game>_engine_vs_crypto``, ``<game>_play_vs_crypto``), for NTND also bench_ntnd's cold and warm
legal moves of a movement phase, so a redesign can show it made no game slower whatever the
machine's load (CPU time, not wall clock).

Run: ``.venv/bin/python bench/ab_engine.py --base b10f3c6 [--reps 3] [sog gmv ntnd]``.
Not part of ``make bench`` (it takes minutes): a tool for a change's note.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = {"sog": 120, "gmv": 16, "ntnd": 1}  # games per measurement (~1-5 CPU s each)

ONE = r'''
import sys, time
import __editable___afteraction_0_1_0_finder as f
tree = sys.argv[1]
f.MAPPING["afteraction.engine"] = tree + "/engine"   # this process runs that tree's engine
sys.path.insert(0, tree)                               # ... and its bench.common
import afteraction.engine
if not afteraction.engine.__file__.startswith(tree):
    raise SystemExit(f"engine not from {tree}")
from bench.common import play_random_games, verify_throughput
for game, n in zip(sys.argv[2::2], sys.argv[3::2]):
    p = play_random_games(game, 1e9, max_games=int(n), clock=time.process_time)
    rr, tr = verify_throughput(p.bundles, replay=True, clock=time.process_time)
    rc, tc = verify_throughput(p.bundles, replay=False, clock=time.process_time)
    extra = ""
    if game == "ntnd":   # bench_ntnd's legal moves of a full Communist movement phase (ms, CPU, medians)
        from bench.bench_ntnd import _movement_phase_enumeration
        cold, warm, _, _ = _movement_phase_enumeration()
        extra = f" legal_phase_cold_ms={cold * 1000:.1f} legal_phase_warm_ms={warm * 1000:.1f}"
    print(f"{game:5s} {tree.rsplit('/', 1)[-1]:5s} "
          f"commands={p.commands} play_cpu={p.total_s:.3f} replay_cpu={tr:.3f} crypto_cpu={tc:.3f} "
          f"engine_vs_crypto={(rr / tr) / (rc / tc):.3f} play_vs_crypto={(rr / p.total_s) / (rc / tc):.3f}"
          + extra, flush=True)
'''


def export(commit: str, into: str) -> None:
    os.makedirs(into)
    tar = subprocess.run(["git", "-C", REPO, "archive", commit, "engine", "bench"], check=True,
                         capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=tar, check=True)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the commit to compare with (e.g. the change's start)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("games", nargs="*", default=list(GAMES))
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        export(a.base, os.path.join(tmp, "base"))
        export("HEAD", os.path.join(tmp, "head"))
        args = [x for g in a.games for x in (g, str(GAMES[g]))]
        for _ in range(a.reps):
            for tree in ("base", "head"):
                subprocess.run([sys.executable, "-c", ONE, os.path.join(tmp, tree), *args], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
