"""Ruleset registry keyed by (game, version), so a verifier re-executes a log with
the exact rules it was played under."""
from __future__ import annotations

import importlib

from .errors import Rejection
from .ruleset import Ruleset

# (game, version) -> "module:Class"; the latest version of each game is listed last.
_RULESETS: dict[tuple[str, str], str] = {
    ("sog", "1"): "afteraction.engine.games.sog.rules:SogRuleset",
    ("gmv", "2"): "afteraction.engine.games.gmv.rules:GmvRuleset",  # 2: issue 26 (v1 logs no longer replay)
    ("ntnd", "4"): "afteraction.engine.games.ntnd.rules:NtndRuleset",  # 4: issue 14 air war, scenarios, sizes (v3 logs no longer replay)
    ("duel", "1"): "afteraction.engine.games.duel.rules:DuelRuleset",
}


def get(game: str, version: str | None = None) -> Ruleset:
    """The ruleset for ``game`` (latest version if ``version`` is None)."""
    keys = [k for k in _RULESETS if k[0] == game and (version is None or k[1] == version)]
    if not keys:
        games = sorted({g for g, _ in _RULESETS})
        if game in games:
            versions = ", ".join(v for g, v in _RULESETS if g == game)
            raise Rejection("UNKNOWN_RULESET", f"no ruleset {game!r} version {version!r} ({game} versions: {versions})")
        raise Rejection("UNKNOWN_RULESET", f"no game {game[:40]!r} (games: {', '.join(games)})")
    mod, _, cls = _RULESETS[keys[-1]].partition(":")
    try:
        module = importlib.import_module(mod)
    except ImportError as e:
        raise Rejection("UNKNOWN_RULESET", f"ruleset {game!r} is not available: {e}") from None
    return getattr(module, cls)()


def available() -> list[tuple[str, str]]:
    out = []
    for game, version in _RULESETS:
        try:
            get(game, version)
        except Rejection:
            continue
        out.append((game, version))
    return out
