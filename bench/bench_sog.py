"""SOG benchmark: engine throughput of random MACV-SOG games, and replay
verification of their logs beside the crypto-only verification of the same
records (``python -m bench`` calls ``run()``).

Prints figures first, then two ``ratio NAME VALUE`` lines, each beside the
crypto-only figure (the foundation benchmark's verification without replay,
measured here on the same SOG records):
``ratio sog_engine_vs_crypto`` = replay-verify records/s / crypto-only records/s
(the share of verification speed left once the rules are re-executed);
``ratio sog_play_vs_crypto`` = records/s produced by playing (rules, bots, signing,
sealing) / crypto-only records/s.
"""
from __future__ import annotations

import io
import time

GAMES = 200          # at most this many games ...
PLAY_BUDGET_S = 6.0  # ... or as many as fit in this time (verification takes ~1.5x that: ~15-20 s in all)


def _verify(bundles: list[bytes], replay: bool) -> tuple[int, float]:
    """Feed every record of every bundle through a Verifier; (records, seconds)."""
    from afteraction.engine import registry
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.log.verify import Verifier

    parsed = []
    for b in bundles:
        header, records = read_bundle(io.BytesIO(b))
        parsed.append((header, list(records)))
    n = 0
    t0 = time.perf_counter()
    for header, records in parsed:
        v = Verifier(header["server_vkey"], None, header.get("secret"), replay=replay, ruleset_lookup=registry.get)
        for raw, cp in records:
            v.add(raw, cp)
        rep = v.finish()
        if not rep.verified or rep.replayed != replay:
            raise SystemExit("bench_sog: a bundle did not verify")
        n += len(records)
    return n, time.perf_counter() - t0


def run() -> None:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame

    bundles: list[bytes] = []
    commands = 0
    t0 = time.perf_counter()
    for i in range(GAMES):
        g = LocalGame.create("sog", seed=f"bench-sog-{i}".encode())
        g.handshake()
        commands += g.run_bots(random_bot(i))
        bundles.append(g.bundle())
        if time.perf_counter() - t0 > PLAY_BUDGET_S:
            break
    play_s = time.perf_counter() - t0
    games = len(bundles)
    print(f"sog random games: {games} games, {commands} commands in {play_s:.2f} s")
    print(f"sog commands/s {commands / play_s:.1f}")
    print(f"sog games/s {games / play_s:.2f}")
    rec_r, t_r = _verify(bundles, replay=True)
    rec_c, t_c = _verify(bundles, replay=False)
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
