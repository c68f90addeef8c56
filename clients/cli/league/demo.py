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
    from afteraction.client.client import Client
    from afteraction.client.league import LeagueClient
    from afteraction.service.server import start

    bundles_dir = os.path.join(out, "bundles")
    os.makedirs(bundles_dir, exist_ok=True)
    clock = [time.time_ns() // 1_000_000]
    run_ = start("127.0.0.1:0", None, None, out, now=lambda: clock[0])
    demo = _LeagueDemo(f"127.0.0.1:{run_.port}", seed, clock)
    print(f"league server: {demo.target} (embedded aar serve: GameService and LeagueService; game key {run_.vkey})")
    try:
        with LeagueClient(demo.target) as c, Client(demo.target) as gc:
            demo.c, demo.gc = c, gc
            demo.create()
            demo.round_1()
            demo.round_2()
            demo.round_3()
            kept_note, ledger, bundles = demo.cosign()
    finally:
        run_.stop(2)
    return _write_and_verify(out, bundles_dir, demo.vkey, kept_note, ledger, bundles)


class _LeagueDemo:
    """The demo's league, over one embedded server: its keys (arbiter, organiser, players), the
    league and game clients (``c``, ``gc``, set once connected), and its rounds, each a method."""

    def __init__(self, target: str, seed: int, clock: list[int]) -> None:
        from afteraction.client.client import new_seat_key

        self.target, self.seed, self.clock = target, seed, clock
        self.league_id = f"demo-{os.urandom(3).hex()}"
        self.arbiter = new_seat_key()
        self.organiser = new_seat_key()
        self.keys = {name: new_seat_key() for name in PLAYERS}
        self.c = self.gc = None
        self.vkey = ""

    # -- the players -------------------------------------------------------------------------
    def play_boards(self, games, ends=None) -> None:
        """Each board's seats play it (``ends``: board -> how it ends early), over real gRPC."""
        from afteraction.client.client import Client
        from afteraction.client.seat import Seat
        from afteraction.engine.bots import random_bot

        ends = ends or {}
        errors = []
        threads = []
        for g in games:
            if g.board in ends:
                continue
            for seat, name in zip(g.seats, (g.first, g.second)):
                s = Seat(Client(self.target), g.game_id, seat, self.keys[name], cosign=True)

                def go(s=s):
                    try:
                        s.play(random_bot(f"{self.seed}/{s.game_id}/{s.seat}"))
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

    def seats_of(self, g, cosign=True) -> dict:
        from afteraction.client.client import Client
        from afteraction.client.seat import Seat

        return {seat: Seat(Client(self.target), g.game_id, seat, self.keys[name], cosign=cosign)
                for seat, name in zip(g.seats, (g.first, g.second))}

    @staticmethod
    def handshake(seats) -> None:
        for step in ("commit", "reveal"):
            for s in seats.values():
                s.submit(s.sign_commit() if step == "commit" else s.sign_reveal())

    def show_round(self, r) -> None:
        title = self.c.games(self.league_id).rounds[r.round - 1].title
        print(f"\nround {r.round}: {title.game} {title.scenario}; "
              + "; ".join(f"board {g.board}: {g.first} - {g.second}" for g in r.games)
              + (f"; bye: {', '.join(r.byes)}" if r.byes else ""))

    def show_results(self, no) -> None:
        for g in self.c.games(self.league_id).games:
            if g.round == no:
                print(f"  board {g.board}: {g.first} - {g.second}: "
                      + (f"{g.winner} wins" if g.winner else "draw or no result") + f" ({g.cause}), game {g.game_id}"
                      + f", {g.status}")

    # -- the league and its rounds ---------------------------------------------------------
    def create(self) -> None:
        """The league created by its organiser (its policy), and every player joined."""
        from afteraction.engine.league.entries import Author
        from afteraction.engine.league.fixed import ONE

        c = self.c
        self.vkey = c.create_league(self.league_id, "Demo league", {
            "version": 1, "titles": list(TITLES), "pairing": "swiss", "rounds": 3,
            "points": {"win": [1, 1], "draw": [1, 2], "loss": [0, 1], "bye": [1, 1]},
            "endings": {"rules": "count", "resign": "count", "agree": "count", "timeout": "count",
                        "abandon": "void"},
            "min_decisions": {"rules": 0, "resign": 0, "agree": 3, "timeout": 0, "abandon": 0},
            "window": WINDOW_MS, "repeat_cap": 2,
            "rating": {"system": "glicko2", "r": 1500 * ONE, "rd": 350 * ONE, "sigma": 6 * ONE // 100,
                       "tau": ONE // 2, "epsilon": ONE // 10**6, "provisional": 110 * ONE},
            "arbiters": [Author(self.arbiter).public]}, self.organiser).vkey
        print(f"league {self.league_id}: created on the server; league key {self.vkey}")
        for name in PLAYERS:
            c.join(self.league_id, name, self.keys[name])
        print(f"policy 1 and {len(PLAYERS)} players registered, each signing its own entry")

    def round_1(self) -> None:
        r = self.c.open_round(self.league_id, self.organiser, TITLES[0])
        self.show_round(r)
        self.play_boards(r.games)
        self.show_results(r.round)
        self.c.publish_standings(self.league_id, self.organiser)

    def round_2(self) -> None:
        """GMV; the last board an agreed draw at once, too early to count."""
        r = self.c.open_round(self.league_id, self.organiser, TITLES[1], options=OPTIONS["gmv"])
        self.show_round(r)
        self.play_boards(r.games, {len(r.games): self.agree})
        self.show_results(r.round)
        self.c.publish_standings(self.league_id, self.organiser)

    def agree(self, g) -> None:
        seats = self.seats_of(g)
        self.handshake(seats)
        pending = self.gc.state(g.game_id).decision.seat
        other = next(s for s in g.seats if s != pending)
        seats[pending].offer(None)
        seats[other].accept()
        for s in seats.values():
            s.catch_up()
        print(f"  board {g.board}: {dict(zip(g.seats, (g.first, g.second)))[pending]} offers a draw at once, "
              "the other accepts")

    def round_3(self) -> None:
        """The games have a decision limit: board 1 resigned, board 2 timed out (played last), contested,
        ruled to be replayed, and replayed."""
        c = self.c
        r = c.open_round(self.league_id, self.organiser, TITLES[0], decision_ms=DECISION_MS)
        self.show_round(r)
        contested = {}
        ends = {1: self.resign, 2: lambda g: contested.update(self.timeout(g))}
        self.play_boards([g for g in r.games if g.board != 2], ends)
        self.play_boards([g for g in r.games if g.board == 2], ends)
        self.show_results(r.round)
        g = contested["game"]
        d = c.dispute(self.league_id, g.game_id, "my answer was sent before the limit; the server held it "
                                                 "(the league's timestamp is in the evidence)",
                      contested["evidence"], self.keys[contested["name"]]).entry
        print(f"  {contested['name']} disputes game {g.game_id} (entry {d.seq}), with the envelope it signed "
              "and kept and the league's timestamp of it")
        ru = c.rule(self.league_id, g.game_id, "replay", "the league witnessed the answer before the limit: replay "
                    "the board", self.arbiter, d.seq).entry
        print(f"  the arbiter rules (entry {ru.seq}): replay round {r.round} board {g.board}")
        new = c.replay_board(self.league_id, r.round, g.board, self.organiser).game
        self.play_boards([new])
        self.show_results(r.round)

    def resign(self, g) -> None:
        from afteraction.engine.bots import random_bot

        seats = self.seats_of(g)
        self.handshake(seats)
        bot = random_bot(f"{self.seed}/{g.game_id}")
        for _ in range(2):  # two decisions first
            s = seats[self.gc.state(g.game_id).decision.seat]
            lg_ = s.legal()
            s.submit(s.sign_command(lg_.state_seq, bot(s.seat, list(lg_.commands))))
        pending = self.gc.state(g.game_id).decision.seat
        other = next(s for s in g.seats if s != pending)
        seats[other].resign()
        for s in seats.values():
            s.catch_up()
        print(f"  board {g.board}: {dict(zip(g.seats, (g.first, g.second)))[other]} resigns, out of turn")

    def timeout(self, g) -> dict:
        """The seat to decide answers in time, as the league witnesses, but its answer reaches the game
        server late: the game, the player, and the evidence it keeps to contest the time-out."""
        seats = self.seats_of(g)
        self.handshake(seats)
        pending = self.gc.state(g.game_id).decision.seat
        name = dict(zip(g.seats, (g.first, g.second)))[pending]
        s = seats[pending]
        s.cosign = False   # it will contest the time-out: it withholds its cosignature
        lg_ = s.legal()
        kept = s.sign_command(lg_.state_seq, list(lg_.commands)[0])   # its answer, which arrives late
        at, sig = self.c.timestamp(self.league_id, g.game_id, kept, self.vkey)   # the league witnesses it in time
        print(f"  board {g.board}: {name} answers; the league server timestamps the envelope at {at} ms")
        self.clock[0] += DECISION_MS + 1
        print(f"  board {g.board}: {name}'s answer reaches the game server after its decision limit")
        self.gc.state(g.game_id)   # the server writes the time-out at the game's next use
        try:
            s.submit(kept)
        except Exception as e:  # noqa: BLE001 - refused: the game is over
            print(f"  the server refuses it: {str(e).splitlines()[0][:100]}")
        for x in seats.values():
            x.catch_up()   # each seat verifies the end record and (unless contesting) cosigns
        return {"game": g, "name": name, "evidence": [kept, at.to_bytes(8, "big") + sig]}

    def cosign(self) -> tuple[str, bytes, dict]:
        """The result window passed, the standings published; every player downloads the ledger and the
        bundles, verifies them and cosigns the last checkpoint: (a player's kept note, ledger, bundles)."""
        from afteraction.engine.league.ledger import verify_ledger

        c = self.c
        self.clock[0] += WINDOW_MS
        c.publish_standings(self.league_id, self.organiser)
        ledger, bundles = c.download(self.league_id)
        verify_ledger(ledger, bundles, self.vkey)
        for name in PLAYERS:
            kept_note = c.cosign_ledger(self.league_id, name, self.keys[name], ledger, self.clock[0] // 1000)
        ledger, bundles = c.download(self.league_id)
        return kept_note, ledger, bundles


def _write_and_verify(out: str, bundles_dir: str, vkey: str, kept_note: str, ledger: bytes, bundles: dict) -> int:
    """The kept note, the ledger and the bundles written into ``out``, verified as `aar league verify`
    does, and the league's page."""
    from afteraction.engine.league.ledger import verify_ledger

    from .verify import summary
    from ..common import _jsonable

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
