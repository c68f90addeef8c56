"""A whole league in one process, without I/O (as engine/local.py is a whole game): a ledger
written by ledger.py's LedgerWriter whose games are real games played in process by seeded bots
with the registered players' keys (LocalGame). Tests, fixtures and benchmarks use it; every key,
seed and secret comes from ``derive_bytes``, so it is for them only, never for a real league."""
from __future__ import annotations

from .. import registry
from ..bots import random_bot
from ..crypto import canon
from ..crypto.cosign import add_cosignatures, cosign
from ..crypto.note import Signer
from ..local import LocalGame, derive_bytes
from ..log.writer import LogWriter
from ..protocol import ZERO_HASH
from ..referee import Referee
from ..seat import SeatSigner
from .entries import Author, Entry, bundle_hash, make_entry, organiser_statement, seed_commitment
from .fixed import ONE
from .ledger import LedgerWriter, cosigner, league_origin, write_ledger
from .standings import published
from ..errors import InternalValueError

LEAGUE = "spring"


def policy(version: int = 1, **over) -> dict:
    p = {
        "version": version,
        "titles": [{"game": "duel", "scenario": "standard"}],
        "pairing": "swiss",
        "rounds": 6,
        "points": {"win": [1, 1], "draw": [1, 2], "loss": [0, 1], "bye": [1, 1]},
        "endings": {"rules": "count", "resign": "count", "agree": "count", "timeout": "count", "abandon": "void"},
        "min_decisions": {"rules": 0, "resign": 0, "agree": 2, "timeout": 0, "abandon": 0},
        "window": 60_000,
        "repeat_cap": 0,
        "rating": {"system": "glicko2", "r": 1500 * ONE, "rd": 350 * ONE, "sigma": 6 * ONE // 100,
                   "tau": ONE // 2, "epsilon": ONE // 10**6, "provisional": 110 * ONE},
        "arbiters": [],
    }
    p.update(over)
    return p


class LocalLeague:
    """``players`` players, the league key, a games server key and an arbiter, all derived from
    ``seed``; the genesis, policy (``policy`` with ``policy_over``) and registrations written.
    Time starts at 1_000_000 ms and each entry adds a second (``tick``)."""

    def __init__(self, players: int = 4, seed: bytes = b"league", league: str = LEAGUE,
                 name: str = "Spring duel league", **policy_over) -> None:
        self.seed = seed
        self.key = Signer("league.test", derive_bytes(seed, "league-key"))
        self.games_key = Signer("games.test", derive_bytes(seed, "games-key"))
        self.bundles: dict[bytes, bytes] = {}
        self.files: dict[str, bytes] = {}   # game id -> bundle
        self.league = league
        self.w = LedgerWriter(league, self.key, bundles=self.bundles)
        self.at = 1_000_000
        self.arbiter = Author(derive_bytes(seed, "arbiter"))
        self.organiser = Author(derive_bytes(seed, "organiser"))
        self.w.genesis(name, seed_commitment(self.league, 1, self.round_seed(1)), self.tick(), self.organiser.public)
        self.append("policy", policy(arbiters=[self.arbiter.public], **policy_over))
        self.players = {}
        for i in range(players):
            self.register(f"player{i + 1}")

    def tick(self, ms: int = 1000) -> int:
        self.at += ms
        return self.at

    def append(self, kind: str, body: dict, author=None, ms: int = 1000):
        return self.w.append(kind, body, self.tick(ms), author)

    def register(self, name: str) -> None:
        seed = derive_bytes(self.seed, f"player/{name}")
        a = Author(seed)
        self.players[name] = seed
        self.append("player", {"name": name, "key": a.public}, a)

    def round_seed(self, no: int) -> bytes:
        return derive_bytes(self.seed, f"round-seed/{no}")

    def round_body(self, title: dict | None = None) -> dict:
        """The next round's entry: its seed revealed, the pairing it gives, the next commitment."""
        no = len(self.w.state.rounds) + 1
        seed = self.round_seed(no)
        pairs, byes = self.w.state.pairing(no, seed)
        title = title or {"game": "duel", "scenario": "standard"}
        return {"round": no, "title": title, "seed": seed,
                "next": seed_commitment(self.league, no + 1, self.round_seed(no + 1)),
                "pairings": [list(p) for p in pairs], "byes": byes, "asked": self.asked(title)}

    def asked(self, title: dict, seq: int | None = None) -> bytes:
        """The organiser's signature asking for a round of ``title`` as entry ``seq`` (default: next)."""
        seq = len(self.w.entries) if seq is None else seq
        return self.organiser._key.sign(organiser_statement(self.league, "OpenRound", seq, title))

    def round(self, title: dict | None = None):
        body = self.round_body(title)
        self.append("round", body)
        return [tuple(p) for p in body["pairings"]], body["byes"]

    def make_game(self, no: int, board: int, *, label: str | None = None, swap: bool = False,
                  keys: dict | None = None, game_id: str | None = None, clock: dict | None = None) -> LocalGame:
        """The game of round ``no`` board ``board`` (``swap``, ``keys``, ``label``: forgeries;
        ``clock``: a time control, the game's time starting at the league's)."""
        rnd = self.w.state.rounds[no - 1]
        first, second = rnd.pairs[board - 1]
        if swap:
            first, second = second, first
        rs = registry.get(rnd.title["game"])
        seeds = {rs.seats[0]: self.players[first], rs.seats[1]: self.players[second]}
        seeds.update(keys or {})
        seats = {s: SeatSigner(s, k) for s, k in seeds.items()}
        gid = game_id or f"{self.league}-{no}-{board}"
        secret = derive_bytes(self.seed, f"secret/{gid}")
        match = {"label": label or f"{self.league} round {no} board {board}",
                 "players": {rs.seats[0]: first, rs.seats[1]: second}}
        genesis = Referee.new_genesis(gid, rs, rnd.title["scenario"], {}, {s: k.public for s, k in seats.items()},
                                      self.games_key.verifier.vkey, f"games.test/game/{gid}", secret, match=match,
                                      clock=clock, now=self.at if clock else None)
        g = LocalGame.start(Referee(genesis, rs, secret), self.games_key, seats,
                            {s: derive_bytes(self.seed, f"entropy/{gid}/{s}") for s in seats})
        g.now = self.at if clock else None
        g.league_pair = (first, second)
        return g

    def game_entry(self, no: int, board: int, g: LocalGame):
        return self.append("game", {"round": no, "board": board, "game": g.referee.game_id,
                                    "server": self.games_key.verifier.vkey, "genesis": g.records[0].hash})

    def finish(self, g: LocalGame, bot: int = 1, resign: str | None = None, agree: bool = False,
               timeout: bool = False) -> None:
        """Play ``g`` to its end: by the bots, or at once after the handshake by ``resign`` (a
        seat), an agreed draw (``agree``), or a time-out of the seat to move (``timeout``: the game's
        clock runs past its decision limit)."""
        g.handshake()
        gid = g.referee.game_id
        if resign:
            g.submit(g.seats[resign].resign(gid, g.head()))
        elif agree:
            a, b = g.referee.ruleset.seats
            g.submit(g.seats[a].offer(gid, g.head(), None))
            g.submit(g.seats[b].accept(gid, g.head(), g.referee.seq - 1, None))
        elif timeout:
            # the seat to move answers, but its envelope reaches the server too late: it keeps it
            # (SPEC.md 8.2, the evidence of a contested time-out)
            d = g.referee.pending()
            legal = g.referee.ruleset.legal_commands(g.referee.state, d.seat)
            g.kept_envelope = g.seats[d.seat].command(gid, g.referee.seq, legal[0], g.head())
            g.now += g.referee.genesis.body["clock"]["decision"] + 1
            g.expire()
        else:
            g.run_bots(random_bot(bot))

    def result_body(self, g: LocalGame, cosigned: tuple[str, ...] = ("a", "b"), bundle: bytes | None = None) -> dict:
        """The result of ``g`` cosigned by the seats ``cosigned``; its bundle (unless given) holds the
        final checkpoint with those cosignatures, as a league server's export does (SPEC.md 9)."""
        note = g.checkpoints[-1]
        origin = g.referee.genesis.body["server"]["origin"]
        text = note[: note.rfind("\n\n") + 1]
        lines = [cosign(text, origin, s, g.seats[s].seed, 1) for s in cosigned]
        if bundle is None:
            g.checkpoints[-1] = add_cosignatures(note, lines)
            try:
                bundle = g.bundle()
            finally:
                g.checkpoints[-1] = note
        h = bundle_hash(bundle)
        self.bundles[h] = bundle
        self.files[g.referee.game_id] = bundle
        outcome = g.records[-1].body["outcome"]
        cause = g.records[-1].body.get("cause", {"kind": "rules"})["kind"]
        rs = g.referee.ruleset
        w = outcome.get("winner")
        first, second = g.league_pair
        winner = None if w is None else (first if w == rs.seats[0] else second)
        return {"game": g.referee.game_id, "bundle": h, "checkpoint": add_cosignatures(note, lines),
                "winner": winner, "cause": cause}

    def play_round(self, bot: int = 1, cosigned: tuple[str, ...] = ("a", "b")):
        pairs, byes = self.round()
        no = len(self.w.state.rounds)
        for b in range(1, len(pairs) + 1):
            g = self.make_game(no, b)
            self.game_entry(no, b, g)
            self.finish(g, bot=bot * 100 + no * 10 + b)
            self.append("result", self.result_body(g, cosigned))
        return pairs, byes

    def publish(self):
        # the standings as of the entry about to be appended (its time is the next tick)
        return self.append("standings", published(self.w.state, self.at + 1000))

    def ledger(self) -> bytes:
        return self.w.ledger()

    def cosign(self, player: str, seq: int | None = None, timestamp: int = 1) -> str:
        """``player`` cosigns the league's checkpoint after entry ``seq`` (default the last one),
        as a seat cosigns a game's (SPEC.md 15.2); the line is kept with the checkpoint."""
        seq = len(self.w.entries) - 1 if seq is None else seq
        note = self.w.checkpoints[seq]
        text = note[: note.rfind("\n\n") + 1]
        line = cosign(text, self.w.origin, cosigner(self.w.state.players[player]), self.players[player], timestamp)
        self.w.add_cosignature(seq, line)
        return line

    def lines(self) -> list[tuple[bytes, str]]:
        return [(e.raw, c) for e, c in zip(self.w.entries, self.w.checkpoints)]

    # -- forgeries (tests and fixtures): what someone holding the league key could write ---------
    def resigned(self, edit, upto: int | None = None, versions: dict[int, int] | None = None) -> bytes:
        """The ledger (its first ``upto`` entries) rewritten: ``edit(seq, body) -> body`` changes
        entries, which the league key signs again (the players' and arbiters' own entries keep their
        signatures: only the league's may change), chained and checkpointed again, without the
        league's own checks; ``versions`` (seq -> league version) writes those entries in another."""
        return resign_ledger(self.key, self.league, self.w.entries[:upto], edit, versions)

    def with_entry(self, kind: str, body: dict, author: Author | None = None) -> bytes:
        """The ledger with one more entry the league's checks would refuse, signed by ``author``
        (default the league key), chained and checkpointed by the league key."""
        a = author or self.w.author
        log = LogWriter(self.key, self.w.origin)
        log.follow(self.w.entries)
        prev = self.w.entries[-1].hash
        e = make_entry(self.league, len(self.w.entries), prev, self.at + 1000, kind, body, a.public,
                       a.sign(self.league, kind, body), self.w.state.version)
        [w] = log.sign([e])
        return write_ledger(self.league, self.w.vkey, self.lines() + [(e.raw, w.checkpoint)])


def resign_ledger(key: Signer, league: str, entries: list[Entry], edit, versions: dict[int, int] | None = None) -> bytes:
    """A forgery by the holder of the league key ``key`` (tests and fixtures): ``entries`` with
    ``edit(seq, body) -> body`` applied, the league's own changed entries signed again, each entry
    in its league version unless ``versions`` (seq -> version) says another, chained and
    checkpointed again, without the league's checks."""
    author, origin = Author(key.seed), league_origin(key.name, league)
    log = LogWriter(key, origin)
    out, prev = [], ZERO_HASH
    for e in entries:
        body = edit(e.seq, canon.decode(canon.encode(e.body)))
        by, sig = e.by, e.sig
        if body != e.body:
            if by != author.public:
                raise InternalValueError("only the league's own entries can be signed again")
            sig = author.sign(league, e.kind, body)
        n = make_entry(league, e.seq, prev, e.at, e.kind, body, by, sig, (versions or {}).get(e.seq, e.v))
        [w] = log.sign([n])
        out.append((n.raw, w.checkpoint))
        prev = n.hash
    return write_ledger(league, key.verifier.vkey, out)
