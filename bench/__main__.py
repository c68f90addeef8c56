"""Run every benchmark: import each bench/bench_*.py in sorted order and call its run().

A module that fails to import or raises prints one error line and the runner goes on;
the exit code is non-zero at the end if any failed."""
from __future__ import annotations

import importlib
import pathlib
import sys
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if argv:  # optional filter: python -m bench verify
        names = [n for n in names if any(a in n for a in argv)]
    failed = []
    for name in names:
        print(f"== {name}", flush=True)
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(f"bench.{name}")
            run = getattr(mod, "run")
            run()
        except Exception as e:  # report and continue with the next benchmark
            failed.append(name)
            print(f"error {name}: {type(e).__name__}: {e}", flush=True)
            traceback.print_exc(file=sys.stderr)
        print(f"== {name} took {time.perf_counter() - t0:.1f} s", flush=True)
    if failed:
        print(f"error: {len(failed)} benchmark(s) failed: {', '.join(failed)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
