"""The service's core, without gRPC: create games, accept signed envelopes,
store what the referee produces, and answer reads.

The pipeline for one envelope (as boardgame.io's master does it):
parse -> (retry of stored bytes? answer the original result) -> catch up the
cached referee from the store -> ``Referee.accept`` (signature, seat counter,
phase, state id, pending decision, rules) -> the game's ``LogWriter`` (engine/log/writer.py:
tree, one signed checkpoint per record) -> ``store.append`` (durable; optimistic: a lost
race invalidates the cache and is retried, then answered LOST_RACE/ABORTED) -> wake the
streams. ``submit`` runs in a pool thread; ``submit_async`` is the same on the event loop,
waiting for ``store.append_async`` without a thread, and hands over to ``submit``
whenever it would wait for anything else.

The referee kept in memory per game is a cache: before each append and each read it catches
up from the store by replaying stored signed commands (``Referee.accept``): many processes, one store.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from afteraction.engine import endings, registry
from afteraction.engine.crypto import canon, cosign
from afteraction.engine.crypto.note import Signer
from afteraction.engine.errors import AfteractionError, CryptoError, Rejection
from afteraction.engine.protocol import FORMAT_VERSION, parse_record
from afteraction.engine.log.writer import Entry, LogWriter, cached
from afteraction.engine.referee import Referee
from afteraction.v1 import envelope_pb2
from google.protobuf.message import DecodeError

from . import limits, metrics
from .status import Internal, Refusal, quote
from .store import Append, CommandRow, Conflict, GameRow, OpeningRow, RecordRow, Store

APPEND_ATTEMPTS = 3
MAX_LIVE = limits.MAX_LIVE_GAMES   # games kept caught up in memory (LRU); older ones are rebuilt from the store


#: the longest seat cosignature line AddCosignature takes (a real one is about 150 bytes + the origin)


class WouldWait(Exception):
    """Raised by ``locked`` in a call tried on the event loop (``GameManager.inline``) when
    the call would wait or do more than one indexed store read: run it in the pool instead."""


_INLINE = threading.local()


@dataclass
class LiveGame:
    """Cached per game: the referee caught up to the store, its log writer (tree, checkpoint
    signer) and the Merkle leaves (for proofs)."""
    row: GameRow
    referee: Referee
    writer: LogWriter
    leaves: list[bytes] = field(default_factory=list)

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


def opening_row(seat: str, op) -> OpeningRow:
    return OpeningRow(seat, op.seq, op.k, op.salt, canon.encode(op.value))


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
        self._meta = threading.Lock()
        self.on_append = lambda gid: None   # the server wakes its streams (service/feeds.py)
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
        rows: list[RecordRow] = []

        def keep(entries: list[Entry]) -> None:
            rows.extend(record_rows(entries))
            self.store.create_game(GameRow(gid, rs.game, rs.version, genesis.raw, secret), rows[0])
        LogWriter(self.signer, origin, keep).append([genesis])
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
        row = self.store.game(gid)
        if row is None:
            raise Refusal("UNKNOWN_GAME", f"no game {quote(gid)}", game_id=gid)
        genesis = parse_record(row.genesis)
        rs = registry.get(row.game, row.version)
        ref = Referee(genesis, rs, row.secret)
        writer = LogWriter(self.signers.get(genesis.body["server"]["vkey"], self.signer), genesis.body["server"]["origin"])
        writer.follow([genesis])
        live = LiveGame(row, ref, writer, [genesis.leaf])
        self._catch_up(live)
        return live

    def _catch_up(self, live: LiveGame) -> None:
        gid = live.row.game_id
        n = self.store.size(gid)
        if n == live.size:
            return
        if n < live.size:
            raise Internal(f"game {gid}: the store has {n} records, the cache {live.size}")
        # Commands first, then records: another server may append between the two reads, and a command
        # and its records are one transaction, so every command read here has its records in the second
        # read (records first could miss a command's: a replay mismatch, INTERNAL, in a two-server race).
        commands = list(self.store.commands(gid, live.size))
        stored = {r.seq: r for r in self.store.records(gid, live.size)}
        timed = live.referee.clock is not None
        for cmd in commands:
            try:  # the time the record was written with (SPEC.md 8.2), for a game with a clock
                at = parse_record(stored[cmd.seqs[0]].raw).body.get("at") if timed else None
                acc = live.referee.accept(cmd.signed, now=at)
            except (Rejection, KeyError) as e:
                raise Internal(f"game {gid}: a stored command is refused on replay: {e}") from None
            for r in acc.records:
                s = stored.get(r.seq)
                if s is None or s.raw != r.raw:
                    raise Internal(f"game {gid}: record {r.seq} differs from the replayed one")
                live.writer.follow([r])
                live.leaves.append(r.leaf)
        if timed and live.size in stored and live.size == n - 1:  # a time-out or abandonment: no command
            end = stored[live.size]
            acc = live.referee.expire(parse_record(end.raw).body.get("at"))
            if acc is None or acc.records[0].raw != end.raw:
                raise Internal(f"game {gid}: record {end.seq} differs from the replayed one")
            live.writer.follow(acc.records)
            live.leaves.append(acc.records[0].leaf)
        if live.size < n:  # more is fine: commands appended after the size was read
            raise Internal(f"game {gid}: replay reached {live.size}, the store has {n}")

    @contextmanager
    def inline(self) -> Iterator[None]:
        """Try a read on the event loop: inside, ``locked`` raises WouldWait rather than wait for
        a game's lock, load a game or catch it up (it still checks the store's size)."""
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
                raise WouldWait(gid)
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
    def _locked_now(self, gid: str, fresh: bool) -> Iterator[LiveGame]:
        """``locked`` without waiting: the cached game if its lock is free and (``fresh``) the
        store holds nothing newer; WouldWait otherwise."""
        live, ent = self._hold_now(gid)
        try:
            if fresh and self.store.size(gid) != live.size:
                raise WouldWait(gid)
            if self._due(live, self.now()):
                raise WouldWait(gid)  # an end record to write first (``_expire``, on the pool's path)
            yield live
        finally:
            self._release(gid, ent)

    @contextmanager
    def locked(self, gid: str, fresh: bool = True) -> Iterator[LiveGame]:
        """The game's cache under the game's lock, caught up with the store
        (``fresh=False``: as cached; ``submit`` checks freshness itself)."""
        if getattr(_INLINE, "on", False):
            with self._locked_now(gid, fresh) as live:
                yield live
            return
        with self._game_lock(gid):
            live = self._live.get(gid)
            try:
                if live is None:
                    live = self._load(gid)
                    with self._meta:
                        self._live[gid] = live
                        while len(self._live) > MAX_LIVE:
                            self._live.popitem(last=False)
                        metrics.CACHED_GAMES.set(len(self._live))
                else:
                    if fresh:
                        self._catch_up(live)
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

            def keep(entries: list[Entry]) -> None:
                self.store.append(Append(gid, record_rows(entries), None, [], ended=True))
            try:
                live.writer.append(acc.records, keep)
            except Conflict:  # another replica wrote first: judge again on the store's log
                live = self._load(gid)
                with self._meta:
                    self._live[gid] = live
                continue
            except BaseException:
                self._invalidate(gid)
                raise
            live.leaves.extend(r.leaf for r in acc.records)
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

    def _invalidate(self, gid: str) -> None:
        with self._meta:
            self._live.pop(gid, None)
            metrics.CACHED_GAMES.set(len(self._live))

    # -- commands -------------------------------------------------------------
    @staticmethod
    def _parse(signed: bytes):
        try:
            sc = envelope_pb2.SignedCommand.FromString(signed)
            env = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
        except DecodeError:
            raise Rejection("MALFORMED", "not a serialized SignedCommand carrying a CommandEnvelope") from None
        check_envelope(sc, env)
        return env, hashlib.sha256(signed).digest()

    def submit(self, signed: bytes, deadline_ok=lambda: True) -> Submitted:
        env, digest = self._parse(signed)
        for attempt in range(APPEND_ATTEMPTS):
            # The cache is not caught up with the store first (one query saved on every command):
            # an append on a stale cache conflicts and is retried on a rebuilt one, and a refusal
            # is given only after checking the store holds nothing newer.
            with self.locked(env.game_id, fresh=False) as live:
                ref = live.referee
                try:
                    acc = self._accept(live, env, signed, digest)
                except Rejection:
                    if self.store.size(env.game_id) == live.size:
                        raise
                    try:
                        self._catch_up(live)  # another replica appended: judge against the store's tail
                    except Internal:
                        self._invalidate(env.game_id)
                        raise
                    acc = self._accept(live, env, signed, digest)
                if isinstance(acc, Submitted):
                    return acc
                rows: list[RecordRow] = []
                openings = [opening_row(s, op) for s in sorted(acc.openings) for op in acc.openings[s]]
                t0 = [0.0]  # the append's time (metrics)

                def keep(entries: list[Entry]) -> None:
                    rows.extend(record_rows(entries))
                    if not deadline_ok():
                        raise Rejection("DEADLINE", "the deadline passed before the command was stored")
                    t0[0] = time.perf_counter()
                    self.store.append(Append(env.game_id, rows, CommandRow(acc.seat, acc.counter, signed, digest,
                                                                           tuple(r.seq for r in rows)),
                                             openings, ended=ref.ended))
                    t0[0] = time.perf_counter() - t0[0]
                try:
                    check_records(acc.records)
                    live.writer.append(acc.records, keep)
                except Conflict:
                    self._invalidate(env.game_id)
                    continue
                except BaseException:
                    self._invalidate(env.game_id)
                    raise
                live.leaves.extend(r.leaf for r in acc.records)
                nxt = ref.pending()
                if metrics.ON:
                    metrics.command(ref.ruleset.game, t0[0])
            self.on_append(env.game_id)
            return Submitted(acc.seat, acc.counter, rows, [o for o in openings if o.seat == acc.seat], False, nxt,
                             acc.received_ms)
        raise Rejection("LOST_RACE", f"another writer appended to game {env.game_id} {APPEND_ATTEMPTS} times; retry")

    async def submit_async(self, signed: bytes, deadline_ok, run) -> Submitted:
        """``submit`` on the event loop, for a store with ``append_async``: parse, accept, sign and
        queue the append here, then wait (holding no thread) for the store's writer to make it
        durable; the game's lock is held until then, so nobody reads what is not on disk. Whenever
        this would wait for something else (the game not cached, its lock taken, a stale cache, a
        lost race), the command goes to ``run(self.submit, ...)``, the pool's path, instead."""
        if not self.async_appends:
            return await run(self.submit, signed, deadline_ok)
        loop = asyncio.get_running_loop()
        env, digest = self._parse(signed)
        gid = env.game_id
        try:
            live, ent = self._hold_now(gid)
        except WouldWait:
            return await run(self.submit, signed, deadline_ok)
        pending = None
        t0 = 0.0
        try:
            ref = live.referee
            if self._due(live, self.now()):
                raise WouldWait(gid)  # a time-out or abandonment to write first: the pool's path does
            try:
                acc = self._accept(live, env, signed, digest)
            except Rejection:
                if self.store.size(gid) == live.size:
                    raise
                raise WouldWait(gid) from None  # another replica appended: the pool's path catches up
            if isinstance(acc, Submitted):  # a retry of stored bytes: its original result
                self._release(gid, ent)
                return acc
            try:
                rows: list[RecordRow] = []
                openings = [opening_row(s, op) for s in sorted(acc.openings) for op in acc.openings[s]]

                def keep(entries: list[Entry]) -> None:
                    nonlocal pending, t0
                    rows.extend(record_rows(entries))
                    if not deadline_ok():
                        raise Rejection("DEADLINE", "the deadline passed before the command was stored")
                    t0 = time.perf_counter()
                    pending = self.store.append_async(Append(gid, rows, CommandRow(
                        acc.seat, acc.counter, signed, digest, tuple(r.seq for r in rows)), openings,
                        ended=ref.ended), loop)
                check_records(acc.records)
                live.writer.append(acc.records, keep)
            except BaseException:
                self._invalidate(gid)  # the referee moved on, nothing was stored
                raise
        except WouldWait:
            self._release(gid, ent)
            return await run(self.submit, signed, deadline_ok)
        except BaseException:
            self._release(gid, ent)
            raise
        out = loop.create_future()
        out.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if the caller left

        def stored(f) -> None:  # on the loop, once the store's writer is done with the append
            err = f.exception()
            if err is None:
                if metrics.ON:
                    metrics.command(ref.ruleset.game, time.perf_counter() - t0)
                live.leaves.extend(r.leaf for r in acc.records)
                res = Submitted(acc.seat, acc.counter, rows, [o for o in openings if o.seat == acc.seat],
                                False, ref.pending(), acc.received_ms)
            else:
                self._invalidate(gid)
            self._release(gid, ent)
            if err is None:
                self.on_append(gid)
                out.set_result(res)
            else:
                out.set_exception(err)
        pending.add_done_callback(stored)
        try:
            return await asyncio.shield(out)
        except Conflict:
            return await run(self.submit, signed, deadline_ok)

    def _accept(self, live: LiveGame, env, signed: bytes, digest: bytes):
        """The referee's acceptance, or the original result if these exact bytes were stored before."""
        ref = live.referee
        if env.seat in ref.counters and 0 < env.counter <= ref.counters[env.seat]:
            prior = self.store.command(env.game_id, env.seat, env.counter)
            if prior is not None and prior.digest == digest:
                out = self._replayed(env.game_id, prior)
                out.next_decision = ref.pending()
                return out
        if ref.genesis.body["server"]["vkey"] not in self.signers:
            raise Rejection("WRONG_SERVER_KEY", "this game's checkpoints are signed by another server key; "
                                                "every replica must hold the key named in its genesis in its key ring")
        now = self.now()
        # the receipt's time (SPEC.md 7.5) is the referee's: never before the last record's ``at`` (nor an end by _expire)
        at = now if ref.clock is None else max(now, ref.clock.last_at)
        try:
            acc = ref.accept(signed, now=now)   # raises Rejection; the cache is unchanged then
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
        return d, ref.ruleset.legal_commands(ref.state, seat)

    # -- seat cosignatures (SPEC.md 4.5) --------------------------------------
    def add_cosignature(self, gid: str, seat: str, size: int, line: str) -> str:
        """Check and store ``seat``'s cosignature line of checkpoint ``size``; return that
        checkpoint with every seat cosignature stored for it. Bad input stores nothing."""
        with self.locked(gid) as live:
            keys = dict(live.referee.seat_keys)
            origin, n = live.origin, live.size
        if seat not in keys:
            raise Rejection("UNKNOWN_SEAT", f"no seat {seat!r} in this game")
        if not 0 < size <= n:
            raise Rejection("OUT_OF_RANGE", f"need 0 < size <= {n}")
        note = self.store.records(gid, size - 1, 1)[0].checkpoint
        if not line.endswith("\n") or line.count("\n") != 1:
            raise Rejection("BAD_COSIGNATURE", "a cosignature is one signature line ending in a newline")
        try:
            seats = cosign.seat_cosignatures(cosign.add_cosignatures(note, [line]), origin, {seat: keys[seat]})
        except CryptoError as e:
            raise Rejection("BAD_COSIGNATURE", f"not a valid cosignature of checkpoint {size} by seat {seat}: {e}") from None
        if seat not in seats:
            raise Rejection("BAD_COSIGNATURE", f"the line is not seat {seat}'s cosignature (name {cosign.cosigner_name(origin, seat)!r}, "
                                               "key type 0x04, the seat's genesis key)")
        self.store.add_cosignature(gid, size, seat, line)
        return self.cosigned_note(gid, size, note)

    def cosigned_note(self, gid: str, size: int, note: str) -> str:
        """The server's checkpoint note of ``size`` with the stored seat cosignature lines."""
        return cosign.add_cosignatures(note, [line for _, line in self.store.cosignatures(gid, size)])

def check_records(records) -> None:
    for r in records:
        if len(r.raw) > limits.MAX_RECORD_BYTES:
            raise Refusal("RECORD_TOO_LARGE", f"the command would make a record of {len(r.raw)} "
                          f"bytes; the limit is {limits.MAX_RECORD_BYTES}",
                          limit=limits.MAX_RECORD_BYTES, size=len(r.raw))


def check_envelope(sc, env) -> None:
    """The service's bounds on a parsed SignedCommand (service/limits.py), before the referee sees it."""
    if len(sc.envelope) > limits.MAX_ENVELOPE_BYTES:
        raise Refusal("FIELD_TOO_LONG", f"the envelope is {len(sc.envelope)} bytes; the limit is "
                      f"{limits.MAX_ENVELOPE_BYTES}", field="envelope", limit=limits.MAX_ENVELOPE_BYTES,
                      size=len(sc.envelope))
    if not env.game_id:
        raise Rejection("MALFORMED", "the envelope names no game")
    for name, v, n in (("game_id", env.game_id, limits.MAX_GAME_ID_CHARS), ("seat", env.seat, limits.MAX_NAME_CHARS)):
        if len(v) > n:
            raise Refusal("FIELD_TOO_LONG", f"the envelope's {name} is {len(v)} characters; the limit is {n}",
                          field=f"envelope.{name}", limit=n, size=len(v))
    if not 1 <= env.counter <= limits.MAX_SEQ:
        raise Refusal("OUT_OF_RANGE", f"the envelope's counter is {env.counter}; counters run from 1 "
                      f"(a seat's first envelope) to {limits.MAX_SEQ}", field="envelope.counter",
                      min=1, max=limits.MAX_SEQ)
    if env.state_seq > limits.MAX_SEQ:
        raise Refusal("OUT_OF_RANGE", f"the envelope's state_seq is past {limits.MAX_SEQ}",
                      field="envelope.state_seq", max=limits.MAX_SEQ)
