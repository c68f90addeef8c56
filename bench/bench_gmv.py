"""GMV benchmark: random Good Morning, Vietnam! games in-process.

Prints commands/s (referee: sign, apply, seal, record, checkpoint), replay
verification records/s (verify_bundle with replay) and crypto-only
verification records/s (Verifier with replay=False) over the same bundles, and
``ratio gmv_engine_vs_crypto VALUE`` = replay records/s / crypto-only records/s.
Bounded to about 20 s.
"""
from __future__ import annotations

PLAY_BUDGET = 7.0  # seconds of play; verifying the same bundles (both ways) takes about as long again
TURNS = 4


def run() -> None:
    from .common import play_random_games, verify_throughput

    p = play_random_games("gmv", PLAY_BUDGET, first_seed=1, options={"turns": TURNS})
    bundles, commands, play_time = p.bundles, p.commands, p.bots_s
    # parsing is timed too, as in verify_bundle
    records, replay_time = verify_throughput(bundles, replay=True, time_parsing=True)
    crypto_records, crypto_time = verify_throughput(bundles, replay=False, time_parsing=True)
    replay_rps = records / replay_time
    crypto_rps = crypto_records / crypto_time
    print(f"gmv games {len(bundles)} ({TURNS} turns each), commands {commands}")
    print(f"gmv commands/s {commands / play_time:.1f}")
    print(f"gmv replay verification records/s {replay_rps:.1f}")
    print(f"gmv crypto-only verification records/s {crypto_rps:.1f}")
    print(f"ratio gmv_engine_vs_crypto {replay_rps / crypto_rps:.3f}")


if __name__ == "__main__":
    run()
