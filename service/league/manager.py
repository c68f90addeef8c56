"""The LeagueService (proto/afteraction/v1/league_service.proto, docs/league.md "A league server"):
leagues whose ledgers (SPEC.md 15) this server keeps in its store (service/league/store.py) and
signs with its league key (``league.key`` beside the server key), whose games it creates on its own
GameService from their pairings, and whose results it appends when the games end.

The ledger's rules are engine/league's, unchanged: every entry goes through ``LedgerWriter`` (so
through ``League.apply``, which refuses what SPEC.md 15.4 refuses, before anything is stored);
standings, statuses and pairings are engine/league's functions of the ledger. Nothing here
decides what a result is: the bundle the service exports is read and verified by
``engine.league.games.game_facts`` (replay included) as any verifier would.

Results (docs/league.md): the game pipeline notifies every append (``GameManager.on_append``,
service/games.py, which this manager chains onto); the league's timer (``run_forever``, a task on
the server's loop, cancelled at shutdown) sees a league game's end at its next tick, waits up to
COSIGN_WAIT_MS for both seats' cosignatures of the final checkpoint, and then *settles* the
league: a league game of this server that has ended and has no live result gets its result entry
with the seats' cosignatures stored so far (confirmed when both cosigned, pending until the
policy's window otherwise); a pending result whose missing cosignatures have arrived since is
withdrawn (a ``correction``) and entered again, confirmed. Every league call settles too, at once.
When a pending result's window closes, the timer appends a ``standings`` entry at that time, so the
ledger itself says the result counts (and the next round's Swiss pairing, computed at the time of
the ledger's last entry, counts it). Every SWEEP_S the timer settles every league in full (a game
ended by another replica, or before a restart).

Round seeds: round r's seed is HMAC-SHA256(league key seed, "aar1/league-round-seed" 0x00 ||
lp(league) || u32(r)): fixed by the league key and the league id before the genesis, so the
organiser cannot choose it after seeing results; it is committed a round ahead (SPEC.md 15.6) and
needs no storage.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import threading
import time

from afteraction.engine import registry
from afteraction.engine.crypto import canon
from afteraction.engine.crypto.hashing import lp, tag_prefix
from afteraction.engine.crypto.note import open_checkpoint, parse_vkey, split_note
from afteraction.engine.errors import AfteractionError, EncodingError, Rejection
from afteraction.engine.codes import Code
from afteraction.engine.crypto.ed25519 import key_problem, verify_signature
from afteraction.engine.league.entries import (Author, _text, body_problem, bundle_hash, make_entry,
                                               organiser_statement, parse_entry, seed_commitment)
from afteraction.engine.league.games import BundleProblem, cosigners, game_facts
from afteraction.engine.league.ledger import LedgerWriter
from afteraction.engine.league.standings import RatingsUndefined, published
from afteraction.engine.league.standings import statuses as standings_statuses
from afteraction.engine.league.state import LeagueError
from afteraction.engine.league.witness import timestamp_statement, witness_cosign
from afteraction.engine.match import match_value
from afteraction.engine.protocol import ZERO_HASH, verify_command_signature
from afteraction.v1 import envelope_pb2

from .store import LeagueStore
from ..store import Conflict
from ..status import Refusal, quote

log = logging.getLogger("afteraction.service")
TAG_ROUND_SEED = "aar1/league-round-seed"   # HMAC input prefix of a round's seed (never hashed in a ledger)
FACTS_KEPT = 4096   # verified bundles' facts remembered (a few KiB each)
COSIGN_WAIT_MS = 2000   # after a league game's end, the wait for both seats' cosignatures before a pending result
TICK_S = 0.25           # the league timer's period
SWEEP_S = 10.0          # every league settled in full this often (games ended elsewhere or before a restart)


def to_json(v) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"),
                      default=lambda x: bytes(x).hex() if isinstance(x, (bytes, bytearray)) else str(x))


class LeagueManager:
    """Every league of this server, cached in memory as LedgerWriters rebuilt from the store."""

    def __init__(self, store, games, signer, export) -> None:
        self._store = store
        self._league_store: LeagueStore | None = None
        self.games = games          # service/games.py GameManager: creates the games, gives the time
        self.signer = signer        # the league key (a C2SP Signer)
        self.author = Author(signer.seed)
        self.export = export        # game id -> its bundle (AuditServicer.export)
        self._lock = threading.RLock()
        self._cache: dict[str, LedgerWriter] = {}
        self._facts: dict = {}
        # the timer's: league game id -> league id (live game entries of this server, cached leagues);
        # the games appended to since the last tick; the ended ones waiting for cosignatures
        self._game_league: dict[str, str] = {}
        self._touched: set[str] = set()
        self._ended: dict[str, tuple[str, int, int]] = {}   # game -> (league, time its end was seen, log size)
        self._hook = threading.Lock()
        self._swept = 0.0
        self._windows_seen: dict[str, tuple] = {}   # league -> the passed windows looked at (_close_windows)
        prev = games.on_append

        def on_append(gid: str) -> None:   # on the loop or a pool thread, after the append is durable
            prev(gid)
            if gid in self._game_league:
                with self._hook:
                    self._touched.add(gid)
        games.on_append = on_append

    @property
    def store(self) -> LeagueStore:
        """The league tables, made in the server's store on first use."""
        if self._league_store is None:
            self._league_store = LeagueStore(self._store)
        return self._league_store

    # -- loading -------------------------------------------------------------------------
    def facts_of(self, bundle: bytes, server: str, keys: dict):
        """engine/league/games.py's game_facts (the bundle verified with replay), remembered for the
        last FACTS_KEPT bundles: settling and rebuilding a league verify each bundle once."""
        k = (bundle_hash(bundle), server, tuple(sorted(keys.items())))
        if k not in self._facts:
            if len(self._facts) >= FACTS_KEPT:
                self._facts.pop(next(iter(self._facts)))
            self._facts[k] = game_facts(bundle, server, keys)
        return self._facts[k]

    def writer(self, league_id: str) -> LedgerWriter:
        w = self._cache.get(league_id)
        if w is not None and self.store.size(league_id) == len(w.entries):
            return w   # else another process (aar serve --workers N) appended since: rebuilt from the store
        rows = self.store.entries(league_id)
        if not rows:
            raise Rejection(Code.UNKNOWN_LEAGUE, f"no league {quote(league_id)} on this server")
        w = LedgerWriter(league_id, self.signer, bundles=self.store.bundles(league_id))
        w.state.facts_of = self.facts_of
        for raw, note in rows:
            e = parse_entry(raw)
            w.state.apply(e)
            w.entries.append(e)
            w.checkpoints.append(note)
        w._log.follow(w.entries)
        self._cache[league_id] = w
        self._follow(w)
        return w

    def _follow(self, w: LedgerWriter) -> None:
        """The timer watches the live games of this server in league ``w``."""
        for g in w.state.games.values():
            if not g.withdrawn and g.server == self.games.vkey:
                self._game_league[g.id] = w.league

    def now(self, w: LedgerWriter | None = None) -> int:
        t = self.games.now()
        return t if w is None else max(t, w.state.now)

    # -- the one append path ---------------------------------------------------------------
    def _append(self, w: LedgerWriter, e_or_kind, body: dict | None = None, bundle: bytes | None = None):
        """Apply (engine/league refuses what SPEC.md 15.4 refuses), sign the checkpoint, store."""
        try:
            if isinstance(e_or_kind, str):
                e = w.append(e_or_kind, body, self.now(w))
            else:
                e = w.add(e_or_kind)
        except LeagueError as x:
            raise Refusal(Code.LEAGUE_REFUSED, f"the league refuses the {x.kind} entry: {x.check}"
                          + (f": {x.detail}" if x.detail else ""), check=x.check, kind=x.kind) from None
        try:
            self.store.write(w.league, e.seq, e.raw, w.checkpoints[e.seq],
                             None if bundle is None else (bundle_hash(bundle), bundle))
        except BaseException as x:
            self._cache.pop(w.league, None)   # the memory went ahead of the store: rebuild from it
            if isinstance(x, Conflict):
                raise Rejection(Code.LOST_RACE, f"another writer appended to league {quote(w.league)} first; "
                                             "retry") from None
            raise
        if e.kind == "game" and e.body["server"] == self.games.vkey:
            self._game_league[e.body["game"]] = w.league
        return e

    def _signed(self, w: LedgerWriter, kind: str, st) -> object:
        """An entry from a statement its author signed (SPEC.md 15.1)."""
        if len(st.by) != 32 or len(st.sig) != 64:
            raise Rejection(Code.BAD_LEAGUE_ENTRY, "a signed statement has a 32-byte key and a 64-byte signature")
        body = _body(st.body)
        why = body_problem(kind, body, w.state.version)
        if why is not None:
            raise Rejection(Code.BAD_LEAGUE_ENTRY, f"not a {kind} body: {why}")
        at = self.now(w)
        prev = w.entries[-1].hash if w.entries else ZERO_HASH
        return make_entry(w.league, len(w.entries), prev, at, kind, body, bytes(st.by), bytes(st.sig),
                          w.state.version)   # the ledger's version (SPEC.md 15.1)

    def round_seed(self, league_id: str, no: int) -> bytes:
        msg = tag_prefix(TAG_ROUND_SEED) + lp(league_id.encode()) + no.to_bytes(4, "big")
        return hmac.new(self.signer.seed, msg, hashlib.sha256).digest()

    # -- the RPCs' work (each under the one lock: league writes are few) -------------------
    def create(self, league_id: str, name: str, policy: bytes, organiser: bytes) -> LedgerWriter:
        if not _text(league_id, 64):
            raise Rejection(Code.BAD_ARGUMENT, "a league id is 1-64 printable characters without surrounding spaces")
        if len(organiser) != 32 or key_problem(organiser) is not None:
            raise Rejection(Code.BAD_ARGUMENT, "organiser: the organiser's Ed25519 public key (32 bytes, SPEC.md 7.4)")
        body = _body(policy)
        with self._lock:
            if self.store.entries(league_id):
                raise Rejection(Code.LEAGUE_EXISTS, f"league {quote(league_id)} exists on this server")
            w = LedgerWriter(league_id, self.signer, bundles={})
            w.state.facts_of = self.facts_of
            at = self.now()
            try:
                g = w.genesis(name, seed_commitment(league_id, 1, self.round_seed(league_id, 1)), at, organiser)
                p = w.append("policy", body, at)
            except LeagueError as x:
                raise Refusal(Code.LEAGUE_REFUSED, f"the league refuses the {x.kind} entry: {x.check}"
                              + (f": {x.detail}" if x.detail else ""), check=x.check, kind=x.kind) from None
            for e in (g, p):
                try:
                    self.store.write(league_id, e.seq, e.raw, w.checkpoints[e.seq])
                except Conflict:
                    raise Rejection(Code.LEAGUE_EXISTS, f"league {quote(league_id)} exists on this server") from None
            self._cache[league_id] = w
            return w

    def register(self, league_id: str, st):
        with self._lock:
            w = self.writer(league_id)
            return self._append(w, self._signed(w, "player", st))

    def dispute(self, league_id: str, st):
        with self._lock:
            w = self.writer(league_id)
            self._settle(w)   # the result a dispute holds is entered first
            return self._append(w, self._signed(w, "dispute", st))

    def rule(self, league_id: str, st):
        with self._lock:
            w = self.writer(league_id)
            self._settle(w)
            return self._append(w, self._signed(w, "ruling", st))

    def organiser_key(self, w: LedgerWriter) -> bytes | None:
        """The organiser's key: the genesis's (league version 2), else (version 1, whose genesis names
        none) the one a server before version 2 kept beside the ledger, if any."""
        if w.state.version >= 2:
            return w.state.genesis["organiser"]
        return self.store.organiser(w.league)

    def organiser_ok(self, w: LedgerWriter, rpc: str, auth, title: dict | None = None) -> bytes:
        """The organiser's signature of this call at this ledger size (SPEC.md 15.12; for OpenRound
        with the title), the organiser named in the genesis checking it; else ORGANISER_AUTH."""
        key = self.organiser_key(w)
        if key is None:
            raise Rejection(Code.ORGANISER_AUTH, f"league {quote(w.league)} is a league version 1 ledger and this "
                            "server keeps no organiser key for it (SPEC.md 15.1)")
        if auth is None or auth.size != len(w.entries) or not verify_signature(
                key, organiser_statement(w.league, rpc, auth.size, title), bytes(auth.signature)):
            raise Rejection(Code.ORGANISER_AUTH, f"{rpc} needs the organiser's signature of league {quote(w.league)}, "
                            f"{rpc}{' and the title' if title is not None else ''} and the ledger's size "
                            f"{len(w.entries)} (GetLeague)")
        return bytes(auth.signature)

    def open_round(self, league_id: str, title: dict | None, options: dict, clock: dict | None, auth=None):
        """The round's games are created first (a bad option or clock is refused before anything
        is appended), then the round entry, carrying the organiser's signature (``asked``, SPEC.md
        15.4), and one game entry per board."""
        with self._lock:
            w = self.writer(league_id)
            self._settle(w)   # first: the organiser signs the size GetLeague gave, after its settling
            pol = w.state.policy
            title = title or pol["titles"][0]
            asked = self.organiser_ok(w, "OpenRound", auth, title)
            no = len(w.state.rounds) + 1
            if no > pol["rounds"]:
                raise Refusal(Code.LEAGUE_REFUSED, f"the policy has {pol['rounds']} rounds", check="round", kind="round")
            if title not in pol["titles"]:
                raise Refusal(Code.LEAGUE_REFUSED, f"{title['game']} {title['scenario']} is not a title of the policy",
                              check="title", kind="round")
            seed = self.round_seed(league_id, no)
            pairs, byes = w.state.pairing(no, seed)
            made = [self._create_game(w.league, no, b, title, pair, w, options, clock)
                    for b, pair in enumerate(pairs, 1)]
            body = {"round": no, "title": title, "seed": seed,
                    "next": seed_commitment(league_id, no + 1, self.round_seed(league_id, no + 1)),
                    "pairings": [list(p) for p in pairs], "byes": byes, "asked": asked}
            if w.state.version < 2:   # a league version 1 ledger: its rounds carry no asked (SPEC.md 15.1)
                del body["asked"]
            e = self._append(w, "round", body)
            for b, (gid, genesis) in enumerate(made, 1):
                self._append(w, "game", {"round": no, "board": b, "game": gid, "server": self.games.vkey,
                                         "genesis": genesis})
            return no, e, [gid for gid, _ in made], byes

    def replay_board(self, league_id: str, no: int, board: int, options: dict, clock: dict | None, auth=None):
        with self._lock:
            w = self.writer(league_id)
            self.organiser_ok(w, "ReplayBoard", auth)
            self._settle(w)
            if not 1 <= no <= len(w.state.rounds) or not 1 <= board <= len(w.state.rounds[no - 1].pairs):
                raise Rejection(Code.OUT_OF_RANGE, f"no round {no} board {board} in league {quote(league_id)}")
            for g in w.state.games.values():
                if (g.round, g.board) == (no, board) and not g.withdrawn and w.state.decision(g.id) != "replay":
                    raise Refusal(Code.LEAGUE_REFUSED, f"round {no} board {board} is already played by game {g.id}",
                                  check="pairing", kind="game")
            rnd = w.state.rounds[no - 1]
            gid, genesis = self._create_game(w.league, no, board, rnd.title, rnd.pairs[board - 1], w, options, clock)
            self._append(w, "game", {"round": no, "board": board, "game": gid, "server": self.games.vkey,
                                     "genesis": genesis})
            return gid

    def _create_game(self, league: str, no: int, board: int, title: dict, pair, w: LedgerWriter, options: dict,
                     clock: dict | None) -> tuple[str, bytes]:
        """The pairing's game on this server: the players' registered keys on the title's seats
        (ruleset order), the genesis match naming league, round, board and players (SPEC.md 15.12)."""
        first, second = pair
        rs = registry.get(title["game"])
        keys = {rs.seats[0]: w.state.players[first].key, rs.seats[1]: w.state.players[second].key}
        match = match_value(f"{league} round {no} board {board}", {rs.seats[0]: first, rs.seats[1]: second})
        gid, row = self.games.create(title["game"], None, title["scenario"], options, keys, match=match, clock=clock)
        return gid, row.hash

    def settle(self, league_id: str) -> LedgerWriter:
        with self._lock:
            w = self.writer(league_id)
            self._settle(w)
            return w

    def _settle(self, w: LedgerWriter, games: set[str] | None = None, skip: frozenset = frozenset(),
                start_wait: bool = False) -> None:
        """Enter the result of every ended league game of this server that has none (SPEC.md
        15.3), and enter again, confirmed, a pending result whose seats have all cosigned since.
        ``games``: only those (the timer's, whose cosignatures it waited for); ``skip``: not those
        (the sweep's: games whose seats' cosignatures the timer still waits for); ``start_wait``
        (the sweep's): a game found ended with neither a result nor both cosignatures, which the
        timer has not seen end (it ended after the tick took its touched games, or on another
        server or before a restart), gets the timer's COSIGN_WAIT_MS from now instead of a pending
        result at once; else a game ending just before a sweep was entered pending and, at its
        seats' cosignatures a moment later, corrected and entered again."""
        lgs = w.state
        for g in sorted(lgs.games.values(), key=lambda g: g.seq):
            if g.withdrawn or g.server != self.games.vkey or (games is not None and g.id not in games) \
                    or g.id in skip:
                continue
            res = lgs.live_result(g.id)
            if res is not None and (len(res.cosigned) == len(res.facts.seats) or lgs.decision(g.id) is not None
                                    or any(gid == g.id and s > res.seq for s, gid in lgs.disputes)):
                self._ended.pop(g.id, None)
                continue
            with self.games.locked(g.id) as live:   # a deadline past ends the game here (SPEC.md 8.2)
                if not live.referee.ended:
                    continue
                size = live.size
            if start_wait and res is None and g.id not in self._ended \
                    and len(self.games.store.cosignatures(g.id, size)) < 2:
                self._ended[g.id] = (w.league, self.games.now(), size)   # the timer waits for its cosignatures
                continue
            if res is not None and len(self.games.store.cosignatures(g.id, size)) <= len(res.cosigned):
                continue   # no cosignature arrived since the pending result: nothing to enter again
            bundle = self.export(g.id)
            seats = registry.get(lgs.rounds[g.round - 1].title["game"]).seats
            keys = {seats[0]: lgs.players[g.pair[0]].key, seats[1]: lgs.players[g.pair[1]].key}
            try:
                f = self.facts_of(bundle, g.server, keys)
                note = _final_note(bundle)
                cos = cosigners(note, f)
            except BundleProblem as x:   # the server's own game does not verify: a bug, logged
                log.error("league %s: game %s: %s", w.league, g.id, x)
                continue
            if res is not None and len(cos) <= len(res.cosigned):
                continue
            winner = None if f.winner is None else g.pair[f.seats.index(f.winner)]
            w.bundles[bundle_hash(bundle)] = bundle
            try:
                if res is not None:
                    self._append(w, "correction", {"entry": res.seq, "reason": "the seats' cosignatures of the final "
                                                   "checkpoint arrived: the result is entered again, confirmed"})
                self._append(w, "result", {"game": g.id, "bundle": bundle_hash(bundle), "checkpoint": note,
                                           "winner": winner, "cause": f.cause}, bundle=bundle)
                self._ended.pop(g.id, None)
            except Rejection as x:   # the ledger refuses it (a bug): logged; the league's other calls go on
                if x.code != "LEAGUE_REFUSED":
                    raise
                log.error("league %s: the result of game %s is refused: %s", w.league, g.id, x)

    # -- the timer: results entered as games end, windows closed (docs/league.md) ----------
    async def run_forever(self, svc) -> None:
        """The league's timer, a task on the server's loop (cancelled at shutdown): every TICK_S,
        ``tick`` in the pool."""
        while True:
            await asyncio.sleep(TICK_S)
            try:
                await svc.run_stream(self.tick)
            except Exception as e:  # noqa: BLE001 -- the store is down: the next tick tries again
                log.warning("league timer failed: %s: %s", type(e).__name__, e)

    def tick(self) -> None:
        """Enter the results of league games that ended (once both seats cosigned the final
        checkpoint, or COSIGN_WAIT_MS after the end), close the windows that passed, and every
        SWEEP_S settle every league."""
        with self._hook:
            touched, self._touched = self._touched, set()
        now = self.games.now()
        for gid in sorted(touched):
            league = self._game_league.get(gid)
            if league is None or gid in self._ended:
                continue
            with self.games.locked(gid) as live:
                if live.referee.ended:
                    self._ended[gid] = (league, now, live.size)
        due: dict[str, set[str]] = {}
        with self._lock:
            ended = sorted(self._ended.items())
        for gid, (league, seen, size) in ended:
            if len(self.games.store.cosignatures(gid, size)) >= 2 or now >= seen + COSIGN_WAIT_MS:
                due.setdefault(league, set()).add(gid)
        for league, gids in sorted(due.items()):
            self._guarded(league, lambda w: self._settle(w, gids))
            for gid in gids:   # entered, or not enterable now: the sweep and the calls look again
                self._ended.pop(gid, None)
        sweep = time.monotonic() - self._swept >= SWEEP_S
        if sweep:
            self._swept = time.monotonic()
        if sweep:
            waiting = frozenset(gid for gid, (_, seen, _) in ended if gid in self._ended and now < seen + COSIGN_WAIT_MS)
            for league in self.store.leagues():
                self._guarded(league, lambda w: (self._settle(w, skip=waiting, start_wait=True),
                                                 self._close_windows(w)))
            return
        for league in sorted(set(self._game_league.values())):
            w = self._cache.get(league)   # looked at as cached: the store is read only for a window to close
            if w is not None and self._window_passed(w):
                self._guarded(league, self._close_windows)

    def _guarded(self, league: str, fn) -> None:
        """``fn(writer)`` under the lock; a lost race or a refusal is logged (the next tick tries again)."""
        try:
            with self._lock:
                fn(self.writer(league))
        except Rejection as x:
            log.warning("league %s: timer: %s", league, x)

    def _window_passed(self, w: LedgerWriter) -> tuple | None:
        """The uncosigned live results whose window has passed on the server's clock, not on the
        ledger's (with the ledger's size), unless already looked at with nothing to append."""
        lgs, now = w.state, self.now(w)
        passed = tuple(r.seq for r in lgs.results if not r.withdrawn and len(r.cosigned) < len(r.facts.seats)
                       and r.at + lgs.rounds[lgs.games[r.game].round - 1].policy["window"] in range(lgs.now + 1, now + 1))
        key = (len(w.entries), passed)
        return key if passed and self._windows_seen.get(w.league) != key else None

    def _close_windows(self, w: LedgerWriter) -> None:
        """A pending result whose window has passed on the server's clock but not on the ledger's
        (no entry since): a ``standings`` entry now, so the ledger says the result counts. A passed
        window of a result a dispute holds appends nothing (looked at once per ledger size)."""
        key = self._window_passed(w)
        if key is None:
            return
        self._windows_seen[w.league] = key
        lgs, now = w.state, self.now(w)
        before = {c.game: c.status for c in standings_statuses(lgs, lgs.now)}
        if not any(before.get(c.game) == "pending" and c.status != "pending" for c in standings_statuses(lgs, now)):
            return
        try:
            body = published(lgs, now)
        except RatingsUndefined as x:
            log.error("league %s: the standings cannot be published: %s", w.league, x)
            return
        self._append(w, make_entry(w.league, len(w.entries), w.entries[-1].hash, now, "standings", body,
                                   self.author.public, self.author.sign(w.league, "standings", body),
                                   w.state.version))

    def snapshot(self, league_id: str) -> tuple[bytes, dict[bytes, bytes]]:
        """The ledger file as it stands now and every result's bundle by hash, of one state (the
        league pages of ``aar serve --web-listen``, clients/cli/league/web.py)."""
        with self._lock:
            w = self.settle(league_id)
            return w.ledger(), dict(w.bundles)

    def result_bundle(self, league_id: str, game: str) -> bytes | None:
        """The bundle hash the live result of ``game`` names, None without one."""
        with self._lock:
            r = self.writer(league_id).state.live_result(game)
            return None if r is None else r.body["bundle"]

    def ledger(self, league_id: str) -> bytes:
        with self._lock:
            w = self.settle(league_id)
            return w.ledger()

    def cosign(self, league_id: str, size: int, line: str) -> str:
        """A registered player's cosignature of checkpoint ``size`` (SPEC.md 15.2), kept with it."""
        with self._lock:
            w = self.writer(league_id)
            if not 1 <= size <= len(w.entries):
                raise Rejection(Code.OUT_OF_RANGE, f"league {quote(league_id)} has checkpoints of sizes 1 .. {len(w.entries)}")
            if not line.endswith("\n") or line.count("\n") != 1:
                raise Rejection(Code.BAD_COSIGNATURE, "a cosignature is one signature line ending in a newline")
            try:
                w.add_cosignature(size - 1, line)
            except AfteractionError as x:
                raise Rejection(Code.BAD_COSIGNATURE, f"not a registered player's valid cosignature of checkpoint {size}: "
                                f"{x}") from None
            try:
                self.store.set_checkpoint(league_id, size - 1, w.checkpoints[size - 1])
            except BaseException:
                self._cache.pop(league_id, None)
                raise
            return w.checkpoints[size - 1]

    def bundle(self, league_id: str, h: bytes) -> bytes:
        with self._lock:
            w = self.writer(league_id)
            data = w.bundles.get(h)
        if data is None:
            raise Rejection(Code.OUT_OF_RANGE, f"no result of league {quote(league_id)} names a bundle with hash {h.hex()}")
        return data

    def publish(self, league_id: str, auth=None):
        with self._lock:
            self.organiser_ok(self.writer(league_id), "PublishStandings", auth)
            w = self.settle(league_id)
            at = self.now(w)
            body = published(w.state, at)
            e = make_entry(w.league, len(w.entries), w.entries[-1].hash, at, "standings", body, self.author.public,
                           self.author.sign(w.league, "standings", body), w.state.version)
            return self._append(w, e)

    # -- the witness (SPEC.md 15.11) -------------------------------------------------------
    def _league_game(self, w: LedgerWriter, gid: str):
        g = w.state.games.get(gid)
        if g is None or g.withdrawn:
            raise Rejection(Code.NOT_A_LEAGUE_GAME, f"game {quote(gid)} is not a live game of league {quote(w.league)}")
        return g

    def witness(self, league_id: str, gid: str, note: str) -> str:
        with self._lock:
            w = self.writer(league_id)
            g = self._league_game(w, gid)
        try:
            cp = open_checkpoint(note, parse_vkey(g.server))
        except AfteractionError as x:
            raise Rejection(Code.NOT_A_LEAGUE_GAME, f"the checkpoint is not signed by game {quote(gid)}'s server: {x}") from None
        text = split_note(note)[0]
        stored = self.games.store.records(gid, cp.size - 1, 1) if cp.size >= 1 else []
        if not stored or stored[0].seq != cp.size - 1:
            raise Rejection(Code.NOT_A_LEAGUE_GAME, f"game {quote(gid)}'s log has no checkpoint of size {cp.size} here")
        if split_note(stored[0].checkpoint)[0] != text:
            # signed by the game's key, yet not this log at that size: two histories; the seat keeps its note
            raise Rejection(Code.NOT_A_LEAGUE_GAME, f"the checkpoint of size {cp.size} is signed by the game's key but "
                            "is not the log the league holds at that size: another history (keep it: a fork proof)")
        return witness_cosign(text, w.origin, self.signer.seed, self.now() // 1000)

    def timestamp(self, league_id: str, gid: str, signed: bytes) -> tuple[int, bytes]:
        with self._lock:
            w = self.writer(league_id)
            g = self._league_game(w, gid)
            keys = [w.state.players[p].key for p in g.pair]
        try:
            sc = envelope_pb2.SignedCommand.FromString(signed)
            env = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
        except Exception:  # noqa: BLE001 -- DecodeError and friends
            raise Rejection(Code.MALFORMED, "not a serialized SignedCommand carrying a CommandEnvelope") from None
        if env.game_id != gid:
            raise Rejection(Code.WRONG_GAME, f"the envelope names game {quote(env.game_id)}, not {quote(gid)}")
        if not any(verify_command_signature(k, sc.envelope, sc.signature) for k in keys):
            raise Rejection(Code.BAD_SIGNATURE, "the envelope is not signed by a player of the game")
        at = self.now()
        return at, self.author._key.sign(timestamp_statement(league_id, gid, signed, at))


def _body(raw: bytes) -> dict:
    try:
        body = canon.decode(bytes(raw))
    except (EncodingError, AfteractionError, ValueError) as e:
        raise Rejection(Code.BAD_LEAGUE_ENTRY, f"the body is not a canonical encoding: {e}") from None
    if type(body) is not dict or canon.encode(body) != bytes(raw):
        raise Rejection(Code.BAD_LEAGUE_ENTRY, "the body is not the canonical encoding of a map")
    return body


def _final_note(bundle: bytes) -> str:
    import io

    from afteraction.engine.log.bundle import read_bundle

    _, frames = read_bundle(io.BytesIO(bundle))
    note = None
    for _raw, cp in frames:
        note = cp
    return note


def league_signer(key_path: str, name: str):
    """The league key: ``league.key`` beside the server key, made on first start (0600) like it."""
    import os

    from ..keyring import load_or_create_key

    return load_or_create_key(os.path.join(os.path.dirname(os.path.abspath(key_path)), "league.key"), name)
