"""The cost of the legal commands' names (engine/names.py): for the largest decisions of
an NTND Tet game played by a seeded random bot, the time to list the legal commands and put them
into a prompt (YourDecision.legal_commands), to name them (names.label_commands) and to make their CommandName
messages too (service/servicer.py names_pb: what a prompt asked `with_names` costs under the game's
lock). Best of 5 per decision. `python -m bench names`."""
from __future__ import annotations

import time

DECISIONS = 5     # the largest decisions timed
PLAYED = 120      # commands played looking for them


def _best(f, n: int = 5) -> float:
    out = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


def run() -> None:
    from afteraction.engine import names
    from afteraction.engine.bots import random_bot
    from afteraction.engine.local import LocalGame
    from afteraction.service.servicer import names_pb
    from afteraction.v1 import game_service_pb2 as gs

    g = LocalGame.create("ntnd", scenario="tet", seed=b"bench-names")
    g.handshake()
    rs, bot = g.referee.ruleset, random_bot(2)
    found = []
    for _ in range(PLAYED):
        d = rs.pending(g.referee.state)
        legal = list(rs.legal_commands(g.referee.state, d.seat))
        found.append((len(legal), rs.copy_state(g.referee.state), d, legal))
        g.play(d.seat, bot(d.seat, legal))
    found = sorted(found, key=lambda x: -x[0])[:DECISIONS]
    worst = 0.0
    for n, state, d, legal in found:
        prompt = _best(lambda: gs.YourDecision(legal_commands=rs.legal_commands(state, d.seat)))
        label = _best(lambda: names.label_commands(rs, state, d.seat, d, legal))
        g.referee.state = state  # names_pb reads the referee's state
        named = _best(lambda: names_pb(g.referee, d.seat, d, legal))
        worst = max(worst, named / prompt)
        print(f"{d.kind} ({d.seat}): {n} legal commands: prompt {prompt * 1000:.1f} ms, "
              f"names {label * 1000:.1f} ms, names as messages {named * 1000:.1f} ms")
    print(f"ratio names_over_prompt {worst:.1f}")
