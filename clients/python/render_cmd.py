"""``aar render FILE [--at SEQ] [--seat SEAT] -o map.svg``: draw an NTND game's map
as a seat (or a spectator) saw it after record SEQ of an exported bundle.

The bundle of an ended game carries the server secret, so the game is replayed
by the verifier (every record checked on the way) up to SEQ and the ruleset's
view for the seat is drawn: the Allied seat and spectators see inverted markers
only, never what they hold. A bundle of a game still in progress has no secret:
the state cannot be rebuilt offline, and the command says so.
"""
from __future__ import annotations

import argparse
import sys


def cmd_render(args: argparse.Namespace) -> int:
    from afteraction.engine import registry
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.log.verify import Verifier

    try:
        f = open(args.game, "rb")
    except OSError as e:
        print(f"aar render: cannot read {args.game}: {e.strerror} (rendering a live GAME id needs the service)",
              file=sys.stderr)
        return 2
    with f:
        header, records = read_bundle(f)
        records = list(records)
    secret = header.get("secret")
    if secret is None:
        print("aar render: this bundle is of a game in progress (no server secret): its state cannot be "
              "rebuilt offline; export it after the end", file=sys.stderr)
        return 2
    at = len(records) - 1 if args.at is None else args.at
    if not 0 <= at < len(records):
        print(f"aar render: --at must be between 0 and {len(records) - 1}", file=sys.stderr)
        return 2
    v = Verifier(header["server_vkey"], None, secret, True, registry.get, header["game"])
    for raw, cp in records[:at + 1]:
        v.add(raw, cp)
    ref = v.referee
    if ref is None or ref.state is None:
        print("aar render: no game state yet at that record (the dice handshake comes first)", file=sys.stderr)
        return 2
    if ref.ruleset.game != "ntnd":
        print(f"aar render: drawing is implemented for ntnd, not {ref.ruleset.game}", file=sys.stderr)
        return 2
    from afteraction.engine.games.ntnd.render import render_svg

    seat = None if args.seat in (None, "spectator") else args.seat
    svg = render_svg(ref.ruleset.view(ref.state, seat),
                     title=f"NTND game {ref.game_id} after record {at} as seen by {seat or 'a spectator'}")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(svg)
    print(f"wrote {args.output} (record {at}, seat {seat or 'spectator'})")
    return 0


def register(sub) -> None:
    r = sub.add_parser("render", help="draw an NTND game's map as a seat saw it (SVG)")
    r.add_argument("game", help="an exported .aar bundle of an ended game")
    r.add_argument("--at", type=int, default=None, help="record sequence number (default: the last)")
    r.add_argument("--seat", default=None, help="communist, allied or spectator (default: spectator)")
    r.add_argument("-o", "--output", required=True, help="SVG file to write")
    r.set_defaults(func=cmd_render)
