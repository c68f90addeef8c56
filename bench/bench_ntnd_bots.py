"""NTND campaign bots against the uniform random bot (``python -m bench ntnd_bots``): N games of the short
campaign (campaign_short, turns 1-4) for each side's ``political_bot`` (engine/games/ntnd/bots/political.py,
the demo bot of the campaigns: its own seat's view and the legal answers) against ``random_bot`` on the
other seat, and N games of random against random as the baseline measured in the same run; with
AAR_BENCH_NTND_BOTS_CAMPAIGN=M also M games of each pairing of the full campaign (63 turns or a sudden
victory). Prints, per scenario and pairing, the bot's wins, draws and losses (the short campaign's band,
22.4: Allied win at 100 or more points, Communist below 90, a draw between; the campaign: sudden victory
above 250 / below 0, else 100 and Saigon at the end), the turns the games lasted and the final political
points.

    .venv/bin/python -m bench ntnd_bots                       (N = 4: part of `make bench`)
    AAR_BENCH_NTND_BOTS_GAMES=20 .venv/bin/python -m bench ntnd_bots
    AAR_BENCH_NTND_BOTS_GAMES=20 AAR_BENCH_NTND_BOTS_CAMPAIGN=4 .venv/bin/python -m bench ntnd_bots

Games are played in-process (engine/local.py), seeded ``bench-ntnd-bots/<scenario>/<pairing>/<i>``: the
counts are the same on every run of the same code. Ratio lines: each bot's share of wins minus the share
the same side wins in the random-vs-random baseline (> 0: the bot does better than chance).
"""
from __future__ import annotations

import os
import time

SCENARIO = "campaign_short"


def _n(var: str = "AAR_BENCH_NTND_BOTS_GAMES", default: str = "4") -> int:
    return int(os.environ.get(var, default))


def play(pairing: str, bots: dict, i: int, scenario: str = SCENARIO) -> tuple[str | None, int, int, int]:
    """One game: (winner or None for a draw, commands, final political points, last turn). ``bots``: per
    seat a factory ``make(view_of)`` of ``choose(seat, legal)``; ``view_of(seat)`` is that seat's own view."""
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("ntnd", seed=f"bench-ntnd-bots/{scenario}/{pairing}/{i}".encode(), scenario=scenario)
    g.handshake()
    rs = g.referee.ruleset
    chosen = {seat: make(lambda s: rs.view(g.referee.state, s)) for seat, make in bots.items()}
    n = g.run_bots(lambda seat, legal: chosen[seat](seat, legal))
    st = g.referee.state
    return (st.get("outcome") or {}).get("winner"), n, st["pp"], st["turn"]


def pairings(i: int) -> dict[str, dict]:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.games.ntnd.bots.political import political_bot

    def bot(tag):
        return lambda view_of: political_bot(tag, view_of)

    def rnd(tag):
        return lambda view_of: random_bot(tag)

    return {
        "communist bot vs random": {"communist": bot(f"c/{i}"), "allied": rnd(f"a/{i}")},
        "allied bot vs random": {"communist": rnd(f"c/{i}"), "allied": bot(f"a/{i}")},
        "random vs random": {"communist": rnd(f"c/{i}"), "allied": rnd(f"a/{i}")},
    }


def tally(scenario: str, n: int) -> tuple[dict, int]:
    out: dict[str, dict] = {}
    commands = 0
    for i in range(n):
        for name, bots in pairings(i).items():
            w, c, pp, turn = play(name.split(" ")[0] + "-" + name.split(" ")[1], bots, i, scenario)
            commands += c
            t = out.setdefault(name, {"communist": 0, "allied": 0, None: 0, "pp": [], "turns": []})
            t[w] += 1
            t["pp"].append(pp)
            t["turns"].append(turn)
    return out, commands


def report(scenario: str, n: int, t0: float) -> None:
    tal, commands = tally(scenario, n)
    took = time.perf_counter() - t0
    for name, t in tal.items():
        who = name.split(" ")[0]
        if who in ("communist", "allied"):
            other = "allied" if who == "communist" else "communist"
            head = f"{who} bot {t[who]} won, {t[None]} drawn, {t[other]} lost of {n}"
        else:
            head = f"baseline: communist {t['communist']} won, allied {t['allied']} won, {t[None]} drawn of {n}"
        print(f"ntnd_bots {scenario} {name}: {head} (turns {min(t['turns'])} to {max(t['turns'])}; final political "
              f"points {min(t['pp'])} to {max(t['pp'])}, mean {sum(t['pp']) / len(t['pp']):.1f})")
    print(f"ntnd_bots {scenario}: {3 * n} games, {commands} commands in {took:.1f} s wall")
    base = tal["random vs random"]
    c = (tal["communist bot vs random"]["communist"] - base["communist"]) / n
    a = (tal["allied bot vs random"]["allied"] - base["allied"]) / n
    if scenario == SCENARIO:
        print(f"ratio ntnd_bots_communist_wins_vs_random_baseline {c:.3f}")
        print(f"ratio ntnd_bots_allied_wins_vs_random_baseline {a:.3f}")
    else:
        print(f"ratio ntnd_bots_campaign_communist_wins_vs_random_baseline {c:.3f}")
        print(f"ratio ntnd_bots_campaign_allied_wins_vs_random_baseline {a:.3f}")


def run() -> None:
    report(SCENARIO, _n(), time.perf_counter())
    m = _n("AAR_BENCH_NTND_BOTS_CAMPAIGN", "0")
    if m:
        report("campaign", m, time.perf_counter())


if __name__ == "__main__":
    run()
