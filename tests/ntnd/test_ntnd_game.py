"""NTND whole games: random bots play the Tet Offensive scenario (and the short campaign) to its end
in-process, the log verifies with replay, and the Allied seat never sees an inverted unit's identity
before its reveal."""
from __future__ import annotations

import functools
import io

import pytest

from afteraction.engine.bots import random_bot
from afteraction.engine.games.ntnd.rules import NtndRuleset
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle
from afteraction.v1 import command_pb2

import corpus

SEED = b"tests/ntnd/game-1"


_ATOMS = (int, bool, bytes, type(None))


def _strings(x, out):
    """Every string ``x`` holds (dict keys too), added to ``out``: a walk with its own stack, each
    exact container and atom type taken without a call (subclasses still by isinstance)."""
    stack = [x]
    pop, push, add = stack.pop, stack.extend, out.add
    while stack:
        x = pop()
        t = type(x)
        if t is str:
            add(x)
        elif t is dict:
            push(x)
            push(x.values())
        elif t is list or t is tuple:
            push(x)
        elif t in _ATOMS:
            continue
        elif isinstance(x, str):
            add(x)
        elif isinstance(x, dict):
            push(x)
            push(x.values())
        elif isinstance(x, (list, tuple)):
            push(x)
    return out


def _hidden(state) -> set[str]:
    return {uid for mk in state["markers"].values() for uid in mk["units"]}


def play_checked(seed, bot=None, scenario: str | None = None, make_bot=None):
    """One bot game (of ``scenario``, default Tet), with the leak check done as it is played (the Allied
    view and every public event after each command, against the units hidden before and after that
    command). ``make_bot(view_of)``: a bot that reads its own seat's view (``view_of(seat)``).
    ``seed`` a ``corpus.Spec``: the corpus game, played and recorded by this check when it is the
    run's first to ask for it, else its recorded commands replayed under the same check."""
    if not isinstance(seed, corpus.Spec):
        g = LocalGame.create("ntnd", seed=seed, scenario=scenario)
        g.handshake()
        return _checked(g, _bot_choice(g, bot, make_bot, seed))[:4]
    return _corpus_checked(seed)


@functools.cache
def _corpus_checked(spec):
    """play_checked of a corpus game, once per process (and its check once per run)."""
    out = {}

    def play(_spec):
        g = corpus.new_game(spec)
        out["r"] = _checked(g, _bot_choice(g, corpus._bot(spec), None, spec.seed))
        return out["r"][4]

    def check():
        if "r" not in out:    # recorded by another test: its commands replayed under the check
            cmds = corpus.recorded(spec)
            out["r"] = _checked(corpus.new_game(spec), lambda g, d: next(cmds))
        return out["r"][1:4]

    corpus.commands(spec, play)
    n, leaks, openings = corpus.shared(spec, "leak-check", check)
    g = out["r"][0] if "r" in out else corpus.game(spec)
    return g, n, [tuple(x) for x in leaks], openings


def _bot_choice(g, bot, make_bot, seed):
    """(seat, command) for the pending decision ``d``, chosen by the bot among the legal commands."""
    rs = g.referee.ruleset
    if make_bot is not None:
        bot = make_bot(lambda seat: rs.view(g.referee.state, seat))
    bot = bot or random_bot(seed)

    def choose(g, d):
        legal = rs.legal_commands(g.referee.state, d.seat)
        assert legal, f"no legal command for {d.seat} at {d.kind}"
        return d.seat, bot(d.seat, legal)
    return choose


def _checked(g, choose):
    """Play ``g`` to its end by ``choose(g, decision)``, checking as it goes: (game, commands, leaks,
    Allied openings, the (seat, command bytes) played)."""
    rs = g.referee.ruleset
    leaks, played = [], []
    allied_openings = 0
    n = 0
    allied_view = None   # the strings of the Allied view of the position now, if the last check made them
    while not g.referee.ended:
        before = _hidden(g.referee.state)
        # units the Allied seat sees face up now: one this command turns face down (6.2, 19.3.8) was
        # seen going under its marker, so naming it in that command's records tells nothing new
        if allied_view is None:
            allied_view = _strings(rs.view(g.referee.state, "allied"), set())
        shown = allied_view - before
        allied_view = None
        d = g.referee.pending()
        seat, c = choose(g, d)
        if isinstance(c, bytes):
            c = command_pb2.Command.FromString(c)
        assert seat == d.seat, (seat, d.seat)
        acc = g.play(seat, c)
        played.append((seat, c.SerializeToString(deterministic=True)))
        n += 1
        allied_openings += len(acc.openings.get("allied", []))
        after = _hidden(g.referee.state)
        still = before & after if not g.referee.ended else set()
        newly = (after - before - shown) if not g.referee.ended else set()
        watched = still | newly
        for rec in acc.records:
            for ev in rec.body.get("events", []):
                if ev.get("t") in ("open", "sealed"):
                    continue
                bad = _strings(ev, set()) & watched
                if bad:
                    leaks.append((rec.seq, ev.get("t"), sorted(bad)))
        if not g.referee.ended:
            for seat in ("allied", None):
                seen = _strings(rs.view(g.referee.state, seat), set())
                if seat == "allied":
                    allied_view = seen      # the same position's view, the next command's "shown"
                bad = seen & after
                if bad:
                    leaks.append(("view", seat, sorted(bad)))
    return g, n, leaks, allied_openings, played


@functools.lru_cache(maxsize=None)
def played_game(seed: bytes = SEED):
    """One checked game per seed per test session (the render tests reuse it)."""
    return play_checked(corpus.NTND_TET if seed == SEED else seed)


@pytest.fixture(scope="module")
def played():
    return played_game(SEED)


def test_ntnd_tet_bots_play_to_the_end_and_the_log_verifies(played):
    g, n, _, _ = played
    out = g.referee.state["outcome"]
    assert out is not None and out["winner"] in ("communist", "allied", None)
    assert "scenario end" in out["reason"] or "22.4" in out["reason"]
    rep = verify_bundle(io.BytesIO(g.bundle()))
    assert rep.verified and rep.replayed and rep.ended
    assert rep.sealed > 0 and rep.opened > 0 and rep.rolls > 0


def test_ntnd_hidden_identities_never_leak_to_the_allied_seat(played):
    _, _, leaks, allied_openings = played
    assert leaks == []
    assert allied_openings == 0  # nothing is ever committed privately to the Allied seat


def test_ntnd_hidden_identities_never_leak_in_another_game():
    """A second seed: markers stopped by failed infiltration, spent supply units, break-downs."""
    g, _, leaks, allied_openings = play_checked(b"leak-0")
    assert g.referee.ended and leaks == [] and allied_openings == 0


def test_ntnd_heuristic_bot_plays_to_the_end_without_leaks():
    g, n, leaks, allied_openings = play_checked(corpus.NTND_TET_BOT)
    assert g.referee.ended and n > 100 and leaks == [] and allied_openings == 0
    assert verify_bundle(io.BytesIO(g.bundle())).replayed


@pytest.mark.parametrize("who", ["campaign bots", "random bots", "political bots"])
def test_ntnd_short_campaign_plays_to_the_end_without_leaks(who):
    """The campaign's set-up, schedule and political phases (campaign_short) under the same whole-game
    leak check; the campaign bots play every political action offered (bots.campaign_bot); the political
    bots (bots_political.political_bot, the campaigns' demo bot) play them by their own seat's view."""
    from afteraction.engine.games.ntnd.bots.political import political_bot
    make = (lambda view_of: political_bot(b"tests/leak", view_of)) if who == "political bots" else None
    if who == "campaign bots":
        g, n, leaks, allied_openings = play_checked(corpus.NTND_SHORT_CAMPAIGN)
    elif who == "random bots":    # the same game as play_checked(b"tests/ntnd/campaign-short", ...), checked once a run
        g, n, leaks, allied_openings = play_checked(corpus.NTND_SHORT_CAMPAIGN_RANDOM)
    else:
        g, n, leaks, allied_openings = play_checked(b"tests/ntnd/campaign-short", scenario="campaign_short",
                                                    make_bot=make)
    assert g.referee.ended and g.referee.genesis.body["scenario"] == "campaign_short"
    assert n > 100 and leaks == [] and allied_openings == 0
    assert verify_bundle(io.BytesIO(g.bundle())).replayed


@pytest.mark.long
def test_ntnd_the_whole_campaign_plays_to_the_end_without_leaks():
    """the whole-game leak check on the campaign game itself (63 turns, every rule family, the
    air war against inverted stacks included), played by the campaigns' demo bot (political_bot) on
    both seats: ``make test-long`` (the short campaign above is the default suite's)."""
    from afteraction.engine.games.ntnd.bots.political import political_bot
    g, n, leaks, allied_openings = play_checked(b"tests/ntnd/campaign", scenario="campaign",
                                                make_bot=lambda view_of: political_bot(b"tests/leak", view_of))
    assert g.referee.ended and g.referee.genesis.body["scenario"] == "campaign"
    turns = {e["turn"] for r in g.records for e in r.body.get("events", []) if e.get("t") == "phase"}
    assert max(turns) > 4, turns     # past the short campaign's four turns
    assert n > 500 and leaks == [] and allied_openings == 0
    assert verify_bundle(io.BytesIO(g.bundle())).replayed


def test_ntnd_every_marker_is_opened_by_the_end(played):
    g, _, _, _ = played
    committed, opened = set(), set()
    for rec in g.records:
        for ev in rec.body.get("events", []):
            if ev.get("t") == "sealed" and ev.get("to") == "communist":
                committed.add((rec.seq, ev["k"]))
            if ev.get("t") == "open":
                opened.add(tuple(ev["ref"]))
    # every sealed marker identity event is opened (the sealed commands are opened by the end record)
    assert committed <= opened


def test_ntnd_game_is_deterministic():
    """Same seed, same commands: byte-identical records (first 60 commands)."""
    def run():
        g = LocalGame.create("ntnd", seed=b"tests/ntnd/det")
        g.handshake()
        rs = g.referee.ruleset
        bot = random_bot(b"det")
        for _ in range(60):
            d = g.referee.pending()
            g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
        return [r.raw for r in g.records]
    assert run() == run()


def test_ntnd_ruleset_class_attributes():
    rs = NtndRuleset()
    assert rs.seats == ("communist", "allied") and rs.scenarios[0] == "tet"


def test_ntnd_records_do_not_depend_on_the_hash_seed():
    """No set/dict order reaches the records: two processes with different PYTHONHASHSEED agree."""
    import os
    import subprocess
    import sys
    code = ("import hashlib\n"
            "from afteraction.engine.local import LocalGame\n"
            "from afteraction.engine.bots import random_bot\n"
            "g = LocalGame.create('ntnd', seed=b'tests/ntnd/hash'); g.handshake()\n"
            "g.run_bots(random_bot(b'hash'), max_commands=120)\n"
            "print(hashlib.sha256(b''.join(r.raw for r in g.records)).hexdigest())\n")
    out = []
    for hs in ("11", "12"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        out.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                  check=True).stdout.strip())
    assert out[0] == out[1] and len(out[0]) == 64
