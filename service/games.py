"""The service's core, without gRPC: create games, accept signed envelopes, store what the referee produces, and answer reads.

The pipeline for one envelope (as boardgame.io's master does it):
parse once (service/envelopes.py ``Command``) -> (retry of stored bytes? answer the original
result) -> ``Referee.accept_envelope`` (signature, seat counter, phase, state id, pending decision,
rules; it returns the next decision with the records) -> ``_write``, the one write path of every
record (creation, commands, endings by time, catch-up): its bounds, the game's ``LogWriter``
(engine/log/writer.py: tree, one signed checkpoint per record), the store (durable; optimistic: a
lost race invalidates the cache and is retried, then answered LOST_RACE/ABORTED) -> wake the
streams. ``submit`` runs in a pool thread; ``submit_async`` is the same on the event loop,
waiting for ``store.append_async`` without a thread, and hands over to ``submit``
whenever it would wait for anything else.

The referee kept in memory per game is a cache: before each append and each read it catches
up from the store by replaying stored signed commands (``Referee.accept``): many processes, one store.
"""
from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from afteraction.engine import endings, registry
from afteraction.engine.crypto import canon, cosign
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import CryptoError, Rejection
from afteraction.engine.codes import Code
from afteraction.engine.protocol import FORMAT_VERSION, parse_record
from afteraction.engine.log.writer import Entry, LogWriter, cached
from afteraction.engine.referee import Referee
from . import limits, metrics
from .envelopes import Command, check_records
from .status import Internal, Refusal, quote
from .store import Append, CommandRow, Conflict, GameRow, OpeningRow, RecordRow, Store

APPEND_ATTEMPTS = 3
MAX_LIVE = limits.MAX_LIVE_GAMES   # games kept caught up in memory (LRU); older ones are rebuilt from the store
TAIL_RECORDS = 64                  # a live game's last records kept for its streams (LiveGame.tail)
INLINE_CATCH_UP = 16               # a cached game this many records behind or fewer is caught up on the event loop
TOLD_KEPT = 4 * MAX_LIVE           # sizes told by other processes kept (GameManager.told) before the uncached go


class CachedReferee(Referee):
    """The referee of a cached game. ``in_place`` (the catch-up's and the rebuild's replay of stored
    commands, ``GameManager._catch_up``): each command is applied to the live state without the
    copy that makes a refusal change nothing, as the verifier's replay does (engine/log/replay.py);
    a refusal there is an internal error that discards the cached game."""
    in_place = False

    def _working_state(self):
        return self.state if self.in_place else super()._working_state()


class WouldWait(Exception):
    """Raised by ``locked`` in a call tried on the event loop (``GameManager.inline``) when
    the call would wait or do more than one indexed store read: run it in the pool instead."""


class Appending(WouldWait):
    """``WouldWait`` because a command of the game is on its way to the disk (``submit_async``): its
    append wakes the game's streams once stored, so a stream's read need not wait for it in the pool."""


_INLINE = threading.local()


@dataclass
class LiveGame:
    """Cached per game: the referee caught up to the store, its log writer (tree, checkpoint
    signer) and the Merkle leaves (for proofs)."""
    row: GameRow
    referee: Referee
    writer: LogWriter
    leaves: list[bytes] = field(default_factory=list)
    #: the last TAIL_RECORDS records as stored, each with every seat's openings in it: a stream of a
    #: cached game sends what was just appended from here, with no read of the store (``recent``)
    tail: deque = field(default_factory=lambda: deque(maxlen=TAIL_RECORDS))
    #: the ``GameManager._epoch`` in which this cache was last compared with the store's size: while the
    #: store's listener stays up since then, what other processes told says whether the store has more
    checked: int = -1

    def recent(self, sent: int, seat: str) -> tuple[list[RecordRow], dict[int, list[OpeningRow]]] | None:
        """The records from ``sent`` to the end and ``seat``'s openings in them by seq, or None when
        the tail does not reach back to ``sent`` (the store has them)."""
        if sent >= self.size:
            return [], {}
        if not self.tail or self.tail[0][0].seq > sent or self.tail[-1][0].seq != self.size - 1:
            return None
        first = self.tail[0][0].seq
        rows, ops = [], {}
        for i in range(sent - first, len(self.tail)):
            row, opened = self.tail[i]
            rows.append(row)
            mine = [o for o in opened if o.seat == seat]
            if mine:
                ops[row.seq] = mine
        return rows, ops

    @property
    def origin(self) -> str:
        return self.writer.origin

    @property
    def size(self) -> int:
        return self.referee.seq


@dataclass
class Submitted:
    seat: str
    counter: int
    records: list[RecordRow]
    openings: list[OpeningRow]      # the submitting seat's
    duplicate: bool = False
    next_decision: object = None    # the Decision the game waits for now (None once ended)
    received_ms: int | None = None  # the time the referee was given (the receipt's, SPEC.md 7.5)
    ruleset: object = None          # the game's: what its decision table declares of next_decision


def opening_row(seat: str, op) -> OpeningRow:
    return OpeningRow(seat, op.seq, op.k, op.salt, canon.encode(op.value))


def _openings(acc) -> list[OpeningRow]:
    """Every seat's openings of an acceptance, as stored."""
    return [opening_row(s, op) for s in sorted(acc.openings) for op in acc.openings[s]]


def wall_clock_ms() -> int:
    """The service's clock (the one input of time, SPEC.md 8.2): milliseconds since the Unix epoch."""
    return time.time_ns() // 1_000_000
def record_rows(entries: list[Entry]) -> list[RecordRow]:
    return [RecordRow(e.record.seq, e.record.raw, e.record.hash, e.checkpoint) for e in entries]


class GameManager:
    def __init__(self, store: Store, signer: Signer, now=wall_clock_ms, ring: tuple[Signer, ...] = ()) -> None:
        #: the clock, injectable (tests set a function returning their time; nothing here sleeps)
        self.now = now
        self.store = store
        self.signer = cached(signer)
        self.vkey = signer.verifier.vkey
        # the key ring (keyring.py): new games under ``signer`` (the newest), each game under its genesis's
        self.signers = {s.verifier.vkey: cached(s) for s in ring}
        self.signers[self.vkey] = self.signer
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        # one lock per game *in use*: an entry lives while a caller holds or waits for it,
        # so probes for games that do not exist leave nothing behind
        self._locks: dict[str, list] = {}
        self._appending: set[str] = set()   # games with a submit_async append not yet stored (event loop only)
        self._meta = threading.Lock()
        self.on_append = lambda gid: None   # the server wakes its streams (service/feeds.py)
        # what the other processes of the store told (``told``: service/wake.py, PostgreSQL's NOTIFY, the
        # streams' poll): game -> its size at least; trusted while the listener is up (``listening``)
        self._told: dict[str, int] = {}
        self._told_lock = threading.Lock()   # two tellers: the listener thread and the poll on the loop
        self._listening = False
        self._epoch = 0
        self.async_appends = type(store).append_async is not Store.append_async  # submit_async's path

    # -- creation -------------------------------------------------------------
    def create(self, game: str, version: str | None, scenario: str | None, options: dict,
               seat_keys: dict[str, bytes], match: dict | None = None,
               clock: dict | None = None) -> tuple[str, RecordRow]:
        """``match``: the match data for genesis (engine/match.py). ``clock``: the time control
        (engine/endings.py ``control``); None: none, with the default abandonment limit (every
        game of this service has a clock, SPEC.md 8.2)."""
        rs = registry.get(game, version or None)
        gid = os.urandom(8).hex()
        secret = os.urandom(32)
        origin = f"{self.signer.name}/game/{gid}"
        # the newest log format only (SPEC.md 11, no downgrade): nothing here can ask for an older one
        genesis = Referee.new_genesis(gid, rs, scenario or rs.scenarios[0], options, seat_keys,
                                      self.vkey, origin, secret, version=FORMAT_VERSION, match=match,
                                      clock=clock or endings.control(), now=self.now())
        # the new game is cached as it is made (its first commands, the handshake, need no rebuild);
        # its seat keys were checked by new_genesis: not again
        live = LiveGame(GameRow(gid, rs.game, rs.version, genesis.raw, secret),
                        CachedReferee(genesis, rs, secret, keys_checked=True), LogWriter(self.signer, origin),
                        checked=self._epoch)
        rows = self._write(live, [genesis], lambda rows: self.store.create_game(live.row, rows[0]))
        with self._meta:
            self._live[gid] = live
            self._trim()
        return gid, rows[0]

    # -- the cache ------------------------------------------------------------
    @contextmanager
    def _game_lock(self, gid: str) -> Iterator[None]:
        with self._meta:
            ent = self._locks.get(gid)
            if ent is None:
                ent = self._locks[gid] = [threading.Lock(), 0]
            ent[1] += 1
        try:
            with ent[0]:
                yield
        finally:
            with self._meta:
                ent[1] -= 1
                if ent[1] == 0:
                    del self._locks[gid]

    def signer_of(self, gid: str):
        """The key signing game ``gid``'s records and receipts (SPEC.md 7.5): its genesis's; else the newest."""
        live = self._live.get(gid)
        return live.writer.signer if live is not None else self.signer

    def _load(self, gid: str) -> LiveGame:
        epoch = self._epoch
        row = self.store.game(gid)
        if row is None:
            raise Refusal(Code.UNKNOWN_GAME, f"no game {quote(gid)}", game_id=gid)
        genesis = parse_record(row.genesis)
        rs = registry.get(row.game, row.version)
        # a genesis this service stored was checked when the game was created (SPEC.md 7.4): a rebuild
        # does not run the pure-Python key check again for each seat
        ref = CachedReferee(genesis, rs, row.secret, keys_checked=True)
        writer = LogWriter(self.signers.get(genesis.body["server"]["vkey"], self.signer), genesis.body["server"]["origin"])
        live = LiveGame(row, ref, writer, checked=epoch)
        self._write(live, [genesis])
        self._catch_up(live)
        return live

    # -- what other processes told ------------------------------------------------
    def told(self, gid: str, size: int) -> None:
        """Another process of the store committed game ``gid`` up to ``size`` records (the store's
        listener thread, or the streams' poll on the loop). Kept for every game, cached or not (a
        game being loaded now is not cached yet); past TOLD_KEPT entries, those of games neither
        cached nor in use go."""
        with self._told_lock:
            if self._told.get(gid, -1) < size:
                self._told[gid] = size
            if len(self._told) > TOLD_KEPT:
                with self._meta:
                    keep = {g: n for g, n in self._told.items() if g in self._live or g in self._locks}
                keep[gid] = max(size, keep.get(gid, 0))
                self._told = keep

    def ahead(self, gid: str, n: int) -> bool:
        """Whether game ``gid`` is known to have more than ``n`` records, by the cache or by what another
        process told (no lock, no store query: a hint for a stream deciding whether to read again)."""
        live = self._live.get(gid)
        return (live is not None and live.size > n) or self._told.get(gid, 0) > n

    def listening(self, up: bool) -> None:
        """The store's listener is up (every append of another process is told from now on) or down.
        Either way a new epoch: a cache is trusted by what was told only once compared with the
        store's size in an epoch that is up (appends told while it was down were lost)."""
        self._listening = up
        self._epoch += 1

    def _store_size(self, live: LiveGame, told: bool) -> int:
        """The store's size of the game, or (``told``, the listener up and this cache compared with
        the store since it came up) what the other processes told, without a query."""
        gid = live.row.game_id
        if told and self._listening and live.checked == self._epoch:
            return max(live.size, self._told.get(gid, 0))
        epoch = self._epoch
        n = self.store.size(gid)
        if n == live.size:
            live.checked = epoch
        return n

    def _catch_up(self, live: LiveGame, told: bool = False, n: int | None = None) -> None:
        """Replay onto the cached game what the store has beyond it (in place: a failure discards
        the game from the cache). ``told``: the store's size as ``_store_size`` knows it; ``n``:
        that size, known already."""
        epoch = self._epoch
        if n is None:
            n = self._store_size(live, told)
        if n == live.size:
            return
        gid = live.row.game_id
        if n < live.size:
            raise Internal(f"game {gid}: the store has {n} records, the cache {live.size}")
        live.referee.in_place = True
        try:
            self._replay(live, n)
        except BaseException:
            with self._meta:
                if self._live.get(gid) is live:
                    self._live.pop(gid)
            raise
        finally:
            live.referee.in_place = False
        live.checked = epoch

    def _replay(self, live: LiveGame, n: int) -> None:
        gid = live.row.game_id
        # Commands first, then records: another server may append between the two reads, and a command
        # and its records are one transaction, so every command read here has its records in the second
        # read (records first could miss a command's: a replay mismatch, INTERNAL, in a two-server race).
        commands = list(self.store.commands(gid, live.size))
        stored = {r.seq: r for r in self.store.records(gid, live.size)}
        timed = live.referee.clock is not None
        for cmd in commands:
            try:  # the time the record was written with (SPEC.md 8.2), for a game with a clock
                at = parse_record(stored[cmd.seqs[0]].raw).body.get("at") if timed else None
                # a stored command's signature was verified by the process that stored it: not again
                acc = live.referee.accept(cmd.signed, signature_checked=True, now=at)
            except (Rejection, KeyError) as e:
                raise Internal(f"game {gid}: a stored command is refused on replay: {e}") from None
            for r in acc.records:
                s = stored.get(r.seq)
                if s is None or s.raw != r.raw:
                    raise Internal(f"game {gid}: record {r.seq} differs from the replayed one")
            self._write(live, acc.records, rows=[stored[r.seq] for r in acc.records], openings=_openings(acc))
        if timed and live.size in stored and live.size == n - 1:  # a time-out or abandonment: no command
            end = stored[live.size]
            acc = live.referee.expire(parse_record(end.raw).body.get("at"))
            if acc is None or acc.records[0].raw != end.raw:
                raise Internal(f"game {gid}: record {end.seq} differs from the replayed one")
            self._write(live, acc.records, rows=[end])
        if live.size < n:  # more is fine: commands appended after the size was read
            raise Internal(f"game {gid}: replay reached {live.size}, the store has {n}")

    @contextmanager
    def inline(self) -> Iterator[None]:
        """Try a read on the event loop: inside, ``locked`` raises WouldWait rather than wait for
        a game's lock, load a game or catch up more than INLINE_CATCH_UP records."""
        _INLINE.on = True
        try:
            yield
        finally:
            _INLINE.on = False

    def _hold_now(self, gid: str) -> tuple[LiveGame, list]:
        """The cached game with its lock taken, without waiting: WouldWait if it is not cached or
        another call holds or waits for its lock. ``_release`` gives the lock back."""
        with self._meta:
            live = self._live.get(gid)
            if live is None or gid in self._locks:
                raise Appending(gid) if gid in self._appending else WouldWait(gid)
            ent = self._locks[gid] = [threading.Lock(), 1]
            ent[0].acquire()
            self._live.move_to_end(gid)
        return live, ent

    def _release(self, gid: str, ent: list) -> None:
        with self._meta:
            ent[0].release()
            ent[1] -= 1
            if ent[1] == 0:
                del self._locks[gid]

    @contextmanager
    def _locked_now(self, gid: str, fresh: bool, told: bool = False) -> Iterator[LiveGame]:
        """``locked`` without waiting: the cached game if its lock is free, (``fresh``) caught up
        here if the store has at most INLINE_CATCH_UP records more (the few rows read by index,
        replayed in place); WouldWait otherwise."""
        live, ent = self._hold_now(gid)
        try:
            if fresh:
                n = self._store_size(live, told)
                if n != live.size:
                    if not 0 < n - live.size <= INLINE_CATCH_UP:
                        raise WouldWait(gid)
                    self._catch_up(live, n=n)
            if self._due(live, self.now()):
                raise WouldWait(gid)  # an end record to write first (``_expire``, on the pool's path)
            yield live
        finally:
            self._release(gid, ent)

    @contextmanager
    def locked(self, gid: str, fresh: bool = True, told: bool = False) -> Iterator[LiveGame]:
        """The game's cache under the game's lock, caught up with the store
        (``fresh=False``: as cached; ``submit`` checks freshness itself). ``told``: caught up with
        what the other processes told, without asking the store its size while its listener is up (a
        stream's read: the wake that made it read told it; a told size is committed in the store)."""
        if getattr(_INLINE, "on", False):
            with self._locked_now(gid, fresh, told) as live:
                yield live
            return
        with self._game_lock(gid):
            live = self._live.get(gid)
            try:
                if live is None:
                    live = self._load(gid)
                    with self._meta:
                        self._live[gid] = live
                        self._trim()
                else:
                    if fresh:
                        self._catch_up(live, told)
                    with self._meta:
                        if gid in self._live:
                            self._live.move_to_end(gid)
            except Internal:
                with self._meta:
                    self._live.pop(gid, None)
                raise
            yield self._expire(gid, live)

    # -- endings by time (SPEC.md 8.2) --------------------------------------------------
    def _expire(self, gid: str, live: LiveGame) -> LiveGame:
        """Under the game's lock, on every use of the game: if a deadline of its clock has passed,
        write the end record (time-out or abandonment) before anything else happens."""
        for _ in range(APPEND_ATTEMPTS):
            ref = live.referee
            if ref.clock is None or ref.ended or ref.genesis.body["server"]["vkey"] not in self.signers:
                return live  # (a game under a key this server does not hold: not this server's to end)
            now = self.now()
            if not self._due(live, now):
                return live
            acc = ref.expire(now)
            try:
                self._write(live, acc.records, lambda rows: self.store.append(Append(gid, rows, None, [], ended=True)))
            except Conflict:  # another replica wrote first: judge again on the store's log
                live = self._load(gid)
                with self._meta:
                    self._live[gid] = live
                continue
            except BaseException:
                self._invalidate(gid)
                raise
            if metrics.ON:
                cause = getattr(acc.records[-1], "body", {}).get("cause") or {}
                metrics.ENDINGS.labels(str(cause.get("kind", "other"))[:16]).inc()
            self.on_append(gid)
            return live
        return live

    @staticmethod
    def _due(live: LiveGame, now: int) -> bool:
        """True if a deadline of the game's clock has passed at ``now`` (an end record is due)."""
        ref = live.referee
        c = ref.clock
        if c is None or ref.ended:
            return False
        # whose decision is pending matters only to a decision or total limit (``Clock.timeout``): a
        # game with only the abandonment limit (the default) is judged without asking its ruleset
        pending = endings.pending_seat(ref) if (c.decision or c.total) else None
        return c.expired(c.stamp(now), pending) is not None

    def sweep(self) -> int:
        """End every cached game whose deadline has passed (the server's timer; a game not in the
        cache is ended by its next request). Only a game found due is locked (so the sweep neither
        waits behind commands nor reorders the LRU cache). Returns how many games were looked at."""
        with self._meta:
            games = list(self._live.items())
        now = self.now()
        for gid, live in games:
            try:  # read without the game's lock (the sweep neither waits for nor touches a game in play);
                due = self._due(live, now)  # ``_expire`` judges again under it
            except Exception:  # noqa: BLE001 -- a referee caught mid-command: judge it under its lock
                due = True
            if not due:
                continue
            try:
                with self.locked(gid, fresh=False):
                    pass
            except Exception:  # noqa: BLE001 -- one bad game must not stop the timer
                continue
        return len(games)

    def _trim(self) -> None:
        """Under ``_meta``: the least recently used games out of the cache, down to MAX_LIVE."""
        while len(self._live) > MAX_LIVE:
            self._live.popitem(last=False)
        metrics.CACHED_GAMES.set(len(self._live))

    # -- the one write path ---------------------------------------------------------
    def _write(self, live: LiveGame, records, store=None, rows: list[RecordRow] | None = None,
               openings: list[OpeningRow] = ()) -> list[RecordRow]:
        """Every record that enters a game passes here: creation, a command (``submit``, ``submit_async``),
        an ending by time (``_expire``) and the catch-up from the store. ``store(rows)`` makes the new
        rows durable (or queues them: ``append_async``); None: the records are the store's already
        (a catch-up or rebuild follows them, ``rows`` the store's). The log writer signs a checkpoint
        per record, the Merkle leaves follow, and the rows with ``openings`` (every seat's) go to the
        game's tail. Returns the rows."""
        if store is None:
            live.writer.follow(records)
            rows = rows or []
        else:
            rows = []
            check_records(records)

            def keep(entries: list[Entry]) -> None:
                rows.extend(record_rows(entries))
                store(rows)
            live.writer.append(records, keep)
        live.leaves.extend(r.leaf for r in records)
        if rows:
            by_seq: dict[int, list[OpeningRow]] = {}
            for o in openings:
                by_seq.setdefault(o.seq, []).append(o)
            live.tail.extend((r, by_seq.get(r.seq, ())) for r in rows)
        return rows

    def _invalidate(self, gid: str) -> None:
        with self._meta:
            self._live.pop(gid, None)
            metrics.CACHED_GAMES.set(len(self._live))

    # -- commands -------------------------------------------------------------
    def _command_append(self, live: LiveGame, acc, cmd: Command, deadline_ok, loop=None):
        """``_write`` of an accepted command, with its row and its openings: stored now (``loop``
        None) or queued for the store's writer. Returns (the Submitted, the store's future or None,
        when the append started: the metrics' append time)."""
        ref, env = live.referee, cmd.env
        openings = _openings(acc)
        queued, t0 = [], [0.0]

        def store(rows: list[RecordRow]) -> None:
            if not deadline_ok():
                raise Rejection(Code.DEADLINE, "the deadline passed before the command was stored")
            t0[0] = time.perf_counter()
            app = Append(env.game_id, rows, CommandRow(acc.seat, acc.counter, cmd.signed, cmd.digest,
                                                       tuple(r.seq for r in rows)), openings, ended=ref.ended)
            if loop is None:
                self.store.append(app)
            else:
                queued.append(self.store.append_async(app, loop))
        rows = self._write(live, acc.records, store, openings=openings)
        res = Submitted(acc.seat, acc.counter, rows, [o for o in openings if o.seat == acc.seat], False, acc.next,
                        acc.received_ms, ref.ruleset)
        return res, (queued[0] if queued else None), t0[0]

    def submit(self, signed: bytes | Command, deadline_ok=lambda: True) -> Submitted:
        cmd = signed if isinstance(signed, Command) else Command.parse(signed)
        gid = cmd.env.game_id
        for _ in range(APPEND_ATTEMPTS):
            # The cache is not caught up with the store first (one query saved on every command):
            # an append on a stale cache conflicts and is retried on a rebuilt one, and a refusal
            # is given only after checking the store holds nothing newer.
            with self.locked(gid, fresh=False) as live:
                try:
                    acc = self._accept(live, cmd)
                except Rejection:
                    if self.store.size(gid) == live.size:
                        raise
                    try:
                        self._catch_up(live)  # another replica appended: judge against the store's tail
                    except Internal:
                        self._invalidate(gid)
                        raise
                    acc = self._accept(live, cmd)
                if isinstance(acc, Submitted):
                    return acc
                try:
                    res, _, t0 = self._command_append(live, acc, cmd, deadline_ok)
                except Conflict:
                    self._invalidate(gid)
                    continue
                except BaseException:
                    self._invalidate(gid)
                    raise
                if metrics.ON:
                    metrics.command(live.referee.ruleset.game, time.perf_counter() - t0)
            self.on_append(gid)
            return res
        raise Rejection(Code.LOST_RACE, f"another writer appended to game {gid} {APPEND_ATTEMPTS} times; retry")

    async def submit_async(self, signed: bytes | Command, deadline_ok, run) -> Submitted:
        """``submit`` on the event loop, for a store with ``append_async``: accept, sign and queue the
        append here, then wait (holding no thread) for the store's writer to make it durable; the
        game's lock is held until then, so nobody reads what is not on disk. Whenever this would
        wait for something else (the game not cached, its lock taken, a stale cache, a lost race),
        the command goes to ``run(self.submit, ...)``, the pool's path, instead."""
        cmd = signed if isinstance(signed, Command) else Command.parse(signed)
        if not self.async_appends:
            return await run(self.submit, cmd, deadline_ok)
        loop = asyncio.get_running_loop()
        gid = cmd.env.game_id
        try:
            live, ent = self._hold_now(gid)
        except WouldWait:
            return await run(self.submit, cmd, deadline_ok)
        try:
            if self._due(live, self.now()):
                raise WouldWait(gid)  # a time-out or abandonment to write first: the pool's path does
            try:
                acc = self._accept(live, cmd)
            except Rejection:
                if self.store.size(gid) == live.size:
                    raise
                raise WouldWait(gid) from None  # another replica appended: the pool's path catches up
            if isinstance(acc, Submitted):  # a retry of stored bytes: its original result
                self._release(gid, ent)
                return acc
            try:
                res, queued, t0 = self._command_append(live, acc, cmd, deadline_ok, loop)
            except BaseException:
                self._invalidate(gid)  # the referee moved on, nothing was stored
                raise
        except WouldWait:
            self._release(gid, ent)
            return await run(self.submit, cmd, deadline_ok)
        except BaseException:
            self._release(gid, ent)
            raise
        out = loop.create_future()
        out.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if the caller left
        self._appending.add(gid)
        queued.add_done_callback(self._when_stored(gid, live, ent, res, t0, out))
        try:
            return await asyncio.shield(out)
        except Conflict:
            return await run(self.submit, cmd, deadline_ok)

    def _when_stored(self, gid: str, live: LiveGame, ent: list, res: Submitted, t0: float, out: asyncio.Future):
        """``submit_async``'s callback, on the loop, once the store's writer is done with the append:
        the game's lock given back, its streams woken, ``out`` given the result or the store's error."""

        def stored(f) -> None:
            err = f.exception()
            if err is None:
                if metrics.ON:
                    metrics.command(live.referee.ruleset.game, time.perf_counter() - t0)
            else:
                self._invalidate(gid)
            self._appending.discard(gid)
            self._release(gid, ent)
            self.on_append(gid)   # also after a failure: a stream told Appending reads again
            if err is None:
                out.set_result(res)
            else:
                out.set_exception(err)
        return stored

    def _accept(self, live: LiveGame, cmd: Command):
        """The referee's acceptance, or the original result if these exact bytes were stored before."""
        ref, env = live.referee, cmd.env
        if env.seat in ref.counters and 0 < env.counter <= ref.counters[env.seat]:
            prior = self.store.command(env.game_id, env.seat, env.counter)
            if prior is not None and prior.digest == cmd.digest:
                out = self._replayed(env.game_id, prior)
                out.next_decision, out.ruleset = ref.pending(), ref.ruleset
                return out
        if ref.genesis.body["server"]["vkey"] not in self.signers:
            raise Rejection(Code.WRONG_SERVER_KEY, "this game's checkpoints are signed by another server key; "
                                                "every replica must hold the key named in its genesis in its key ring")
        now = self.now()
        # the receipt's time (SPEC.md 7.5) is the referee's: never before the last record's ``at`` (nor an end by _expire)
        at = now if ref.clock is None else max(now, ref.clock.last_at)
        try:
            acc = ref.accept_envelope(cmd.sc, cmd.env, now=now)   # raises Rejection; the cache is unchanged then
        except Rejection as e:
            e.received_ms = at
            raise
        acc.received_ms = at
        return acc

    def _replayed(self, gid: str, prior: CommandRow) -> Submitted:
        recs = [r for r in self.store.records(gid, prior.seqs[0], len(prior.seqs))]
        ops = self.store.openings(gid, prior.seat, prior.seqs[0], prior.seqs[-1] + 1)
        return Submitted(prior.seat, prior.counter, recs, ops, duplicate=True)

    # -- reads ----------------------------------------------------------------
    def seat_keys(self, gid: str) -> dict[str, bytes]:
        with self.locked(gid) as live:
            return dict(live.referee.seat_keys)

    def seat_turn(self, live: LiveGame, seat: str):
        """(decision, legal commands) if the game waits for ``seat``, else None."""
        ref = live.referee
        d = ref.pending()
        if d is None:
            return None
        if not ref.started:
            todo = seat not in ref.entropy_commits or (
                len(ref.entropy_commits) == len(ref.seat_order) and seat not in ref.entropy)
            return (d, []) if todo else None
        if d.seat != seat:
            return None
        return d, ref.ruleset.legal_commands(ref.state, seat, d)

    # -- seat cosignatures (SPEC.md 4.5) --------------------------------------
    def add_cosignature(self, gid: str, seat: str, size: int, line: str) -> str:
        """Check and store ``seat``'s cosignature line of checkpoint ``size``; return that
        checkpoint with every seat cosignature stored for it. Bad input stores nothing."""
        with self.locked(gid) as live:
            keys = dict(live.referee.seat_keys)
            origin, n = live.origin, live.size
        if seat not in keys:
            raise Rejection(Code.UNKNOWN_SEAT, f"no seat {seat!r} in this game")
        if not 0 < size <= n:
            raise Rejection(Code.OUT_OF_RANGE, f"need 0 < size <= {n}")
        note = self.store.records(gid, size - 1, 1)[0].checkpoint
        if not line.endswith("\n") or line.count("\n") != 1:
            raise Rejection(Code.BAD_COSIGNATURE, "a cosignature is one signature line ending in a newline")
        try:
            seats = cosign.seat_cosignatures(cosign.add_cosignatures(note, [line]), origin, {seat: keys[seat]})
        except CryptoError as e:
            raise Rejection(Code.BAD_COSIGNATURE, f"not a valid cosignature of checkpoint {size} by seat {seat}: {e}") from None
        if seat not in seats:
            raise Rejection(Code.BAD_COSIGNATURE, f"the line is not seat {seat}'s cosignature (name {cosign.cosigner_name(origin, seat)!r}, "
                                               "key type 0x04, the seat's genesis key)")
        self.store.add_cosignature(gid, size, seat, line)
        return self.cosigned_note(gid, size, note)

    def cosigned_note(self, gid: str, size: int, note: str) -> str:
        """The server's checkpoint note of ``size`` with the stored seat cosignature lines."""
        return cosign.add_cosignatures(note, [line for _, line in self.store.cosignatures(gid, size)])
