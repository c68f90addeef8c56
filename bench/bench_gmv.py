"""GMV benchmark: random Good Morning, Vietnam! games in-process.

Prints commands/s (referee: sign, apply, seal, record, checkpoint), replay
verification records/s (verify_bundle with replay) and crypto-only
verification records/s (Verifier with replay=False) over the same bundles, and
``ratio gmv_engine_vs_crypto VALUE`` = replay records/s / crypto-only records/s.
Bounded to about 20 s.
"""
from __future__ import annotations

import io
import time

PLAY_BUDGET = 7.0  # seconds of play; verifying the same bundles (both ways) takes about as long again
TURNS = 4


def _crypto_only(bundle: bytes) -> int:
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.log.verify import Verifier

    header, records = read_bundle(io.BytesIO(bundle))  # parsing is timed too, as in verify_bundle
    v = Verifier(header["server_vkey"], None, header.get("secret"), replay=False)
    for raw, cp in records:
        v.add(raw, cp)
    return v.finish().records


def run() -> None:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame
    from afteraction.engine.log.verify import verify_bundle

    bundles: list[bytes] = []
    commands = 0
    play_time = 0.0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < PLAY_BUDGET:
        seed += 1
        g = LocalGame.create("gmv", seed=f"bench-gmv-{seed}".encode(), options={"turns": TURNS})
        g.handshake()
        t0 = time.perf_counter()
        commands += g.run_bots(random_bot(seed))
        play_time += time.perf_counter() - t0
        bundles.append(g.bundle())
    records = 0
    t0 = time.perf_counter()
    for b in bundles:
        rep = verify_bundle(io.BytesIO(b), replay=True)
        assert rep.replayed
        records += rep.records
    replay_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    crypto_records = sum(_crypto_only(b) for b in bundles)
    crypto_time = time.perf_counter() - t0
    replay_rps = records / replay_time
    crypto_rps = crypto_records / crypto_time
    print(f"gmv games {len(bundles)} ({TURNS} turns each), commands {commands}")
    print(f"gmv commands/s {commands / play_time:.1f}")
    print(f"gmv replay verification records/s {replay_rps:.1f}")
    print(f"gmv crypto-only verification records/s {crypto_rps:.1f}")
    print(f"ratio gmv_engine_vs_crypto {replay_rps / crypto_rps:.3f}")


if __name__ == "__main__":
    run()
