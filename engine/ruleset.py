"""The interface every game implements, and the context through which it rolls
dice and hides values (SPEC.md sections 5-6).

A ruleset is pure: ``setup`` and the apply functions of its decision table compute a new state
from the old one and the command; randomness comes only from ``ctx.roll``; a hidden value
reaches the log only through ``ctx.emit(event, to=seat)`` (committed and sealed) and is
published only through ``ctx.reveal(ref)``.

What a ruleset writes: ``setup``, its decision table ``decisions`` (engine/decisions.py: every
decision kind once, with its rule, its answers and their apply functions, its legal-answer
enumerator, which answers are sealed), its ``flow`` (engine/phases.py: its phases, what happens
on entering and leaving each, and when each kind is asked), ``view`` and ``outcome``. What it
does not write: the loop that finds the pending decision, dispatch, validation of who may answer
what, legal-command plumbing, sealing flags and state copies: ``pending``, ``advance``,
``apply``, ``legal_commands``, ``is_private``, ``copy_state`` and ``digest`` below do those for
every ruleset, through the flow, the table and engine/snapshot.py.

Conventions:
- state is state data (engine/snapshot.py: dicts, lists, tuples of None, bool, int, str, bytes,
  Fraction); the referee applies each command to ``copy_state(state)`` (engine/snapshot.copy)
  and keeps the copy only if no Rejection was raised, so a rejection changes nothing;
- events and views are canonical data (dicts with str keys, lists, ints, str,
  bytes, bool, None; no floats: use ints or ``[numerator, denominator]`` pairs);
- commands are ``afteraction.v1.Command`` protobuf messages;
- a Rejection carries a stable code (a member of engine/codes.py's ``Code``), a message naming
  the rule and the rule's number, e.g.
  ``Rejection(Code.ILLEGAL_MOVE, "SOG 3.5 allows one square per turn", rule="SOG 3.5")``.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar

from . import snapshot
from .crypto import dice as _dice
from .decisions import Decision, DecisionTable
from .errors import InternalError, InternalTypeError, Rejection
from .codes import Code
from .phases import Flow
from .versions import Versions

Ref = tuple[int, int]  # (record seq, k): names a committed hidden value


class Context:
    """Handed to ``setup``/``apply``: the only source of dice and hidden values.

    The referee builds it; tests can build one with ``Context.for_tests``.
    """

    def __init__(self, seq: int, roller: Callable[[str, str], _dice.Roll],
                 opener: Callable[[Ref], dict] | None = None, max_events: int = 10_000) -> None:
        self.seq = seq
        self.max_events = max_events  # the ruleset's Ruleset.max_events: bounds one record's work
        self._roller = roller
        self._opener = opener
        self.events: list[tuple[dict, str | None]] = []  # (event, recipient or None for public)
        self._k = 0  # k=0 is reserved for a sealed command

    def roll(self, die: str, rule: str, to: str | None = None) -> _dice.Roll:
        """Roll ``die`` ("d3", "d6", "d10", "d12", "2d6", "2d10", "d66") for ``rule``.

        The roll event is public, or sealed to seat ``to`` when the roll itself
        would reveal a hidden fact.
        """
        r = self._roller(die, rule)
        self.emit(r.event(), to)
        return r

    def emit(self, event: dict, to: str | None = None) -> Ref | None:
        """Add an event. Public if ``to`` is None; otherwise committed, sealed and
        delivered privately to seat ``to``; returns its Ref for a later reveal."""
        if not isinstance(event, dict) or "t" not in event:
            raise InternalTypeError("an event is a dict with a type field 't'")
        self._bound()
        self.events.append((event, to))
        if to is None:
            return None
        self._k += 1
        return (self.seq, self._k)

    def reveal(self, ref: Ref) -> dict:
        """Publish the opening of a committed hidden value (e.g. a unit flipped face up).

        Returns the revealed event."""
        if self._opener is None:
            raise InternalError("this context cannot open hidden values")
        opening = self._opener(ref)
        self._bound()
        self.events.append(({"t": "open", "ref": list(ref), "salt": opening["salt"],
                             "value": opening["value"]}, None))
        return opening["value"]

    def _bound(self) -> None:
        if len(self.events) >= self.max_events:
            # a ruleset declares how much one command may do; a command (or a replayed log's
            # options) that would make it do more is refused, so no record's replay is unbounded
            raise Rejection(Code.TOO_MANY_EVENTS, f"a record holds at most {self.max_events} events (Ruleset.max_events)")

    @classmethod
    def for_tests(cls, seq: int = 1, faces: list[int] | None = None, key: bytes = bytes(32)) -> "Context":
        """A context whose dice come from ``key`` (or from a fixed list of first faces)."""
        state = {"i": 0}
        queue = list(faces or [])

        def roller(die: str, rule: str) -> _dice.Roll:
            i = state["i"]
            state["i"] += 1
            if queue:
                n, count = _dice.DICE[die]
                fs = [queue.pop(0) for _ in range(count)]
                return _dice.Roll(i, die, tuple(fs), _dice.result_of(die, fs), rule)
            return _dice.roll(key, i, die, rule)

        openings: dict[Ref, dict] = {}

        def opener(ref: Ref) -> dict:
            return openings.get(ref, {"salt": bytes(32), "value": None})

        return cls(seq, roller, opener)


class Ruleset(ABC):
    """One game. Subclasses set the class attributes and implement the methods."""

    game: ClassVar[str]              # "sog", "gmv", "ntnd"
    #: every version of the game (engine/versions.py, the game's versions.py): one instance plays one
    versions: ClassVar[Versions]
    seats: ClassVar[tuple[str, ...]]  # seat names in their fixed order
    scenarios: ClassVar[tuple[str, ...]]  # first one is the default
    options: ClassVar[dict[str, Any]] = {}  # option name -> default value
    #: Padded plaintext size of every hidden value (SPEC.md 6.5, format v >= 2), per kind whose kind
    #: is public: {"command": {seat: size of that seat's sealed commands}, "event": {seat: size of
    #: the private events (and private rolls) for that seat}}. Command sizes are for a 16-byte game
    #: id. Every value of a kind is padded to exactly its size, so its length says nothing; a value
    #: that does not fit raises SealedSizeError (a ruleset bug: tests/engine/test_sealed_lengths.py
    #: plays whole games of every ruleset). A seat missing here may not receive that kind at all.
    sealed_sizes: ClassVar[dict[str, dict[str, int]]] = {}

    # events (rolls, hidden values, reveals included) one command or setup may emit: the bound of
    # one record's replay; the most any game emits today is 71 (NTND), SPEC.md 10 B.12
    max_events: ClassVar[int] = 10_000

    @abstractmethod
    def setup(self, scenario: str, options: dict, ctx: Context) -> Any:
        """Initial state (may roll dice and emit events)."""

    #: the decision table (engine/decisions.py): every decision kind the flow may ask
    decisions: ClassVar[DecisionTable]
    #: the phases and the questions asked in them (engine/phases.py): when each kind is asked
    flow: ClassVar[Flow]

    def pending(self, state: Any) -> Decision | None:
        """The decision the game waits for (a frozen ``Decision``); None once the game is over.
        The one entry point the referee and the service ask: the flow's (engine/phases.py)."""
        return self.flow.pending(state)

    def advance(self, state: Any, ctx: Context) -> None:
        """The automatic steps after setup and after every accepted answer (a turn's queue,
        battles' automatic parts, the next phases) until a seat must decide again or the game
        ends: the one loop of engine/phases.py over the game's flow."""
        self.flow.advance(state, ctx)

    def __init__(self, version: str | None = None) -> None:
        """The ruleset as version ``version`` plays it (default: the newest). ``setup`` stamps the
        version into the state (versions.stamp), and each ``Change`` of the game asks the state."""
        v = self.versions.newest if version is None else str(version)
        if v not in self.versions.released:
            raise Rejection(Code.UNKNOWN_RULESET, self.versions.unavailable(v))
        self._version = v

    @property
    def version(self) -> str:
        """The version this instance plays (the registry key is (game, version)); the newest for a
        subclass that does not call ``Ruleset.__init__`` (a test's variant of a game)."""
        return self.__dict__.get("_version") or self.versions.newest

    # -- the machine: the same for every ruleset (do not override) -------------
    def legal_commands(self, state: Any, seat: str, pending: Decision | None = None) -> list:
        """Commands (afteraction.v1.Command) that answer the pending decision for ``seat``:
        the enumerator its decision kind declares. Empty if the seat has no decision. For a
        described space (``DecisionKind.complete`` False) a representative subset; the kind's
        ``space`` and the decision's data describe the rest, and its docs/rules document says so.
        ``pending``: the caller's ``self.pending(state)`` (the referee's, asked once per log
        position), None to ask it here."""
        return self.decisions.legal(state, self.pending(state) if pending is None else pending, seat)

    def apply(self, state: Any, seat: str, command: Any, ctx: Context, pending: Decision | None = None) -> Any:
        """Answer the pending decision with ``command`` from ``seat`` on ``state`` (a copy: see
        ``copy_state``) and return the new state, or raise Rejection: the decision table
        validates and dispatches (engine/decisions.py), then ``advance`` runs. ``pending``: the
        caller's ``self.pending(state)`` (of this state's data: the referee asks it once per command),
        None to ask it here."""
        self.decisions.answer(state, self.pending(state) if pending is None else pending, seat, command, ctx)
        self.advance(state, ctx)
        return state

    def is_private(self, state: Any, seat: str, command: Any, pending: Decision | None = None) -> bool:
        """True if the command itself reveals hidden information and must be sealed: the
        pending decision kind's ``sealed`` declaration. ``pending`` as in ``apply``."""
        return self.decisions.sealed(self.pending(state) if pending is None else pending, seat, command)

    def copy_state(self, state: Any) -> Any:
        """The one copy of every ruleset (engine/snapshot.py)."""
        return snapshot.copy(state)

    def digest(self, state: Any) -> bytes:
        """The canonical digest of a state (engine/snapshot.py)."""
        return snapshot.digest(state)

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> dict:
        """What ``seat`` may see (None: a spectator, the public view). Canonical data."""

    @abstractmethod
    def outcome(self, state: Any) -> dict | None:
        """None while the game goes on; then {"winner": seat or None, "reason": str, ...}."""

    def scenario_info(self, scenario: str) -> dict:
        """A scenario's title, number of turns (0: not said) and one-line description, for the scenario
        list a server serves (ListRulesets, `aar scenarios`). Default: its name only."""
        return {"title": scenario, "turns": 0, "description": ""}

    def demo_bot(self, seed: Any, view_of: Callable[[str], dict]) -> Callable[[str, list], Any]:
        """The bot ``aar demo`` seats: a player whose game is worth watching.

        ``view_of(seat)`` returns that seat's current view (a bot is a player: it
        sees only what its seat may see). Default: uniformly random legal commands."""
        from .bots import random_bot
        return random_bot(seed)

    def check_options(self, scenario: str, options: dict) -> dict:
        """Validate and complete the options of a new game (defaults filled in)."""
        if scenario not in self.scenarios:
            raise Rejection(Code.UNKNOWN_SCENARIO, f"{self.game} has scenarios {', '.join(self.scenarios)}")
        out = dict(self.options)
        for k, v in options.items():
            if k not in self.options:
                raise Rejection(Code.UNKNOWN_OPTION, f"{self.game} has no option {k!r}")
            if type(v) is not type(self.options[k]):
                raise Rejection(Code.BAD_OPTION, f"option {k!r} must be {type(self.options[k]).__name__}")
            out[k] = v
        return out
