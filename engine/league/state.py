"""The league as a fold over its entries (SPEC.md 15.4): who may write each entry, what it must
agree with, and what the league is after it. ``League.apply`` raises LeagueError naming the entry;
the state is then as before the entry.

Bundles are looked up by hash through ``bundles`` (a mapping the caller fills); a result entry's
bundle is verified when the entry is applied (games.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from .. import registry
from ..crypto.ed25519 import key_problem, verify_signature
from ..crypto.note import parse_vkey
from ..errors import AfteractionError
from . import pairing
from .entries import Entry, body_problem, organiser_statement, seed_commitment, signature_ok
from .games import BundleProblem, GameFacts, cosigners, game_facts
from .standings import RatingsUndefined, counted_points, published


class LeagueError(AfteractionError):
    def __init__(self, seq: int | None, kind: str, check: str, detail: str = "") -> None:
        self.seq, self.kind, self.check, self.detail = seq, kind, check, detail
        where = f"entry {seq} ({kind})" if seq is not None else "ledger"
        super().__init__(f"{where}: {check}" + (f": {detail}" if detail else ""))

    def as_dict(self) -> dict:
        return {"verified": False, "entry": self.seq, "kind": self.kind, "check": self.check,
                "detail": self.detail, "message": str(self)}


@dataclass
class Player:
    name: str
    key: bytes
    seq: int


@dataclass
class Round:
    no: int
    seq: int
    at: int
    title: dict
    pairs: list[tuple[str, str]]
    byes: list[str]
    policy: dict


@dataclass
class Game:
    id: str
    seq: int
    round: int
    board: int
    pair: tuple[str, str]
    server: str
    genesis: bytes
    withdrawn: bool = False


@dataclass
class Result:
    seq: int
    at: int
    game: str
    body: dict
    facts: GameFacts
    cosigned: list[str]
    withdrawn: bool = False


@dataclass
class League:
    bundles: Mapping[bytes, bytes] = field(default_factory=dict)
    facts_of: Callable = game_facts  # (bundle, server vkey, seat keys) -> GameFacts
    id: str = ""
    version: int = 0      # the league version of the genesis, which every entry carries (15.2)
    genesis: dict | None = None
    league_key: bytes = b""
    policies: list[tuple[int, dict]] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    keys: dict[bytes, str] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    games: dict[str, Game] = field(default_factory=dict)
    results: list[Result] = field(default_factory=list)
    disputes: list[tuple[int, str]] = field(default_factory=list)   # (seq, game)
    rulings: list[tuple[int, str, str]] = field(default_factory=list)  # (seq, game, decision)
    statements: set = field(default_factory=set)
    kinds: dict[int, str] = field(default_factory=dict)
    withdrawn: set = field(default_factory=set)
    now: int = 0          # the time of the last entry applied
    size: int = 0         # entries applied
    next_commit: bytes = b""   # the commitment the next round's seed must open (15.6)
    # indexes (derived from the above, so each entry is applied in time independent of the ledger's size)
    _live: dict = field(default_factory=dict, repr=False)     # game id -> its live Result
    _boards: dict = field(default_factory=dict, repr=False)   # (round, board) -> [Game, ...] in entry order

    @property
    def policy(self) -> dict | None:
        return self.policies[-1][1] if self.policies else None

    def live_result(self, game: str) -> Result | None:
        """The game's result entry not withdrawn (at most one: a second is refused, 15.4)."""
        return self._live.get(game)

    def apply(self, e: Entry) -> None:
        def fail(check: str, *detail: str) -> LeagueError:
            return LeagueError(e.seq, e.kind, check, ": ".join(detail))

        if e.seq != self.size:
            raise fail("chain", f"entry {e.seq} does not follow a ledger of {self.size}")
        if e.seq > 0 and e.v != self.version:
            raise fail("version", f"an entry of league version {e.v} in a ledger of version {self.version} "
                                  "(the genesis's: every entry has it)")
        why = body_problem(e.kind, e.body, e.v)
        if why is not None:
            raise fail("body", why)
        if (e.kind == "genesis") != (e.seq == 0):
            raise fail("kind", "entry 0, and only entry 0, is the genesis")
        if e.seq > 0 and e.league != self.id:
            raise fail("league", f"expected {self.id!r}, found {e.league!r}")
        if e.at < self.now:
            raise fail("time", f"entry times never decrease: {e.at} < {self.now}")
        if not signature_ok(e):
            raise fail("signature", "the author's signature does not verify")
        st = (e.kind, e.by, e.sig)
        if st in self.statements:
            raise fail("duplicate", "this signed statement is already in the ledger")
        getattr(self, "_" + e.kind)(e, fail)
        self.statements.add(st)
        self.kinds[e.seq] = e.kind
        self.now = e.at
        self.size = e.seq + 1

    def _by_league(self, e: Entry, fail) -> None:
        if e.by != self.league_key:
            raise fail("author", "this kind of entry is signed by the league key")

    # -- kinds ---------------------------------------------------------------------------------
    def _genesis(self, e: Entry, fail) -> None:
        b = e.body
        try:
            v = parse_vkey(b["vkey"])
        except AfteractionError as x:
            raise fail("vkey", str(x)) from None
        if e.by != v.public:
            raise fail("author", "the genesis is signed by the league key its vkey names")
        if b["origin"] != f"{v.name}/league/{e.league}":
            raise fail("origin", f"expected {v.name}/league/{e.league}, found {b['origin']}")
        if e.v >= 2 and key_problem(b["organiser"]) is not None:
            raise fail("organiser", key_problem(b["organiser"]))
        self.id, self.version, self.genesis, self.league_key = e.league, e.v, b, v.public

    def _policy(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        want = len(self.policies) + 1
        if e.body["version"] != want:
            raise fail("version", f"expected policy version {want}, found {e.body['version']}")
        for t in e.body["titles"]:
            try:
                rs = registry.get(t["game"])
            except AfteractionError:
                raise fail("titles", f"no game {t['game']!r}") from None
            if t["scenario"] not in rs.scenarios or len(rs.seats) != 2:
                raise fail("titles", f"{t['game']} {t['scenario']}: not a two-seat scenario of that game")
        self.policies.append((e.seq, e.body))

    def _player(self, e: Entry, fail) -> None:
        b = e.body
        if self.policy is None:
            raise fail("order", "players register after the first policy")
        if e.by != b["key"]:
            raise fail("author", "a player registration is signed by the key it registers")
        if key_problem(b["key"]) is not None:
            raise fail("key", key_problem(b["key"]))
        if b["name"] in self.players:
            raise fail("name", f"{b['name']!r} is already registered")
        if b["key"] in self.keys or b["key"] == self.league_key:
            raise fail("key", "this key is already registered")
        self.players[b["name"]] = Player(b["name"], b["key"], e.seq)
        self.keys[b["key"]] = b["name"]

    def _round(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        b, pol = e.body, self.policy
        if pol is None:
            raise fail("order", "a round needs a policy")
        no = len(self.rounds) + 1
        if b["round"] != no:
            raise fail("round", f"expected round {no}, found {b['round']}")
        if no > pol["rounds"]:
            raise fail("round", f"the policy has {pol['rounds']} rounds")
        if b["title"] not in pol["titles"]:
            raise fail("title", "not a title of the policy")
        if e.v >= 2 and not verify_signature(   # league version 2 (15.3): the organiser asked for it
                self.genesis["organiser"], organiser_statement(self.id, "OpenRound", e.seq, b["title"]), b["asked"]):
            raise fail("organiser", "the round is not asked for by the organiser (its signature of OpenRound, "
                                    "this entry's seq and the title)")
        commit = self.genesis["commit"] if no == 1 else self.next_commit
        if seed_commitment(self.id, no, b["seed"]) != commit:
            raise fail("seed", "the seed does not open the commitment made before the round")
        pairs, byes = self.pairing(no, b["seed"])
        found = ([tuple(p) for p in b["pairings"]], list(b["byes"]))
        if found != (pairs, byes):
            raise fail("pairing", "the pairings are not those the policy, the ledger and the seed give",
                       f"expected {[list(p) for p in pairs]} byes {byes}, found {b['pairings']} byes {b['byes']}")
        self.next_commit = b["next"]
        self.rounds.append(Round(no, e.seq, e.at, b["title"], pairs, byes, pol))

    def pairing(self, no: int, seed: bytes) -> tuple[list[tuple[str, str]], list[str]]:
        """The pairing of round ``no`` that the ledger so far and ``seed`` give (SPEC.md 15.6)."""
        pol = self.policy
        if pol["pairing"] == "round-robin":
            players = self._roster() if self.rounds else sorted(self.players, key=lambda n: self.players[n].seq)
            return pairing.berger(players, no)
        points = counted_points(self)
        byes_had: dict[str, int] = {}
        met: set[frozenset] = set()
        sides: dict[str, int] = {}
        for r in self.rounds:
            for n in r.byes:
                byes_had[n] = byes_had.get(n, 0) + 1
            for a, b in r.pairs:
                met.add(frozenset((a, b)))
                sides[a] = sides.get(a, 0) + 1
                sides[b] = sides.get(b, 0) - 1
        players = [(p.name, p.key) for p in sorted(self.players.values(), key=lambda p: p.seq)]
        return pairing.swiss(players, points, byes_had, met, sides, self.id, no, seed)

    def _roster(self) -> list[str]:
        r1 = self.rounds[0]
        return sorted({n for p in r1.pairs for n in p} | set(r1.byes), key=lambda n: self.players[n].seq)

    def _game(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        b = e.body
        if not 1 <= b["round"] <= len(self.rounds):
            raise fail("round", f"no round {b['round']}")
        rnd = self.rounds[b["round"] - 1]
        if not 1 <= b["board"] <= len(rnd.pairs):
            raise fail("board", f"round {rnd.no} has {len(rnd.pairs)} boards")
        if b["game"] in self.games:
            raise fail("game", f"game {b['game']} is already in the ledger")
        try:
            parse_vkey(b["server"])
        except AfteractionError as x:
            raise fail("server", str(x)) from None
        pair = rnd.pairs[b["board"] - 1]
        for g in self._boards.get((b["round"], b["board"]), ()):
            if g.withdrawn:
                continue
            if self.decision(g.id) != "replay":
                raise fail("pairing", f"round {rnd.no} board {b['board']} is already played by game {g.id}")
        g = Game(b["game"], e.seq, b["round"], b["board"], pair, b["server"], b["genesis"])
        self.games[b["game"]] = g
        self._boards.setdefault((g.round, g.board), []).append(g)

    def decision(self, game: str) -> str | None:
        d = [x for x in self.rulings if x[1] == game]
        return d[-1][2] if d else None

    def _result(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        b = e.body
        g = self.games.get(b["game"])
        if g is None or g.withdrawn:
            raise fail("game", f"no game {b['game']} in the ledger")
        if self.live_result(g.id) is not None:
            raise fail("result", f"game {g.id} already has a result (a correction withdraws one)")
        rnd = self.rounds[g.round - 1]
        bundle = self.bundles.get(b["bundle"])
        if bundle is None:
            raise fail("bundle", f"no bundle with hash {b['bundle'].hex()} was given")
        seats = registry.get(rnd.title["game"]).seats
        keys = {seats[0]: self.players[g.pair[0]].key, seats[1]: self.players[g.pair[1]].key}
        try:
            f = self.facts_of(bundle, g.server, keys)
            cos = cosigners(b["checkpoint"], f)
        except BundleProblem as x:
            raise fail("bundle", str(x)) from None
        label = f"{self.id} round {g.round} board {g.board}"
        checks = [
            ("game id", g.id, f.game), ("genesis hash", g.genesis.hex(), f.genesis_hash.hex()),
            ("title", (rnd.title["game"], rnd.title["scenario"]), (f.ruleset, f.scenario)),
            ("match", {"label": label, "players": {seats[0]: g.pair[0], seats[1]: g.pair[1]}},
             {k: v for k, v in (f.match or {}).items() if k in ("label", "players")}),
        ]
        for what, want, got in checks:
            if want != got:
                raise fail("pairing", f"the bundle is not the game of round {g.round} board {g.board}: "
                                      f"{what}: expected {want!r}, found {got!r}")
        winner = None if f.winner is None else g.pair[seats.index(f.winner)]
        if (b["winner"], b["cause"]) != (winner, f.cause):
            raise fail("outcome", f"the bundle's result is winner {winner!r} by {f.cause}, "
                                  f"the entry says {b['winner']!r} by {b['cause']}")
        self.results.append(Result(e.seq, e.at, g.id, b, f, cos))
        self._live[g.id] = self.results[-1]

    def _dispute(self, e: Entry, fail) -> None:
        g = self.games.get(e.body["game"])
        if g is None:
            raise fail("game", f"no game {e.body['game']} in the ledger")
        if e.by not in (self.players[g.pair[0]].key, self.players[g.pair[1]].key):
            raise fail("author", "a dispute is signed by one of the game's players")
        self.disputes.append((e.seq, g.id))

    def _ruling(self, e: Entry, fail) -> None:
        b = e.body
        if e.by not in self.policy["arbiters"]:
            raise fail("author", "a ruling is signed by an arbiter key of the policy in force")
        if b["game"] not in self.games:
            raise fail("game", f"no game {b['game']} in the ledger")
        if b["dispute"] is not None and (b["dispute"], b["game"]) not in self.disputes:
            raise fail("dispute", f"entry {b['dispute']} is not a dispute of game {b['game']}")
        self.rulings.append((e.seq, b["game"], b["decision"]))

    def _correction(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        t = e.body["entry"]
        kind = self.kinds.get(t)
        if kind not in ("game", "result"):
            raise fail("entry", f"entry {t} is not a game or a result (only those can be withdrawn)")
        if t in self.withdrawn:
            raise fail("entry", f"entry {t} is already withdrawn")
        if kind == "game":
            g = next(g for g in self.games.values() if g.seq == t)
            if self.live_result(g.id) is not None:
                raise fail("entry", f"game {g.id} has a result: withdraw the result first")
            g.withdrawn = True
        else:
            r = next(r for r in self.results if r.seq == t)
            r.withdrawn = True
            self._live.pop(r.game, None)
        self.withdrawn.add(t)

    def _standings(self, e: Entry, fail) -> None:
        self._by_league(e, fail)
        try:
            want = published(self, e.at)
        except RatingsUndefined as x:
            raise fail("ratings", str(x)) from None
        if want != e.body:
            raise fail("standings", "the published standings are not those the ledger gives",
                       _first_difference(want, e.body))


def _first_difference(a, b, path: str = "") -> str:
    if type(a) is dict and type(b) is dict:
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: present in one only"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if type(a) is list and type(b) is list:
        if len(a) != len(b):
            return f"{path}: {len(a)} items expected, {len(b)} found"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'value'}: expected {a!r}, found {b!r}"
