"""Decisions as data: the one decision table of every ruleset.

A game is a state machine that stops at *decisions*: ``Ruleset.pending(state)`` names the one
decision the game waits for (a ``Decision``: seat, kind, prompt, data). Each decision kind is
declared ONCE, in the ruleset's ``DecisionTable``, as a ``DecisionKind``:

- ``name``: the ``Decision.kind`` it declares (``seat``: only when that seat decides, for games
  whose kind means different things per seat, e.g. GMV's ``phase3``; None: any seat);
- ``rule``: the rule number(s) it answers ("SOG 3.5/3.9"), named in every rejection;
- ``answers``: the actions of the game's command oneof (``SogCommand.action``, ...) that answer
  it, each with its *apply* function ``apply(state, seat, msg, ctx)`` (``msg``: that action's
  message; it mutates ``state``, the referee's copy, or raises Rejection);
- ``legal``: the legal-answer enumerator ``legal(state, decision) -> [Command, ...]``;
- ``complete``: True if ``legal`` lists every legal answer; False for a *described* space (too
  large to list: ``legal`` returns a representative sample, ``space`` and the decision's ``data``
  describe the rest, and the apply function validates whatever comes);
- ``space``: one line saying what the answers are (for a described space, what ``data`` holds);
- ``sealed``: which answers are sealed commands (SPEC.md 6): True (all), False, or a tuple of
  actions.

The models are python-chess's named predicates and boardgame.io's moves-as-config: what a
decision accepts, how its answers are listed and how each is applied sit side by side, so they
cannot drift apart. No game has a dispatcher: ``Ruleset`` (engine/ruleset.py) answers every
command through ``DecisionTable.answer``:

    WRONG_GAME_COMMAND   the Command's ``game`` oneof is not the ruleset's (``field``)
    GAME_OVER            no decision is pending
    NOT_YOUR_DECISION    the pending decision is another seat's
    ILLEGAL_COMMAND      the action does not answer the pending kind (rule: the kind's rule,
                         input: the action sent)
    then                 kind.answers[action](state, seat, msg, ctx), then Ruleset.advance

and lists legal commands through ``DecisionTable.legal`` and sealed commands through
``DecisionTable.sealed``. A pending decision whose kind the table does not declare is a ruleset
bug (``UndeclaredDecision``), not a player's error.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .errors import InternalError, InternalValueError, Rejection
from .codes import Code

#: apply(state, seat, msg, ctx): carry out one answer (mutates state) or raise Rejection
Apply = Callable[[Any, str, Any, Any], None]
#: legal(state, decision) -> the legal answers (Commands) of the pending decision
Enumerate = Callable[[Any, Any], list]


@dataclass(frozen=True)
class Decision:
    """The decision the game waits for (``Ruleset.pending``): who decides, what kind of choice (a
    ``DecisionKind`` of the table), a prompt and the public data that describes the choice. Frozen:
    a pending decision is a value (engine/phases.py finds it, nothing changes it afterwards)."""
    seat: str
    kind: str
    prompt: str
    data: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt, "data": self.data}


class UndeclaredDecision(InternalError, LookupError):
    """A ruleset is waiting for a decision kind its table does not declare (a ruleset bug)."""


@dataclass(frozen=True)
class DecisionKind:
    """One decision kind, declared once (see the module docstring)."""
    name: str
    rule: str
    answers: Mapping[str, Apply]
    legal: Enumerate
    space: str
    seat: str | None = None
    complete: bool = True
    sealed: bool | tuple[str, ...] = False

    def seals(self, action: str | None) -> bool:
        if self.sealed is True or self.sealed is False:
            return self.sealed
        return action in self.sealed


class DecisionTable:
    """A ruleset's decision kinds. ``field``: the ``Command.game`` oneof field of its commands
    ("sog", "gmv", "ntnd", "duel"); ``title``: the game's name in rejections."""

    def __init__(self, field: str, title: str, kinds: Iterable[DecisionKind]) -> None:
        self.field = field
        self.title = title
        self.kinds: tuple[DecisionKind, ...] = tuple(kinds)
        self._index: dict[tuple[str, str | None], DecisionKind] = {}
        for k in self.kinds:
            key = (k.name, k.seat)
            if key in self._index:
                raise InternalValueError(f"decision kind {k.name!r} (seat {k.seat}) is declared twice")
            if not k.answers:
                raise InternalValueError(f"decision kind {k.name!r} has no answer")
            self._index[key] = k

    # -- lookups --------------------------------------------------------------
    def kind_of(self, decision) -> DecisionKind:
        """The declaration of a pending ``Decision`` (by kind and seat, then kind alone)."""
        k = self._index.get((decision.kind, decision.seat)) or self._index.get((decision.kind, None))
        if k is None:
            raise UndeclaredDecision(f"{self.title}: decision kind {decision.kind!r} (seat {decision.seat}) "
                                     "is not in the ruleset's decision table")
        return k

    def action_of(self, command) -> str | None:
        """The action a Command of this game carries (None: another game's, or none)."""
        if command.WhichOneof("game") != self.field:
            return None
        return getattr(command, self.field).WhichOneof("action")

    # -- the machine ------------------------------------------------------------
    def answer(self, state, pending, seat: str, command, ctx) -> None:
        """Validate ``command`` as ``seat``'s answer to ``pending`` and apply it to ``state``."""
        if command.WhichOneof("game") != self.field:
            raise Rejection(Code.WRONG_GAME_COMMAND, f"this is {self.title}: send a Command carrying {self.field}",
                            input=command.WhichOneof("game"))
        if pending is None:
            raise Rejection(Code.GAME_OVER, f"{self.title}: the game has ended")
        if pending.seat != seat:
            raise Rejection(Code.NOT_YOUR_DECISION, f"{self.title}: the pending decision ({pending.kind}) belongs to "
                            f"seat {pending.seat}", input=seat)
        kind = self.kind_of(pending)
        msg = getattr(command, self.field)
        action = msg.WhichOneof("action")
        apply = kind.answers.get(action) if action is not None else None
        if apply is None:
            raise Rejection(Code.ILLEGAL_COMMAND, f"{kind.rule}: the pending decision is {kind.name} (answered by "
                            f"{' or '.join(kind.answers)}), not {action or 'an empty command'}",
                            rule=kind.rule, input=action)
        apply(state, seat, getattr(msg, action), ctx)

    def legal(self, state, pending, seat: str) -> list:
        """The legal answers of ``seat`` (empty unless ``pending`` is that seat's)."""
        if pending is None or pending.seat != seat:
            return []
        return self.kind_of(pending).legal(state, pending)

    def sealed(self, pending, seat: str, command) -> bool:
        """True if ``command``, as ``seat``'s answer to ``pending``, is a sealed command."""
        if pending is None or pending.seat != seat:
            return False
        return self.kind_of(pending).seals(self.action_of(command))
