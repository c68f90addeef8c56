"""`aar games` (the games a server holds, ListGames) and `aar status GAME` (whose turn it is,
or who won), and the match data `aar new` writes into genesis (--label, --player, --date)."""
from __future__ import annotations

import json
import sys

STATUSES = {"all": 0, "in-progress": 1, "ended": 2}
MAX_SHOWN = 10_000  # `aar games --limit` at most: ListGames pages of 100 until then


def match_line(m) -> str:
    """A MatchInfo or a genesis match map in one line ('' when there is none)."""
    if m is None:
        return ""
    get = (lambda k: m.get(k)) if isinstance(m, dict) else (lambda k: getattr(m, k))
    parts = []
    if get("label"):
        parts.append(json.dumps(get("label"), ensure_ascii=False))
    players = dict(get("players") or {})
    if players:
        parts.append("players " + ", ".join(f"{s}: {n}" for s, n in sorted(players.items())))
    if get("date"):
        parts.append(get("date"))
    return "; ".join(parts)


def match_arg(args):
    """The MatchInfo of `aar new --label/--player/--date`, or None (checked by the server)."""
    from afteraction.v1 import game_service_pb2 as gs

    players = {}
    for item in args.player or []:
        seat, sep, name = item.partition("=")
        if not sep or not seat or not name:
            raise ValueError(f"--player {item[:80]!r}: expected SEAT=NAME")
        if seat in players:
            raise ValueError(f"--player: seat {seat[:40]!r} given twice")
        players[seat] = name
    if not (args.label or players or args.date):
        return None
    return gs.MatchInfo(label=args.label or "", players=players, date=args.date or "")


def cmd_games(args) -> int:
    from afteraction.client.client import Client

    if not 1 <= args.limit <= MAX_SHOWN:
        print(f"aar games: --limit {args.limit}: between 1 and {MAX_SHOWN}", file=sys.stderr)
        return 2
    shown, token = 0, ""
    with Client(args.server, tls_ca=args.tls_ca) as c:
        while shown < args.limit:
            page = c.list_games(STATUSES[args.status], min(100, args.limit - shown), token)
            for g in page.games:
                state = "ended" if g.ended else "in progress"
                m = match_line(g.match) if g.HasField("match") else ""
                print(f"{g.game_id}  {g.game:<5} {g.scenario:<14} {state:<11} {g.records:6d} records"
                      + (f"  {m}" if m else ""))
                shown += 1
            token = page.next_page_token
            if not token:
                break
    if shown == 0:
        print("no games" + ("" if args.status == "all" else f" {args.status.replace('-', ' ')}"), file=sys.stderr)
    return 0


def scenario_lines(rulesets, game: str | None) -> list[str] | None:
    """A line per game naming its ruleset versions, then a line per scenario of the newest version, of
    ``game`` (every game if None) from a ListRulesetsResponse; None: no such game."""
    out = []
    latest = {r.game: r for r in rulesets.rulesets}   # by game then version: the latest last
    if game is not None and game not in latest:
        return None
    for name in sorted(latest) if game is None else [game]:
        r = latest[name]
        versions = [x.version for x in rulesets.rulesets if x.game == name]
        out.append(f"{name:<5} ruleset versions {', '.join(versions)}: new games play {name}/{r.version}, "
                   "logs of every version replay")
        for i, sc in enumerate(r.scenario_info or [None] * len(r.scenarios)):
            n = sc.name if sc is not None else r.scenarios[i]
            default = " (default)" if i == 0 else ""
            if sc is None:
                out.append(f"{name:<5} {n:<15}{default}")
                continue
            turns = f", {sc.turns} turns" if sc.turns else ""
            desc = f": {sc.description}" if sc.description else ""
            title = sc.title if sc.title != n else ""
            out.append(f"{name:<5} {n:<15} {title}{turns}{default}{desc}".replace(f"{n:<15} , ", f"{n:<15} "))
    return out


def cmd_scenarios(args) -> int:
    if args.server:
        from afteraction.client.client import Client

        with Client(args.server, tls_ca=args.tls_ca) as c:
            rulesets = c.list_rulesets()
    else:  # the rulesets this installation runs: the list a server started here serves
        from afteraction.service.servicer import rulesets_pb

        rulesets = rulesets_pb()
    lines = scenario_lines(rulesets, args.game)
    if lines is None:
        print(f"aar scenarios: no game {args.game!r} (games: {', '.join(sorted({r.game for r in rulesets.rulesets}))})",
              file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def cmd_status(args) -> int:
    from afteraction.client.client import Client

    with Client(args.server, tls_ca=args.tls_ca) as c:
        st = c.state(args.game_id)
        summary = None
        token = ""
        # the game's summary (match data, record count): ListGames pages from just before its id
        if args.game_id and all(ch in "0123456789abcdef" for ch in args.game_id):
            prev = format(int(args.game_id, 16) - 1, f"0{len(args.game_id)}x") if int(args.game_id, 16) else ""
            token = prev
            page = c.list_games(0, 1, token)
            if page.games and page.games[0].game_id == args.game_id:
                summary = page.games[0]
    print(f"game {args.game_id} ({st.game}), next record {st.state_seq}")
    if summary is not None:
        if summary.HasField("match"):
            print(f"  match: {match_line(summary.match)}")
        print(f"  seats: {', '.join(summary.seats)}")
    if st.ended:
        out = json.loads(st.outcome_json) if st.outcome_json else None
        print(f"  ended: {json.dumps(out, sort_keys=True)}")
        cause = json.loads(st.cause_json) if st.cause_json else {"kind": "rules"}  # no cause: the rules ended it
        print(f"  cause: {json.dumps(cause, sort_keys=True)} (SPEC.md 8.3)")
    else:
        if st.HasField("decision"):
            d = st.decision
            who = "every seat (the entropy handshake)" if d.seat == "*" else f"seat {d.seat}"
            print(f"  waiting for {who}: {d.kind}: {d.prompt}")
        if st.HasField("clocks"):
            for x in st.clocks.seats:
                if x.left_ms >= 0:
                    total = f", {_duration(x.total_left_ms)} of its total clock" if x.total_left_ms >= 0 else ""
                    print(f"  clock seat {x.seat}: {_duration(x.left_ms)} left{total}"
                          + (" (running)" if x.running else ""))
            if st.clocks.abandon_left_ms >= 0:
                print(f"  abandoned (no result) if no seat acts within {_duration(st.clocks.abandon_left_ms)}")
    return 0


def _duration(ms: int) -> str:
    """A time left in words: '59 s', '12 min', '3 h 20 min', '13 days 23 h' (rounded down)."""
    s = ms // 1000
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 172800:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} days {s % 86400 // 3600} h"


def register(sub, parser, tls_ca, default_server: str) -> None:
    p = parser(sub, "games", "list the games a server holds (ListGames)", "aar games --status in-progress")
    p.add_argument("--server", default=default_server, help=f"the server (default {default_server})")
    tls_ca(p)
    p.add_argument("--status", choices=sorted(STATUSES), default="all", help="which games (default all)")
    p.add_argument("--limit", type=int, default=100, help=f"at most this many games (default 100, at most {MAX_SHOWN})")
    p.set_defaults(func=cmd_games)

    p = parser(sub, "scenarios", "list a game's scenarios, a line each (the list a server serves: ListRulesets)",
               "aar scenarios ntnd")
    p.add_argument("game", nargs="?", help="ruleset: sog, gmv, ntnd, duel (default: every game)")
    p.add_argument("--server", default=None, help="ask this server (default: the rulesets installed here, "
                                                 "which a server started here serves)")
    tls_ca(p)
    p.set_defaults(func=cmd_scenarios)

    p = parser(sub, "status", "show a game's state: whose turn it is and what is asked, or the outcome",
               "aar status 90d0168a0be25ea9")
    p.add_argument("game_id", help="the game id")
    p.add_argument("--server", default=default_server, help=f"the server (default {default_server})")
    tls_ca(p)
    p.set_defaults(func=cmd_status)
