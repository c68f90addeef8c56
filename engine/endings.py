"""Endings every game has, declared once for every ruleset (SPEC.md 8.1-8.3).

A game ends by its rules (the ruleset's ``outcome``) or by one of these, which the referee
handles before the game's own decision:

- **resignation**: any seat, at any time before the end, out of turn; the other seat wins;
- **agreed result**: one seat offers a result (a draw or a named winner), the other accepts it
  in the very next record (an offer lapses at the next record that is not its acceptance);
- **time-out**: genesis's ``clock`` sets a limit per decision and/or a total per seat; a seat
  whose deadline passed loses;
- **abandonment**: no seat acted for genesis's ``clock.abandon``; the game ends without a result.

Time is an input, never read here: the service passes its clock's time to ``Referee.accept``
and ``Referee.expire``; the referee writes it as ``at`` into every record of a game whose
genesis has a ``clock``; the verifier's replay passes each record's ``at`` back. The same
``Clock`` arithmetic runs in the referee and in the verifier (``engine/log/endings.py``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .errors import InternalValueError, Rejection
from .codes import Code
from .protocol import accept_event, end_body, offer_event, resign_event
from .protocol_rules import OFFERS_STAND, accept_problem, ending_problem, ending_version_problem, offer_problem

SECOND_MS = 1_000
DAY_MS = 86_400_000
#: bounds of a time control, milliseconds (SPEC.md 8.2; docs/service.md "Time controls")
MIN_LIMIT_MS = SECOND_MS
MAX_DECISION_MS = 30 * DAY_MS
MAX_TOTAL_MS = 365 * DAY_MS
MAX_ABANDON_MS = 365 * DAY_MS
#: the abandonment limit of a game created without one (raised to the game's longest time limit)
DEFAULT_ABANDON_MS = 14 * DAY_MS
#: a time is milliseconds since the Unix epoch, 0 .. 2^53 (the service's clock; JSON-safe)
MAX_TIME_MS = 2 ** 53

#: at most this much of a caller's input is quoted in a refusal (the service's limits.QUOTE_CHARS)
QUOTE_CHARS = 64

CLOCK_KEYS = frozenset({"decision", "total", "abandon"})


def control(decision_ms: int = 0, total_ms: int = 0, abandon_ms: int = 0) -> dict:
    """Genesis's ``clock`` from CreateGame's fields (0 = not set), or Rejection BAD_CLOCK. An unset
    abandonment limit is DEFAULT_ABANDON_MS, raised to the longest limit set, so that a seat
    allowed to think that long is not abandoned first."""
    if not abandon_ms:
        abandon_ms = max(DEFAULT_ABANDON_MS, decision_ms, total_ms)
    else:  # not shorter than one decision may take (the smaller limit set): else the game is abandoned
        longest = min([x for x in (decision_ms, total_ms) if x], default=0)  # before a seat's time runs out
        if abandon_ms < longest:
            raise Rejection(Code.BAD_CLOCK, f"clock.abandon ({abandon_ms} ms) is shorter than the longest time a "
                            f"seat may take over one decision ({longest} ms): give abandon_ms at least that, "
                            f"or 0 for the default")
    c = {"decision": decision_ms, "total": total_ms, "abandon": abandon_ms}
    why = control_problem(c)
    if why is not None:
        raise Rejection(Code.BAD_CLOCK, why)
    return c


def control_problem(c) -> str | None:
    """Why ``c`` is not a valid genesis ``clock`` (SPEC.md 8.2), or None."""
    if type(c) is not dict or set(c) != CLOCK_KEYS or any(type(v) is not int for v in c.values()):
        return "clock is a map of exactly the integers decision, total and abandon (milliseconds)"
    for k, hi in (("decision", MAX_DECISION_MS), ("total", MAX_TOTAL_MS)):
        if c[k] != 0 and not MIN_LIMIT_MS <= c[k] <= hi:
            return f"clock.{k} is 0 (none) or {MIN_LIMIT_MS}..{hi} ms, not {c[k]}"
    if not MIN_LIMIT_MS <= c["abandon"] <= MAX_ABANDON_MS:
        return f"clock.abandon is {MIN_LIMIT_MS}..{MAX_ABANDON_MS} ms, not {c['abandon']}"
    return None


def time_problem(at) -> str | None:
    if type(at) is not int or not 0 <= at <= MAX_TIME_MS:
        return f"a time is an integer 0..{MAX_TIME_MS} (milliseconds since the Unix epoch)"
    return None


# -- the outcomes, declared once -------------------------------------------------------------

def other_seat(seats: list[str], seat: str) -> str | None:
    """The winner when ``seat`` resigns or runs out of time: the other seat of a two-seat game."""
    rest = [s for s in seats if s != seat]
    return rest[0] if len(rest) == 1 else None


def outcome(cause: dict, seats: list[str]) -> dict:
    """The end record's outcome for an engine ending (SPEC.md 8.1); only winner and reason."""
    k = cause["kind"]
    if k == "resign":
        return {"winner": other_seat(seats, cause["seat"]), "reason": f"seat {cause['seat']} resigned"}
    if k == "agree":
        w = cause["winner"]
        return {"winner": w, "reason": "agreed draw" if w is None else f"agreed result: seat {w} wins"}
    if k == "timeout":
        return {"winner": other_seat(seats, cause["seat"]),
                "reason": f"seat {cause['seat']} ran out of time ({cause['control']} limit)"}
    return {"winner": None, "reason": "abandoned: no seat acted within the limit (no result)"}


def events(env) -> list[dict]:
    """The one core event an ending envelope's record holds (SPEC.md 1.4)."""
    e = env.ending
    kind = e.WhichOneof("kind")
    if kind == "resign":
        return [resign_event(env.seat)]
    if kind == "offer":
        return [offer_event(env.seat, e.offer.winner or None)]
    if kind == "accept":
        return [accept_event(env.seat, e.accept.offer, e.accept.winner or None)]
    raise Rejection(Code.MALFORMED, "the ending carries no kind (resign, offer or accept)")


# -- the standing offers (SPEC.md 8.1; where an envelope stands: protocol_rules.position_problem) --
class Offers:
    """The offers that stand (SPEC.md 8.1), one object for the referee and the verifier, fed every
    record in order (``after``). Before OFFERS_STAND an offer lapses at the next record. From
    OFFERS_STAND on, a seat's offer stands until another seat makes a record that is not an offer
    (its answer: a game command declines it, an acceptance or resignation ends the game), a seat
    may not offer while its own offer stands (OFFER_STANDING), and any envelope may be bound to a
    position that only other seats' offers follow (``position_problem``): so an offer neither
    refuses nor delays another seat's answer, and at most one offer per seat stands between two
    other records (the log stays bounded). ``tail``: seq -> (hash, offering seat or None) of the
    last record that is not an offer and of the offers after it (what ``position_problem`` reads)."""

    def __init__(self, v: int) -> None:
        self.v = v
        self.standing: dict[str, tuple[int, str | None]] = {}  # seat -> (seq, winner) of its standing offer
        self.tail: dict[int, tuple[bytes, str | None]] = {}

    @property
    def stand(self) -> bool:
        return self.v >= OFFERS_STAND

    def hash_of(self, n: int) -> bytes | None:
        t = self.tail.get(n)
        return None if t is None else t[0]

    def offer_by(self, n: int) -> str | None:
        t = self.tail.get(n)
        return None if t is None else t[1]

    def after(self, seq: int, rec_hash: bytes, seat: str | None, offer: tuple[str | None] | None = None) -> None:
        """Record ``seq`` was written (referee) or verified (verifier): by ``seat`` (None: genesis,
        end), an offer of ``offer[0]`` as winner when ``offer`` is given."""
        if offer is not None:
            if not self.stand:
                self.standing = {}
            self.standing[seat] = (seq, offer[0])
            self.tail[seq] = (rec_hash, seat)
            return
        self.standing = {s: o for s, o in self.standing.items() if s == seat} if self.stand and seat else {}
        self.tail = {seq: (rec_hash, None)}

    def offer_problem(self, seat: str) -> tuple[str, str] | None:
        """(code, message) if ``seat`` may not offer now."""
        if self.stand and seat in self.standing:
            return ("OFFER_STANDING", f"seat {seat}'s offer in record {self.standing[seat][0]} stands until another "
                    "seat answers it (SPEC.md 8.1): one standing offer per seat")
        return None

    def accept_problem(self, seat: str, next_seq: int, offer: int, winner: str | None) -> tuple[str, str] | None:
        """(code, message) if ``seat`` may not accept the offer of record ``offer`` for ``winner``
        in record ``next_seq``."""
        mine = [s for s, o in self.standing.items() if o[0] == offer]
        if not mine or (not self.stand and offer != next_seq - 1):
            return ("NO_OFFER", f"no offer stands in record {offer} ("
                    + ("an offer stands until another seat answers it)" if self.stand else
                       "an offer can be accepted only in the record right after it)"))
        if mine[0] == seat:
            return ("NO_OFFER", "a seat cannot accept its own offer")
        w = self.standing[mine[0]][1]
        if winner != w:
            return ("NO_OFFER", f"the offer in record {offer} is for {'a draw' if w is None else 'seat ' + w}, "
                    "not the result accepted")
        return None

    def latest(self, seat: str | None = None) -> tuple[int, str, str | None] | None:
        """(seq, seat, winner) of the latest standing offer (of a seat other than ``seat``), or None."""
        out = [(o[0], s, o[1]) for s, o in self.standing.items() if s != seat]
        return max(out) if out else None


def offer_of(env) -> tuple[str | None] | None:
    """(winner,) if the parsed envelope ``env`` offers a result, else None."""
    if env is not None and env.WhichOneof("action") == "ending" and env.ending.WhichOneof("kind") == "offer":
        return (env.ending.offer.winner or None,)
    return None


# -- the clock -------------------------------------------------------------------------------

@dataclass
class Clock:
    """The time arithmetic of SPEC.md 8.2 over the records' ``at``. ``since``: (seq, at) of the
    record after which the pending game decision became its seat's (the start reveal or the last
    game command; an ending command does not move it); ``acted``: (seq, at) of the last record a
    seat made (genesis at first); ``used``: each seat's total time spent on its decisions."""
    decision: int
    total: int
    abandon: int
    last_at: int
    acted: tuple[int, int]
    since: tuple[int, int] | None = None
    used: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, genesis_body: dict) -> "Clock | None":
        c = genesis_body.get("clock")
        if c is None:
            return None
        at = genesis_body["at"]
        return cls(c["decision"], c["total"], c["abandon"], at, (0, at))

    def copy(self) -> "Clock":
        return copy.deepcopy(self)

    def stamp(self, now: int) -> int:
        """The record's time: the service's, never before the last record's (times never decrease)."""
        if time_problem(now) is not None:
            raise InternalValueError(f"the service's time {now!r}: {time_problem(now)}")
        return max(now, self.last_at)

    def timeout(self, seat: str) -> tuple[int, str] | None:
        """(deadline, control) of ``seat``'s pending game decision, or None (no limit, not started)."""
        if self.since is None or not (self.decision or self.total):
            return None
        at = self.since[1]
        d = [(at + self.decision, "decision")] if self.decision else []
        if self.total:
            d.append((at + self.total - self.used.get(seat, 0), "total"))
        return min(d)  # on a tie, "decision" (it sorts first)

    def abandon_deadline(self) -> int:
        return self.acted[1] + self.abandon

    def expired(self, at: int, pending: str | None) -> dict | None:
        """The cause (SPEC.md 8.2) if a deadline passed before ``at``: the earlier of the pending
        seat's time-out and the abandonment; a tie is the time-out (it has a result)."""
        t = self.timeout(pending) if pending is not None else None
        a = self.abandon_deadline()
        if t is not None and t[0] <= a:
            if at > t[0]:
                return {"kind": "timeout", "seat": pending, "control": t[1], "since": self.since[0],
                        "deadline": t[0]}
            return None
        if at > a:
            return {"kind": "abandon", "since": self.acted[0], "deadline": a}
        return None

    def seat_record(self, seq: int, at: int) -> None:
        self.last_at = at
        self.acted = (seq, at)

    def game_step(self, seq: int, at: int, seat: str | None) -> None:
        """A record that changed the game's state: the start reveal (``seat`` None) or ``seat``'s game
        command, which ends the decision that was ``seat``'s since ``self.since``."""
        if seat is not None and self.since is not None:
            self.used[seat] = self.used.get(seat, 0) + at - self.since[1]
        self.since = (seq, at)

    def left(self, now: int, seats: list[str], pending: str | None) -> dict:
        """Each seat's time left at ``now`` (the service's GetState / Watch): per seat
        (left_ms, running, total_left_ms); -1 where there is no limit."""
        out = {}
        for s in seats:
            total_left = self.total - self.used.get(s, 0) if self.total else -1
            running = pending == s and self.since is not None
            if running and self.timeout(s) is not None:
                left = self.timeout(s)[0] - max(now, self.last_at)
                if self.total:
                    total_left -= max(now, self.last_at) - self.since[1]
            else:
                lims = [x for x in (self.decision, total_left if self.total else 0) if x]
                left = min(lims) if lims else -1
            out[s] = (max(left, 0) if left != -1 else -1, running, max(total_left, 0) if self.total else -1)
        return out


# -- the referee's side -----------------------------------------------------------------------

def pending_seat(ref) -> str | None:
    """The seat whose game decision is pending, None during the handshake or at the end."""
    if ref.ended or not ref.started:
        return None
    d = ref.pending()
    return None if d is None else d.seat


def stamp(ref, now: int | None) -> int | None:
    """Referee.accept, before the action: the record's time, or TIME_EXPIRED when a deadline has
    passed (the service ends the game with ``expire`` first). None for a game without a clock."""
    if ref.clock is None:
        return None
    if now is None:
        raise InternalValueError("a game with a time control needs the service's time (Referee.accept(now=...))")
    at = ref.clock.stamp(now)
    cause = ref.clock.expired(at, pending_seat(ref))
    if cause is not None:
        raise Rejection(Code.TIME_EXPIRED, f"the game's deadline passed at {cause['deadline']} ms "
                        f"({'seat ' + cause['seat'] + ' ran out of time' if cause['kind'] == 'timeout' else 'abandoned'}); "
                        "the server ends it")
    return at


def accept(ref, env, sc) -> list:
    """An ending envelope (SPEC.md 8.1), after the referee's checks 1-6 and the time stamp: the
    records it makes (the command record, and the end record of a resignation or acceptance)."""
    why = ending_version_problem(ref.version)
    if why is not None:
        raise why
    ref._check_history(env)
    kind = env.ending.WhichOneof("kind")
    evs = events(env)  # MALFORMED without a kind
    why = ending_problem(kind, ref.started)
    if why is not None:
        raise why
    cause = None
    if kind == "offer":
        w = env.ending.offer.winner
        if w and w not in ref.seat_keys:
            shown = repr(w[:QUOTE_CHARS]) + ("..." if len(w) > QUOTE_CHARS else "")
            raise Rejection(Code.BAD_RESULT, f"an offer names a seat of the game as winner, or none for a draw; "
                            f"{shown} is not a seat")
        why = offer_problem(ref.offers, env.seat)
        if why is not None:
            raise why
    elif kind == "accept":
        a = env.ending.accept
        why = accept_problem(ref.offers, env.seat, ref.seq, a.offer, a.winner or None)
        if why is not None:
            raise why
        cause = {"kind": "agree", "offer": a.offer, "winner": a.winner or None}
    else:
        cause = {"kind": "resign", "seat": env.seat}
    records = [ref._append("command", ref._base_body(env, sc, evs), env.seat, offer_of(env))]
    ref.counters[env.seat] = env.counter
    if cause is not None:
        records.append(end(ref, cause))
    return records


def end(ref, cause: dict):
    """Append the end record of an engine ending: the secret, the outcome, the cause."""
    out = outcome(cause, ref.seat_order)
    rec = ref._append("end", dict(end_body(ref._secret, out), cause=cause))
    ref.ended = True
    ref.ending = (out, cause)
    return rec


def expire(ref, now: int) -> list | None:
    """Referee.expire: if a deadline has passed at ``now``, end the game by it (the end record,
    with the time-out or the abandonment as cause); else None. The service calls it before every
    command and on its timer; the verifier's replay with the end record's ``at``."""
    if ref.clock is None or ref.ended:
        return None
    at = ref.clock.stamp(now)
    cause = ref.clock.expired(at, pending_seat(ref))
    if cause is None:
        return None
    ref._at = at
    return [end(ref, cause)]
