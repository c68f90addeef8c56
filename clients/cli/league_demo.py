"""`aar league demo [--out DIR] [--seed N]`: a small Swiss league of bot players end to end, its
games over real gRPC (an embedded game server), its ledger written by the organiser's side here
(engine/league/ledger.py's LedgerWriter: there is no LeagueService yet), then verified as anyone
would: `aar league verify` on the ledger and the exported bundles, and the league's page.

Six players, three rounds: SOG, then GMV (two turns), then SOG. Round 2 has an agreed draw offered
right after the handshake, too early to count (the policy's `min_decisions`); round 3 a resignation
and a time-out the timed-out player contests with the envelope it kept: it withholds its
cosignature, disputes the result, the arbiter orders a replay, and the replayed game counts. The
embedded server's clock and the ledger's are the demo's own, moved on so that the time-out and the
result window pass at once."""
from __future__ import annotations

import io
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
    from afteraction.client.seat import Seat
    from afteraction.engine import registry
    from afteraction.engine.bots import random_bot
    from afteraction.engine.crypto.note import Signer
    from afteraction.engine.league.entries import Author, bundle_hash, seed_commitment
    from afteraction.engine.league.fixed import ONE
    from afteraction.engine.crypto import cosign as _cosign
    from afteraction.engine.crypto import note as _note
    from afteraction.engine.league.ledger import LedgerWriter, cosigner, verify_ledger
    from afteraction.engine.league.standings import published
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.protocol import parse_record
    from afteraction.engine.seat import SeatSigner
    from afteraction.service.server import start
    from afteraction.v1 import game_service_pb2 as gs

    from .league import summary
    from .main import _jsonable

    bundles_dir = os.path.join(out, "bundles")
    os.makedirs(bundles_dir, exist_ok=True)
    clock = [time.time_ns() // 1_000_000]
    run_ = start("127.0.0.1:0", None, None, out, now=lambda: clock[0])
    target = f"127.0.0.1:{run_.port}"
    league_id = f"demo-{os.urandom(3).hex()}"
    key = Signer("league.demo", new_seat_key())
    bundles: dict[bytes, bytes] = {}
    w = LedgerWriter(league_id, key, bundles=bundles)
    seeds = [new_seat_key() for _ in range(5)]
    arbiter = Author(new_seat_key())

    def tick(ms: int = 1000) -> int:
        clock[0] += ms
        return clock[0]

    def append(kind, body, author=None):
        return w.append(kind, body, tick(), author)

    print(f"game server: {target} (embedded; key {run_.vkey})")
    print(f"league {league_id}: key {w.vkey}")
    w.genesis("Demo league", seed_commitment(league_id, 1, seeds[0]), tick())
    append("policy", {
        "version": 1, "titles": list(TITLES), "pairing": "swiss", "rounds": 3,
        "points": {"win": [1, 1], "draw": [1, 2], "loss": [0, 1], "bye": [1, 1]},
        "endings": {"rules": "count", "resign": "count", "agree": "count", "timeout": "count", "abandon": "void"},
        "min_decisions": {"rules": 0, "resign": 0, "agree": 3, "timeout": 0, "abandon": 0},
        "window": WINDOW_MS, "repeat_cap": 2,
        "rating": {"system": "glicko2", "r": 1500 * ONE, "rd": 350 * ONE, "sigma": 6 * ONE // 100,
                   "tau": ONE // 2, "epsilon": ONE // 10**6, "provisional": 110 * ONE},
        "arbiters": [arbiter.public]})
    keys = {}
    for name in PLAYERS:
        keys[name] = new_seat_key()
        a = Author(keys[name])
        append("player", {"name": name, "key": a.public}, a)
    print(f"policy 1 and {len(PLAYERS)} players registered, each signing its own entry")

    def new_round(title):
        no = len(w.state.rounds) + 1
        pairs, byes = w.state.pairing(no, seeds[no - 1])
        append("round", {"round": no, "title": title, "seed": seeds[no - 1],
                         "next": seed_commitment(league_id, no + 1, seeds[no]),
                         "pairings": [list(p) for p in pairs], "byes": byes})
        print(f"\nround {no}: {title['game']} {title['scenario']}; "
              + "; ".join(f"board {b}: {p[0]} - {p[1]}" for b, p in enumerate(pairs, 1))
              + (f"; bye: {', '.join(byes)}" if byes else ""))
        return no, pairs

    def game(c, no, board, pair, end=None, game_id_note=""):
        """Create the pairing's game on the server, play it, export it, append game and result."""
        title = w.state.rounds[no - 1].title
        rs = registry.get(title["game"])
        seat_of = {rs.seats[0]: pair[0], rs.seats[1]: pair[1]}
        match = gs.MatchInfo(label=f"{league_id} round {no} board {board}", players=seat_of)
        clk = {"decision_ms": DECISION_MS} if end == "timeout" else None
        gid = c.create_game(title["game"], {s: SeatSigner(s, keys[p]).public for s, p in seat_of.items()},
                            scenario=title["scenario"], options=OPTIONS.get(title["game"]), match=match,
                            clock=clk).game_id
        seats = {s: Seat(Client(target), gid, s, keys[p], cosign=True) for s, p in seat_of.items()}
        kept = None
        if end is None:
            errors = []

            def play(seat):
                try:
                    seat.play(random_bot(f"{seed}/{gid}/{seat.seat}"))
                except BaseException as e:  # reported below
                    errors.append(e)
            threads = [threading.Thread(target=play, args=(s,), daemon=True) for s in seats.values()]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if errors:
                raise errors[0]
        else:
            for step in ("commit", "reveal"):
                for s in seats.values():
                    s.submit(s.sign_commit() if step == "commit" else s.sign_reveal())
            pending = c.state(gid).decision.seat
            other = next(s for s in rs.seats if s != pending)
            if end == "resign":
                bot = random_bot(f"{seed}/{gid}")
                for _ in range(2):  # two decisions first
                    s = seats[c.state(gid).decision.seat]
                    lg = s.legal()
                    s.submit(s.sign_command(lg.state_seq, bot(s.seat, list(lg.commands))))
                pending = c.state(gid).decision.seat
                other = next(s for s in rs.seats if s != pending)
                seats[other].resign()
                print(f"  board {board}: {seat_of[other]} resigns, out of turn")
            elif end == "agree":
                seats[pending].offer(None)
                seats[other].accept()
                print(f"  board {board}: {seat_of[pending]} offers a draw at once, {seat_of[other]} accepts")
            elif end == "timeout":
                s = seats[pending]
                s.cosign = False   # it will contest the time-out: it withholds its cosignature
                lg = s.legal()
                kept = s.sign_command(lg.state_seq, list(lg.commands)[0])   # its answer, which arrives late
                clock[0] += DECISION_MS + 1
                print(f"  board {board}: {seat_of[pending]}'s answer reaches the server after its decision limit")
                c.state(gid)   # the server writes the time-out at the game's next use
                try:
                    s.submit(kept)
                except Exception as e:  # noqa: BLE001 - refused: the game is over
                    print(f"  the server refuses it: {str(e).splitlines()[0][:100]}")
            for s in seats.values():
                s.catch_up()   # each seat verifies the end record and (unless contesting) cosigns
        data = c.export(gid)
        with open(os.path.join(bundles_dir, f"{gid}.aar"), "wb") as f:
            f.write(data)
        h = bundle_hash(data)
        bundles[h] = data
        _, frames = read_bundle(io.BytesIO(data))
        items = list(frames)
        gen = parse_record(items[0][0])
        end_rec = parse_record(items[-1][0])
        append("game", {"round": no, "board": board, "game": gid, "server": run_.vkey, "genesis": gen.hash})
        winner_seat = end_rec.body["outcome"].get("winner")
        cause = end_rec.body.get("cause", {"kind": "rules"})["kind"]
        winner = None if winner_seat is None else seat_of[winner_seat]
        res = append("result", {"game": gid, "bundle": h, "checkpoint": items[-1][1], "winner": winner,
                                "cause": cause})
        for s in seats.values():
            s.client.close()
        print(f"  board {board}: {pair[0]} - {pair[1]}: "
              + (f"{winner} wins" if winner else "draw or no result") + f" ({cause}), game {gid}{game_id_note}")
        return gid, seat_of, kept, res

    try:
        with Client(target) as c:
            no, pairs = new_round(TITLES[0])
            for b, p in enumerate(pairs, 1):
                game(c, no, b, p)
            append("standings", published(w.state, clock[0] + 1000))
            no, pairs = new_round(TITLES[1])
            for b, p in enumerate(pairs, 1):
                game(c, no, b, p, end="agree" if b == len(pairs) else None)
            append("standings", published(w.state, clock[0] + 1000))
            no, pairs = new_round(TITLES[0])
            contested = None
            for b, p in enumerate(pairs, 1):
                end = {1: "resign", 2: "timeout"}.get(b)
                gid, seat_of, kept, _ = game(c, no, b, p, end=end)
                if end == "timeout":
                    contested = (b, p, gid, seat_of, kept)
            b, p, gid, seat_of, kept = contested
            loser = next(n for n in p if w.state.live_result(gid).body["winner"] != n)
            d = append("dispute", {"game": gid, "claim": "my answer was sent before the limit; the server held it",
                                   "evidence": [kept]}, Author(keys[loser]))
            print(f"  {loser} disputes game {gid} (entry {d.seq}), with the envelope it signed and kept")
            r = append("ruling", {"game": gid, "decision": "replay", "reason": "the kept envelope is signed at "
                                  "the position of the end record: replay the board", "dispute": d.seq}, arbiter)
            print(f"  the arbiter rules (entry {r.seq}): replay round {no} board {b}")
            game(c, no, b, p, game_id_note=" (the replay)")
            tick(WINDOW_MS)
            append("standings", published(w.state, clock[0] + 1000))
    finally:
        run_.stop(2)
    # every player verifies the ledger as it stands and cosigns its last checkpoint (SPEC.md 15.2)
    last = len(w.entries) - 1
    text = _note.split_note(w.checkpoints[last])[0]
    for name in PLAYERS:
        p = w.state.players[name]
        w.add_cosignature(last, _cosign.cosign(text, w.origin, cosigner(p), keys[name], clock[0] // 1000))
    kept = os.path.join(out, "kept.note")
    with open(kept, "w", encoding="utf-8") as f:
        f.write(w.checkpoints[last])
    print(f"\nevery player cosigned the league's checkpoint after entry {last}; kept in {kept}")
    ledger = os.path.join(out, "league.aarl")
    with open(ledger, "wb") as f:
        f.write(w.ledger())
    with open(kept, encoding="utf-8") as f:
        rep = verify_ledger(w.ledger(), bundles, w.vkey, kept_checkpoint=f.read())
    d = dict(rep.as_dict(), pinned=True)
    print("\n" + summary(d))
    from .league_view import page

    html = os.path.join(out, "league.html")
    with open(html, "w", encoding="utf-8") as f:
        f.write(page(json.loads(json.dumps(rep.as_dict(), default=_jsonable)), w.ledger(), rep.standings.history, {}))
    aar = sys.argv[0] if os.path.basename(sys.argv[0]) == "aar" else "aar"
    if os.path.isabs(aar):
        aar = os.path.relpath(aar)
    print(f"\n  ledger:   {ledger} ({len(w.entries)} entries); bundles in {bundles_dir}; page {html}")
    print(f"  check it: {aar} league verify {ledger} --bundles {bundles_dir} --league-key '{w.vkey}' "
          f"--checkpoint {kept}")
    return 0
