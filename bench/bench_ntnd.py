"""NTND benchmark: engine commands/s of random-bot games of the Tet Offensive
scenario, the time to enumerate the legal moves of a whole Communist movement phase (every
piece's reachable destinations), and replay verification of the logs beside the crypto-only
verification of the same records (``python -m bench ntnd``; bounded to about 30 s).

The ground searches and each piece's destinations are memoised across states
(engine/games/ntnd/movement/search.py ``_search``, reach.py ``_destinations``; ``reach.clear_caches`` empties both),
so every figure says whether it starts from an empty memo: the legal moves are timed cold (memo cleared
before each repetition: the figure the target is about) and warm (the same state asked again, as
the next command of a phase mostly does); the replay starts cold, as ``aar verify`` in a new
process does. The timed play follows one untimed game (``_warm_up``): the ruleset's modules are
imported and the map's fixed tables (``ground_search._graph``...) built once a process, as in a
running server, and whether an earlier benchmark of ``make bench`` had done it in this process no
longer changes the figure (it had counted the import of the ruleset, about 0.3 s here, in
``python -m bench ntnd`` alone and not always in ``make bench``); the memo is cleared after it.

Prints figures, then ratios against the crypto-only verification measured in the same run:
``ratio ntnd_engine_vs_crypto`` = replay-verify records/s / crypto-only records/s (target >= 0.8);
``ratio ntnd_play_vs_crypto`` = bot-play commands/s / crypto-only records/s (the target of 1,000
commands/s is about 0.3 of this machine's crypto rate);
``ratio ntnd_legal_phase_vs_crypto_record`` = the cold legal moves of the phase / the crypto-only
time of one record (the 5 ms target is about 20 records' crypto here).

Then the short campaign (campaign_short, the campaign bots on both seats), in the same run:
``ratio ntnd_campaign_play_vs_crypto`` and ``ratio ntnd_campaign_engine_vs_crypto`` (as the Tet ones),
``ratio ntnd_campaign_vs_tet_play`` / ``ntnd_campaign_vs_tet_replay`` = the campaign's commands/s or
replay records/s over Tet's (random bots) measured above.
"""
from __future__ import annotations

import time

GAMES = 20
PLAY_BUDGET_S = 6.0  # CPU seconds; verification adds about a third
REPS = 7
CAMPAIGN_GAMES = 6
CAMPAIGN_BUDGET_S = 6.0  # CPU seconds of campaign_short games (about two games here)


def _movement_phase_state():
    """Play the scenario to the first Communist movement decision; its state and the ruleset."""
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    g = LocalGame.create("ntnd", seed=b"bench-ntnd-enum")
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(b"enum")
    while True:
        d = g.referee.pending()
        if d.kind == "move" and d.seat == "communist":
            break
        g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
    return rs, g.referee.state


def _movement_phase_enumeration() -> tuple[float, float, int, int]:
    """(cold s, warm s, legal commands, pieces): the median of REPS timings of legal_commands."""
    from afteraction.engine.games.ntnd.movement import reach

    rs, s = _movement_phase_state()
    pieces = len(s["markers"]) + sum(1 for u in s["units"].values()
                                     if u["status"] == "map" and u["side"] == "communist" and not u["inv"])
    cold, warm = [], []
    for _ in range(REPS):
        reach.clear_caches()
        t0 = time.process_time()
        legal = rs.legal_commands(s, "communist")
        cold.append(time.process_time() - t0)
        t0 = time.process_time()
        legal = rs.legal_commands(s, "communist")
        warm.append(time.process_time() - t0)
    return sorted(cold)[REPS // 2], sorted(warm)[REPS // 2], len(legal), pieces


def _warm_up() -> None:
    """One untimed game of another seed (see the module docstring), its time printed apart."""
    from .common import play_random_games

    t0 = time.process_time()
    p = play_random_games("ntnd", 0.0, max_games=1, first_seed=GAMES, clock=time.process_time)
    print(f"ntnd warm-up game (untimed: imports and the map's fixed tables, if not yet made in this process): "
          f"{p.commands} commands in {time.process_time() - t0:.2f} CPU s")


def run() -> None:
    from afteraction.engine.games.ntnd.movement import reach

    from .common import play_random_games, verify_throughput

    _warm_up()
    reach.clear_caches()
    p = play_random_games("ntnd", PLAY_BUDGET_S, max_games=GAMES, clock=time.process_time)
    bundles, commands, play_s = p.bundles, p.commands, p.total_s
    print(f"ntnd random Tet games: {len(bundles)} games, {commands} commands in {play_s:.2f} CPU s "
          f"({p.wall_s:.1f} s wall)")
    play_rate = commands / play_s
    print(f"ntnd commands/s {play_rate:.1f} (legal-command enumeration + referee apply, CPU; target 1,000)")
    t_cold, t_warm, n_legal, pieces = _movement_phase_enumeration()
    print(f"ntnd legal moves of a full Communist movement phase: {n_legal} commands for {pieces} pieces "
          f"in {t_cold * 1000:.1f} ms cold, {t_warm * 1000:.1f} ms warm (CPU, median of {REPS}; target 5 ms)")
    reach.clear_caches()
    rec_r, t_r = verify_throughput(bundles, replay=True, clock=time.process_time)
    rec_c, t_c = verify_throughput(bundles, replay=False, clock=time.process_time)
    print(f"ntnd replay verification: {rec_r} records in {t_r:.2f} CPU s = {rec_r / t_r:,.0f} records/s")
    print(f"ntnd crypto-only verification: {rec_c} records in {t_c:.2f} CPU s = {rec_c / t_c:,.0f} records/s")
    crypto = rec_c / t_c
    print(f"ratio ntnd_engine_vs_crypto {(rec_r / t_r) / crypto:.3f}")
    print(f"ratio ntnd_play_vs_crypto {play_rate / crypto:.3f}")
    print(f"ratio ntnd_legal_phase_vs_crypto_record {t_cold * crypto:.3f}")
    _campaign(crypto, play_rate, rec_r / t_r)


def _campaign(crypto: float, tet_play: float, tet_replay: float) -> None:
    """The short campaign (campaign_short) played by the campaign bots (bots.campaign_bot, both seats):
    commands/s and replay verification records/s, as ratios against the same run's crypto-only rate
    and the Tet figures above."""
    from afteraction.engine.games.ntnd.movement import reach
    from afteraction.engine.games.ntnd.bots.military import campaign_bot

    from .common import play_random_games, verify_throughput

    reach.clear_caches()
    p = play_random_games("ntnd", CAMPAIGN_BUDGET_S, max_games=CAMPAIGN_GAMES, clock=time.process_time,
                          scenario="campaign_short", make_bot=lambda i: campaign_bot(f"bench/{i}"))
    rate = p.commands / p.total_s
    print(f"ntnd campaign_short games (campaign bots): {len(p.bundles)} games, {p.commands} commands in "
          f"{p.total_s:.2f} CPU s ({p.wall_s:.1f} s wall) = {rate:.1f} commands/s")
    reach.clear_caches()
    rec, t = verify_throughput(p.bundles, replay=True, clock=time.process_time)
    print(f"ntnd campaign_short replay verification: {rec} records in {t:.2f} CPU s = {rec / t:,.0f} records/s")
    print(f"ratio ntnd_campaign_play_vs_crypto {rate / crypto:.3f}")
    print(f"ratio ntnd_campaign_engine_vs_crypto {(rec / t) / crypto:.3f}")
    print(f"ratio ntnd_campaign_vs_tet_play {rate / tet_play:.3f}")
    print(f"ratio ntnd_campaign_vs_tet_replay {(rec / t) / tet_replay:.3f}")


if __name__ == "__main__":
    run()
