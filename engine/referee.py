"""The referee: turns signed seat envelopes into log records (SPEC.md sections 3-8).

Pure and deterministic. The pipeline for one envelope is the one of SPEC.md 7.3:
parse -> authenticate (signature) -> seat counter -> phase (handshake / play /
ended) -> state id -> pending decision -> apply (on a copy) -> records. Any
failure raises Rejection and changes nothing. The protocol's rules (counters, the
handshake, entropy and envelope binding, the endings) are engine/protocol_rules.py's
predicates, which the verifier asks too. The service stores what comes out; the
verifier feeds the logged envelopes back in (engine/log/replay.py's ``ReplayReferee``)
and compares the bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError

from afteraction.v1 import envelope_pb2

from . import endings as _endings
from . import protocol_rules as R
from .crypto import commit as _commit
from .crypto import dice as _dice
from .errors import InternalKeyError, InternalValueError, Rejection
from .codes import Code
from .protocol import (FORMAT_VERSION, ZERO_HASH, Record, end_body, entropy_commit_event, entropy_reveal_event,
                       genesis_body, make_record, misplaced_event, sealed_body, sealed_event, seat_body,
                       seat_key_problem, start_event, verify_command_signature)
# imported from here by engine/seat.py, clients and tests (defined in engine/protocol.py)
from .protocol import command_signing_bytes  # noqa: F401
from .ruleset import Context, Decision, Ref, Ruleset


@dataclass
class Accepted:
    """The outcome of one accepted envelope."""
    records: list[Record]
    # seat -> openings of the hidden values created for that seat (delivered privately)
    openings: dict[str, list[_commit.Opening]] = field(default_factory=dict)
    seat: str = ""
    counter: int = 0
    #: the decision the game waits for after this acceptance (None once ended): ``Referee.pending()``,
    #: asked once here so the service answers with it and checks the next command against the same value
    next: Decision | None = None


#: the game id length the rulesets' sealed command sizes are declared for (the service's ids
#: are 16 hex digits); genesis adds the difference for another length (SPEC.md 6.5)
SEALED_GAME_ID_BYTES = 16


def sealed_sizes(ruleset: Ruleset, game_id: str) -> dict:
    """Genesis's ``sealed_sizes`` (v >= 2): the ruleset's declaration, the command sizes moved by
    the game id's length (the game id is inside every sealed envelope)."""
    d = len(game_id.encode()) - SEALED_GAME_ID_BYTES
    return {"command": {s: n + d for s, n in sorted(ruleset.sealed_sizes.get("command", {}).items())},
            "event": {s: n for s, n in sorted(ruleset.sealed_sizes.get("event", {}).items())}}


class Referee:
    """One game's referee. ``secret`` is the server secret: the service and a
    verifier of an ended game have it; without it nothing can be accepted."""

    def __init__(self, genesis: Record, ruleset: Ruleset, secret: bytes, keys_checked: bool = False) -> None:
        """``keys_checked``: the seat keys of this genesis passed SPEC.md 7.4 before (the service made or
        stored it: ``new_genesis`` checked them); a verifier's referee checks them here."""
        if genesis.kind != "genesis" or genesis.seq != 0:
            raise Rejection(Code.BAD_GENESIS, "record 0 must be the genesis")
        b = genesis.body
        if _commit.server_secret_commitment(genesis.game, secret) != b["secret_commit"]:
            raise Rejection(Code.BAD_SECRET, "the server secret does not match the genesis commitment")
        self.ruleset = ruleset
        self.game_id = genesis.game
        self.genesis = genesis
        self.version = genesis.v          # every record of the log is written in genesis's version
        self.scenario: str = b["scenario"]
        self.options: dict = b["options"]
        self.seat_keys: dict[str, bytes] = {s["name"]: s["key"] for s in b["seats"]}
        bad = None if keys_checked else seat_key_problem(self.seat_keys)
        if bad is not None:
            raise Rejection(Code.BAD_GENESIS, bad[2])
        self.seat_order: list[str] = [s["name"] for s in b["seats"]]
        self._secret = secret
        self._aead = None                 # _commit.sealer of this game, made at the first sealed value or salt
        self.seq = 1                      # next record's sequence number
        self.prev = genesis.hash
        self.counters = {s: 0 for s in self.seat_order}
        self.entropy_commits: dict[str, bytes] = {}
        self.committed_at = 0             # seq of the record after the last seat's commit (0: not yet)
        self.entropy: dict[str, bytes] = {}
        self.dice_key: bytes | None = None
        self.rolls = 0
        self.state: Any = None
        self.ended = False
        self._openings: dict[Ref, _commit.Opening] = {}
        # v >= 2: {"command": {seat: size}, "event": {seat: size}} from genesis (SPEC.md 6.5)
        self.sealed_sizes: dict | None = b.get("sealed_sizes") if self.version >= 2 else None
        if self.version >= 2 and not isinstance(self.sealed_sizes, dict):
            raise Rejection(Code.BAD_GENESIS, "a v2 genesis declares sealed_sizes (SPEC.md 6.5)")
        # -- endings (engine/endings.py, SPEC.md 8.1-8.2): genesis's clock, the standing offer,
        # the time of the record being written
        self.clock = _endings.Clock.of(b) if self.version >= 2 else None
        self.offers = _endings.Offers(self.version)   # the standing offers (SPEC.md 8.1)
        self.offers.after(0, genesis.hash, None)
        self._at: int | None = None
        self.ending: tuple[dict, dict] | None = None  # (outcome, cause) of an engine ending
        self._pending: tuple[int, Decision | None] | None = None   # (seq, pending()) : asked once per record

    # -- creation -------------------------------------------------------------
    @staticmethod
    def new_genesis(game_id: str, ruleset: Ruleset, scenario: str, options: dict,
                    seat_keys: dict[str, bytes], server_vkey: str, origin: str, secret: bytes,
                    version: int = FORMAT_VERSION, match: dict | None = None, clock: dict | None = None,
                    now: int | None = None) -> Record:
        opts = ruleset.check_options(scenario, options)
        if sorted(seat_keys) != sorted(ruleset.seats):
            missing = [s for s in ruleset.seats if s not in seat_keys]
            extra = sorted(s for s in seat_keys if s not in ruleset.seats)
            why = "; ".join(([f"missing {', '.join(missing)}"] if missing else [])
                            + ([f"not a seat: {', '.join(repr(s[:40]) for s in extra[:4])}"] if extra else []))
            raise Rejection(Code.BAD_SEATS, f"{ruleset.game} has seats {', '.join(ruleset.seats)} ({why})")
        for s, k in seat_keys.items():
            if not isinstance(k, bytes) or len(k) != 32:
                raise Rejection(Code.BAD_SEAT_KEY, f"seat {s}: an Ed25519 public key is 32 bytes")
        bad = seat_key_problem({s: seat_keys[s] for s in ruleset.seats})
        if bad is not None:
            code, _, message = bad  # one literal raise per code: tests/verify/test_spec_codes.py reads them
            if code == "WEAK_SEAT_KEY":
                raise Rejection(Code.WEAK_SEAT_KEY, message)
            raise Rejection(Code.SHARED_SEAT_KEY, message)
        body = genesis_body(ruleset, scenario, opts, seat_keys, server_vkey, origin,
                            _commit.server_secret_commitment(game_id, secret))
        if version >= 2:  # SPEC.md 6.5: the padded size of every kind of hidden value
            body["sealed_sizes"] = sealed_sizes(ruleset, game_id)
        if match is not None:  # SPEC.md 1.3: optional, v >= 2
            from .match import match_problem

            why = "match data needs format v2" if version < 2 else match_problem(match, ruleset.seats)
            if why is not None:
                raise Rejection(Code.BAD_MATCH, why)
            body["match"] = match
        if clock is not None:  # -- endings: a time control and the creation time (SPEC.md 8.2, v >= 2)
            why = _endings.control_problem(clock) or _endings.time_problem(now)
            if version < 2 or why is not None:
                raise Rejection(Code.BAD_CLOCK, why or "time controls need format version 2")
            body["clock"], body["at"] = clock, now
        return make_record(game_id, 0, ZERO_HASH, "genesis", body, version)

    # -- queries --------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.dice_key is not None

    def pending(self) -> Decision | None:
        """The decision the game waits for. The state changes only with a record, so the ruleset is
        asked once per log position (the service's answer, its prompt, the clock's and the next
        command's checks all read the same value)."""
        memo = self._pending
        if memo is not None and memo[0] == self.seq:
            return memo[1]
        if self.ended:
            d = None
        elif not self.started:
            d = Decision("*", "entropy", "every seat commits to entropy, then reveals it (SPEC.md 5.2)")
        else:
            d = self.ruleset.pending(self.state)
        self._pending = (self.seq, d)
        return d

    def opening(self, ref: Ref) -> _commit.Opening:
        return self._openings[ref]

    # -- the pipeline ---------------------------------------------------------
    def expire(self, now: int) -> Accepted | None:
        """End the game by time-out or abandonment if a deadline passed before ``now`` (SPEC.md 8.2)."""
        records = _endings.expire(self, now)
        return None if records is None else Accepted(records, next=None)

    def accept(self, signed: bytes, signature_checked: bool = False, now: int | None = None) -> Accepted:
        """Accept one serialized SignedCommand or raise Rejection (nothing changes).

        ``signature_checked`` is for the verifier's replay only: it has already
        verified this exact envelope's signature (step 6 or 9), so it is not
        verified a second time. ``now``: the service's time, for a game with a clock (SPEC.md 8.2)."""
        try:
            sc = envelope_pb2.SignedCommand.FromString(signed)
            env = envelope_pb2.CommandEnvelope.FromString(sc.envelope)
        except DecodeError:
            raise Rejection(Code.MALFORMED, "not a serialized SignedCommand carrying a CommandEnvelope") from None
        return self.accept_envelope(sc, env, signature_checked, now)

    def accept_envelope(self, sc, env, signature_checked: bool = False, now: int | None = None) -> Accepted:
        """``accept`` of a SignedCommand the caller has parsed already (``sc``, and ``env`` parsed from
        ``sc.envelope``): the service parses each command once, for its own bounds and this. The
        acceptance carries the next decision (``Accepted.next``), so nobody asks the ruleset again."""
        why = R.encoding_problem(self.version, env, sc.envelope)
        if why is not None:
            raise why
        acc = self._accept(sc, env, signature_checked, now)
        acc.next = self.pending()
        return acc

    def _accept(self, sc, env, signature_checked: bool, now: int | None) -> Accepted:
        why = R.game_problem(env.game_id, self.game_id) or R.seat_problem(env.seat, self.seat_keys)
        if why is not None:
            raise why
        if not signature_checked and not verify_command_signature(self.seat_keys[env.seat], sc.envelope, sc.signature):
            raise Rejection(Code.BAD_SIGNATURE, f"signature does not verify with seat {env.seat}'s key")
        why = R.counter_problem(env.seat, self.counters[env.seat], env.counter) or R.ended_problem(self.ended)
        if why is not None:
            raise why
        action = env.WhichOneof("action")
        self._at = _endings.stamp(self, now)  # -- endings: the record's time, or TIME_EXPIRED
        if action == "ending":
            return Accepted(_endings.accept(self, env, sc), seat=env.seat, counter=env.counter)
        if action == "entropy_commit":
            return self._entropy_commit(env, sc)
        if action == "entropy_reveal":
            return self._entropy_reveal(env, sc)
        if action == "command":
            return self._command(env, sc)
        raise Rejection(Code.MALFORMED, "the envelope carries no action")

    def _base_body(self, env, sc, events: list) -> dict:
        return seat_body(env.seat, env.counter, sc.envelope, sc.signature, events)

    def _entropy_commit(self, env, sc) -> Accepted:
        why = R.commit_problem(env.seat, self.entropy_commits, self.started)
        if why is not None:
            raise why
        self._check_history(env)
        c = env.entropy_commit.commitment
        why = R.commitment_problem(c)
        if why is not None:
            raise why
        body = self._base_body(env, sc, [entropy_commit_event(env.seat, c)])
        rec = self._append("commit", body, env.seat)
        self.entropy_commits[env.seat] = c
        if len(self.entropy_commits) == len(self.seat_order):
            self.committed_at = self.seq
        self.counters[env.seat] = env.counter
        return Accepted([rec], seat=env.seat, counter=env.counter)

    def _entropy_reveal(self, env, sc) -> Accepted:
        why = R.reveal_order_problem(self.entropy_commits, len(self.seat_order), self.started) \
            or R.reveal_binding_problem(self.version, env.state_seq, self.committed_at)
        if why is not None:
            raise why
        self._check_history(env)
        e = env.entropy_reveal.entropy
        why = R.revealed_problem(env.seat, self.entropy) \
            or R.entropy_problem(self.game_id, env.seat, e, self.genesis, self.entropy_commits[env.seat])
        if why is not None:
            raise why
        events: list[dict] = [entropy_reveal_event(env.seat, e)]
        entropy = dict(self.entropy)
        entropy[env.seat] = e
        openings: dict[str, list[_commit.Opening]] = {}
        new_state = None
        dice_key = None
        rolls = self.rolls
        if len(entropy) == len(self.seat_order):
            dice_key = _dice.derive_dice_key(self._secret, self.game_id, [(s, entropy[s]) for s in self.seat_order])
            ctx, counter = self._context(dice_key)
            new_state = self.ruleset.setup(self.scenario, self.options, ctx)
            events.append(start_event(self.ruleset.game, self.scenario))
            evs, openings, new_opens = self._seal_events(ctx)
            events += evs
            rolls = counter["i"]
        rec = self._append("reveal", self._base_body(env, sc, events), env.seat)
        self.entropy = entropy
        self.counters[env.seat] = env.counter
        if dice_key is not None:
            if self.clock is not None:  # -- endings: the first decision starts here
                self.clock.game_step(rec.seq, self._at, None)
            self.dice_key, self.state, self.rolls = dice_key, new_state, rolls
            self._openings.update(new_opens)
        return Accepted([rec], openings, seat=env.seat, counter=env.counter)

    def _command(self, env, sc) -> Accepted:
        why = R.play_problem(self.started) or R.stale_problem(self.version, env.state_seq, self.seq)
        if why is not None:
            raise why
        self._check_history(env)
        d = self.pending()
        if d is None:
            raise Rejection(Code.GAME_OVER, "the game has ended")
        if d.seat != env.seat:
            raise Rejection(Code.NOT_YOUR_DECISION, f"the pending decision ({d.kind}) belongs to seat {d.seat}")
        cmd = env.command
        private = self.ruleset.is_private(self.state, env.seat, cmd, d)   # d: pending asked once per command
        if private:
            size = self._size("command", env.seat)
            value = {"env": sc.envelope, "sig": sc.signature}
            # a value step 9 opened at this size fits it (the replay's, not encoded: commit.is_known)
            if size is not None and not _commit.is_known(value, size, self._known_value(0)) \
                    and _commit.padded_length(value) > size:
                raise Rejection(Code.COMMAND_TOO_LARGE, f"a sealed command of seat {env.seat} is padded to {size} bytes "
                                "(SPEC.md 6.5) and this envelope does not fit")
        ctx, counter = self._context(self.dice_key)
        state = self.ruleset.apply(self._working_state(), env.seat, cmd, ctx, d)
        events, openings, new_opens = self._seal_events(ctx)
        if private:
            op, c, ct = self._seal(0, value, size)
            body = sealed_body(env.seat, env.counter, c, ct, events)
            openings.setdefault(env.seat, []).insert(0, op)
            new_opens[(self.seq, 0)] = op
        else:
            body = self._base_body(env, sc, events)
        out = self.ruleset.outcome(state)
        records = [self._append("command", body, env.seat)]
        if self.clock is not None:  # -- endings: the seat's decision ends, the next one starts
            self.clock.game_step(records[0].seq, self._at, env.seat)
        self.state = state
        self.rolls = counter["i"]
        self.counters[env.seat] = env.counter
        self._openings.update(new_opens)
        if out is not None:
            records.append(self._append("end", end_body(self._secret, out)))
            self.ended = True
        return Accepted(records, openings, seat=env.seat, counter=env.counter)

    # -- helpers --------------------------------------------------------------
    def _check_history(self, env) -> None:
        """The envelope is bound to the end of the log its seat verified (v >= 2, SPEC.md 7.1-7.2:
        protocol_rules.binding_problem)."""
        why = R.binding_problem(self.version, env.seat, env.state_seq, env.prev, self.seq, self.offers)
        if why is not None:
            raise why

    # -- what the verifier's replay changes (engine/log/replay.py, ReplayReferee) --------------
    def _working_state(self) -> Any:
        """The state a command is applied to: a copy, kept only if no Rejection was raised."""
        return self.ruleset.copy_state(self.state)

    def _known_value(self, k: int) -> tuple | None:
        """Hidden value ``k`` of the record being made, as the verifier opened it from the log
        (``commit.seal``'s ``known``); None here: every value is sealed."""
        return None

    def _record(self, kind: str, body: dict) -> Record:
        """The record at the end of the log (``make_record``)."""
        return make_record(self.game_id, self.seq, self.prev, kind, body, self.version)

    def _context(self, dice_key: bytes) -> tuple[Context, dict]:
        counter = {"i": self.rolls}

        def roller(die: str, rule: str) -> _dice.Roll:
            i = counter["i"]
            counter["i"] = i + 1
            return _dice.roll(dice_key, i, die, rule)

        def opener(ref: Ref) -> dict:
            seq, k = ref
            if seq == self.seq:  # a value hidden earlier in this same record
                private = [ev for ev, to in ctx.events if to is not None]
                if not 1 <= k <= len(private):
                    raise InternalKeyError(ref)
                return {"salt": self._sealer().salt(seq, k), "value": private[k - 1]}   # derive_salt
            op = self._openings[(seq, k)]
            return {"salt": op.salt, "value": op.value}

        ctx = Context(self.seq, roller, opener, self.ruleset.max_events)
        return ctx, counter

    def _seal_events(self, ctx: Context) -> tuple[list[dict], dict[str, list[_commit.Opening]], dict[Ref, _commit.Opening]]:
        out: list[dict] = []
        openings: dict[str, list[_commit.Opening]] = {}
        new_opens: dict[Ref, _commit.Opening] = {}
        k = 0
        for ev, to in ctx.events:
            if to is None:
                t = misplaced_event(ev, "play")
                if t is not None:  # SPEC.md 1.4: the core names are the referee's; a verifier refuses this
                    raise InternalValueError(f"the ruleset emitted a {t} event, which only the referee writes where it stands")
                out.append(ev)
                continue
            if to not in self.seat_keys:
                raise InternalValueError(f"private event for unknown seat {to!r}")
            t = misplaced_event(ev, "hidden")
            if t is not None:  # SPEC.md 1.4: a hidden value is the ruleset's event or a roll
                raise InternalValueError(f"the ruleset emitted a {t} event as a hidden value")
            k += 1
            op, c, ct = self._seal(k, ev, self._size("event", to))
            out.append(sealed_event(to, k, c, ct))
            openings.setdefault(to, []).append(op)
            new_opens[(self.seq, k)] = op
        return out, openings, new_opens

    def _seal(self, k: int, value, size: int | None) -> tuple[_commit.Opening, bytes, bytes]:
        """Hidden value ``k`` of the record being made (``_commit.seal``; a value the replay knows
        is taken as it is: ``_known_value``)."""
        return _commit.seal(self._secret, self.game_id, self.seq, k, value, size, self._sealer(), self._known_value(k))

    def _sealer(self):
        """The game's AEAD and salts (``_commit.sealer``), made once: a referee seals every hidden value of its game."""
        if self._aead is None:
            self._aead = _commit.sealer(self._secret, self.game_id)
        return self._aead

    def _size(self, kind: str, seat: str) -> int | None:
        """The padded plaintext size of a sealed ``kind`` ("command" / "event") for ``seat``; None
        in v1 (no padding). A kind genesis declares no size for is a ruleset bug: it raises."""
        if self.sealed_sizes is None:
            return None
        size = self.sealed_sizes[kind].get(seat)
        if size is None:
            raise _commit.SealedSizeError(f"{self.ruleset.game}/{self.ruleset.version} declares no sealed "
                                          f"{kind} size for seat {seat} (Ruleset.sealed_sizes)")
        return size

    def _append(self, kind: str, body: dict, seat: str | None = None, offer: tuple | None = None) -> Record:
        if self.clock is not None:  # -- endings: the server's time on every record (SPEC.md 8.2)
            body["at"] = self._at
        rec = self._record(kind, body)
        self.seq += 1
        self.prev = rec.hash
        self.offers.after(rec.seq, rec.hash, seat, offer)  # -- endings: which offers stand (SPEC.md 8.1)
        if self.clock is not None:
            if kind == "end":
                self.clock.last_at = self._at
            else:
                self.clock.seat_record(rec.seq, self._at)
        return rec
