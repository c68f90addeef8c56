"""What the game benchmarks share: play seeded random-bot games in-process, and time the
verification of their bundles with and without replay (``bench_sog``, ``bench_gmv``,
``bench_ntnd``). Each benchmark prints its own figures and ``ratio NAME VALUE`` lines."""
from __future__ import annotations

import io
import itertools
import time
from dataclasses import dataclass
from typing import Callable


@dataclass
class Played:
    bundles: list[bytes]
    commands: int
    total_s: float  # create + handshake + bots + bundle, on the benchmark's clock
    bots_s: float   # the bots' moves only (legal commands + referee), on the benchmark's clock
    wall_s: float   # wall clock of the whole loop


def play_random_games(game: str, budget_s: float, *, max_games: int | None = None, first_seed: int = 0,
                      options: dict | None = None, clock: Callable[[], float] = time.perf_counter,
                      scenario: str | None = None, make_bot: Callable[[int], Callable] | None = None) -> Played:
    """Play games ``bench-<game>-<i>`` (bots seeded with ``i``) until ``max_games`` are played or
    ``budget_s`` has passed on ``clock`` after a game (at least one game is played). ``scenario``: the
    ruleset's default if None (its games are seeded ``bench-<game>-<scenario>-<i>``); ``make_bot(i)``:
    the bot of game i (default the uniform random bot)."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    bundles: list[bytes] = []
    commands = 0
    bots_s = 0.0
    seeds = itertools.count(first_seed) if max_games is None else range(first_seed, first_seed + max_games)
    t0, w0 = clock(), time.perf_counter()
    for i in seeds:
        tag = f"bench-{game}-{i}" if scenario is None else f"bench-{game}-{scenario}-{i}"
        g = LocalGame.create(game, seed=tag.encode(), options=options, scenario=scenario)
        g.handshake()
        t1 = clock()
        commands += g.run_bots((make_bot or random_bot)(i))
        bots_s += clock() - t1
        bundles.append(g.bundle())
        if clock() - t0 > budget_s:
            break
    return Played(bundles, commands, clock() - t0, bots_s, time.perf_counter() - w0)


def verify_throughput(bundles: list[bytes], replay: bool, *, clock: Callable[[], float] = time.perf_counter,
                      time_parsing: bool = False) -> tuple[int, float]:
    """Feed every record of every bundle through a streaming Verifier; (records, seconds on
    ``clock``). ``time_parsing`` counts reading the bundle frames too (as verify_bundle does).
    A bundle that does not verify completely (or not replayed when asked) stops the benchmark."""
    from afteraction.engine import registry
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.crypto.ed25519 import forget_verdicts
    from afteraction.engine.log.verify import Verifier

    def parse(b: bytes):
        header, records = read_bundle(io.BytesIO(b))
        return header, records if time_parsing else list(records)

    parsed = None if time_parsing else [parse(b) for b in bundles]
    n = 0
    forget_verdicts()   # the games' own play checked their commands' signatures: none is remembered
    t0 = clock()
    for j, b in enumerate(bundles):
        header, records = parse(b) if time_parsing else parsed[j]
        v = Verifier(header["server_vkey"], None, header.get("secret"), replay=replay,
                     ruleset_lookup=registry.get, header_game=header["game"], replay_in_place=True)  # as verify_bundle
        for raw, cp in records:
            v.add(raw, cp)
        rep = v.finish()
        if not rep.verified or not rep.ended or rep.replayed != replay:
            raise SystemExit(f"bench: a bundle of game {rep.game} did not verify completely")
        n += rep.records
    return n, clock() - t0


class JsonLinesProc:
    """A bench client process driven over JSON lines on its stdin/stdout (one request, one answer):
    ``argv`` after the Python interpreter, run from the repository root."""

    def __init__(self, argv: list[str], what: str) -> None:
        import os
        import subprocess
        import sys

        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.what = what
        self.p = subprocess.Popen([sys.executable, *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd=root, env=dict(os.environ, PYTHONUNBUFFERED="1"))

    def send(self, **msg) -> None:
        import json

        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def answer(self) -> dict:
        import json

        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.what} exited ({self.p.wait()})")
        return json.loads(line)

    def close(self) -> None:
        try:
            self.send(op="close")
            self.p.wait(30)
        except Exception:  # noqa: BLE001 -- a client that will not close is killed
            self.p.kill()
            self.p.wait()

