"""The corpus: whole bot games, played once per test run and shared by the tests that need them.

A game is named by what makes it (``Spec``: game, ruleset version, scenario, seed and bots). The
first test that asks for one plays it, the bots choosing among the legal commands, and keeps the
commands it chose; every later test replays those commands through a fresh ``LocalGame`` of the same
seed, which gives the same records byte for byte without asking the bots again or enumerating
legal commands (the costly part of an NTND game). Under pytest-xdist the commands are also written
to a directory the run's workers share (named by ``PYTEST_XDIST_TESTRUNUID``, removed by
``tests/conftest.py`` at the end of the run), so a game is played once per run, not once per worker.

``commands(spec)`` the recorded (seat, command) pairs; ``shared(spec, name, make)`` any other
result of the game computed once per run (the leak checks' findings); ``game(spec)`` the replayed game, one object
per process (read it, never play on it); ``recorded(spec)`` the commands for a test that checks the
game as it goes (the whole-game leak checks of tests/ntnd/test_ntnd_game.py, which also record the
game when they are the first to ask for it: ``commands(spec, play)``)."""
from __future__ import annotations

import fcntl
import functools
import json
import os
import pathlib
import tempfile
from dataclasses import dataclass

from afteraction.engine.local import LocalGame
from afteraction.v1 import command_pb2

RUN_DIR_PREFIX = "aar-corpus-"


@dataclass(frozen=True)
class Spec:
    """One recorded game: ``bots`` is ``random`` (engine/bots.py), ``tet`` or ``campaign``
    (engine/games/ntnd/bots/military.py), played by both seats from ``bot_seed`` (default: ``seed``)."""

    game: str
    seed: bytes
    scenario: str | None = None
    version: str | None = None
    bots: str = "random"
    bot_seed: bytes | None = None

    @property
    def key(self) -> str:
        return "-".join(str(x) for x in (self.game, self.version, self.scenario, self.bots,
                                         self.seed.hex(), (self.bot_seed or b"").hex()))


#: the games more than one test module plays whole
NTND_TET = Spec("ntnd", b"tests/ntnd/game-1")                                   # random bots, Tet
NTND_TET_BOT = Spec("ntnd", b"tests/ntnd/tet-bot", bots="tet", bot_seed=b"tests")
NTND_SHORT_CAMPAIGN = Spec("ntnd", b"tests/ntnd/campaign-short", scenario="campaign_short",
                           bots="campaign", bot_seed=b"tests/leak")
NTND_SHORT_CAMPAIGN_RANDOM = Spec("ntnd", b"tests/ntnd/campaign-short", scenario="campaign_short")  # random bots


def new_game(spec: Spec) -> LocalGame:
    """The game of ``spec`` after its handshake, before its first command."""
    ruleset = None
    if spec.version is not None:
        from afteraction.engine import registry
        ruleset = registry.get(spec.game, spec.version)
    g = LocalGame.create(spec.game, seed=spec.seed, scenario=spec.scenario, ruleset=ruleset)
    g.handshake()
    return g


def _bot(spec: Spec):
    seed = spec.bot_seed if spec.bot_seed is not None else spec.seed
    if spec.bots == "random":
        from afteraction.engine.bots import random_bot
        return random_bot(seed)
    from afteraction.engine.games.ntnd.bots import military as bots
    return {"tet": bots.tet_bot, "campaign": bots.campaign_bot}[spec.bots](seed)


def _played(spec: Spec) -> list[tuple[str, bytes]]:
    g, bot, out = new_game(spec), _bot(spec), []

    def choose(seat, legal):
        c = bot(seat, legal)
        out.append((seat, c.SerializeToString(deterministic=True)))
        return c

    g.run_bots(choose)
    if not g.referee.ended:
        raise RuntimeError(f"the corpus game {spec} did not end")
    return out


def run_dir(uid: str) -> pathlib.Path:
    """The directory the workers of run ``uid`` share."""
    return pathlib.Path(tempfile.gettempdir(), RUN_DIR_PREFIX + uid)


def _run_dir() -> pathlib.Path | None:
    uid = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    return run_dir(uid) if uid else None


_memo: dict[tuple[Spec, str], object] = {}


def shared(spec: Spec, name: str, make):
    """``make()``'s value (JSON data) for ``spec`` under ``name``, computed once per run: the first
    ask computes it while it holds the run's lock for it, and the others (this process, or another
    worker) read it."""
    if (spec, name) in _memo:
        return _memo[(spec, name)]
    run = _run_dir()
    if run is None:
        _memo[(spec, name)] = make()
        return _memo[(spec, name)]
    run.mkdir(exist_ok=True)
    path = run / f"{spec.key}.{name}.json"
    with open(run / f"{spec.key}.{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(make()))
            tmp.replace(path)
        _memo[(spec, name)] = json.loads(path.read_text())
    return _memo[(spec, name)]


def commands(spec: Spec, play=None) -> list[list]:
    """The commands of ``spec``'s game in order, [seat, command bytes in hex] each. The first ask of
    the run plays it: ``play(spec)`` (the bots alone by default; a test that checks as it plays
    passes its own, returning the (seat, bytes) it played)."""
    return shared(spec, "commands", lambda: [[s, c.hex()] for s, c in (play or _played)(spec)])


def recorded(spec: Spec):
    """(seat, Command) of each recorded command of ``spec``, in order."""
    for seat, raw in commands(spec):
        yield seat, command_pb2.Command.FromString(bytes.fromhex(raw))


def replay(spec: Spec) -> LocalGame:
    """A fresh game of ``spec`` played to its end from the recorded commands."""
    g = new_game(spec)
    for seat, c in recorded(spec):
        g.play(seat, c)
    return g


@functools.cache
def game(spec: Spec) -> LocalGame:
    """The replayed game of ``spec``, one per process: tests read it and never play on it."""
    return replay(spec)
