"""An A/B of the NTND engine in ONE process: another commit's ``engine/`` and this tree's HEAD, exported
with ``git archive`` and imported side by side as two packages (``eng_a``, ``eng_b``), measured
alternately, so that the load of a shared machine (other processes, caches) hits both alike. Each
figure is the minimum CPU time of ``--reps`` alternated repetitions: replay and crypto-only
verification of seeded random-bot Tet games (played by the base engine; the head must replay them),
bot play of seeded Tet games (both trees must write the same bundle, byte for byte), and the cold and
warm legal moves of bench_ntnd's Communist movement phase. Prints the three ``make bench`` figures
per tree: ``engine_vs_crypto``, commands/s, the legal moves' ms.

Run: ``.venv/bin/python bench/ab_inprocess.py --base 92ae604 [--reps 4] [--games 4]``.
Not part of ``make bench`` (minutes): a tool for a change's note (bench/ab_engine.py does the same
for every game in separate processes).
"""
from __future__ import annotations

import argparse
import importlib
import io
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
clock = time.process_time


def _load(tmp: str, name: str, commit: str) -> dict:
    os.makedirs(os.path.join(tmp, name))
    tar = subprocess.run(["git", "-C", REPO, "archive", commit, "engine"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", os.path.join(tmp, name), "--strip-components=1"], input=tar, check=True)
    return _import(name)


def _import(name: str) -> dict:
    """The modules of an engine copy extracted as package ``name`` (on sys.path), its registry pointed at it."""
    reg = importlib.import_module(f"{name}.registry")
    if hasattr(reg, "_RULESETS"):  # an engine before ruleset versions (engine/versions.py) named its modules whole
        reg._RULESETS = {k: v.replace("afteraction.engine", name) for k, v in reg._RULESETS.items()}
    return {m: importlib.import_module(f"{name}.{m}") for m in
            ("registry", "local", "bots", "log.verify", "log.bundle", "games.ntnd.reach", "crypto.ed25519")}


def _verify(e: dict, b: bytes, replay: bool) -> tuple[float, int]:
    header, recs = e["log.bundle"].read_bundle(io.BytesIO(b))
    recs = list(recs)
    e["games.ntnd.reach"].clear_caches()
    getattr(e["crypto.ed25519"], "forget_verdicts", lambda: None)()   # remembered signature verdicts (newer engines)
    t0 = clock()
    v = e["log.verify"].Verifier(header["server_vkey"], None, header.get("secret"), replay=replay,
                                 ruleset_lookup=e["registry"].get, header_game=header["game"], replay_in_place=True)
    for raw, cp in recs:
        v.add(raw, cp)
    r = v.finish()
    if not r.ended or r.replayed != replay:
        raise SystemExit("ab_inprocess: a bundle did not verify completely")
    return clock() - t0, r.records


def _play(e: dict, i: int) -> tuple[float, int, bytes]:
    e["games.ntnd.reach"].clear_caches()
    t0 = clock()
    g = e["local"].LocalGame.create("ntnd", seed=f"bench-ntnd-{i}".encode())
    g.handshake()
    n = g.run_bots(e["bots"].random_bot(i))
    b = g.bundle()
    return clock() - t0, n, b


def _movement_state(e: dict):
    """bench_ntnd._movement_phase_state, on this engine."""
    g = e["local"].LocalGame.create("ntnd", seed=b"bench-ntnd-enum")
    g.handshake()
    rs, bot = g.referee.ruleset, e["bots"].random_bot(b"enum")
    while True:
        d = g.referee.pending()
        if d.kind == "move" and d.seat == "communist":
            return rs, g.referee.state
        g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))


def _legal(e: dict, st, cold: bool) -> float:
    rs, s = st
    if cold:
        e["games.ntnd.reach"].clear_caches()
    t0 = clock()
    rs.legal_commands(s, "communist")
    return clock() - t0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--reps", type=int, default=4)
    ap.add_argument("--games", type=int, default=4, help="Tet games replayed (plus 2 played)")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        E = {"base": _load(tmp, "eng_a", a.base), "head": _load(tmp, "eng_b", "HEAD")}
        bundles = [_play(E["base"], 100 + i)[2] for i in range(a.games)]
        res = {n: dict.fromkeys(("replay", "crypto", "play", "cold", "warm"), 0.0) for n in E}
        records = commands = 0
        for b in bundles:
            best = {n: [1e9, 1e9] for n in E}
            for _ in range(a.reps):
                for n, e in E.items():
                    t, k = _verify(e, b, True)
                    best[n][0] = min(best[n][0], t)
                    best[n][1] = min(best[n][1], _verify(e, b, False)[0])
            records += k
            for n in E:
                res[n]["replay"] += best[n][0]
                res[n]["crypto"] += best[n][1]
        for i in range(2):
            best, out = dict.fromkeys(E, 1e9), {}
            for _ in range(a.reps):
                for n, e in E.items():
                    t, k, out[n] = _play(e, i)
                    best[n] = min(best[n], t)
            if out["base"] != out["head"]:
                raise SystemExit(f"ab_inprocess: game {i} is not the same bundle on both trees")
            commands += k
            for n in E:
                res[n]["play"] += best[n]
        states = {n: _movement_state(e) for n, e in E.items()}
        for n in E:
            res[n]["cold"] = res[n]["warm"] = 1e9
        for _ in range(3 * a.reps):
            for n, e in E.items():
                res[n]["cold"] = min(res[n]["cold"], _legal(e, states[n], True))
                _legal(e, states[n], False)
                res[n]["warm"] = min(res[n]["warm"], _legal(e, states[n], False))
        for n, r in res.items():
            print(f"{n} ({a.base if n == 'base' else 'HEAD'}): replay {r['replay']:.3f} CPU s, crypto-only "
                  f"{r['crypto']:.3f} CPU s for {records} records: engine_vs_crypto {r['crypto'] / r['replay']:.3f}; "
                  f"play {commands} commands in {r['play']:.3f} CPU s = {commands / r['play']:.0f} commands/s; "
                  f"legal moves of the phase {r['cold'] * 1000:.2f} ms cold, {r['warm'] * 1000:.2f} ms warm")
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        print(f"(one process, minimum CPU time of {a.reps} alternated repetitions; load average {load})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
