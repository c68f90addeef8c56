"""NTND benchmark: engine commands/s of random-bot games of the Tet Offensive
scenario, the time to enumerate the legal moves of a whole Communist movement
phase (every piece's reachable destinations), and replay verification of the
logs beside the crypto-only verification of the same records
(``python -m bench ntnd``; bounded to about 30 s).

Prints figures, then ``ratio ntnd_engine_vs_crypto VALUE`` = replay-verify
records/s / crypto-only records/s (``Verifier(..., replay=False)``).
"""
from __future__ import annotations

import time

GAMES = 20
PLAY_BUDGET_S = 6.0  # CPU seconds; verification adds about a third


def _movement_phase_enumeration() -> tuple[float, int, int]:
    """Play the scenario to the first Communist movement decision, then time legal_commands there."""
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
    s = g.referee.state
    pieces = len(s["markers"]) + sum(1 for u in s["units"].values()
                                     if u["status"] == "map" and u["side"] == "communist" and not u["inv"])
    reps = 5
    t0 = time.process_time()
    for _ in range(reps):
        legal = rs.legal_commands(s, "communist")
    return (time.process_time() - t0) / reps, len(legal), pieces


def run() -> None:
    from .common import play_random_games, verify_throughput

    p = play_random_games("ntnd", PLAY_BUDGET_S, max_games=GAMES, clock=time.process_time)
    bundles, commands, play_s = p.bundles, p.commands, p.total_s
    print(f"ntnd random Tet games: {len(bundles)} games, {commands} commands in {play_s:.2f} CPU s "
          f"({p.wall_s:.1f} s wall)")
    print(f"ntnd commands/s {commands / play_s:.1f} (legal-command enumeration + referee apply, CPU)")
    t_enum, n_legal, pieces = _movement_phase_enumeration()
    print(f"ntnd legal moves of a full Communist movement phase: {n_legal} commands for {pieces} pieces "
          f"in {t_enum * 1000:.1f} ms")
    rec_r, t_r = verify_throughput(bundles, replay=True, clock=time.process_time)
    rec_c, t_c = verify_throughput(bundles, replay=False, clock=time.process_time)
    print(f"ntnd replay verification: {rec_r} records in {t_r:.2f} CPU s = {rec_r / t_r:,.0f} records/s")
    print(f"ntnd crypto-only verification: {rec_c} records in {t_c:.2f} CPU s = {rec_c / t_c:,.0f} records/s")
    print(f"ratio ntnd_engine_vs_crypto {(rec_r / t_r) / (rec_c / t_c):.3f}")


if __name__ == "__main__":
    run()
