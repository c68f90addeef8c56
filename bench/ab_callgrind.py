"""An A/B of the NTND engine in instructions: another commit's ``engine/`` against this tree's HEAD, each
run under valgrind's callgrind in a process of its own, so the figure is the count of instructions
executed (the same on a loaded machine as on an idle one, where the CPU times of ab_inprocess.py moved
by a fifth between identical trees here, 2026-12-03). One bundle set for both: seeded random-bot Tet
games played by the base engine; each tree must replay them, and must play the same bot game to the
same bundle, byte for byte.

    .venv/bin/python bench/ab_callgrind.py --base COMMIT [--games 2] [--modes replay,crypto,play]

Modes: ``replay`` (verification with the rules replay), ``crypto`` (steps 1-10 only), ``play`` (one
random-bot Tet game), ``legal`` (LEGAL_REPS cold legal moves of bench_ntnd's Communist movement phase,
printed per enumeration less the ``state`` run that reaches the phase and enumerates it once: the first
enumeration builds what the map fixes, memoised for good, half of its instructions, which the median
of bench_ntnd leaves out too). Each run's total includes the interpreter's start and the imports (the
``none`` mode, printed first, is that floor). Prints Ir per tree and mode, HEAD/base per mode, and
``engine_vs_crypto`` in instructions (crypto Ir / replay Ir, each less the floor). Needs ``valgrind``
(Debian: ``apt-get install valgrind``); a run takes about 50 times its plain CPU time (minutes).
Not part of ``make bench``: a tool for a change's note.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import ab_inprocess as ab  # noqa: E402  (its git-archive loader and its game runners)

CHILD = """
import os, sys
sys.path.insert(0, {tmp!r}); sys.path.insert(0, {bench!r})
from bench import ab_inprocess as ab
name, mode, out = {name!r}, {mode!r}, {out!r}
e = ab._import(name)
if mode in ("replay", "crypto"):
    for i in range({games}):
        ab._verify(e, open(os.path.join({tmp!r}, f"b{{i}}.aar"), "rb").read(), mode == "replay")
elif mode == "play":
    open(out, "wb").write(ab._play(e, 0)[2])
elif mode in ("state", "legal"):
    st = ab._movement_state(e)
    ab._legal(e, st, True)   # the first builds what the map fixes (memoised for good): in both modes
    for _ in range({legal_reps} if mode == "legal" else 0):
        ab._legal(e, st, True)
"""


#: cold enumerations of the movement phase in the ``legal`` mode (less the ``state`` mode: reaching it)
LEGAL_REPS = 10


def _ir(tmp: str, name: str, mode: str, games: int) -> int:
    out = os.path.join(tmp, f"{name}.{mode}")
    code = CHILD.format(tmp=tmp, bench=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name=name,
                        mode=mode, out=out + ".bundle", games=games, legal_reps=LEGAL_REPS)
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.cg", sys.executable, "-c", code],
                       capture_output=True, text=True)
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    if p.returncode != 0 or not m:
        raise SystemExit(f"ab_callgrind: {name} {mode} failed:\n{p.stderr[-2000:]}")
    return int(m.group(1))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--games", type=int, default=2, help="Tet games replayed")
    ap.add_argument("--modes", default="replay,crypto,play")
    a = ap.parse_args(argv)
    modes = ["none"] + a.modes.split(",")
    if "legal" in modes:
        modes.insert(modes.index("legal"), "state")   # its floor
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        base = ab._load(tmp, "eng_a", a.base)
        ab._load(tmp, "eng_b", "HEAD")
        for i in range(a.games):
            with open(os.path.join(tmp, f"b{i}.aar"), "wb") as f:
                f.write(ab._play(base, 100 + i)[2])
        ir = {(n, m): _ir(tmp, n, m, a.games) for m in modes for n in ("eng_a", "eng_b")}
        if "play" in modes:
            a_b, b_b = (open(os.path.join(tmp, f"{n}.play.bundle"), "rb").read() for n in ("eng_a", "eng_b"))
            if a_b != b_b:
                raise SystemExit("ab_callgrind: the bot game is not the same bundle on both trees")
    label = {"eng_a": a.base, "eng_b": "HEAD"}
    for m in modes:
        print(f"{m:7s} " + "  ".join(f"{label[n]} {ir[(n, m)] / 1e9:.3f} G" for n in ("eng_a", "eng_b"))
              + ("" if m == "none" else f"  HEAD/base {ir[('eng_b', m)] / ir[('eng_a', m)]:.4f}"))
    if "legal" in modes:
        print("legal moves of the phase, cold, per enumeration: " + "  ".join(
            f"{label[n]} {(ir[(n, 'legal')] - ir[(n, 'state')]) / LEGAL_REPS / 1e6:.2f} M" for n in ("eng_a", "eng_b")))
    if "replay" in modes and "crypto" in modes:
        for n in ("eng_a", "eng_b"):
            floor = ir[(n, "none")]
            print(f"engine_vs_crypto in instructions, {label[n]}: "
                  f"{(ir[(n, 'crypto')] - floor) / (ir[(n, 'replay')] - floor):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
