"""`aar league demo [--out DIR] [--seed N]` (also `aar demo --league`): a small Swiss league of bot
players end to end through an embedded `aar serve`: the league created, joined, paired, its games
created from their pairings and their results entered by the server's LeagueService, a dispute and
a ruling sent signed by their authors, all over real gRPC (clients/python/league.py); then the
ledger and bundles downloaded and verified as anyone would: `aar league verify`, and the league's
page.

Six players, three rounds: SOG, then GMV (two turns), then SOG. Round 2 has an agreed draw offered
right after the handshake, too early to count (the policy's `min_decisions`); round 3 a resignation
and a time-out the timed-out player contests with the envelope it kept: it withholds its
cosignature, disputes the result, the arbiter orders a replay, and the replayed game counts. The
timed-out player has the league server (a witness, SPEC.md 15.11) timestamp its answer before the
limit and files that timestamp with the envelope. The embedded server's clock (the games' and the
ledger's) is the demo's own, moved on so that the time-out and the result window pass at once."""
from __future__ import annotations

import json
import os
import sys
import threading
import time

PLAYERS = ("Anh", "Binh", "Chau", "Duc", "Hoa", "Lan")
TITLES = ({"game": "sog", "scenario": "mission"}, {"game": "gmv", "scenario": "1965"})
OPTIONS = {"gmv": {"turns": 2}}  # a short GMV game
DECISION_MS = 60_000
WINDOW_MS = 3_600_000


def register(lsub) -> None:
    d = lsub.add_parser("demo", help="a small Swiss league of bots over an embedded game server, its ledger "
                                     "verified and its page written")
    d.add_argument("--out", default="demo-out/league", help="where the ledger, bundles, page and store go")
    d.add_argument("--seed", type=int, default=1, help="the bots' seed")
    d.set_defaults(func=cmd_league_demo)


def cmd_league_demo(args) -> int:
    return run(args.out, args.seed)


def run(out: str, seed: int) -> int:
    from afteraction.client.client import Client, new_seat_key
    from afteraction.client.league import LeagueClient
    from afteraction.client.seat import Seat
    from afteraction.engine.bots import random_bot
    from afteraction.engine.league.entries import Author
    from afteraction.engine.league.fixed import ONE
    from afteraction.engine.league.ledger import verify_ledger
    from afteraction.service.server import start

    from .verify import summary
    from ..common import _jsonable

    bundles_dir = os.path.join(out, "bundles")
    os.makedirs(bundles_dir, exist_ok=True)
    clock = [time.time_ns() // 1_000_000]
    run_ = start("127.0.0.1:0", None, None, out, now=lambda: clock[0])
    target = f"127.0.0.1:{run_.port}"
    league_id = f"demo-{os.urandom(3).hex()}"
    arbiter = new_seat_key()
    organiser = new_seat_key()
    keys = {name: new_seat_key() for name in PLAYERS}
    print(f"league server: {target} (embedded aar serve: GameService and LeagueService; game key {run_.vkey})")

    def play_boards(games, ends=None):
        """Each board's seats play it (``ends``: board -> how it ends early), over real gRPC."""
        ends = ends or {}
        errors = []
        threads = []
        for g in games:
            if g.board in ends:
                continue
            for seat, name in zip(g.seats, (g.first, g.second)):
                s = Seat(Client(target), g.game_id, seat, keys[name], cosign=True)

                def go(s=s):
                    try:
                        s.play(random_bot(f"{seed}/{s.game_id}/{s.seat}"))
                    except BaseException as e:  # reported below
                        errors.append(e)
                    finally:
                        s.client.close()
                threads.append(threading.Thread(target=go, daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        for g in games:
            if g.board in ends:
                ends[g.board](g)

    def seats_of(g, cosign=True):
        out_ = {}
        for seat, name in zip(g.seats, (g.first, g.second)):
            out_[seat] = Seat(Client(target), g.game_id, seat, keys[name], cosign=cosign)
        return out_

    def handshake(seats):
        for step in ("commit", "reveal"):
            for s in seats.values():
                s.submit(s.sign_commit() if step == "commit" else s.sign_reveal())

    def show_round(r, c):
        title = c.games(league_id).rounds[r.round - 1].title
        print(f"\nround {r.round}: {title.game} {title.scenario}; "
              + "; ".join(f"board {g.board}: {g.first} - {g.second}" for g in r.games)
              + (f"; bye: {', '.join(r.byes)}" if r.byes else ""))

    def show_results(c, no):
        for g in c.games(league_id).games:
            if g.round == no:
                print(f"  board {g.board}: {g.first} - {g.second}: "
                      + (f"{g.winner} wins" if g.winner else "draw or no result") + f" ({g.cause}), game {g.game_id}"
                      + f", {g.status}")

    try:
        with LeagueClient(target) as c, Client(target) as gc:
            vkey = c.create_league(league_id, "Demo league", {
                "version": 1, "titles": list(TITLES), "pairing": "swiss", "rounds": 3,
                "points": {"win": [1, 1], "draw": [1, 2], "loss": [0, 1], "bye": [1, 1]},
                "endings": {"rules": "count", "resign": "count", "agree": "count", "timeout": "count",
                            "abandon": "void"},
                "min_decisions": {"rules": 0, "resign": 0, "agree": 3, "timeout": 0, "abandon": 0},
                "window": WINDOW_MS, "repeat_cap": 2,
                "rating": {"system": "glicko2", "r": 1500 * ONE, "rd": 350 * ONE, "sigma": 6 * ONE // 100,
                           "tau": ONE // 2, "epsilon": ONE // 10**6, "provisional": 110 * ONE},
                "arbiters": [Author(arbiter).public]}, organiser).vkey
            print(f"league {league_id}: created on the server; league key {vkey}")
            for name in PLAYERS:
                c.join(league_id, name, keys[name])
            print(f"policy 1 and {len(PLAYERS)} players registered, each signing its own entry")

            r = c.open_round(league_id, organiser, TITLES[0])
            show_round(r, c)
            play_boards(r.games)
            show_results(c, r.round)
            c.publish_standings(league_id, organiser)

            r = c.open_round(league_id, organiser, TITLES[1], options=OPTIONS["gmv"])
            show_round(r, c)
            last = len(r.games)

            def agree(g):
                seats = seats_of(g)
                handshake(seats)
                pending = gc.state(g.game_id).decision.seat
                other = next(s for s in g.seats if s != pending)
                seats[pending].offer(None)
                seats[other].accept()
                for s in seats.values():
                    s.catch_up()
                print(f"  board {g.board}: {dict(zip(g.seats, (g.first, g.second)))[pending]} offers a draw at once, "
                      "the other accepts")
            play_boards(r.games, {last: agree})
            show_results(c, r.round)
            c.publish_standings(league_id, organiser)

            # round 3: the games have a decision limit; the time-out board is played last
            r = c.open_round(league_id, organiser, TITLES[0], decision_ms=DECISION_MS)
            show_round(r, c)
            contested = {}

            def resign(g):
                seats = seats_of(g)
                handshake(seats)
                bot = random_bot(f"{seed}/{g.game_id}")
                for _ in range(2):  # two decisions first
                    s = seats[gc.state(g.game_id).decision.seat]
                    lg_ = s.legal()
                    s.submit(s.sign_command(lg_.state_seq, bot(s.seat, list(lg_.commands))))
                pending = gc.state(g.game_id).decision.seat
                other = next(s for s in g.seats if s != pending)
                seats[other].resign()
                for s in seats.values():
                    s.catch_up()
                print(f"  board {g.board}: {dict(zip(g.seats, (g.first, g.second)))[other]} resigns, out of turn")

            def timeout(g):
                seats = seats_of(g)
                handshake(seats)
                pending = gc.state(g.game_id).decision.seat
                name = dict(zip(g.seats, (g.first, g.second)))[pending]
                s = seats[pending]
                s.cosign = False   # it will contest the time-out: it withholds its cosignature
                lg_ = s.legal()
                kept = s.sign_command(lg_.state_seq, list(lg_.commands)[0])   # its answer, which arrives late
                at, sig = c.timestamp(league_id, g.game_id, kept, vkey)         # the league witnesses it in time
                print(f"  board {g.board}: {name} answers; the league server timestamps the envelope at {at} ms")
                clock[0] += DECISION_MS + 1
                print(f"  board {g.board}: {name}'s answer reaches the game server after its decision limit")
                gc.state(g.game_id)   # the server writes the time-out at the game's next use
                try:
                    s.submit(kept)
                except Exception as e:  # noqa: BLE001 - refused: the game is over
                    print(f"  the server refuses it: {str(e).splitlines()[0][:100]}")
                for x in seats.values():
                    x.catch_up()   # each seat verifies the end record and (unless contesting) cosigns
                contested.update(game=g, name=name, evidence=[kept, at.to_bytes(8, "big") + sig])
            ends = {1: resign, 2: timeout}
            play_boards([g for g in r.games if g.board != 2], ends)
            play_boards([g for g in r.games if g.board == 2], ends)
            show_results(c, r.round)
            g = contested["game"]
            d = c.dispute(league_id, g.game_id, "my answer was sent before the limit; the server held it "
                                                "(the league's timestamp is in the evidence)",
                          contested["evidence"], keys[contested["name"]]).entry
            print(f"  {contested['name']} disputes game {g.game_id} (entry {d.seq}), with the envelope it signed "
                  "and kept and the league's timestamp of it")
            ru = c.rule(league_id, g.game_id, "replay", "the league witnessed the answer before the limit: replay "
                        "the board", arbiter, d.seq).entry
            print(f"  the arbiter rules (entry {ru.seq}): replay round {r.round} board {g.board}")
            new = c.replay_board(league_id, r.round, g.board, organiser).game
            play_boards([new])
            show_results(c, r.round)
            clock[0] += WINDOW_MS
            c.publish_standings(league_id, organiser)
            # every player downloads the ledger and the bundles, verifies them, cosigns the last checkpoint
            ledger, bundles = c.download(league_id)
            verify_ledger(ledger, bundles, vkey)
            for name in PLAYERS:
                kept_note = c.cosign_ledger(league_id, name, keys[name], ledger, clock[0] // 1000)
            ledger, bundles = c.download(league_id)
    finally:
        run_.stop(2)
    kept = os.path.join(out, "kept.note")
    with open(kept, "w", encoding="utf-8") as f:
        f.write(kept_note)
    print(f"\nevery player verified the ledger and cosigned the league's last checkpoint; kept in {kept}")
    ledger_path = os.path.join(out, "league.aarl")
    with open(ledger_path, "wb") as f:
        f.write(ledger)
    for h, data in bundles.items():
        with open(os.path.join(bundles_dir, f"{h.hex()[:16]}.aar"), "wb") as f:
            f.write(data)
    rep = verify_ledger(ledger, bundles, vkey, kept_checkpoint=kept_note)
    d = dict(rep.as_dict(), pinned=True)
    print("\n" + summary(d))
    from .view import page

    html = os.path.join(out, "league.html")
    with open(html, "w", encoding="utf-8") as f:
        f.write(page(json.loads(json.dumps(rep.as_dict(), default=_jsonable)), ledger, rep.standings.history, {}))
    aar = sys.argv[0] if os.path.basename(sys.argv[0]) == "aar" else "aar"
    if os.path.isabs(aar):
        aar = os.path.relpath(aar)
    print(f"\n  ledger:   {ledger_path} ({rep.entries} entries); bundles in {bundles_dir}; page {html}")
    print(f"  check it: {aar} league verify {ledger_path} --bundles {bundles_dir} --league-key '{vkey}' "
          f"--checkpoint {kept}")
    return 0
