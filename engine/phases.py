"""Phases and decisions as data: the one loop that asks every game's decisions.

A game declares its turn as a ``Flow`` (its ``phases.py``, the duel's in its ``rules.py``), the
model is boardgame.io's ``phases: {name: {onBegin, onEnd, endIf, next, moves}}``:

- ``Phase``: one phase of the sequence of play: its ``id`` (the exact string or number the state,
  the events and the views carry), its ``rule``, whose decision it is (``seat``), what happens on
  entering it (``enter``) and on leaving it (``leave``), and the questions it puts (``asks``);
- ``Ask``: one question, the decision kind(s) it may ask (``kinds``: every one declared in the
  game's decision table, engine/decisions.py) and when (``when``, then ``decide``, which returns
  the decision, or ``None``: not asked, or one of the two signals below);
- ``Flow``: the phases, the ``interrupts`` (questions asked before the phase's own in every phase:
  a battle's losses, a pending action), ``settle`` (the automatic steps that run between answers
  before anything is asked: SOG's turn queue, GMV's battle rounds), and how the game moves on.

The loop (``Flow.advance``, the machine's ``Ruleset.advance`` after setup and after every
accepted answer)::

    repeat:
        settle(state)                         the automatic steps
        if over(state): nothing is pending; stop
        ask the interrupts, then, unless the rules ended the phase (phase_over), the phase's asks,
            in order: the first decision found is the pending one; stop
            AGAIN from an interrupt: start over (it did automatic work: a battle step)
            AGAIN from a phase's ask: ask the phase's questions again
            DONE: the phase asks nothing more
        nothing asked: ends(state) (the game may end here: NTND's sudden death), else leave the
            phase (each ``leave`` in order; one returning HOLD keeps the phase: ask again), go to
            the next one (``next``) and enter it (``begin``, then its ``enter``)

A flow either computes its pending decision from the state on demand (``Flow.pending``: the asks
are pure then, ``decide`` gets no context) or, when ``store`` names a state key (NTND: asking may
run a battle's automatic steps, which roll dice), ``advance`` stores the decision found there and
``pending`` reads it back as its public ``Decision`` (``public``). Either way ``Ruleset.pending``
returns a frozen ``Decision`` (engine/ruleset.py), and every decision found is checked against
the kinds its ``Ask`` declares: one it does not declare is a ruleset bug (``UndeclaredDecision``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .decisions import Decision, UndeclaredDecision
from .errors import InternalValueError

State = Any

class _Signal:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: ``Ask.decide`` signal: it did automatic work (rolled, resolved a step); ask again
AGAIN = _Signal("AGAIN")
#: ``Ask.decide`` signal: the phase asks nothing more; the loop leaves it
DONE = _Signal("DONE")
#: a ``Phase.leave`` step's answer: the phase is not left yet (ask its questions again)
HOLD = _Signal("HOLD")


def _always(s) -> bool:
    return True


def _never(s) -> bool:
    return False


@dataclass(frozen=True)
class Ask:
    """One question: the decision kinds it may ask, when, and how the decision is made.

    ``decide(state, ctx)`` returns the decision (a ``Decision``, or for a stored flow the state
    data ``public`` turns into one), None (not asked now: the next question), ``AGAIN`` or
    ``DONE``. ``ctx`` is None when the flow computes its decision on demand (the ask is pure)."""
    kinds: tuple[str, ...]
    decide: Callable[[State, Any], Any]
    when: Callable[[State], bool] = _always
    rule: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.kinds, str):
            object.__setattr__(self, "kinds", (self.kinds,))


@dataclass(frozen=True)
class Phase:
    """One phase: its id as the state carries it, rule, deciding seat, entry, exit and questions.

    ``seat``: a seat, a function of the state (GMV: the side playing), or None (no one decides:
    an automatic phase). ``enter``: steps ``f(state, ctx)`` run on entering it, in order;
    ``leave``: steps run on leaving it, in order (one returning ``HOLD`` keeps the phase)."""
    id: str | int
    rule: str
    seat: str | Callable[[State], str] | None
    asks: tuple[Ask, ...] = ()
    enter: tuple[Callable[[State, Any], Any], ...] = ()
    leave: tuple[Callable[[State, Any], Any], ...] = ()
    title: str = ""


@dataclass(frozen=True)
class Flow:
    """A game's phases and the questions asked in them (see the module docstring)."""
    game: str
    phases: tuple[Phase, ...]
    phase_of: Callable[[State], str | int]       # the id of the current phase
    over: Callable[[State], bool]                # the game has ended
    interrupts: tuple[Ask, ...] = ()             # asked first, in every phase
    settle: Callable[[State, Any], None] | None = None
    phase_over: Callable[[State], bool] = _never  # the rules ended the current phase (asks nothing)
    ends: Callable[[State, Any], bool] | None = None  # when a phase asks nothing: True if the game ended
    begin: Callable[[State, Any], bool] | None = None  # on entering any phase, before its enter; False: skipped
    next: Callable[[State, Any], None] | None = None   # to the next phase (None: the rules move the phase)
    store: str | None = None                     # the state key of a stored pending decision
    public: Callable[[Any], Any] | None = None   # a stored decision -> its Decision
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for p in self.phases:
            if p.id in self._index:
                raise InternalValueError(f"{self.game}: phase {p.id!r} is declared twice")
            self._index[p.id] = p
        if (self.store is None) != (self.public is None):
            raise InternalValueError(f"{self.game}: a stored decision needs both store and public")

    # -- the data ------------------------------------------------------------------------------
    def phase(self, s) -> Phase:
        """The current phase's declaration."""
        return self._index[self.phase_of(s)]

    def asks(self) -> tuple[Ask, ...]:
        """Every question of the flow: the interrupts, then each phase's."""
        return self.interrupts + tuple(a for p in self.phases for a in p.asks)

    def kinds(self) -> set[str]:
        """Every decision kind the flow may ask."""
        return {k for a in self.asks() for k in a.kinds}

    def asked_in(self, kind: str) -> list[str | int]:
        """Where ``kind`` is asked: "interrupt" and/or the ids of the phases that ask it."""
        out: list[str | int] = ["interrupt"] if any(kind in a.kinds for a in self.interrupts) else []
        return out + [p.id for p in self.phases if any(kind in a.kinds for a in p.asks)]

    # -- the loop ------------------------------------------------------------------------------
    def pending(self, s):
        """The pending decision as a frozen ``Decision``, None once the game is over."""
        if self.store is not None:
            d = s.get(self.store)
            if d is None or self.over(s):
                return None
            return self.public(d)
        if self.over(s):
            return None
        d = self._ask(s, None)
        if d is AGAIN:
            raise UndeclaredDecision(f"{self.game}: an ask that computes on demand must not work (AGAIN)")
        return d

    def advance(self, s, ctx) -> None:
        """Run the automatic steps and the phases until a seat must decide or the game ends."""
        while True:
            if self.settle is not None:
                self.settle(s, ctx)
            if self.over(s):
                if self.store is not None:
                    s[self.store] = None
                return
            d = self._ask(s, ctx)
            if d is AGAIN:
                continue
            if d is not None:
                if self.store is not None:
                    s[self.store] = d
                return
            if self.ends is not None and self.ends(s, ctx):
                continue
            self.next_phase(s, ctx)

    def enter(self, s, ctx) -> None:
        """Enter the current phase: the flow's ``begin`` (False: the phase is skipped), its ``enter``."""
        if self.begin is not None and not self.begin(s, ctx):
            return
        for step in self.phase(s).enter:
            step(s, ctx)

    def next_phase(self, s, ctx) -> None:
        """Leave the current phase (unless a leave step holds it), go to the next, enter it."""
        for step in self.phase(s).leave:
            if step(s, ctx) is HOLD:
                return
        if self.next is None:
            raise UndeclaredDecision(f"{self.game}: phase {self.phase_of(s)!r} asks nothing and the flow has no next")
        self.next(s, ctx)
        if not self.over(s):
            self.enter(s, ctx)

    def _ask(self, s, ctx):
        r = self._first(self.interrupts, s, ctx)
        if r is AGAIN or (r is not None and r is not DONE):
            return r
        if self.phase_over(s):
            return None
        asks = self.phase(s).asks
        while True:
            r = self._first(asks, s, ctx)
            if r is not AGAIN:
                return None if r is DONE else r
            if self.phase_over(s):
                return None

    def _first(self, asks: tuple[Ask, ...], s, ctx):
        for a in asks:
            if not a.when(s):
                continue
            r = a.decide(s, ctx)
            if r is None:
                continue
            if r is not AGAIN and r is not DONE:
                kind = r["kind"] if isinstance(r, dict) else r.kind
                if kind not in a.kinds:
                    raise UndeclaredDecision(f"{self.game}: an ask declaring {', '.join(a.kinds)} asked {kind!r}")
            return r
        return None


def ask(kind: str, seat: str | Callable[[State], str], prompt: str | Callable[[State], str],
        data: Callable[[State], dict] | None = None, when: Callable[[State], bool] = _always,
        rule: str = "") -> Ask:
    """The common question: ``kind`` of ``seat`` (or of a function of the state) with a prompt and
    data (functions of the state), whenever ``when`` holds; it computes on demand (pure)."""
    def decide(s, ctx):
        return Decision(seat(s) if callable(seat) else seat, kind, prompt(s) if callable(prompt) else prompt,
                        data(s) if data is not None else {})
    return Ask((kind,), decide, when, rule)
