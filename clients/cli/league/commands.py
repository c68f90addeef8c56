"""`aar league new | join | pair | games | standings | dispute | rule | cosign | export`: a league kept by a
server's LeagueService (docs/league.md "A league server"), through the reference client
(clients/python/league.py). Each takes `--server ADDR`. What a player or an arbiter authors is
signed here with their key file (`--key`, a seat key of `aar keygen`); the server only appends it.
A refusal prints the server's reason (engine/codes.py) and exits 2."""
from __future__ import annotations

import json
import os

from ..commands import DEFAULT_SERVER
from ..common import _jsonable

# the policy `aar league new` writes when no --policy file is given (every constant is in the ledger)
DEFAULT_POLICY = {
    "version": 1,
    "titles": [{"game": "duel", "scenario": "standard"}],
    "pairing": "swiss",
    "rounds": 5,
    "points": {"win": [1, 1], "draw": [1, 2], "loss": [0, 1], "bye": [1, 1]},
    "endings": {"rules": "count", "resign": "count", "agree": "count", "timeout": "count", "abandon": "void"},
    "min_decisions": {"rules": 0, "resign": 0, "agree": 3, "timeout": 0, "abandon": 0},
    "window": 24 * 3600 * 1000,
    "repeat_cap": 2,
    "rating": {"system": "glicko2", "r": 1500 * 10**15, "rd": 350 * 10**15, "sigma": 6 * 10**13,
               "tau": 5 * 10**14, "epsilon": 10**9, "provisional": 110 * 10**15},
    "arbiters": [],
}


def _client(args):
    from afteraction.client.league import LeagueClient

    return LeagueClient(args.server, tls_ca=getattr(args, "tls_ca", None))


def _common(p, league: bool = True) -> None:
    if league:
        p.add_argument("league", help="the league id")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"the league's server (default {DEFAULT_SERVER})")
    p.add_argument("--tls-ca", help="PEM CA certificate(s): connect with TLS and trust these")


def _title(v: str) -> dict:
    game, _, scenario = v.partition(":")
    if not game or not scenario:
        raise ValueError(f"a title is GAME:SCENARIO (e.g. sog:mission), not {v!r}")
    return {"game": game, "scenario": scenario}


def register(lsub) -> None:
    """The league's subcommands on a server, in the order `aar league --help` lists them."""
    _register_members(lsub)
    _register_rounds(lsub)
    _register_results(lsub)


def _register_members(lsub) -> None:
    """`new` (the organiser's league) and `join` (a player)."""
    p = lsub.add_parser("new", help="create a league on a server (its genesis and policy, signed by the server's "
                                    "league key)")
    _common(p)
    p.add_argument("--key", required=True, help="the organiser's key file (aar keygen): it signs the organiser's "
                                                "calls (pair, standings --publish)")
    p.add_argument("--name", help="the league's name (default: its id)")
    p.add_argument("--policy", metavar="FILE", help="the policy as JSON (SPEC.md 15.3; arbiters as hex public "
                                                    "keys); default: a Swiss duel league, below")
    p.add_argument("--title", action="append", type=_title, metavar="GAME:SCENARIO", help="a title (repeat)")
    p.add_argument("--pairing", choices=("swiss", "round-robin"))
    p.add_argument("--rounds", type=int)
    p.add_argument("--window-ms", type=int, help="after this long an uncosigned result counts")
    p.add_argument("--arbiter", action="append", metavar="KEY", default=[],
                   help="an arbiter's public key (64 hex digits) or seat key file (repeat)")
    p.set_defaults(func=cmd_new)

    p = lsub.add_parser("join", help="register as a player: your name and seat key, signed by that key")
    _common(p)
    p.add_argument("name", help="your player name (1-64 printable characters)")
    p.add_argument("--key", required=True, help="your seat key file (aar keygen): you sign your games with it")
    p.set_defaults(func=cmd_join)


def _register_rounds(lsub) -> None:
    """`pair`, `games` and `standings`: the rounds and what they gave."""
    p = lsub.add_parser("pair", help="open the next round: pairings from the ledger and the committed seed, one "
                                     "game per board created on the server")
    _common(p)
    p.add_argument("--key", required=True, help="the organiser's key file (the one given to `aar league new`)")
    p.add_argument("--title", type=_title, metavar="GAME:SCENARIO", help="the round's title (default the policy's first)")
    p.add_argument("--options", help="the games' ruleset options as a JSON object")
    p.add_argument("--decision-ms", type=int, default=0, help="the games' decision time limit (ms)")
    p.add_argument("--replay", metavar="ROUND:BOARD", help="instead: a new game for a board the arbiter ordered "
                                                            "replayed")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_pair)

    p = lsub.add_parser("games", help="every round, pairing and game with its status")
    _common(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_games)

    p = lsub.add_parser("standings", help="the standings and ratings, recomputed from the ledger by the server")
    _common(p)
    p.add_argument("--publish", action="store_true", help="also append them to the ledger (a standings entry; "
                                                           "with the organiser's --key)")
    p.add_argument("--key", help="the organiser's key file, for --publish")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_standings)


def _register_results(lsub) -> None:
    """`dispute`, `rule`, `cosign` and `export`: a result contested and ruled on, the ledger kept and taken."""
    p = lsub.add_parser("dispute", help="dispute a game's result, signed by your key, with evidence")
    _common(p)
    p.add_argument("game", help="the game id")
    p.add_argument("--key", required=True, help="your seat key file (you are one of the game's players)")
    p.add_argument("--claim", required=True, help="what you claim (1-4096 characters)")
    p.add_argument("--evidence", action="append", default=[], metavar="FILE",
                   help="a file of evidence: a kept envelope (.refused-N), a kept checkpoint, a fork proof (repeat)")
    p.set_defaults(func=cmd_dispute)

    p = lsub.add_parser("rule", help="rule on a game as an arbiter of the policy, signed by your key")
    _common(p)
    p.add_argument("game", help="the game id")
    p.add_argument("--key", required=True, help="your arbiter key file (its public key is in the policy)")
    p.add_argument("--decision", required=True, choices=("uphold", "annul", "replay"))
    p.add_argument("--reason", required=True, help="why (1-4096 characters)")
    p.add_argument("--dispute", type=int, help="the seq of the dispute entry this answers")
    p.set_defaults(func=cmd_rule)

    p = lsub.add_parser("cosign", help="as a player: download the ledger and its bundles, verify them, cosign the "
                                       "league's last checkpoint and keep it")
    _common(p)
    p.add_argument("name", help="your registered player name")
    p.add_argument("--key", required=True, help="your seat key file (the key you registered)")
    p.add_argument("--league-key", metavar="KEY|FILE", help="the league key to pin (default: the one the server "
                                                            "names, which you should compare out of band)")
    p.add_argument("--checkpoint", metavar="FILE", help="a checkpoint you kept before: the ledger must hold it")
    p.add_argument("-o", "--out", metavar="FILE", help="where to keep the cosigned checkpoint (default "
                                                       "LEAGUE.NAME.note)")
    p.set_defaults(func=cmd_cosign)

    p = lsub.add_parser("export", help="download the ledger and its games' bundles; prints the `aar league verify` "
                                       "command")
    _common(p)
    p.add_argument("-o", "--out", default=".", help="folder for LEAGUE.aarl and bundles/ (default .)")
    p.set_defaults(func=cmd_export)


def cmd_new(args) -> int:
    from ..keys import read_seat_seed, seat_public_arg

    organiser = read_seat_seed(args.key, "--key")
    if args.policy:
        with open(args.policy, encoding="utf-8") as f:
            policy = json.load(f)
        if not isinstance(policy, dict):
            raise ValueError("the policy file holds a JSON object")
        policy["arbiters"] = [bytes.fromhex(a) for a in policy.get("arbiters", [])]
    else:
        policy = json.loads(json.dumps(DEFAULT_POLICY))
    for k, v in (("titles", args.title), ("pairing", args.pairing), ("rounds", args.rounds),
                 ("window", args.window_ms)):
        if v is not None:
            policy[k] = v
    policy["arbiters"] = list(policy.get("arbiters", [])) + [seat_public_arg(a, "--arbiter") for a in args.arbiter]
    with _client(args) as c:
        r = c.create_league(args.league, args.name or args.league, policy, organiser)
    print(f"league {args.league}: created; league key {r.vkey}")
    print(f"  players join with: aar league join {args.league} NAME --key SEAT.key --server {args.server}")
    print(f"  then pair rounds with: aar league pair {args.league} --key {args.key} --server {args.server}")
    return 0


def cmd_join(args) -> int:
    from ..keys import read_seat_seed

    seed = read_seat_seed(args.key, "--key")
    with _client(args) as c:
        r = c.join(args.league, args.name, seed)
    print(f"{args.name} registered in league {args.league} (entry {r.entry.seq})")
    return 0


def _board_line(g) -> str:
    res = ""
    if g.cause:
        res = f"  {g.winner + ' wins' if g.winner else 'no winner'} ({g.cause})"
    return (f"  round {g.round} board {g.board}: {g.first} ({g.seats[0]}) - {g.second} ({g.seats[1]})  "
            f"game {g.game_id or '-'}  {g.status}{res}")


def _game_dict(g) -> dict:
    return {"round": g.round, "board": g.board, "first": g.first, "second": g.second, "seats": list(g.seats),
            "game": g.game_id, "status": g.status, "winner": g.winner or None, "cause": g.cause or None}


def cmd_pair(args) -> int:
    from ..keys import read_seat_seed

    organiser = read_seat_seed(args.key, "--key")
    options = json.loads(args.options) if args.options else None
    with _client(args) as c:
        if args.replay:
            rnd, _, board = args.replay.partition(":")
            g = c.replay_board(args.league, int(rnd), int(board), organiser, options, args.decision_ms).game
            games, byes, no = [g], [], g.round
        else:
            r = c.open_round(args.league, organiser, args.title, options, args.decision_ms)
            games, byes, no = list(r.games), list(r.byes), r.round
    if args.json:
        print(json.dumps({"round": no, "games": [_game_dict(g) for g in games], "byes": byes}, sort_keys=True))
        return 0
    print(f"league {args.league} round {no}:" if not args.replay else f"league {args.league}: replay")
    for g in games:
        print(_board_line(g))
    if byes:
        print(f"  bye: {', '.join(byes)}")
    return 0


def cmd_games(args) -> int:
    with _client(args) as c:
        r = c.games(args.league)
    if args.json:
        print(json.dumps({"rounds": [{"round": x.round, "title": {"game": x.title.game, "scenario": x.title.scenario},
                                      "byes": list(x.byes)} for x in r.rounds],
                          "games": [_game_dict(g) for g in r.games]}, sort_keys=True))
        return 0
    for x in r.rounds:
        print(f"round {x.round}: {x.title.game} {x.title.scenario}" + (f"; bye: {', '.join(x.byes)}" if x.byes else ""))
        for g in r.games:
            if g.round == x.round:
                print(_board_line(g))
    return 0


def _frac(v) -> str:
    n, d = v
    return str(n) if d == 1 else f"{n}/{d}"


def cmd_standings(args) -> int:
    from ..keys import read_seat_seed

    if args.publish and not args.key:
        raise ValueError("--publish needs the organiser's --key")
    organiser = read_seat_seed(args.key, "--key") if args.publish else None
    with _client(args) as c:
        s = c.standings(args.league)
        published = c.publish_standings(args.league, organiser).entry.seq if args.publish else None
    if args.json:
        print(json.dumps(dict(s, published=published), sort_keys=True, default=_jsonable))
        return 0
    print(f"league {args.league}: standings over {s['size']} entries")
    print(f"  {'#':>2} {'player':<16} {'pts':>5} {'buch':>5} {'sb':>5}  W  D  L bye t/o")
    for r in s["table"]:
        print(f"  {r['rank']:>2} {r['player']:<16} {_frac(r['points']):>5} {_frac(r['buchholz']):>5} "
              f"{_frac(r['sb']):>5} {r['wins']:>2} {r['draws']:>2} {r['losses']:>2} {r['byes']:>3} {r['timeouts']:>3}")
    for title, rows in sorted(s["ratings"].items()):
        print(f"  ratings ({title}): " + ", ".join(
            f"{x['player']} {x['r'] // 10**15}" + ("?" if x["provisional"] else "") for x in rows))
    if published is not None:
        print(f"  published as entry {published}")
    return 0


def _read_evidence(path: str) -> bytes:
    if os.path.getsize(path) > 64 * 1024:
        raise ValueError(f"{path}: evidence files are at most 64 KiB")
    with open(path, "rb") as f:
        return f.read()


def cmd_dispute(args) -> int:
    from ..keys import read_seat_seed

    seed = read_seat_seed(args.key, "--key")
    evidence = [_read_evidence(p) for p in args.evidence]
    with _client(args) as c:
        r = c.dispute(args.league, args.game, args.claim, evidence, seed)
    print(f"dispute of game {args.game} entered (entry {r.entry.seq}): the result is held until an arbiter rules")
    return 0


def cmd_rule(args) -> int:
    from ..keys import read_seat_seed

    seed = read_seat_seed(args.key, "--key")
    with _client(args) as c:
        r = c.rule(args.league, args.game, args.decision, args.reason, seed, args.dispute)
    print(f"ruling on game {args.game}: {args.decision} (entry {r.entry.seq})")
    if args.decision == "replay":
        print(f"  the organiser makes a new game for the board: aar league pair {args.league} --key ORGANISER.key "
              f"--replay ROUND:BOARD --server {args.server}")
    return 0


def cmd_export(args) -> int:
    with _client(args) as c:
        vkey = c.get_league(args.league).vkey
        ledger, bundles = c.download(args.league)
    folder = os.path.join(args.out, "bundles")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(args.out, f"{args.league}.aarl")
    with open(path, "wb") as f:
        f.write(ledger)
    for h, data in bundles.items():
        with open(os.path.join(folder, f"{h.hex()[:16]}.aar"), "wb") as f:
            f.write(data)
    print(f"ledger {path} and {len(bundles)} bundles in {folder}")
    print(f"  check it: aar league verify {path} --bundles {folder} --league-key '{vkey}'")
    return 0


def cmd_cosign(args) -> int:
    import time

    from afteraction.engine.league.ledger import verify_ledger

    from ..keys import read_seat_seed, server_vkey_arg

    seed = read_seat_seed(args.key, "--key")
    kept = None
    if args.checkpoint:
        with open(args.checkpoint, encoding="utf-8") as f:
            kept = f.read()
    with _client(args) as c:
        vkey = server_vkey_arg(args.league_key, "--league-key") if args.league_key else c.get_league(args.league).vkey
        ledger, bundles = c.download(args.league)
        rep = verify_ledger(ledger, bundles, vkey, kept_checkpoint=kept)   # LeagueError: nothing is cosigned
        note = c.cosign_ledger(args.league, args.name, seed, ledger, time.time_ns() // 10**9)
    out = args.out or f"{args.league}.{args.name}.note"
    with open(out, "w", encoding="utf-8") as f:
        f.write(note)
    print(f"verified league {args.league} ({rep.entries} entries, {len(bundles)} bundles); {args.name} cosigned its "
          f"checkpoint of size {rep.entries}, kept in {out}")
    print(f"  later: aar league verify LEDGER --bundles DIR --league-key '{vkey}' --checkpoint {out}")
    return 0
