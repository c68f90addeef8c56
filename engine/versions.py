"""Ruleset versions: every released version of a game stays playable and replayable forever.

A game's versions are data (``Versions`` in its package's ``versions.py``): the first stable version,
the development versions before it (and the commit that last listed each, which can still replay
their logs), and one ``Change`` per change of play since. A change names its rule, the version it
starts in and what differs. The rule code asks the change, never a version number:

    if FLEET_ENTRY.on(state): ...      # 14.2.1 as ntnd/5 plays it; ntnd/4 keeps the old reading

so every difference between versions sits in one place, next to the rule it changes, and the
registry (engine/registry.py) lists every version the changes imply. The version a game plays is
the one its genesis names: the ruleset's ``setup`` stamps it into the state (``stamp``), and every
later state is a copy of that one. Replaying a log of version N therefore runs exactly the code
paths version N ran, whatever versions came after it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InternalValueError

#: the state key that holds the ruleset version a game plays (a string, e.g. "4")
KEY = "ruleset_version"


@dataclass(frozen=True)
class Change:
    """One change of play: from version ``since`` on, ``rule`` plays as ``what`` says."""
    game: str
    rule: str   # the rule number of the game's text, e.g. "14.2.1"
    since: str  # the first version that plays the change
    what: str   # what differs, in words (docs/rules/<game>.md's version table repeats it)

    def on(self, state) -> bool:
        """True if the game ``state`` belongs to plays this change.

        A state without a stamp (a test's hand-built state) plays the newest rules."""
        v = state.get(KEY) if isinstance(state, dict) else None
        return v is None or self.in_version(v)

    def in_version(self, version: str) -> bool:
        """True if ruleset version ``version`` plays this change (what a ruleset instance asks before
        it has a state, e.g. its declared sizes)."""
        return int(version) >= int(self.since)


@dataclass(frozen=True)
class Versions:
    """Every version of one game: the development ones (not replayed here), the first stable one
    and one version per group of changes after it."""
    game: str
    first_stable: str
    development: dict[str, str] = field(default_factory=dict)  # version -> commit that last listed it
    changes: tuple[Change, ...] = ()

    def __post_init__(self) -> None:
        for c in self.changes:
            if c.game != self.game or int(c.since) <= int(self.first_stable):
                raise InternalValueError(f"{c.rule}: a change of {self.game} starts after {self.first_stable}")

    @property
    def released(self) -> tuple[str, ...]:
        """Every stable version, oldest first: the first stable one and each version a change starts."""
        vs = {int(self.first_stable)} | {int(c.since) for c in self.changes}
        return tuple(str(v) for v in sorted(vs))

    @property
    def newest(self) -> str:
        return self.released[-1]

    def changes_in(self, version: str) -> tuple[Change, ...]:
        """The changes that version ``version`` introduced."""
        return tuple(c for c in self.changes if c.since == version)

    def unavailable(self, version: str) -> str:
        """Why ``version`` does not replay here, in words (aar verify's note)."""
        commit = self.development.get(version)
        if commit is not None:
            return (f"{self.game}/{version} was a development version (before {self.game}/{self.first_stable}, "
                    f"the first stable one): afteraction at commit {commit} is the last that lists it")
        return f"{self.game}/{version} is not a version this build knows (it lists {', '.join(self.released)})"


def stamp(state: dict, version: str) -> dict:
    """Write the version a game plays into its new state (each ruleset's setup, once)."""
    state[KEY] = version
    return state
