"""`aar demo`: an embedded server on the SQLite default, two bots playing a
complete game over real gRPC, the log exported and verified, a summary."""
from __future__ import annotations

import json
import os
import sys
import threading
import time


def default_game() -> tuple[str, str]:
    """sog once its ruleset is registered and loads; duel (with the reason) otherwise."""
    from afteraction.engine import registry
    from afteraction.engine.errors import Rejection

    try:
        registry.get("sog")
        return "sog", ""
    except Rejection as e:
        return "duel", f"sog is not available here ({e.message}); playing the toy ruleset duel"


def _turn_of(view) -> str:
    """ "turn N of M, " from a public view that names its turn and turn count (NTND), else ""."""
    if isinstance(view, dict) and isinstance(view.get("turn"), int) and isinstance(view.get("turns"), int):
        return f"turn {view['turn']} of {view['turns']}, "
    if isinstance(view, dict) and isinstance(view.get("turn"), int):
        return f"turn {view['turn']}, "
    return ""


def run_demo(game: str | None, seed: int, out: str, scenario: str | None = None) -> int:
    from afteraction.engine import registry
    from afteraction.engine.ruleset import Ruleset
    from afteraction.engine.seat import SeatSigner
    from afteraction.service.server import start

    from afteraction.client.client import Client, new_seat_key

    from afteraction.client.seat import Seat

    note = ""
    if game is None:
        game, note = default_game()
    rs0 = registry.get(game)  # an unknown game is a one-line Rejection before anything starts
    if scenario and scenario not in rs0.scenarios:
        print(f"aar demo: {game} has no scenario {scenario!r} (scenarios: {', '.join(rs0.scenarios)}; "
              f"aar scenarios {game})", file=sys.stderr)
        return 2
    if note:
        print(f"note: {note}")
    os.makedirs(out, exist_ok=True)
    run = start("127.0.0.1:0", None, None, out)
    target = f"127.0.0.1:{run.port}"
    print(f"server: {target} (embedded, SQLite store {os.path.join(out, 'afteraction.sqlite')})")
    print(f"server key: {run.vkey}")
    try:
        with Client(target) as c:
            rs = registry.get(game)
            keys = {s: new_seat_key() for s in rs.seats}
            res = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()}, scenario=scenario or "")
            gid = res.game_id
            bot_name = "random" if type(rs).demo_bot is Ruleset.demo_bot else f"{game}'s demo bot"
            print(f"game {gid}: {game} ({scenario or rs.scenarios[0]}), seats {', '.join(rs.seats)}; bots ({bot_name}) seeded "
                  f"with {seed}")
            seats = [Seat(Client(target), gid, s, keys[s]) for s in rs.seats]
            commands, errors, took = _play_bots(c, rs, gid, seats, seed)
            if errors:
                print(f"demo failed: a bot stopped: {errors[0]}", file=sys.stderr)
                return 1
            outcome = seats[0].outcome
            opened_privately = sum(len(s.openings) for s in seats)
            for s in seats:
                s.client.close()
            data, path, rep, verdict = _export_and_verify(c, gid, game, out)
    finally:
        run.stop(2)
    print(f"\n== {game} game {gid}: finished in {took:.1f} s over gRPC ==")
    print(f"  outcome:        {json.dumps(outcome, sort_keys=True, default=str)}")
    _print_verified(game, rep, commands, opened_privately, verdict, data)
    print(f"  log:            {path}")
    print(f"  store:          {os.path.join(out, 'afteraction.sqlite')} (server key {os.path.join(out, 'server.key')})")
    aar = sys.argv[0] if os.path.basename(sys.argv[0]) == "aar" else "aar"  # e.g. .venv/bin/aar from make demo
    if os.path.isabs(aar):
        aar = os.path.relpath(aar)
    print(f"  check it again: {aar} verify {path} --server-key '{run.vkey}' --require-cosigned")
    return 0 if rep is not None else 1


def _play_bots(c, rs, gid: str, seats: list, seed: int) -> tuple[int, list[BaseException], float]:
    """Each seat played by its bot in a thread of its own, a progress line meanwhile: (commands
    accepted, the errors that stopped a bot, seconds taken)."""
    from afteraction.engine.crypto import canon

    errors: list[BaseException] = []
    commands = [0]

    def make_bot(seat):
        # A bot is a player: it sees its own seat's view, fetched over the wire.
        return rs.demo_bot(f"{seed}/{seat.seat}", lambda _s: canon.decode(seat.state().view))

    def count(s, m):
        if m.WhichOneof("kind") == "accepted":
            commands[0] += 1

    def play(seat) -> None:
        try:
            seat.play(make_bot(seat), count)
        except BaseException as e:  # reported by run_demo
            errors.append(e)

    threads = [threading.Thread(target=play, args=(s,), daemon=True) for s in seats]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    turn, last_look = "", 0.0
    while any(t.is_alive() for t in threads) and not errors:
        time.sleep(0.25)
        if time.monotonic() - last_look > 1.0:   # the public view says the turn (no seat's secrets)
            last_look = time.monotonic()
            turn = _turn_of(canon.decode(c.state(gid).view))
        print(f"\rplaying: {turn}{commands[0]} commands, log at record "
              f"{max(s.next_seq for s in seats)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return commands[0], errors, time.monotonic() - t0


def _export_and_verify(c, gid: str, game: str, out: str):
    """The game's log exported into ``out`` and verified by the server's verifier: (bundle bytes,
    its path, the report or None, the verdict in words)."""
    from afteraction.engine.errors import VerificationError

    data = c.export(gid)
    path = os.path.join(out, f"{game}-{gid}.aar")
    with open(path, "wb") as f:
        f.write(data)

    def progress(done, total):
        if total >= 2000 and (done % 1000 == 0 or done == total):
            print(f"\rverifying: {done}/{total} records", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)
    try:
        rep = c.verify(data, progress)
        verdict = "VERIFIED (signatures, chain, checkpoints, dice, sealed values; replayed byte for byte)" \
            if rep.replayed else "VERIFIED (not replayed: " + "; ".join(rep.notes) + ")"
    except VerificationError as e:
        rep, verdict = None, f"NOT VERIFIED: {e}"
    return data, path, rep, verdict


def _print_verified(game: str, rep, commands: int, opened_privately: int, verdict: str, data: bytes) -> None:
    """The summary's counts from the verifier's report, its verdict, and (NTND) the game from its public log."""
    if rep is not None:
        print(f"  records:        {rep.records} ({commands} signed commands)")
        print(f"  dice rolled:    {rep.rolls}")
        print(f"  hidden values:  {rep.sealed} sealed in the log, {opened_privately} opened privately to their owners, "
              f"{rep.opened} revealed during play")
        print(f"  cosigned by:    {', '.join(rep.cosigned) or 'no seat'} (the final checkpoint, SPEC.md 4.5)")
    print(f"  verification:   {verdict}")
    if game == "ntnd" and rep is not None:   # what happened, from the public log only
        from .campaign_summary import summary_lines

        print("  -- the game, from its public log --")
        for line in summary_lines(data):
            print(f"  {line}")
