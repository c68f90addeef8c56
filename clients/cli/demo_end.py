"""`aar demo --end resign|agree|timeout|abandon [--game G]`: a game over real gRPC that ends by
one of the endings every game has (SPEC.md 8.1-8.2), exported, verified, its outcome and cause.

The embedded server's clock is the demo's own (``GameManager.now``): it starts at the wall
clock and the demo moves it on, so a time-out and an abandonment happen at once, not after a
minute or an hour of waiting."""
from __future__ import annotations

import json
import os
import time

ENDS = ("resign", "agree", "timeout", "abandon")
DECISION_MS = 60_000      # the time-out demo: one minute per decision
ABANDON_MS = 3_600_000    # the abandonment demo: an hour without any seat acting
MOVES = 4                 # game commands played before the ending


def run_demo_end(game: str, end: str, seed: int, out: str) -> int:
    from afteraction.client.client import Client, new_seat_key
    from afteraction.client.seat import Seat
    from afteraction.engine import registry
    from afteraction.engine.bots import random_bot
    from afteraction.engine.errors import VerificationError
    from afteraction.engine.seat import SeatSigner
    from afteraction.service.server import start

    os.makedirs(out, exist_ok=True)
    clock = [time.time_ns() // 1_000_000]
    run = start("127.0.0.1:0", None, None, out, now=lambda: clock[0])  # the demo's clock: moved on below
    target = f"127.0.0.1:{run.port}"
    print(f"server: {target} (embedded, its clock driven by the demo)")
    try:
        with Client(target) as c:
            rs = registry.get(game)
            keys = {s: new_seat_key() for s in rs.seats}
            control = {"timeout": {"decision_ms": DECISION_MS}, "abandon": {"abandon_ms": ABANDON_MS}}.get(end)
            gid = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()}, clock=control).game_id
            print(f"game {gid}: {game}, seats {', '.join(rs.seats)}; time control {json.dumps(control)}")
            seats = {s: Seat(c, gid, s, keys[s]) for s in rs.seats}
            for step in ("commit", "reveal"):
                for s in seats.values():
                    s.submit(s.sign_commit() if step == "commit" else s.sign_reveal())
            _play_moves(seats, random_bot(f"{seed}/{game}"), clock)
            _end(c, gid, rs.seats, seats, end, clock)
            st = c.state(gid)  # a time-out or abandonment is written at the game's next use
            data = c.export(gid)
            path = os.path.join(out, f"{game}-{end}-{gid}.aar")
            with open(path, "wb") as f:
                f.write(data)
            try:
                rep = c.verify(data)
                verdict = "VERIFIED" + (" (replayed byte for byte)" if rep.replayed else "")
            except VerificationError as e:
                rep, verdict = None, f"NOT VERIFIED: {e}"
    finally:
        run.stop(2)
    print(f"\n== {game} game {gid}: ended by {end} ==")
    print(f"  outcome:      {st.outcome_json}")
    print(f"  cause:        {st.cause_json} (SPEC.md 8.3)")
    if rep is not None:
        print(f"  records:      {rep.records}; the verifier's cause: {json.dumps(rep.cause, sort_keys=True)}")
    print(f"  verification: {verdict}")
    print(f"  log:          {path}")
    print(f"  check it again: aar verify {path} --server-key '{run.vkey}' --json")
    return 0 if rep is not None and rep.cause and rep.cause.get("kind") == end else 1


def _play_moves(seats: dict, bot, clock: list[int]) -> None:
    """MOVES moves of the bot, each by the seat whose decision it is, a second apart on the demo's clock."""
    for _ in range(MOVES):
        for s in seats.values():
            lg = s.legal()
            if lg.commands:
                clock[0] += 1000
                s.submit(s.sign_command(lg.state_seq, bot(s.seat, list(lg.commands))))
                print(f"  {s.seat} plays (record {lg.state_seq})")
                break


def _end(c, gid: str, names, seats: dict, end: str, clock: list[int]) -> None:
    """The game ended the way asked (SPEC.md 8.1-8.2): a resignation out of turn, a draw offered and
    accepted, the decision's time run out, or no seat acting for the abandonment limit."""
    pending = c.state(gid).decision.seat
    other = next(s for s in names if s != pending)
    if end == "resign":
        print(f"  {other} resigns, out of turn ({pending} was to decide)")
        seats[other].resign()
    elif end == "agree":
        print(f"  {pending} offers a draw; {other} accepts it in the next record")
        seats[pending].offer(None)
        seats[other].accept()
    elif end == "timeout":
        clock[0] += DECISION_MS + 1
        print(f"  the clock moves on {DECISION_MS + 1} ms: {pending}'s decision time ran out")
    else:
        clock[0] += ABANDON_MS + 1
        print(f"  the clock moves on {ABANDON_MS + 1} ms: no seat acted for the abandonment limit")
