"""SOG benchmark: engine throughput of random MACV-SOG games, and replay
verification of their logs beside the crypto-only verification of the same
records (``python -m bench sog``; ``make bench`` runs every benchmark).

Prints figures first, then two ``ratio NAME VALUE`` lines, each beside the
crypto-only figure (the foundation benchmark's verification without replay,
measured here on the same SOG records):
``ratio sog_engine_vs_crypto`` = replay-verify records/s / crypto-only records/s
(the share of verification speed left once the rules are re-executed);
``ratio sog_play_vs_crypto`` = records/s produced by playing (rules, bots, signing,
sealing) / crypto-only records/s.
"""
from __future__ import annotations

GAMES = 200          # at most this many games ...
PLAY_BUDGET_S = 6.0  # ... or as many as fit in this time (verification adds ~1.2x that: ~15 s in all)


def run() -> None:
    from .common import play_random_games, verify_throughput

    p = play_random_games("sog", PLAY_BUDGET_S, max_games=GAMES)
    bundles, commands, play_s = p.bundles, p.commands, p.total_s
    games = len(bundles)
    print(f"sog random games: {games} games, {commands} commands in {play_s:.2f} s")
    print(f"sog commands/s {commands / play_s:.1f}")
    print(f"sog games/s {games / play_s:.2f}")
    rec_r, t_r = verify_throughput(bundles, replay=True)
    rec_c, t_c = verify_throughput(bundles, replay=False)
    crypto = rec_c / t_c
    play_records = rec_r / play_s  # the same records, produced by play
    print(f"sog crypto-only-verify records/s {crypto:.1f} ({rec_c} records in {t_c:.2f} s)")
    print(f"sog play records/s {play_records:.1f} beside crypto-only {crypto:.1f}")
    print(f"sog replay-verify records/s {rec_r / t_r:.1f} beside crypto-only {crypto:.1f} "
          f"({rec_r} records in {t_r:.2f} s; {games / t_r:.2f} games/s)")
    print(f"ratio sog_engine_vs_crypto {(rec_r / t_r) / crypto:.3f}")
    print(f"ratio sog_play_vs_crypto {play_records / crypto:.3f}")


if __name__ == "__main__":
    run()
