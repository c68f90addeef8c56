"""``aar league view LEDGER --bundles DIR -o league.html [--replays]``: one self-contained page of a
league (docs/league.md): its standings, crosstable, rounds and rating history (a chart), each game
linked to its replay page (``--replays`` writes them beside it, ``aar view``'s pages), and a
"recompute in this browser" button.

The page is written only for a ledger that verifies (`aar league verify`). It embeds the ledger
file itself; the button checks it in the browser (view_lib.js: canonical msgpack, WebCrypto
SHA-256 and Ed25519 by SPEC.md 7.4, the checkpoints and Merkle tree) and recomputes the standings
and the ratings with league_lib.js (the second implementation of SPEC.md 15.5-15.7) from the
ledger's own entries, comparing them with the numbers shown and with the league's last published
standings. The games' results and statuses come from the file (this command verified every
bundle with replay): the page says so, and links each game's replay page, which checks that game."""
from __future__ import annotations

import argparse
import base64
import functools
import json
import os
import re
import sys
from html import escape
from importlib import resources

from .verify import _fixed, _frac, _usage_line, read_bundles
from ..view import _sha256

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
          "#bcbd22")
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}")
#: the scripts inlined into the page, in this order (package data of afteraction.cli)
SCRIPTS = ("view_lib.js", "league_lib.js", "league_page.js")


def register(lsub) -> None:
    v = lsub.add_parser("view", help="write one self-contained page of a league: standings, crosstable, rounds, "
                                     "rating history, recomputed in the browser")
    v.add_argument("ledger", help="the league ledger file (aar-league-v1)")
    v.add_argument("--bundles", required=True, metavar="DIR", help="the folder of the games' bundles (*.aar)")
    v.add_argument("-o", "--output", required=True, help="the HTML file to write")
    v.add_argument("--replays", action="store_true",
                   help="also write each game's replay page (aar view) beside it, GAME_ID.html, and link them")
    v.set_defaults(func=cmd_league_view)


def _strings(v):
    """Integers beyond 2^53 as decimal strings (JSON numbers there lose digits in a browser)."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return str(v) if abs(v) > 2**53 else v
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {k: _strings(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_strings(x) for x in v]
    return v


def _result(g: dict) -> str:
    if g["winner"] is None:
        return "no result" if g["cause"] == "abandon" else "draw"
    return "1-0" if g["winner"] == g["first"] else "0-1"


def _chart(title: str, history: dict[str, list], order: list[str], initial: int) -> str:
    """An SVG line chart of each player's rating after each round of the title, from ``initial``."""
    pts = [(rnd, r) for rows in history.values() for rnd, r, _ in rows] + [(0, initial)]
    if not pts:
        return ""
    w, h, pad = 720, 300, 48
    rounds = max(p[0] for p in pts)
    lo = min(p[1] for p in pts) // 10**15
    hi = max(p[1] for p in pts) // 10**15 + 1
    lo, hi = lo - (lo % 50), hi + (50 - hi % 50) % 50
    span = max(hi - lo, 1)

    def x(rnd: int) -> float:
        return pad + (w - 2 * pad) * rnd / max(rounds, 1)

    def y(r: int) -> float:
        return h - pad + 0.0 - (h - 2 * pad) * (r / 10**15 - lo) / span

    out = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)} ratings by round">']
    for t in range(lo, hi + 1, max(50, (span // 6) // 50 * 50 or 50)):
        out.append(f'<line x1="{pad}" x2="{w - pad}" y1="{y(t * 10**15):.1f}" y2="{y(t * 10**15):.1f}" class="grid"/>'
                   f'<text x="{pad - 6}" y="{y(t * 10**15) + 4:.1f}" text-anchor="end">{t}</text>')
    for rnd in range(0, rounds + 1):
        out.append(f'<text x="{x(rnd):.1f}" y="{h - pad + 18}" text-anchor="middle">{rnd}</text>')
    for i, name in enumerate(n for n in order if n in history):
        c = COLORS[i % len(COLORS)]
        rows = history[name]
        first = rows[0][0] - 1
        line = [(x(first), y(initial))] + [(x(rnd), y(r)) for rnd, r, _ in rows]
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="'
                   + " ".join(f"{a:.1f},{b:.1f}" for a, b in line) + '"/>')
        out.append(f'<text x="{line[-1][0] + 4:.1f}" y="{line[-1][1] + 4:.1f}" fill="{c}">{escape(name)}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">round</text></svg>')
    return "".join(out)


def page(d: dict, ledger: bytes, history: dict, links: dict[str, str]) -> str:
    order = [r["player"] for r in d["standings"]]
    games = d["games"]
    parts = _head_and_standings(d)
    parts += _crosstable(d, order, [g for g in games if g["status"] == "counted"])
    parts += _rounds(d, games, links)
    parts += _ratings(d, history, order)
    parts.append("<h2>What this page checks</h2><p>The button checks the ledger embedded in this page: its "
                 "canonical encoding, hash chain, every entry's signature (SPEC.md 7.4's rule) and every checkpoint's "
                 "signature, size and Merkle root, the round seeds against their commitments, and, for a round robin, "
                 "every round's pairings; then it recomputes the standings and the ratings from the ledger's own "
                 "policy, registrations and rounds with a second implementation of SPEC.md 15.5-15.7, and compares "
                 "them with the numbers above and with the league's last published standings. The games' results "
                 "and statuses are taken from this file: <code>aar league verify</code> checked every game's bundle "
                 "with replay when the page was written; each game's replay page checks that game in the browser.</p>")
    data = {"ledger": base64.b64encode(ledger).decode(), "games": games, "cosigned": d["cosigned"],
            "shown": _strings({"standings": d["standings"], "ratings": d["ratings"]})}
    blob = json.dumps(data, separators=(",", ":"), sort_keys=True)
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    js, csp = _script()
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            f"<title>{escape(d['name'])}: standings</title><style>{CSS}</style></head><body>"
            + "".join(parts)
            + f'<script id="league-data" type="application/json">{blob}</script><script>{js}</script></body></html>')


def _head_and_standings(d: dict) -> list[str]:
    """The league, its key and cosigners, the browser's check, and the standings table (left open)."""
    parts = [f"<h1>{escape(d['name'])} <small>league {escape(d['league'])}</small></h1>",
             f"<p>{d['entries']} ledger entries, {d['players']} players, {d['rounds']} rounds, {d['results']} results. "
             f"League key <code>{escape(d['vkey'])}</code>. Verified by <code>aar league verify</code> when this page "
             f"was written.</p>",
             "<p>Players who cosigned the league's checkpoints: "
             + (escape(", ".join(f"{p} (up to {n} entries)" for p, n in sorted(d["cosigned"].items())))
                or "none") + ".</p>",
             '<p><button id="recompute">Recompute in this browser</button> <span id="verdict"></span></p>',
             '<ol id="checks"></ol>',
             "<h2>Standings</h2><table id=\"standings\"><tr><th>#</th><th>player</th><th>points</th>"
             "<th>Buchholz</th><th>Sonneborn-Berger</th><th>games</th><th>W-D-L</th><th>byes</th>"
             "<th>time-outs</th><th>abandons</th></tr>"]
    for r in d["standings"]:
        parts.append(f"<tr><td>{r['rank']}</td><td>{escape(r['player'])}</td><td>{_frac(r['points'])}</td>"
                     f"<td>{_frac(r['buchholz'])}</td><td>{_frac(r['sb'])}</td><td>{r['games']}</td>"
                     f"<td>{r['wins']}-{r['draws']}-{r['losses']}</td><td>{r['byes']}</td><td>{r['timeouts']}</td>"
                     f"<td>{r['abandons']}</td></tr>")
    return parts


def _crosstable(d: dict, order: list[str], counted: list[dict]) -> list[str]:
    """Every pair's counted results, in standings order (closing the standings table)."""
    parts: list[str] = []
    parts.append("</table><h2>Crosstable</h2><table id=\"crosstable\"><tr><th></th>"
                 + "".join(f"<th>{i + 1}</th>" for i in range(len(order))) + "<th>points</th></tr>")
    for i, a in enumerate(order):
        cells = []
        for b in order:
            if a == b:
                cells.append("<td class=\"self\">&mdash;</td>")
                continue
            res = []
            for g in counted:
                if {g["first"], g["second"]} == {a, b}:
                    res.append("&frac12;" if g["winner"] is None else "1" if g["winner"] == a else "0")
            cells.append(f"<td>{' '.join(res)}</td>")
        points = _frac(d["standings"][i]["points"])
        parts.append(f"<tr><th>{i + 1}. {escape(a)}</th>{''.join(cells)}<td>{points}</td></tr>")
    return parts


def _rounds(d: dict, games: list[dict], links: dict[str, str]) -> list[str]:
    """Each round: its title, boards and results (linked to a game's page where there is one), byes."""
    parts: list[str] = []
    parts.append("</table><h2>Rounds</h2>")
    for rnd in d["schedule"]:
        parts.append(f"<h3>Round {rnd['round']}: {escape(rnd['title']['game'])} {escape(rnd['title']['scenario'])}</h3>"
                     "<table class=\"round\"><tr><th>board</th><th>first seat</th><th>second seat</th><th>result</th>"
                     "<th>ending</th><th>status</th><th>game</th></tr>")
        for b, (first, second) in enumerate(rnd["pairings"], 1):
            played = [g for g in games if g["round"] == rnd["round"] and g["board"] == b]
            if not played:
                parts.append(f"<tr><td>{b}</td><td>{escape(first)}</td><td>{escape(second)}</td>"
                             "<td colspan=\"4\">no result yet</td></tr>")
            for g in played:
                gid = escape(g["game"])
                link = f'<a href="{escape(links[g["game"]])}">{gid}</a>' if g["game"] in links else gid
                parts.append(f"<tr><td>{b}</td><td>{escape(first)}</td><td>{escape(second)}</td><td>{_result(g)}</td>"
                             f"<td>{escape(g['cause'])}</td><td>{escape(g['status'])}</td><td>{link}</td></tr>")
        parts.append("</table>")
        if rnd["byes"]:
            parts.append(f"<p>Bye: {escape(', '.join(rnd['byes']))}</p>")
    return parts


def _ratings(d: dict, history: dict, order: list[str]) -> list[str]:
    """Each title's Glicko-2 ratings and their chart."""
    parts: list[str] = []
    parts.append("<h2>Ratings</h2>")
    for title, rows in d["ratings"].items():
        parts.append(f"<h3>{escape(title)} (Glicko-2)</h3><table class=\"ratings\"><tr><th>player</th><th>rating</th>"
                     "<th>deviation</th><th>volatility</th><th>games</th><th></th></tr>")
        for x in rows:
            parts.append(f"<tr><td>{escape(x['player'])}</td><td>{_fixed(x['r'])}</td><td>{_fixed(x['rd'])}</td>"
                         f"<td>{_fixed(x['sigma'], 5)}</td><td>{x['games']}</td>"
                         f"<td>{'provisional' if x['provisional'] else ''}</td></tr>")
        parts.append("</table>" + _chart(title, history.get(title, {}), order, int(d["policy"]["rating"]["r"])))
    return parts


@functools.lru_cache(maxsize=1)
def _script() -> tuple[str, str]:
    """The page's script (SCRIPTS joined) and its policy: no network (the page opens from a file or
    an attachment and fetches nothing), no script but this one and no style but CSS, by their
    SHA-256 (as aar view's page): nothing a ledger's text smuggled in would run."""
    pkg = resources.files("afteraction.cli")
    js = "".join((pkg / name).read_text(encoding="utf-8") for name in SCRIPTS).replace("</script", "<\\/script")
    return js, (f"default-src 'none'; script-src {_sha256(js)}; style-src {_sha256(CSS)}; img-src data:; "
                "base-uri 'none'; form-action 'none'")


def policy() -> str:
    """The page's Content-Security-Policy (also sent as a header where a server serves the page)."""
    return _script()[1]


def league_page(data: bytes, bundles, facts_of=None, link=None) -> tuple[str, dict]:
    """The page of a ledger that verifies (LeagueError otherwise), and the report it shows:
    ``verify_ledger`` with the bundles (``facts_of``: a cache of the bundles' verification, as a
    league server keeps), then ``page``; ``link(game id, bundle hash)``: the address of a game's
    replay page, or None. ``aar league view`` writes it; ``aar serve --web-listen`` serves it."""
    from afteraction.engine.league.ledger import verify_ledger

    from ..common import _jsonable

    rep = verify_ledger(data, bundles, **({} if facts_of is None else {"facts_of": facts_of}))
    d = json.loads(json.dumps(rep.as_dict(), default=_jsonable))
    links = {}
    for r in rep.state.results:
        if not r.withdrawn and link is not None:
            at = link(r.game, r.body["bundle"])
            if at is not None:
                links[r.game] = at
    return page(d, data, rep.standings.history, links), d


CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
th{background:#f3f3f3}td.self{background:#eee}small{color:#666;font-weight:normal}
.chart{width:100%;max-width:720px;font-size:11px}.chart .grid{stroke:#ddd}
#verdict.ok{color:#1a7f37;font-weight:bold}#verdict.bad{color:#c00;font-weight:bold}
#checks li.bad{color:#c00}code{font-size:90%}"""


def cmd_league_view(args: argparse.Namespace) -> int:
    from afteraction.engine.league.ledger import MAX_LEDGER
    from afteraction.engine.league.state import LeagueError

    from ..common import _jsonable

    try:
        with open(args.ledger, "rb") as f:
            data = f.read(MAX_LEDGER + 1)
        bundles = read_bundles(args.bundles)
    except OSError as e:
        print(_usage_line("view", f"cannot read {e.filename}: {e.strerror}"), file=sys.stderr)
        return 2
    out_dir = os.path.dirname(os.path.abspath(args.output))
    written: list[str] = []

    def replay(game: str, h: bytes) -> str:
        """``--replays``: the game's replay page (aar view's) beside the league's page."""
        import tempfile

        from ..view import build
        from ..view import page as replay_page

        with tempfile.NamedTemporaryFile(suffix=".aar") as t:
            t.write(bundles[h])
            t.flush()
            rdata, _ = build(t.name, None)
        # a game id is the league's text: a file name only when it is a plain one
        name = f"{game}.html" if SAFE_NAME.fullmatch(game) else f"game-{h.hex()[:16]}.html"
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(replay_page(rdata))
        written.append(name)
        return name
    try:
        text, d = league_page(data, bundles, link=replay if args.replays else None)
    except LeagueError as e:
        if e.seq is None and e.check == "unreadable":
            print(_usage_line("view", f"unreadable ledger: {e}"), file=sys.stderr)
            return 2
        print(f"NOT VERIFIED: {e} (no page written)")
        return 1
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}: {len(text.encode())} bytes, {d['players']} players, {d['rounds']} rounds, "
          f"{len(d['games'])} games" + (f", and {len(written)} replay pages beside it" if written else ""))
    return 0
