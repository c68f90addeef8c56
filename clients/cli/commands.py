"""The `aar` subcommands of the service and the client: keygen, new, play, bot,
watch, export, serve, demo. Registered into clients/cli/main.py."""
from __future__ import annotations

import argparse
import json
import os
import sys

from afteraction.engine.errors import AfteractionError

DEFAULT_SERVER = "127.0.0.1:50051"


def _err(msg: str) -> int:
    print(msg, file=sys.stderr)
    return 2


# -- keys ------------------------------------------------------------------------
def read_seat_key(path: str) -> bytes:
    """A seat key file's seed (keys.py; KeyArgError, a one-line usage error, when it is not one)."""
    from .keys import read_seat_seed

    return read_seat_seed(path, "--key")


def public_key(seed: bytes) -> bytes:
    from .keys import seat_public

    return seat_public(seed)


def cmd_keygen(args) -> int:
    seed = os.urandom(32)
    try:
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _err(f"aar keygen: {args.out} exists; not overwriting a key")
    with os.fdopen(fd, "w") as f:
        f.write(seed.hex() + "\n")
    print(f"seat key written to {args.out} (mode 0600)")
    print(f"public key: {public_key(seed).hex()}")
    return 0


# -- games -----------------------------------------------------------------------
def _ms(text: str) -> int:
    """A time control flag: milliseconds, 0 (not set) or more; the service checks the bounds
    (SPEC.md 8.2, BAD_CLOCK). Anything else is a usage error naming the flag's rule."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of milliseconds") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"{v} is negative: milliseconds are 0 (not set) or more")
    return v


def cmd_new(args) -> int:
    from afteraction.client.client import Client

    from .keys import seat_public_arg

    options = None
    if args.options:
        try:
            options = json.loads(args.options)
        except ValueError as e:
            return _err(f"aar new: --options is not JSON ({e.msg} at character {e.pos})")
        if not isinstance(options, dict):
            return _err("aar new: --options must be a JSON object, e.g. '{\"rounds\": 5}'")
    keys = {}
    for item in args.seat:
        seat, _, val = item.partition("=")
        if not seat or not val:
            return _err(f"aar new: --seat takes SEAT=PUBLIC_KEY_HEX or SEAT=KEYFILE, not {item[:80]!r}")
        if seat in keys:
            return _err(f"aar new: --seat {seat[:40]!r} given twice")
        keys[seat] = seat_public_arg(val, f"--seat {seat[:40]}")
    from .games_cmd import match_arg

    try:
        match = match_arg(args)
    except ValueError as e:
        return _err(f"aar new: {e}")
    clock = {k: v for k, v in (("decision_ms", args.decision_ms), ("total_ms", args.total_ms),
                               ("abandon_ms", args.abandon_ms)) if v}  # SPEC.md 8.2
    with Client(args.server, tls_ca=args.tls_ca) as c:
        res = c.create_game(args.game, keys, args.scenario or "", options, match=match, clock=clock or None)
    print(res.game_id)
    print(f"server key: {res.server_vkey}", file=sys.stderr)
    return 0


REACH_S = 10.0  # how long `aar play`/`aar bot` wait for the server's first answer before saying it is unreachable


class Unreachable(AfteractionError):
    """The server did not answer the first call: one line naming the address and the cause."""


def reach(c, target: str) -> None:
    """Fail fast when nothing answers at ``target`` (a seat's stream would retry a lost server
    for seconds, silently): GetServerKey once, at most REACH_S."""
    import grpc

    from afteraction.client.client import ClientError
    from afteraction.v1 import game_service_pb2 as gs

    try:
        c.call(c.game.GetServerKey, gs.GetServerKeyRequest(), timeout=REACH_S)
    except ClientError as e:
        if e.code not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            raise
        cause = "no answer" if e.code == grpc.StatusCode.DEADLINE_EXCEEDED else str(e).rsplit(": ", 1)[-1].strip(" []")
        raise Unreachable(f"cannot reach a server at {target} ({cause[:80].lower()}): is `aar serve` running "
                          f"there? (give its address with --server HOST:PORT)") from None


def _seat(args, names: bool = False):
    from afteraction.client.client import Client
    from afteraction.client.seat import Seat

    from .keys import server_vkey_arg

    seed = read_seat_key(args.key)
    vkey = server_vkey_arg(args.server_key) if args.server_key is not None else None
    c = Client(args.server, tls_ca=args.tls_ca)
    try:
        reach(c, args.server)
    except BaseException:
        c.close()
        raise
    seat = Seat(c, args.game_id, args.seat, seed, entropy=_entropy(args),
                server_vkey=vkey, checkpoint_file=args.checkpoint or f"{args.key}.{args.game_id}.checkpoint",
                names=names, on_fault=_say_fault)
    return c, seat


def _say_fault(message: str) -> None:
    """A server fault the seat's client found (SPEC.md 7.5: a missing or bad receipt): told, and kept."""
    print(f"SERVER FAULT (kept in the evidence folder): {message}", file=sys.stderr, flush=True)


def _entropy(args) -> bytes:
    """The seat's handshake entropy, kept beside the key so a restarted client can reveal it."""
    path = f"{args.key}.{args.game_id}.entropy"
    try:
        with open(path) as f:
            return bytes.fromhex(f.read().strip())
    except FileNotFoundError:
        e = os.urandom(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(e.hex() + "\n")
        return e


def describe(cmd) -> str:
    from google.protobuf import text_format

    return text_format.MessageToString(cmd, as_one_line=True)


def cmd_play(args) -> int:
    from afteraction.client.client import ClientError

    from . import play_text

    c, seat = _seat(args, names=not args.json)  # the choices in words (the machine forms need none)
    term = _PlayTerminal(args, seat)
    with c:
        term.waiting(seat)
        while True:
            try:
                out = seat.play(term.choose, term.show, on_offer=_accept_offer)
                break
            except ClientError as e:  # our answer refused by the referee: it said why; the game waits still
                if not str(e).startswith("command refused:") or e.reason in ("", "UNKNOWN_GAME", "WRONG_SEAT"):
                    raise
                print(f"refused: {e.reason}: {str(e).split(': ', 2)[-1]}; answer again", flush=True)
    print(play_text.outcome_words(out))
    print(f"game over: {json.dumps(out, sort_keys=True, default=str)}")
    if seat.withheld:  # SPEC.md 8.2: a time-out or abandonment where this seat holds its answer
        print(f"NOT COSIGNED: {seat.withheld}. Kept: {seat.evidence_folder} and {seat.checkpoint_file}.refused-*",
              flush=True)
    return 0


def _accept_offer(o) -> bool:
    """`aar play`: another seat's offer of a result (SPEC.md 8.1), accepted when the player says y."""
    what = "a draw" if o[2] is None else f"seat {o[2]} wins"
    try:
        return input(f"seat {o[1]} offers a result: {what}. Accept? [y/N] ").strip().lower() == "y"
    except EOFError:
        return False


def _overtaken(now, name: str) -> bool:
    """The decision shown is no longer this seat's: an offer accepted, a time-out, the other seat's move."""
    return now.ended or now.decision.seat != name


class _PlayTerminal:
    """`aar play`'s terminal: each decision shown (the board summary and what changed, or the
    machine forms with --json) and answered by the player; the stream's news printed between."""

    def __init__(self, args, seat) -> None:
        self.args = args
        self.seat = seat
        self.last: list[str] = []  # the summary at the last prompt, to say what changed since
        self.game = ""  # the ruleset's name, from genesis or the first state read

    def choose(self, name, legal):
        st = self.seat.state()
        if _overtaken(st, name):
            return None
        view = json.loads(st.view_json)
        self.game = st.game
        self._print_state(name, st, view)
        menu = self._print_menu(name, st, view, legal)
        return self._answer(name, st, legal, menu)

    def _print_state(self, name, st, view) -> None:
        from . import play_text

        print(f"\n== {st.game} game {self.args.game_id}, seat {name}, state {st.state_seq} ==")
        if self.args.json:  # the machine forms: the whole view, the commands as protobuf text
            print(json.dumps(view, indent=2, sort_keys=True))
        else:
            lines = play_text.summary(st.game, view)
            new = play_text.changes(self.last, lines) if self.last else []
            print("\n".join(lines))
            if new:
                print("changed since the last prompt:")
                print("\n".join(f"  * {x.strip()}" for x in new))
            self.last[:] = lines
        print(f"decision: {st.decision.prompt}")
        if st.decision.sampled:  # the choices are examples of a space no list holds (a team, a result, losses)
            print(play_text.sampled_note(st.decision))

    def _print_menu(self, name, st, view, legal):
        """The choices, numbered (and in words, grouped, without --json), the two endings, the clock."""
        from . import play_text

        if self.args.json:
            for i, cmd in enumerate(legal, 1):
                print(f"  {i:3d}. {describe(cmd)}")
        prompt = getattr(self.seat, "prompt", None)  # the prompt being answered: its names
        if self.args.json:  # numbered as listed above
            menu = play_text.Menu([describe(c) for c in legal], [""] * len(legal))
        else:
            menu = play_text.Menu.of(list(prompt.names) if prompt is not None else None, legal,
                                     [play_text.cost_or_odds(st.game, c, view) for c in legal])
        if not self.args.json:
            print("\n".join(menu.lines()))
        print("    r. resign (the other seat wins)\n    d. offer a draw (it stands until the other seat answers it)")
        clocks = {x.seat: x for x in st.clocks.seats}
        if name in clocks and clocks[name].left_ms >= 0:
            print(f"time left for this decision: {clocks[name].left_ms / 1000:.0f} s")
        return menu

    def _answer(self, name, st, legal, menu):
        """Read the player's answer until it is one: a choice, an ending, a command in protobuf
        text (the referee judges it); None when the decision moved on while looking again."""
        from afteraction.client.client import Ending

        from . import play_text

        example = describe(legal[0]) if legal else ""
        while True:
            try:
                raw = input(f"choice 1-{len(legal)}, a name, r, d, Enter (look again) or a command> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if not raw:  # Enter: look again (the other seat may have answered an offer, or moved on)
                now = self.seat.state()
                if _overtaken(now, name) or now.state_seq != st.state_seq:
                    return None
                continue
            if raw in ("r", "d"):
                if input("sure? [y/N] ").strip().lower() == "y":
                    return Ending("resign") if raw == "r" else Ending("offer")
                continue
            if raw == "?":
                print(play_text.what_the_rules_allow(st.decision, example))
                continue
            if play_text.looks_like_protobuf(raw):
                cmd, why = play_text.parse_answer(raw, st.game, type(legal[0]) if legal else None)
                if cmd is not None:
                    return cmd  # any answer: the referee judges it (a refusal names the rule, then we ask again)
                print(f"that is not a command in protobuf text ({why}); e.g. {example}. {menu.hint()}")
                continue
            i, lines = menu.pick(raw)
            if lines:
                print("\n".join(lines))
            if i is not None:
                return legal[i]

    def show(self, s, m) -> None:
        """A message of the Play stream: a record as the game report, a private opening, a refusal, our
        command accepted (then whose turn it is)."""
        from afteraction.client.client import TRANSIENT

        k = m.WhichOneof("kind")
        if k == "record" and m.record.seq == 0:  # genesis names the game whose records we describe
            from afteraction.engine.protocol import parse_record

            self.game = parse_record(m.record.record).body["ruleset"]["game"]
        if k == "record" and m.record.seq >= s.next_seq - 1:
            if self.args.json:
                print(f"  log {m.record.seq}: {record_line(m.record.record)}")
            else:
                for j, line in enumerate(record_words(self.game, m.record.record)):
                    print(f"  log {m.record.seq}: {line}" if j == 0 else f"          {line}")
        elif k == "opening" and m.opening.k > 0:
            print(f"  (private to you) {m.opening.value_json if self.args.json else opening_words(self.game, m.opening)}")
        elif k == "rejected" and m.rejected.reason not in TRANSIENT:  # a race the seat retries is not news
            print(f"refused: {m.rejected.reason}: {m.rejected.message}")
        elif k == "accepted":
            self.waiting(s)

    def waiting(self, s) -> None:
        """After our command: whose turn it is now, if not ours (the stream is quiet meanwhile)."""
        st = s.state()
        if not st.ended and st.HasField("decision") and st.decision.seat not in (self.args.seat, "*"):
            print(f"waiting for seat {st.decision.seat}: {st.decision.prompt}", flush=True)


def record_words(game: str, raw: bytes) -> list[str]:
    """A record as a game report (engine/names.py: its public content only), at least one line."""
    from afteraction.engine import names
    from afteraction.engine.protocol import parse_record

    rec = parse_record(raw)
    return names.record_lines(game, rec.kind, rec.body) or [rec.kind]


def opening_words(game: str, opening) -> str:
    """A hidden value opened for this seat in words (an event: the game's report of it), else its JSON."""
    from afteraction.engine import names

    try:
        value = json.loads(opening.value_json)
    except ValueError:
        return opening.value_json
    text = names.namer_class(game)(None, None).event(value) if isinstance(value, dict) and "t" in value else None
    return text or opening.value_json


def record_line(raw: bytes) -> str:
    """One line per record: who, and its public events (sealed ones only as such)."""
    from afteraction.engine.protocol import parse_record

    rec = parse_record(raw)
    b = rec.body
    who = f"{b['seat']}#{b['ctr']} " if "seat" in b else ""
    evs = []
    for e in b.get("events", []):
        t = e.get("t")
        if t == "sealed":
            evs.append(f"sealed->{e.get('to')}")
        elif t == "roll":
            evs.append(f"roll {e.get('die')}={e.get('result')} ({e.get('rule')})")
        elif t == "open":
            evs.append(f"reveal {e.get('value')}")
        else:
            evs.append(json.dumps({k: v for k, v in e.items() if not isinstance(v, bytes)}, sort_keys=True))
    if "sealed" in b:
        evs.insert(0, "sealed command")
    return f"{rec.kind} {who}{'; '.join(evs)}"


def cmd_bot(args) -> int:
    from afteraction.engine.bots import random_bot

    c, seat = _seat(args)
    n = [0]

    def progress(s, m):
        if m.WhichOneof("kind") == "accepted":
            n[0] += 1
            if not args.quiet and n[0] % 10 == 0:
                print(f"\rbot {s.seat}: {n[0]} commands, log at {s.next_seq}", end="", file=sys.stderr, flush=True)

    with c:
        out = seat.play(random_bot(args.seed if args.seed is not None else os.urandom(8)), progress)
    print(f"\nbot {args.seat}: game over after {n[0]} commands: {json.dumps(out, sort_keys=True, default=str)}")
    return 0


def cmd_watch(args) -> int:
    from afteraction.client.client import Client

    from afteraction.engine.protocol import parse_record

    end = []

    def show(r):  # every record (each verified), shown from --from on
        if r.seq >= args.from_seq:
            print(f"{r.seq:6d} {record_line(r.record)}", flush=True)
        rec = parse_record(r.record)
        if rec.kind == "end":
            end.append(rec.body.get("outcome"))

    from .keys import server_vkey_arg

    vkey = server_vkey_arg(args.server_key) if args.server_key is not None else None
    with Client(args.server, tls_ca=args.tls_ca) as c:
        v = c.watch(args.game_id, show, 0, server_vkey=vkey)
    if end:
        print(f"game over: {json.dumps(end[0], sort_keys=True, default=str)}", flush=True)
    print(f"{v.tree.size} records and their checkpoints verified (aar verify's steps 1-8; "
          f"export the log to check the dice and the replay)", file=sys.stderr)
    return 0


def cmd_export(args) -> int:
    from afteraction.client.client import Client

    with Client(args.server, tls_ca=args.tls_ca) as c:
        data = c.export(args.game_id)
        with open(args.out, "wb") as f:
            f.write(data)
        vkey = c.game_vkey(args.game_id)   # the key this game's genesis names (a rotated server: not its newest)
        print(f"{args.out}: {len(data)} bytes; server key {vkey}")
    print(f"verify it with: aar verify {args.out} --server-key '{vkey}'")
    return 0


# -- the server: serve_cmd.py ---------------------------------------------------------
def cmd_demo(args) -> int:
    if args.league:  # The league demo through the LeagueService (clients/cli/league/demo.py)
        from .league.demo import run

        return run(os.path.join(args.out, "league"), args.seed)
    if args.end:  # SPEC.md 8.1-8.2: a game that ends by resignation, agreement, time-out, abandonment
        from .demo import default_game
        from .demo_end import run_demo_end

        return run_demo_end(args.game or default_game()[0], args.end, args.seed, args.out)
    from .demo import run_demo

    return run_demo(args.game, args.seed, args.out, args.scenario)


SEATS = "seats: sog: sog, nva; gmv: us, nva; ntnd: communist, allied; duel: a, b"


def _parser(sub, name: str, help_: str, example: str):
    import argparse

    return sub.add_parser(name, help=help_, description=help_[:1].upper() + help_[1:] + ".",
                          formatter_class=argparse.RawDescriptionHelpFormatter,
                          epilog=f"{SEATS}\nexample: {example}")


def _tls_ca(p) -> None:
    p.add_argument("--tls-ca", help="PEM CA certificate(s): connect with TLS and trust these (aar serve --tls-cert)")


def register(sub) -> None:
    """The subcommands of this module (and games_cmd's, serve_cmd's), in the order `aar --help` lists them."""
    _register_keygen(sub)
    _register_new(sub)
    _register_seat_players(sub)
    _register_watch(sub)

    from .games_cmd import register as register_games

    register_games(sub, _parser, _tls_ca, DEFAULT_SERVER)

    _register_export(sub)

    from .serve_cmd import register_serve

    register_serve(_parser(sub, "serve", "run the gRPC server", "aar serve --listen 127.0.0.1:50051 --data-dir data"))

    _register_demo(sub)


def _register_keygen(sub) -> None:
    """`aar keygen`."""
    p = _parser(sub, "keygen", "make a seat key (Ed25519) file", "aar keygen -o alice.key")
    p.add_argument("-o", "--out", default="seat.key", help="key file to write, mode 0600 (default seat.key)")
    p.set_defaults(func=cmd_keygen)


def _register_new(sub) -> None:
    """`aar new`: a game on a server, its seats, labels and time controls."""
    p = _parser(sub, "new", "create a game on a server; prints its game id",
                "aar new --game gmv --seat us=us.key --seat nva=nva.key")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"the server (default {DEFAULT_SERVER})")
    _tls_ca(p)
    p.add_argument("--game", required=True, help="ruleset: sog, gmv, ntnd, duel (required)")
    p.add_argument("--scenario", default="", help="scenario (default: the ruleset's first: sog mission, "
                                                 "gmv 1965, ntnd tet, duel standard; `aar scenarios` lists all)")
    p.add_argument("--options", help="ruleset options as a JSON object (default: the ruleset's defaults)")
    p.add_argument("--seat", action="append", default=[], required=True,
                   help="SEAT=KEYFILE or SEAT=PUBLIC_KEY_HEX, once per seat of the game (required)")
    p.add_argument("--label", help="match label written into genesis, 1-128 characters (default none)")
    p.add_argument("--player", action="append", metavar="SEAT=NAME",
                   help="a player's name for a seat, 1-64 characters, written into genesis; repeatable (default none)")
    p.add_argument("--date", help="the match date YYYY-MM-DD written into genesis (default none)")
    p.add_argument("--decision-ms", type=_ms, default=0, help="time control: the longest one decision may take, "
                   "in ms (default none; docs/service.md 'Endings and time controls')")
    p.add_argument("--total-ms", type=_ms, default=0, help="time control: each seat's total clock, in ms (default none)")
    p.add_argument("--abandon-ms", type=_ms, default=0, help="the game ends abandoned after this long without any "
                   "seat acting, in ms (default: the server's, 14 days)")
    p.set_defaults(func=cmd_new)


def _register_seat_players(sub) -> None:
    """`aar play` and `aar bot`: a seat of a game, by a person or a random bot."""
    for name, fn, hlp, ex in (
            ("play", cmd_play, "play a seat interactively in the terminal: a board summary, what changed, the "
                               "log as a game report, each choice by its name in words, grouped, with its cost or "
                               "odds where the rules give them; type a choice's number, its name or part of it (g "
                               "and a group's number lists a large decision's group), or any answer the decision "
                               "allows as a command in protobuf text "
                               "(e.g. 'pick { number: 3 }'; ? shows what the rules allow); a refused answer shows "
                               "the rule and is asked again; between your turns it says whose turn it is",
             "aar play --game-id 90d0168a0be25ea9 --seat us --key us.key"),
            ("bot", cmd_bot, "play a seat with a random bot", "aar bot --game-id 90d0168a0be25ea9 --seat nva "
                                                              "--key nva.key --seed 7")):
        p = _parser(sub, name, hlp, ex)
        p.add_argument("--server", default=DEFAULT_SERVER, help=f"the server (default {DEFAULT_SERVER})")
        _tls_ca(p)
        p.add_argument("--game-id", required=True, help="the game id `aar new` printed (required)")
        p.add_argument("--seat", required=True, help="the seat to play (required; see the seat names below)")
        p.add_argument("--key", required=True, help="the seat's key file from aar keygen (required)")
        p.add_argument("--server-key", help="the server's verifier key to expect (default: the one it names)")
        p.add_argument("--checkpoint", metavar="FILE",
                       help="where to keep the latest checkpoint this seat verified, for `aar verify --checkpoint` "
                            "(default KEYFILE.GAME_ID.checkpoint)")
        if name == "bot":
            p.add_argument("--seed", help="bot seed, any text (default: random)")
            p.add_argument("--quiet", action="store_true", help="no progress line (default: progress every 10 commands)")
        else:
            p.add_argument("--json", action="store_true",
                           help="machine forms: the whole view as JSON and the choices as protobuf text "
                                "(default: a summary and words)")
        p.set_defaults(func=fn)


def _register_watch(sub) -> None:
    """`aar watch`."""
    p = _parser(sub, "watch", "follow a game's public log, checking every checkpoint",
                "aar watch 90d0168a0be25ea9 --from 0")
    p.add_argument("game_id", help="the game id")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"the server (default {DEFAULT_SERVER})")
    _tls_ca(p)
    p.add_argument("--from", dest="from_seq", type=int, default=0, help="first record to show (default 0; every record is verified from genesis)")
    p.add_argument("--server-key", help="the server's verifier key to expect (default: the one it names)")
    p.set_defaults(func=cmd_watch)


def _register_export(sub) -> None:
    """`aar export`."""
    p = _parser(sub, "export", "download a game's .aar log", "aar export 90d0168a0be25ea9 -o game.aar")
    p.add_argument("game_id", help="the game id")
    p.add_argument("-o", "--out", required=True, help="the .aar file to write (required)")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"the server (default {DEFAULT_SERVER})")
    _tls_ca(p)
    p.set_defaults(func=cmd_export)


def _register_demo(sub) -> None:
    """`aar demo`."""
    p = _parser(sub, "demo", "two bots play a whole game over gRPC; the log is exported and verified",
                "aar demo --game ntnd --scenario campaign_short --seed 2")
    p.add_argument("--game", default=None, help="ruleset: sog, gmv, ntnd, duel (default sog if available, else duel)")
    p.add_argument("--scenario", default=None, help="scenario (default: the ruleset's first; `aar scenarios GAME` "
                                                   "lists them, e.g. ntnd tet, campaign, campaign_short, rat, 1975, "
                                                   "1965_68, 1968_72, 1972_75)")
    p.add_argument("--seed", type=int, default=1, help="bot seed (default 1)")
    p.add_argument("--out", default="demo-out", help="data directory (default ./demo-out)")
    p.add_argument("--end", choices=("resign", "agree", "timeout", "abandon"),
                   help="play a few moves, then end the game this way (SPEC.md 8.1-8.2; the server's clock "
                        "is driven by the demo, nothing waits) and print the outcome and its cause")
    p.add_argument("--league", action="store_true",
                   help="instead: a small Swiss league of bots through an embedded server's LeagueService "
                        "(`aar league demo`, docs/league.md); its files go to OUT/league")
    p.set_defaults(func=cmd_demo)

