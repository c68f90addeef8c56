"""`aar league verify LEDGER --bundles DIR` (docs/league.md): checks a league ledger and every
result's bundle, recomputes pairings, standings and ratings, compares them with what the league
published. Exit codes as `aar verify`: 0 verified, 1 failed (the entry is named), 2 unreadable
input or usage error."""
from __future__ import annotations

import argparse
import json
import os
import sys

from ..common import _jsonable, _one_line, read_checkpoint

MAX_BUNDLE = 1 << 30


def register(sub):
    p = sub.add_parser("league", help="leagues: run one on a server (new, join, pair, games, standings, dispute, "
                                      "rule, export), verify a ledger with its games' bundles")
    lsub = p.add_subparsers(dest="league_command", required=True)
    v = lsub.add_parser("verify", help="verify a league ledger, its games' bundles, its pairings, standings and "
                                       "ratings")
    v.add_argument("ledger", help="the league ledger file (aar-league-v1)")
    v.add_argument("--bundles", required=True, metavar="DIR",
                   help="a folder holding the games' bundles (*.aar); each result names its bundle by hash")
    v.add_argument("--league-key", metavar="KEY|FILE",
                   help="the league's verifier key (NAME+ID+KEY) to pin, or a file holding it")
    v.add_argument("--checkpoint", metavar="FILE",
                   help="a league checkpoint a player kept or cosigned: the ledger must hold its size with the "
                        "same root")
    v.add_argument("--json", action="store_true", help="machine-readable report")
    v.set_defaults(func=cmd_league_verify)
    return lsub  # main.py adds league_view's, league_demo's and league_cmds' subcommands (they import this module)


def _usage_line(cmd: str, message: str) -> str:
    return f"aar league {cmd}: {_one_line(message)}"


def _usage(args, message: str) -> int:
    if args.json:
        print(json.dumps({"verified": False, "unreadable": True, "entry": None, "kind": None,
                          "check": "usage", "detail": message, "message": message}, sort_keys=True))
    print(f"aar league verify: {_one_line(message)}", file=sys.stderr)
    return 2


def read_bundles(folder: str) -> dict[bytes, bytes]:
    """Every *.aar file of ``folder`` by its bundle hash (SPEC.md 15.3, result)."""
    from afteraction.engine.league.entries import bundle_hash

    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".aar") or not os.path.isfile(path):
            continue
        if os.path.getsize(path) > MAX_BUNDLE:
            continue
        with open(path, "rb") as f:
            data = f.read()
        out[bundle_hash(data)] = data
    return out


def cmd_league_verify(args: argparse.Namespace) -> int:
    from afteraction.engine.league.ledger import MAX_LEDGER, verify_ledger
    from afteraction.engine.league.state import LeagueError

    from ..keys import KeyArgError, server_vkey_arg

    pinned = None
    if args.league_key is not None:
        try:
            pinned = server_vkey_arg(args.league_key, "--league-key")
        except KeyArgError as e:
            return _usage(args, str(e))
    try:
        with open(args.ledger, "rb") as f:
            data = f.read(MAX_LEDGER + 1)
    except OSError as e:
        return _usage(args, f"cannot read {args.ledger}: {e.strerror}")
    try:
        bundles = read_bundles(args.bundles)
    except OSError as e:
        return _usage(args, f"--bundles: cannot read {args.bundles}: {e.strerror}")
    kept = None
    if args.checkpoint is not None:
        kept, why = read_checkpoint(args.checkpoint)
        if why is not None:
            return _usage(args, why)
    try:
        report = verify_ledger(data, bundles, pinned, kept_checkpoint=kept)
    except LeagueError as e:
        unreadable = e.seq is None and e.check == "unreadable"
        if args.json:
            print(json.dumps(dict(e.as_dict(), unreadable=unreadable), sort_keys=True))
        elif unreadable:
            print(f"aar league verify: unreadable ledger: {_one_line(str(e))}", file=sys.stderr)
        else:
            print(f"NOT VERIFIED: {_one_line(str(e))}")
        return 2 if unreadable else 1
    except Exception as e:  # noqa: BLE001 - never a traceback: the ledger is not verified
        msg = f"the verifier failed unexpectedly (the ledger is not verified): {type(e).__name__}: {e}"
        if args.json:
            print(json.dumps({"verified": False, "unreadable": False, "entry": None, "kind": None,
                              "check": "unexpected", "detail": msg, "message": msg}, sort_keys=True))
        else:
            print(f"NOT VERIFIED: {_one_line(msg)}")
        return 1
    d = report.as_dict()
    d["pinned"] = pinned is not None
    if args.json:
        print(json.dumps(dict(d, unreadable=False), sort_keys=True, default=_jsonable))
    else:
        print(summary(d))
    return 0


def _fixed(n: int, digits: int = 2) -> str:
    """A fixed-point number (units of 10^-15) shown with ``digits`` decimals, rounded down."""
    q = n // 10 ** (15 - digits)
    sign = "-" if q < 0 else ""
    q = abs(q)
    return f"{sign}{q // 10 ** digits}.{q % 10 ** digits:0{digits}d}"


def _frac(v: list) -> str:
    return str(v[0]) if v[1] == 1 else f"{v[0]}/{v[1]}"


def summary(d: dict) -> str:
    head = f"league {d['league']} ({d['name']}), {d['entries']} entries, {d['players']} players, " \
           f"{d['rounds']} rounds, {d['results']} results"
    lines = [f"VERIFIED: {head}" if d["pinned"] else
             f"VERIFIED, BUT UNPINNED (no --league-key: consistent with itself, not tied to a known league): {head}"]
    lines.append(f"  league key: {d['vkey']}")
    lines.append(f"  league version: {d['version']}")
    org = d["organiser"]
    if org is None:   # league version 1 (SPEC.md 15.3): the ledger names no organiser
        lines.append("  organiser: none in the ledger (league version 1: who asked for each round is not proven)")
    else:
        lines.append(f"  organiser (asked for every round): {org.hex() if isinstance(org, bytes) else org}")
    if d["kept_checkpoint"]:
        lines.append(f"  kept checkpoint: the ledger holds its size {d['kept_checkpoint']} with the same root")
    lines.append("  players' cosignatures of the league's checkpoints: "
                 + (", ".join(f"{p} up to {n} entries" for p, n in sorted(d["cosigned"].items())) or "none"))
    for rnd in d["schedule"]:
        for b, (first, second) in enumerate(rnd["pairings"], 1):
            played = [g for g in d["games"] if (g["round"], g["board"]) == (rnd["round"], b)]
            if not played:
                lines.append(f"  round {rnd['round']} board {b}: {first} - {second}: no result yet")
            for g in played:
                res = "draw or no result" if g["winner"] is None else f"{g['winner']} wins"
                lines.append(f"  round {g['round']} board {g['board']}: {g['first']} - {g['second']}: {res} "
                             f"({g['cause']}); {g['status']}  [game {g['game']}]")
        if rnd["byes"]:
            lines.append(f"  round {rnd['round']} bye: {', '.join(rnd['byes'])}")
    lines.append("  standings (points, Buchholz, Sonneborn-Berger, W-D-L, byes, time-outs):")
    for r in d["standings"]:
        lines.append(f"    {r['rank']:>3}. {r['player']}  {_frac(r['points'])}  {_frac(r['buchholz'])}  "
                     f"{_frac(r['sb'])}  {r['wins']}-{r['draws']}-{r['losses']}  {r['byes']}  {r['timeouts']}")
    for title, rows in d["ratings"].items():
        lines.append(f"  ratings, {title} (Glicko-2; r, RD, volatility):")
        for x in rows:
            lines.append(f"    {x['player']}  {_fixed(x['r'])}  {_fixed(x['rd'])}  {_fixed(x['sigma'], 5)}"
                         f"  {x['games']} games{' (provisional)' if x['provisional'] else ''}")
    return "\n".join(_one_line(line) for line in lines)
