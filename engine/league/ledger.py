"""The ledger: its entries chained and in a Merkle tree with a signed checkpoint after each (the
game log's writer and tree, engine/log/writer.py and crypto/merkle.py), the ledger file (SPEC.md
15.2), the writer a league keeps and the verifier anyone runs (SPEC.md 15.8)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..crypto import canon
from ..crypto.cosign import add_cosignatures, cosignatures_of, cosigner_ids
from ..crypto.merkle import CompactTree
from ..crypto.note import Signer, open_checkpoint, parse_vkey, split_note
from ..errors import AfteractionError, CryptoError, EncodingError
from ..log.writer import LogWriter
from ..protocol import ZERO_HASH
from .entries import LEAGUE_VERSION, Author, Entry, make_entry, parse_entry
from .state import League, LeagueError, Player
from .standings import RatingsUndefined, Standings, standings

MAGIC = b"aar-league-v1\n"
MAX_LEDGER = 1 << 30


def league_origin(key_name: str, league: str) -> str:
    return f"{key_name}/league/{league}"


def write_ledger(league: str, vkey: str, entries: list[tuple[bytes, str]]) -> bytes:
    return MAGIC + canon.encode({"t": "league", "league": league, "vkey": vkey,
                                 "entries": [{"raw": r, "checkpoint": c} for r, c in entries]})


def read_ledger(data: bytes) -> tuple[str, str, list[tuple[bytes, str]]]:
    """(league id, league vkey, [(entry bytes, checkpoint note)]); EncodingError if unreadable."""
    if not data.startswith(MAGIC):
        raise EncodingError("not a league ledger (bad magic)")
    if len(data) > MAX_LEDGER:
        raise EncodingError(f"a ledger file is at most {MAX_LEDGER} bytes")
    d = canon.decode(data[len(MAGIC):])
    if type(d) is not dict or set(d) != {"t", "league", "vkey", "entries"} or d["t"] != "league" \
            or type(d["league"]) is not str or type(d["vkey"]) is not str or type(d["entries"]) is not list:
        raise EncodingError("the ledger is not a map {t: league, league, vkey, entries}")
    out = []
    for i, x in enumerate(d["entries"]):
        if type(x) is not dict or set(x) != {"raw", "checkpoint"} or type(x["raw"]) is not bytes \
                or type(x["checkpoint"]) is not str:
            raise EncodingError(f"ledger item {i} is not {{raw, checkpoint}}")
        out.append((x["raw"], x["checkpoint"]))
    if not out:
        raise EncodingError("the ledger holds no entries")
    return d["league"], d["vkey"], out


@dataclass
class LedgerWriter:
    """A league's side: signs entries with their authors' keys, chains them, signs checkpoints.
    ``bundles``: the games' bundles by hash, which result entries are checked against."""
    league: str
    signer: Signer
    bundles: dict = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.author = Author(self.signer.seed)
        self.state = League(bundles=self.bundles)
        self.origin = league_origin(self.signer.name, self.league)
        self._log = LogWriter(self.signer, self.origin)

    @property
    def vkey(self) -> str:
        return self.signer.verifier.vkey

    def append(self, kind: str, body: dict, at: int, author: Author | None = None) -> Entry:
        """Append an entry signed by ``author`` (default: the league key); LeagueError if the
        league's own rules refuse it (the ledger is then unchanged)."""
        a = author or self.author
        seq = len(self.entries)
        prev = self.entries[-1].hash if self.entries else ZERO_HASH
        e = make_entry(self.league, seq, prev, at, kind, body, a.public, a.sign(self.league, kind, body),
                       self.state.version or LEAGUE_VERSION)   # a ledger keeps its genesis's version (15.1)
        return self.add(e)

    def add(self, e: Entry) -> Entry:
        """Append an entry already signed (a player's registration, a dispute, a ruling)."""
        self.state.apply(e)
        [w] = self._log.sign([e])
        self.entries.append(e)
        self.checkpoints.append(w.checkpoint)
        return e

    def add_cosignature(self, seq: int, line: str) -> None:
        """A player's cosignature of checkpoint ``seq`` (SPEC.md 15.2), kept in the ledger file with
        the checkpoint; CryptoError (nothing kept) unless it is a registered player's and verifies."""
        note = add_cosignatures(self.checkpoints[seq], [line])
        if len(player_cosignatures(self.state, note)) <= len(player_cosignatures(self.state, self.checkpoints[seq])):
            raise CryptoError("not the cosignature of a registered player")
        self.checkpoints[seq] = note

    def genesis(self, name: str, commit: bytes, at: int, organiser: bytes) -> Entry:
        """Entry 0: ``organiser`` is the public key whose signature asks for each round (SPEC.md 15.3)."""
        return self.append("genesis", {"name": name, "origin": self.origin, "vkey": self.vkey, "commit": commit,
                                       "organiser": organiser}, at)

    def ledger(self) -> bytes:
        return write_ledger(self.league, self.vkey, [(e.raw, c) for e, c in zip(self.entries, self.checkpoints)])


@dataclass
class LedgerReport:
    league: str
    name: str
    entries: int
    vkey: str
    state: League
    standings: Standings
    cosigned: dict = field(default_factory=dict)   # player -> the largest ledger size it cosigned
    kept_checkpoint: int = 0                        # the size of the kept checkpoint matched (0: none)

    def as_dict(self) -> dict:
        s, lg = self.standings, self.state
        return {
            "verified": True, "league": self.league, "name": self.name, "entries": self.entries,
            "vkey": self.vkey, "version": lg.version,
            "organiser": lg.genesis.get("organiser"), "players": len(lg.players), "rounds": len(lg.rounds),
            "results": sum(1 for r in lg.results if not r.withdrawn),
            "policy": lg.policy,
            "registered": [{"player": p.name, "key": p.key, "entry": p.seq}
                           for p in sorted(lg.players.values(), key=lambda p: p.seq)],
            "schedule": [{"round": r.no, "entry": r.seq, "title": r.title, "pairings": [list(p) for p in r.pairs],
                          "byes": r.byes} for r in lg.rounds],
            "games": [{"game": c.game, "round": c.round, "board": c.board, "title": c.title, "first": c.first,
                       "second": c.second, "seats": list(c.seats), "winner": c.winner, "cause": c.cause,
                       "timed_out": c.cause_seat, "status": c.status} for c in s.games],
            "standings": s.table, "ratings": s.ratings,
            "head_to_head": [{"players": list(k), "record": v} for k, v in sorted(s.head_to_head.items())],
            "sides": s.sides, "cosigned": self.cosigned, "kept_checkpoint": self.kept_checkpoint,
        }


def cosigner(player: Player) -> str:
    """The "seat" under which a player cosigns the league's checkpoints (SPEC.md 15.2): its
    registration entry's seq (a name may hold spaces, which a key name cannot)."""
    return str(player.seq)


def player_cosignatures(lg: League, note: str) -> dict[str, int]:
    """The registered players whose cosignature (SPEC.md 4.5's form, 15.2) the checkpoint note
    carries, with its timestamp; CryptoError if a line named and keyed as a player's does not verify."""
    text, sigs = split_note(note)
    if len(sigs) < 2:   # the league's own signature only (open_checkpoint requires it): no cosignature
        return {}
    keys = {cosigner(p): p.key for p in lg.players.values()}
    names = {cosigner(p): p.name for p in lg.players.values()}
    got = cosignatures_of(text, sigs, cosigner_ids(text.split("\n", 1)[0], keys), keys)
    return {names[s]: ts for s, ts in got.items()}


def verify_ledger(data: bytes, bundles: Mapping[bytes, bytes], pinned_vkey: str | None = None,
                  facts_of=None, kept_checkpoint: str | None = None) -> LedgerReport:
    """Verify a ledger file with the bundles of its games (hash -> bytes). Raises LeagueError with
    the entry that fails (seq None: the file itself is unreadable). ``kept_checkpoint``: a league
    checkpoint a player kept (or cosigned): the ledger must hold its size with the same root."""
    league, vkey, items, verifier, kept = _open_ledger(data, pinned_vkey, kept_checkpoint)
    lg = League(bundles=bundles, **({} if facts_of is None else {"facts_of": facts_of}))
    cosigned: dict[str, int] = {}
    tree = CompactTree()
    prev = ZERO_HASH
    origin = None
    for seq, (raw, note) in enumerate(items):
        e = _chained_entry(seq, raw, prev, league)
        tree.append(e.leaf)
        if seq == 0:
            origin = _genesis_origin(e, vkey)
        _check_entry_checkpoint(seq, e, note, verifier, origin, tree)
        lg.apply(e)
        try:
            for name in player_cosignatures(lg, note):
                cosigned[name] = tree.size
        except AfteractionError as x:
            raise LeagueError(seq, e.kind, "cosignature", str(x)) from None
        if kept is not None and kept.size == tree.size and kept.root != tree.root():
            raise LeagueError(seq, e.kind, "kept checkpoint", "the ledger has another root at the kept checkpoint's "
                                                             "size: the league showed another history")
        prev = e.hash
    if kept is not None and kept.size > len(items):
        raise LeagueError(len(items) - 1, lg.kinds[len(items) - 1], "kept checkpoint",
                          f"the ledger has {len(items)} entries, the kept checkpoint {kept.size}: entries were removed")
    try:
        final = standings(lg, lg.now)
    except RatingsUndefined as x:
        raise LeagueError(len(items) - 1, lg.kinds[len(items) - 1], "ratings", str(x)) from None
    return LedgerReport(league, lg.genesis["name"], len(items), vkey, lg, final, cosigned,
                        0 if kept is None else kept.size)


def _open_ledger(data: bytes, pinned_vkey: str | None, kept_checkpoint: str | None):
    """The file as a whole, before any entry: readable, under the pinned key if one is given, that
    key a verifier key, and a kept checkpoint signed by it. (league, vkey, items, verifier, kept)."""
    try:
        league, vkey, items = read_ledger(data)
    except EncodingError as e:
        raise LeagueError(None, "ledger", "unreadable", str(e)) from None
    if pinned_vkey is not None and pinned_vkey != vkey:
        raise LeagueError(None, "ledger", "the league key differs from the pinned key", f"found {vkey}")
    try:
        verifier = parse_vkey(vkey)
    except AfteractionError as e:
        raise LeagueError(None, "ledger", "the league key is not a verifier key", str(e)) from None
    kept = None
    if kept_checkpoint is not None:
        try:
            kept = open_checkpoint(kept_checkpoint, verifier)
        except AfteractionError as e:
            raise LeagueError(None, "ledger", "the kept checkpoint is not signed by the league key", str(e)) from None
    return league, vkey, items, verifier, kept


def _chained_entry(seq: int, raw: bytes, prev: bytes, league: str):
    """Entry ``seq``, read, continuing the chain after ``prev``, of this league."""
    try:
        e = parse_entry(raw)
    except EncodingError as x:
        raise LeagueError(seq, "?", "encoding", str(x)) from None
    if e.seq != seq or e.prev != prev:
        raise LeagueError(seq, e.kind, "chain", f"seq {e.seq} and prev must continue the ledger")
    if e.league != league:
        raise LeagueError(seq, e.kind, "league", f"expected {league!r}, found {e.league!r}")
    return e


def _genesis_origin(e, vkey: str):
    """The genesis entry names the file's league key; its origin is every checkpoint's."""
    origin = e.body.get("origin") if type(e.body) is dict else None
    if type(e.body) is dict and e.body.get("vkey") != vkey:
        raise LeagueError(0, e.kind, "vkey", "the genesis names another league key than the file")
    return origin


def _check_entry_checkpoint(seq: int, e, note: str, verifier, origin, tree: CompactTree) -> None:
    """The entry's checkpoint is signed by the league key and is of the ledger up to the entry."""
    try:
        cp = open_checkpoint(note, verifier)
    except AfteractionError as x:
        raise LeagueError(seq, e.kind, "checkpoint", str(x)) from None
    if (cp.origin, cp.size, cp.root) != (origin, tree.size, tree.root()):
        raise LeagueError(seq, e.kind, "checkpoint", "the checkpoint is not of the ledger up to this entry")
