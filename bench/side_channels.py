"""What the public side of hidden values still shows (SPEC.md 6.5, 14 item 4), measured over
random-bot games; not part of ``make bench`` (no ratio):

    .venv/bin/python -m bench.side_channels gmv 10
    .venv/bin/python -m bench.side_channels ntnd 3

Prints, per ruleset: the ciphertext lengths per kind (one each since v2), the bundle bytes per
game, how much of a sealed order's type the public shape of its record leaves unknown (entropy
of the type, and given the record's public event types and runs of sealed events), the referee's
time per sealed order type (the reply-time channel), and the lengths of the openings delivered
privately (unpadded, on the seat's own connection)."""
from __future__ import annotations

import collections
import math
import statistics
import sys
import time


def _entropy(c: collections.Counter) -> float:
    t = sum(c.values())
    return -sum(v / t * math.log2(v / t) for v in c.values())


def measure(game: str, games: int) -> None:
    from afteraction.engine.bots import random_bot
    from afteraction.engine.crypto import canon
    from afteraction.engine.local import LocalGame

    pairs: list[tuple[str, tuple]] = []
    times: dict[str, list[float]] = collections.defaultdict(list)
    ct_lengths: dict[tuple, set] = collections.defaultdict(set)
    openings: dict[tuple, list[int]] = collections.defaultdict(list)
    size = 0
    for i in range(games):
        g = LocalGame.create(game, seed=f"side-{game}-{i}".encode())
        g.handshake()
        bot, rs = random_bot(i), g.referee.ruleset
        while not g.referee.ended:
            d = g.referee.pending()
            c = bot(d.seat, rs.legal_commands(g.referee.state, d.seat))
            private = rs.is_private(g.referee.state, d.seat, c)
            signed = g.seats[d.seat].command(g.referee.game_id, g.referee.seq, c, g.head())
            t0 = time.perf_counter()
            acc = g.submit(signed)
            dt = time.perf_counter() - t0
            rec = acc.records[0]
            if private:
                action = getattr(c, c.WhichOneof("game")).WhichOneof("action")
                times[action].append(dt * 1000)
                shape = tuple("sealed" if e["t"] == "sealed" else e["t"] for e in rec.body["events"])
                shape = tuple(x for j, x in enumerate(shape) if not (x == "sealed" and j and shape[j - 1] == "sealed"))
                pairs.append((action, shape))
            for seat, ops in acc.openings.items():
                for op in ops:
                    openings[(seat, "command" if op.k == 0 else "event")].append(len(canon.encode(op.value)))
        for r in g.records:
            if r.kind == "command" and "sealed" in r.body:
                ct_lengths[("command", r.body["seat"])].add(len(r.body["sealed"]["ct"]))
            for ev in r.body.get("events", ()) if r.kind in ("reveal", "command") else ():
                if ev.get("t") == "sealed":
                    ct_lengths[("event", ev["to"])].add(len(ev["ct"]))
        size += len(g.bundle())
    print(f"{game}: {games} games, {size // games} bundle bytes per game")
    for k, v in sorted(ct_lengths.items()):
        print(f"  ciphertext lengths {k[0]} for {k[1]}: {sorted(v)}")
    if pairs:
        by: dict[tuple, collections.Counter] = collections.defaultdict(collections.Counter)
        for a, s in pairs:
            by[s][a] += 1
        cond = sum(sum(c.values()) / len(pairs) * _entropy(c) for c in by.values())
        print(f"  sealed orders {len(pairs)}: type entropy {_entropy(collections.Counter(a for a, _ in pairs)):.2f} "
              f"bits, {cond:.2f} bits left given the record's public shape")
    for a, v in sorted(times.items()):
        v = sorted(v)
        print(f"  referee time {a}: n {len(v)}, median {statistics.median(v):.2f} ms, p90 {v[int(len(v) * 0.9)]:.2f} ms")
    for k, v in sorted(openings.items()):
        print(f"  private openings {k[1]} for {k[0]}: value lengths {min(v)}..{max(v)} ({len(set(v))} distinct)")


if __name__ == "__main__":
    measure(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)
