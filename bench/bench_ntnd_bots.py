"""NTND campaign bots against the uniform random bot (``python -m bench ntnd_bots``): N games of the short
campaign (campaign_short, turns 1-4) for each side's ``campaign_bot`` (engine/games/ntnd/bots.py) against
``random_bot`` on the other seat, and N games of random against random as the baseline measured in the
same run. Prints how many games each pairing's bot wins (and the draws, 22.4's band of the short
campaign: Allied win at 100 or more points, Communist below 90) and the final political points (the
Allied bot's purpose is to keep them up, the Communist bot's to push them down).

    .venv/bin/python -m bench ntnd_bots                       (N = 4: part of `make bench`)
    AAR_BENCH_NTND_BOTS_GAMES=20 .venv/bin/python -m bench ntnd_bots

Games are played in-process (engine/local.py), seeded ``bench-ntnd-bots/<pairing>/<i>``: the counts
are the same on every run of the same code. Ratio lines: each bot's share of wins minus the share the
same side wins in the random-vs-random baseline (> 0: the bot does better than chance).
"""
from __future__ import annotations

import os
import time

SCENARIO = "campaign_short"


def _n() -> int:
    return int(os.environ.get("AAR_BENCH_NTND_BOTS_GAMES", "4"))


def play(pairing: str, bots: dict, i: int, scenario: str = SCENARIO) -> tuple[str | None, int, int]:
    """One game: (winner or None for a draw, commands, final political points)."""
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("ntnd", seed=f"bench-ntnd-bots/{pairing}/{i}".encode(), scenario=scenario)
    g.handshake()
    n = g.run_bots(lambda seat, legal: bots[seat](seat, legal))
    return (g.referee.state.get("outcome") or {}).get("winner"), n, g.referee.state["pp"]


def pairings(i: int) -> dict[str, dict]:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.games.ntnd.bots import campaign_bot

    return {
        "communist bot vs random": {"communist": campaign_bot(f"c/{i}"), "allied": random_bot(f"a/{i}")},
        "allied bot vs random": {"communist": random_bot(f"c/{i}"), "allied": campaign_bot(f"a/{i}")},
        "random vs random": {"communist": random_bot(f"c/{i}"), "allied": random_bot(f"a/{i}")},
    }


def run() -> None:
    n = _n()
    tally: dict[str, dict] = {}
    t0 = time.perf_counter()
    commands = 0
    for i in range(n):
        for name, bots in pairings(i).items():
            w, c, pp = play(name.split(" ")[0] + "-" + name.split(" ")[1], bots, i)
            commands += c
            t = tally.setdefault(name, {"communist": 0, "allied": 0, None: 0, "pp": []})
            t[w] += 1
            t["pp"].append(pp)
    took = time.perf_counter() - t0
    for name, t in tally.items():
        who = name.split(" ")[0]
        wins = t[who] if who in ("communist", "allied") else None
        head = f"{wins} of {n} won by the {who} bot" if wins is not None else "baseline"
        print(f"ntnd_bots {SCENARIO} {name}: {head} (communist {t['communist']}, allied {t['allied']}, "
              f"draws {t[None]}; final political points {min(t['pp'])} to {max(t['pp'])}, "
              f"mean {sum(t['pp']) / len(t['pp']):.1f})")
    print(f"ntnd_bots: {3 * n} games, {commands} commands in {took:.1f} s wall")
    share = {name: t[name.split(" ")[0]] / n for name, t in tally.items() if name.split(" ")[0] != "random"}
    base = tally["random vs random"]
    print(f"ratio ntnd_bots_communist_wins_vs_random_baseline "
          f"{share['communist bot vs random'] - base['communist'] / n:.3f}")
    print(f"ratio ntnd_bots_allied_wins_vs_random_baseline {share['allied bot vs random'] - base['allied'] / n:.3f}")


if __name__ == "__main__":
    run()
