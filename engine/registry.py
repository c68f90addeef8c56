"""Ruleset registry keyed by (game, version), so a verifier re-executes a log with the exact rules
it was played under. Every released version of every game is listed, forever: each game's
``versions.py`` (engine/versions.py) declares its versions, and one ruleset class plays them all,
each change of play asked where its rule is. New games use the newest version."""
from __future__ import annotations

import importlib
import importlib.util

from .errors import NoGameModule, Rejection
from .codes import Code
from .ruleset import Ruleset
from .versions import Versions

# game -> "module:Class" (relative to this package) of the ruleset that plays every version of the game
_GAMES: dict[str, str] = {
    "sog": ".games.sog.rules:SogRuleset",
    "gmv": ".games.gmv.rules:GmvRuleset",
    "ntnd": ".games.ntnd.rules:NtndRuleset",
    "duel": ".games.duel.rules:DuelRuleset",
}


def _versions(game: str) -> Versions:
    try:
        return importlib.import_module(f".games.{game}.versions", __package__).VERSIONS
    except ImportError as e:
        raise Rejection(Code.UNKNOWN_RULESET, f"ruleset {game!r} is not available: {e}") from None


def game_module(game: str, role: str):
    """A game's module that other code looks up by its role (``render``: the picture; ``names``: its
    commands and events in words): ``games/<game>/<role>.py``, or in the game's ``presentation/``
    subpackage (NTND, laid out by its rulebook's parts). ModuleNotFoundError when the game has none."""
    for where in (f"{__package__}.games.{game}.{role}", f"{__package__}.games.{game}.presentation.{role}"):
        try:
            found = importlib.util.find_spec(where) is not None
        except ModuleNotFoundError:   # no such game or no presentation/ package
            found = False
        if found:
            return importlib.import_module(where)
    raise NoGameModule(f"{game!r} has no {role} module", name=f"{__package__}.games.{game}.{role}")


def games() -> list[str]:
    """The games this build knows, in their fixed order."""
    return list(_GAMES)


def get(game: str, version: str | None = None) -> Ruleset:
    """The ruleset for ``game`` as ``version`` plays it (the newest version if ``version`` is None)."""
    if game not in _GAMES:
        raise Rejection(Code.UNKNOWN_RULESET, f"no game {game[:40]!r} (games: {', '.join(sorted(_GAMES))})")
    vs = _versions(game)
    if version is not None and str(version) not in vs.released:
        raise Rejection(Code.UNKNOWN_RULESET, vs.unavailable(str(version)))
    mod, _, cls = _GAMES[game].partition(":")
    try:
        module = importlib.import_module(mod, __package__)
    except ImportError as e:
        raise Rejection(Code.UNKNOWN_RULESET, f"ruleset {game!r} is not available: {e}") from None
    return getattr(module, cls)(version)


def available() -> list[tuple[str, str]]:
    """Every (game, version) this build plays and replays, each game's versions oldest first."""
    out = []
    for game in _GAMES:
        try:
            vs = _versions(game)
            get(game)
        except Rejection:
            continue
        out += [(game, v) for v in vs.released]
    return out
