"""The verifier's checks of the endings every game has (SPEC.md 8.1-8.3; 10 B.8 and B.9).

Without the ruleset and without the secret, from the records alone: each record's time ``at``
(v >= 2, genesis with a ``clock``: present, never decreasing, no seat record after a deadline
that had passed), each ending command (its one core event is the signed envelope's; an
acceptance names the offer of the record right before it, by the other seat, for the same
result), and the end record's ``cause``: a resignation is the record before it, signed by the
resigning seat; an agreed result is an acceptance signed by one seat of an offer signed by the
other; a time-out or an abandonment is recorded after the deadline the declared control and the
recorded times give. The outcome of these endings is the engine's (``engine/endings.py``), so
it is checked exactly here too. What only the replay adds: whose decision was pending (the seat
a time-out names), and that no deadline had passed before any record (step 11).
"""
from __future__ import annotations

from afteraction.v1 import envelope_pb2

from .. import endings as E
from .. import protocol_rules as R
from ..crypto import canon
from ..errors import Rejection
from ..protocol import CAUSE_KEYS, Record
from .steps import _fail



class EndingsCheck:
    def __init__(self, genesis: Record) -> None:
        self.v = genesis.v
        self.seats = [s["name"] for s in genesis.body["seats"]]
        self.clock = E.Clock.of(genesis.body) if genesis.v >= 2 else None
        self.offers = E.Offers(genesis.v)  # the standing offers, the referee's rule (SPEC.md 8.1)
        self.last: dict | None = None  # the previous record's resign / accept event

    @property
    def offer(self) -> tuple[int, str, str | None] | None:
        """(seq, seat, winner) of the latest offer that stands (v2: only an offer in the last record)."""
        return self.offers.latest()

    def record_done(self, rec: Record, env) -> None:
        """After every check of record ``rec`` (``env``: its public envelope, None if none)."""
        seat = rec.body.get("seat") if rec.kind not in ("genesis", "end") else None
        self.offers.after(rec.seq, rec.hash, seat if type(seat) is str else None,
                          E.offer_of(env) if rec.kind == "command" else None)

    def body_keys(self) -> set:
        """SPEC.md 1.3: a seat record of a game with a clock also has ``at``."""
        return {"at"} if self.clock is not None else set()

    def is_resignation(self, body: dict) -> bool:
        """A public command record whose envelope resigns (SPEC.md 8.1: the one command record that
        may stand before the handshake is complete). Its envelope is checked like any other after."""
        if self.v < 2 or type(body.get("env")) is not bytes:
            return False
        try:
            env = envelope_pb2.CommandEnvelope.FromString(body["env"])
        except Exception:  # noqa: BLE001 -- not an envelope: the checks of step 6 say so
            return False
        return env.WhichOneof("action") == "ending" and env.ending.WhichOneof("kind") == "resign"

    def _at(self, rec: Record, step: str) -> int | None:
        if self.clock is None:
            return None
        at = rec.body.get("at")
        why = E.time_problem(at)
        if why is not None:
            raise _fail(step, rec.seq, "record time at (a game with a clock, SPEC.md 8.2)", None, repr(at), why)
        if at < self.clock.last_at:
            raise _fail(step, rec.seq, "times never decrease (SPEC.md 8.2)", self.clock.last_at, at)
        return at

    def seat_record(self, rec: Record, env, starts: bool, started: bool) -> None:
        """Step 6, after the record's own checks: ``env`` the parsed public envelope (None for a
        sealed command), ``starts`` if this reveal started the game."""
        seq, seat = rec.seq, rec.body["seat"]
        if self.last is not None:
            raise _fail("8", seq, f"a {self.last['t']} ends the game: the end record follows it", "end", rec.kind)
        at = self._at(rec, "6")
        ending = env is not None and env.WhichOneof("action") == "ending"
        if self.clock is not None:
            if at > self.clock.abandon_deadline():
                raise _fail("6", seq, "a seat record after the abandonment deadline (SPEC.md 8.2)",
                            self.clock.abandon_deadline(), at)
            t = self.clock.timeout(seat) if rec.kind == "command" and not ending else None
            if t is not None and at > t[0]:
                raise _fail("6", seq, f"seat {seat}'s command after its deadline ({t[1]} limit, SPEC.md 8.2)", t[0], at)
        if ending:
            self._ending(rec, env, started)
        if self.clock is not None:
            self.clock.seat_record(seq, at)
            if (rec.kind == "command" and not ending) or starts:
                self.clock.game_step(seq, at, None if starts else seat)

    def _ending(self, rec: Record, env, started: bool) -> None:
        seq, seat = rec.seq, rec.body["seat"]
        try:
            evs = E.events(env)
        except Rejection as e:
            raise _fail("6", seq, "ending command", detail=e.message) from None
        if canon.encode(rec.body["events"]) != canon.encode(evs):
            raise _fail("6", seq, "the event of an ending command is its signed envelope's (SPEC.md 8.1)",
                        repr(evs), repr(rec.body["events"]))
        ev = evs[0]
        if R.ending_problem(ev["t"], started) is not None:
            raise _fail("6", seq, f"an {ev['t']} before the dice handshake completed")
        if ev["t"] == "offer":
            if ev["winner"] is not None and ev["winner"] not in self.seats:
                raise _fail("6", seq, "an offer names a seat or a draw", self.seats, ev["winner"])
            why = R.offer_problem(self.offers, seat)
            if why is not None:
                raise _fail("6", seq, "one standing offer per seat (v >= 3, SPEC.md 8.1)", None, None, why.message)
        elif ev["t"] == "accept":
            if R.accept_problem(self.offers, seat, seq, ev["offer"], ev["winner"]) is not None:
                offer = self.offers.latest(seat)
                raise _fail("6", seq, "an acceptance names the offer in the record before it, made by the other "
                            "seat, for the same result (SPEC.md 8.1; format 3: any offer of another seat that stands)",
                            None if offer is None else f"offer {offer[0]} by {offer[1]} for {offer[2]}",
                            f"offer {ev['offer']} for {ev['winner']}")
            self.last = ev
        else:
            self.last = ev

    def end(self, rec: Record, prev_kind: str | None) -> dict:
        """Step 8 for the end record; returns its cause for the report ({"kind": "rules"} when the
        rules ended the game)."""
        seq, b = rec.seq, rec.body
        cause = b.get("cause")
        want = {"secret", "outcome"} | self.body_keys() | ({"cause"} if "cause" in b and self.v >= 2 else set())
        if set(b) != want:
            raise _fail("8", seq, "end record body has exactly " + ", ".join(sorted(want)), sorted(want), sorted(b))
        at = self._at(rec, "8")
        last, self.last = self.last, None
        if cause is None:
            if last is not None:
                raise _fail("8", seq, f"the end after a {last['t']} gives its cause", last["t"], None)
            if prev_kind != "command":  # SPEC.md 8: appended right after the command that ended the game
                raise _fail("8", seq, "an end record follows the command record that ended the game",
                            "command", prev_kind)
            return {"kind": "rules"}
        k = cause.get("kind") if type(cause) is dict else None
        if k not in CAUSE_KEYS or set(cause) != CAUSE_KEYS[k]:
            raise _fail("8", seq, "cause is a map of one of the shapes of SPEC.md 8.3", None, repr(cause))
        if k == "resign":
            if last is None or last["t"] != "resign" or last["seat"] != cause["seat"]:
                raise _fail("8", seq, "the resignation the cause names is the record before, signed by the "
                            "resigning seat", cause["seat"], None if last is None else f"{last['t']} by {last['seat']}")
        elif k == "agree":
            if last is None or last["t"] != "accept" or last["offer"] != cause["offer"] \
                    or last["winner"] != cause["winner"]:
                raise _fail("8", seq, "the agreed result is the acceptance in the record before, of the offer "
                            "the cause names", repr(cause), repr(last))
        else:
            if last is not None:
                raise _fail("8", seq, f"the end after a {last['t']} gives its cause", last["t"], k)
            self._deadline(rec, k, cause, at)
        if canon.encode(b.get("outcome")) != canon.encode(E.outcome(cause, self.seats)):
            raise _fail("8", seq, f"the outcome of a {k} is the engine's (SPEC.md 8.1)",
                        repr(E.outcome(cause, self.seats)), repr(b.get("outcome")))
        return cause

    def _deadline(self, rec: Record, k: str, cause: dict, at: int | None) -> None:
        seq, c = rec.seq, self.clock
        if c is None:
            raise _fail("8", seq, f"a {k} needs a time control in genesis (SPEC.md 8.2)")
        if k == "timeout":
            t = c.timeout(cause["seat"]) if cause["seat"] in self.seats else None
            if t is None or cause["since"] != c.since[0] or (cause["deadline"], cause["control"]) != t:
                raise _fail("8", seq, "the time-out's control, since and deadline are the ones the declared "
                            "control and the recorded times give (SPEC.md 8.2)",
                            None if t is None else f"since {c.since[0]}, deadline {t[0]} ({t[1]})",
                            f"since {cause['since']}, deadline {cause['deadline']} ({cause['control']})")
            if t[0] > c.abandon_deadline():
                raise _fail("8", seq, "a time-out whose deadline is after the abandonment deadline",
                            c.abandon_deadline(), t[0])
        elif cause["since"] != c.acted[0] or cause["deadline"] != c.abandon_deadline():
            raise _fail("8", seq, "the abandonment's since and deadline are the last seat record's and the "
                        "declared limit's (SPEC.md 8.2)", f"since {c.acted[0]}, deadline {c.abandon_deadline()}",
                        f"since {cause['since']}, deadline {cause['deadline']}")
        if not at > cause["deadline"]:
            raise _fail("8", seq, f"a {k} is recorded after its deadline (SPEC.md 8.2)",
                        f"after {cause['deadline']}", at)
