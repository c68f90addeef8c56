"""``aar render GAME|FILE [--at SEQ] [--seat SEAT [--key KEYFILE]] [--server HOST:PORT] -o map.svg``:
draw a game's board as a seat (or a spectator) sees it: the NTND map, the SOG mission map, the
GMV zone board (each game's ``engine/games/<game>/render.py``).

FILE (an exported bundle of an ended game): the bundle carries the server secret,
so the game is replayed by the verifier (every record checked on the way) up to
SEQ and the ruleset's view for the seat is drawn: each seat's picture holds only what
its view holds (NTND: the Allied seat and spectators see inverted markers only; GMV: the US seat
and spectators see no hidden NVA unit).

GAME (a game id on a server, live or ended): the seat's view is fetched with
GetState, authenticated with the seat's key (``--seat S --key FILE``), or the
public (spectator) view without a key, and drawn as it is now (``--at`` is for
files only: the server serves the current view).

A bundle of a game still in progress is refused, not drawn: it carries no server
secret, and the rules state (whose public part the picture shows) cannot be
rebuilt without the sealed values it depends on: the contents of every inverted
marker decide stacking, movement and combat, so even the public positions after
SEQ cannot be computed offline. Ask the server for its view (GAME) instead.
"""
from __future__ import annotations

import argparse
import sys


def cmd_render(args: argparse.Namespace) -> int:
    from afteraction.engine import registry
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.log.verify import Verifier

    import os

    if not os.path.exists(args.game):
        return _render_live(args)
    try:
        f = open(args.game, "rb")
    except OSError as e:
        print(f"aar render: cannot read {args.game}: {e.strerror}", file=sys.stderr)
        return 2
    with f:
        header, records = read_bundle(f)
        records = list(records)
    secret = header.get("secret")
    if secret is None:
        print("aar render: this bundle is of a game in progress (no server secret): its state depends on "
              "sealed values and cannot be rebuilt offline; render the live game by its id "
              "(aar render GAME_ID --server HOST:PORT) or export it after the end", file=sys.stderr)
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
    game = ref.ruleset.game
    seat = _seat_of(args, ref.ruleset)
    if seat is False:
        return 2
    render_svg = _renderer(game)
    if render_svg is None:
        return 2
    who = seat or "a spectator"
    shown = seat
    if ref.ended:  # after the end the secret is public and every hidden value opened: everyone sees them
        shown = revealed_seat(records[:at + 1], ref.ruleset.seats) or seat
        who += " (the game has ended: what was hidden is shown)"
    svg = render_svg(ref.ruleset.view(ref.state, shown),
                     title=f"{game.upper()} game {ref.game_id} after record {at} as seen by {who}")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(svg)
    print(f"wrote {args.output} (record {at}, seat {seat or 'spectator'})")
    return 0


def revealed_seat(records, seats) -> str | None:
    """The one seat that held hidden values in this log (private events sealed to it, or sealed
    commands of its own), whose view after the end is everyone's: all of it is public then
    (the server secret opens every sealed value). None when no seat, or more than one, held any."""
    from afteraction.engine.protocol import parse_record

    holders = set()
    for raw, _ in records:
        b = parse_record(raw).body
        if "sealed" in b and b.get("seat") in seats:
            holders.add(b["seat"])
        for e in b.get("events", []) if isinstance(b.get("events"), list) else []:
            if isinstance(e, dict) and e.get("t") == "sealed" and e.get("to") in seats:
                holders.add(e["to"])
    return holders.pop() if len(holders) == 1 else None


def _seat_of(args, ruleset):
    """The seat named by --seat (None for a spectator), or False after printing why not."""
    if args.seat in (None, "spectator"):
        return None
    if args.seat not in ruleset.seats:
        print(f"aar render: {ruleset.game} has seats {', '.join(ruleset.seats)} (or spectator), not {args.seat!r}",
              file=sys.stderr)
        return False
    return args.seat


def _renderer(game: str):
    """The game's ``render_svg``, or None (printed why) for a game that has no drawing."""
    from afteraction.engine.registry import game_module

    try:
        return game_module(game, "render").render_svg
    except ModuleNotFoundError:
        print(f"aar render: drawing is implemented for sog, gmv and ntnd, not {game}", file=sys.stderr)
        return None


def _render_live(args: argparse.Namespace) -> int:
    """GAME mode: GetState from the server (seat-authenticated with ``--key``, else public) and draw it."""
    from afteraction.engine.crypto import canon

    from afteraction.client.client import Client, ClientError, make_auth
    from .commands import read_seat_key

    if args.at is not None:
        print("aar render: --at needs an exported FILE; a live GAME is drawn as it is now", file=sys.stderr)
        return 2
    seat = None if args.seat in (None, "spectator") else args.seat
    if seat is not None and not args.key:
        print(f"aar render: the {seat} seat's view needs its key (--key FILE); without --seat the public view "
              "is drawn", file=sys.stderr)
        return 2
    try:
        with Client(args.server) as c:
            auth = make_auth(read_seat_key(args.key), args.game, seat) if seat is not None else None
            res = c.state(args.game, auth)
    except ClientError as e:
        print(f"aar render: {args.game} is neither a readable file nor a game on {args.server}: {e}", file=sys.stderr)
        return 2
    render_svg = _renderer(res.game or "this game")
    if render_svg is None:
        return 2
    view = canon.decode(res.view)
    if not isinstance(view, dict) or set(view) == {"handshake"}:
        print("aar render: no game state yet (the dice handshake comes first)", file=sys.stderr)
        return 2
    svg = render_svg(view, title=f"{res.game.upper()} game {args.game} at record {res.state_seq} as seen by "
                                 f"{res.seat or 'a spectator'}")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(svg)
    print(f"wrote {args.output} (live game {args.game}, record {res.state_seq}, seat {res.seat or 'spectator'})")
    return 0


def register(sub) -> None:
    r = sub.add_parser(
        "render", help="draw a game's board (NTND, SOG, GMV) as a seat saw it at a record (SVG)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Draw the board as one seat (or a spectator) saw it after one record: from an exported "
                    "bundle of an ended game (replayed and verified up to that record), or live from a server.",
        epilog="seats: sog: sog, nva; gmv: us, nva; ntnd: communist, allied; every game: spectator\n"
               "example: aar render fixtures/golden/gmv.aar --at 100 --seat nva -o gmv.svg")
    r.add_argument("game", help="an exported .aar bundle of an ended game, or a game id on --server")
    r.add_argument("--at", type=int, default=None, help="FILE: record sequence number to draw after (default: the last)")
    r.add_argument("--seat", default=None, help="whose view: a seat of the game or spectator (default: spectator)")
    r.add_argument("--key", help="GAME: the seat's key file (aar keygen) to read its private view (no default)")
    r.add_argument("--server", default="127.0.0.1:50051", help="GAME: the server (default 127.0.0.1:50051)")
    r.add_argument("-o", "--output", required=True, help="SVG file to write (required)")
    r.set_defaults(func=cmd_render)
