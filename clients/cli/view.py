"""``aar view LOG -o replay.html [--seat SEAT]``: one self-contained page to replay a game and
check its crypto in the browser.

The page is one HTML file: inline CSS and JavaScript (``view_page.html``; ``view_lib.js``, generated
from the web client's library by ``make web``, and ``view_page.js`` joined in that order,
``SCRIPTS``; shipped as package data), no network, no external file, so it opens from an email
attachment. It embeds:

- the log itself, record bytes and checkpoint notes exactly as in the bundle, and the bundle
  header's server key and secret: the page checks these itself (WebCrypto SHA-256, HMAC,
  Ed25519, and view_lib.js): the hash chain, every checkpoint's signature, size and Merkle root,
  every seat signature, the entropy handshake, the endings (SPEC.md 8.1-8.3), the server secret
  against genesis, every die re-derived, every public opening against its commitment, and once
  the game has ended every sealed value, opened with the published secret;
- the openings of the sealed values (salt and canonical value bytes) this command takes from the
  ciphertexts with the server secret: the page's own opening of each must be the same; in a game
  in progress, the chosen seat's own, which the page checks against their commitments;
- the rules replay, done here by the engine's Verifier (the page cannot run the rules): the
  board after every record as the chosen seat (or a spectator) saw it, drawn by the game's
  render module as a static base plus per-record diffs of its layers, and the decision each
  command answered. The page says that it takes these from the file.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import sys
from importlib import resources

from afteraction.engine.crypto import canon
from afteraction.engine.errors import AfteractionError
from afteraction.engine.registry import game_module
from afteraction.v1 import envelope_pb2

from .logwalk import Unreadable, jsonable, load, walk

SCHEMA_ID = "afteraction/view/1"


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def proto_schema() -> dict:
    """Field numbers -> (name, type, message) of CommandEnvelope and everything it contains, from
    the descriptors, so the page decodes whatever fields the envelope has without a list here."""
    seen: dict[str, dict] = {}

    def visit(m):
        if m.full_name in seen:
            return
        seen[m.full_name] = {str(f.number): [f.name, f.type, f.message_type.full_name if f.message_type else None]
                             for f in m.fields}
        for f in m.fields:
            if f.message_type is not None:
                visit(f.message_type)

    visit(envelope_pb2.CommandEnvelope.DESCRIPTOR)
    return {"root": envelope_pb2.CommandEnvelope.DESCRIPTOR.full_name, "messages": seen}


def build(path: str, seat: str | None) -> tuple[dict, object]:
    header, frames, tail_error = load(path)
    boards = _Boards(seat)
    board = boards.board
    w = walk(header, frames, on_record=boards.on_record, tail_error=tail_error)
    if w.genesis is not None and seat is not None:
        seats = [s["name"] for s in w.genesis.body.get("seats", [])]
        if seat not in seats:
            raise Unreadable(f"this game has seats {', '.join(seats)} (or spectator), not {seat!r}")
    while len(board["frames"]) < len(frames):
        board["frames"].append(None)
    if w.secret is None:
        board["error"] = ("game in progress: the bundle has no server secret, so the rules cannot be replayed "
                          "offline (the state depends on sealed values): no board pictures")
    elif w.failure is not None:
        board["error"] = (f"the rules replay stopped at record {w.failure.seq}: the engine's Verifier refused the "
                          f"log there ({w.failure})")
    return _page_data(header, frames, w, seat, board), w


class _Boards:
    """The board pictures the replay draws, record by record (the Verifier's ``on_record``): each
    frame the layers that changed since the one before, None where the replay has no state."""

    def __init__(self, seat: str | None) -> None:
        self.seat = seat
        self.board = {"frames": [], "base": None, "tail": None, "error": None}
        self.prev: dict = {}
        self.mod = None      # the game's render module; False: a ruleset without a picture

    def on_record(self, seq, v) -> None:
        ref = v.referee
        board = self.board
        while len(board["frames"]) < seq:
            board["frames"].append(None)
        if ref is None or ref.state is None:
            board["frames"].append(None)
            return
        if self.mod is None:
            self._start(ref.ruleset)
        seat = self.seat
        if seat is not None and seat not in ref.ruleset.seats:
            raise Unreadable(f"{ref.ruleset.game} has seats {', '.join(ref.ruleset.seats)} (or spectator), "
                             f"not {seat!r}")
        view = ref.ruleset.view(ref.state, seat)
        if self.mod:
            layers = self.mod.layers(view, f"{ref.ruleset.game.upper()} after record {seq} as seen by "
                                           f"{seat or 'a spectator'}")
        else:
            from html import escape

            layers = {"view": escape(json.dumps(jsonable(view), sort_keys=True, indent=1))}
        prev = self.prev
        diff = {k: val for k, val in layers.items() if prev.get(k) != val}
        diff.update({k: None for k in prev if k not in layers})
        board["frames"].append(diff)
        self.prev = layers

    def _start(self, ruleset) -> None:
        """At the first state: the game's picture (its static base and closing tag), or text."""
        try:
            self.mod = game_module(ruleset.game, "render")
        except ModuleNotFoundError:
            self.mod = False
        if self.mod:
            self.board["base"], self.board["tail"] = self.mod.base()
        else:  # a ruleset without a picture (the duel): its view as text
            self.board["base"], self.board["tail"] = '<pre class="view">', "</pre>"


def _page_data(header: dict, frames: list, w, seat: str | None, board: dict) -> dict:
    """The page's one JSON object: the log itself (records, openings, secret), the decisions and
    board pictures of the replay, the schema, and what this command line verified."""
    g = w.genesis
    openings = {f"{seq}:{k}": [_b64(h.opening.salt), _b64(canon.encode(h.opening.value))]
                for (seq, k), h in sorted(w.hidden.items()) if h.opening is not None}
    return {
        "schema": SCHEMA_ID,
        "game": w.game,
        "ruleset": f"{g.body['ruleset']['game']}/{g.body['ruleset']['version']}" if g else None,
        "seat": seat,
        "server_vkey": header.get("server_vkey"),
        "header_records": header.get("records"),
        "secret": _b64(w.secret) if w.secret is not None else None,
        "records": [[_b64(raw), cp] for raw, cp in frames],
        "openings": openings,
        "decisions": {str(k): jsonable(d) for k, d in w.decisions.items()},
        "board": board,
        "proto": proto_schema(),
        "cli": {"verified": w.failure is None, "verified_through": w.verified_through,
                "failure": str(w.failure) if w.failure is not None else None,
                "failure_seq": w.failure.seq if w.failure is not None else None,
                "notes": list(w.report.notes) if w.report is not None else [],
                # the ruleset version the rules replay ran (SPEC.md 10.4), "" when not replayed
                "replayed_with": w.report.replayed_with if w.report is not None else ""},
    }


#: the page's scripts, joined in this order into its one <script> (package data of afteraction.cli)
SCRIPTS = ("view_lib.js", "view_page.js")
#: the template's markers, each replaced once, in one pass (``page``)
MARKERS = ("%%CSP%%", "/*%%DATA%%*/", "/*%%SCRIPT%%*/")
#: inside the JSON block: "</" could close the element, "<!--" open a comment; U+2028/2029 end a
#: line in older JavaScript. \u escapes keep the JSON equal.
JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def page(data: dict) -> str:
    """The page: the template with its policy, the data and the script put in, in one pass, so
    nothing in the data is ever read as a marker or as markup. The data is one JSON block (type
    application/json: never run, read by the script with JSON.parse of its text); the policy
    allows no network, no script but the page's own inline one (by its SHA-256) and no style but
    its own <style> element (by its SHA-256): a handler or script a log smuggled in would not run."""
    pkg = resources.files("afteraction.cli")
    html = (pkg / "view_page.html").read_text(encoding="utf-8")
    # in this order: view_lib.js (generated from the web library: bytes, hashes, SPEC.md 1.1, 4, 6.2, 7.4,
    # 8.1-8.3) before view_page.js, which runs at once and takes from it
    js = "".join((pkg / name).read_text(encoding="utf-8") for name in SCRIPTS)
    js = re.sub(r"</(?=script)", lambda _: "<\\/", js, flags=re.I)   # the same string or regex in JavaScript
    if "<!--" in js:
        raise ValueError("the page's script holds <!--, which changes how HTML reads a script element")
    style = re.search(r"<style>(.*?)</style>", html, re.S)
    blob = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    blob = re.sub("[<>&\u2028\u2029]", lambda m: JSON_ESCAPES[m.group(0)], blob)
    csp = (f"default-src 'none'; script-src {_sha256(js)}; style-src {_sha256(style.group(1))}; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    parts = dict(zip(MARKERS, (csp, blob, js)))
    if any(html.count(m) != 1 for m in MARKERS):
        raise ValueError(f"view_page.html must hold each of {MARKERS} once")
    return re.sub("|".join(re.escape(m) for m in MARKERS), lambda m: parts[m.group(0)], html)


def cmd_view(args: argparse.Namespace) -> int:
    seat = None if args.seat in (None, "spectator") else args.seat
    try:
        data, w = build(args.file, seat)
    except (Unreadable, AfteractionError) as e:
        print(f"aar view: {e}", file=sys.stderr)
        return 2
    text = page(data)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    size = len(text.encode())
    print(f"wrote {args.output}: {size} bytes, {len(data['records'])} records, as seen by {seat or 'a spectator'}")
    if w.failure is not None:
        print(f"warning: the log does NOT verify: {w.failure}; the page shows where its own checks fail",
              file=sys.stderr)
        return 1
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "view", help="write one self-contained HTML page that replays a log and checks its crypto in the browser",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write a replay page of an .aar log: the board at every record (slider, step buttons, "
                    "arrow keys), the events beside it, dice with their derivation, hidden values sealed until "
                    "the record that opens them. The page checks the hash chain, the checkpoint signatures, the "
                    "seat signatures, the endings, every die and every opening itself (WebCrypto and the web "
                    "client's library); it takes the rules replay (the pictures) from the file and says so. No network, no "
                    "external files: it opens from an email attachment. Exit 0, or 1 if the log does not "
                    "verify (the page is written anyway and shows the failed check), 2 if unreadable.",
        epilog="seats: sog: sog, nva; gmv: us, nva; ntnd: communist, allied; duel: a, b; every game: spectator\n"
               "example: aar view fixtures/golden/ntnd-tet.aar --seat communist -o replay.html")
    p.add_argument("file", help="an exported .aar bundle (ended or in progress)")
    p.add_argument("-o", "--output", required=True, help="the HTML file to write (required)")
    p.add_argument("--seat", default=None,
                   help="whose view to show: a seat of the game sees its own hidden values from the moment they are "
                        "made; spectator (the default) sees them only when a record opens them")
    p.set_defaults(func=cmd_view)
