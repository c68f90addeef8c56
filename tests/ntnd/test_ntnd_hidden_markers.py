"""What an inverted marker holds (a dummy, a cadre, a regiment, a stack
of several) never reaches the Allied seat or a spectator before its reveal. Whole bot games are
checked against perturbed copies (tests/ntnd/leakcheck.py), and each plant test puts one leak into the
engine and shows the checker fails on it."""
from __future__ import annotations

import functools

import pytest

from afteraction.engine.bots import random_bot
from afteraction.engine.codes import Code
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.presentation import views
from afteraction.engine.games.ntnd.rules import NtndRuleset
from afteraction.engine.local import LocalGame

import corpus

from .leakcheck import check_allied_commands, check_views, perturbations

SEED = b"tests/ntnd/hidden-markers"


def play_perturbed(seed, bot, max_commands: int, every: int, limit: int = 8) -> dict:
    """Play ``max_commands`` commands (or to the end) checking the perturbation invariants every
    ``every`` commands and at every Allied decision after the first Allied movement. ``seed`` a
    ``corpus.Spec``: that recorded game's commands, replayed (``bot`` unused), not a new bot game."""
    moves = None
    if isinstance(seed, corpus.Spec):
        g, moves = corpus.new_game(seed), corpus.recorded(seed)
    else:
        g = LocalGame.create("ntnd", seed=seed)
        g.handshake()
    rs = g.referee.ruleset
    n = {"commands": 0, "views": 0, "allied_commands": 0}
    while not g.referee.ended and n["commands"] < max_commands:
        s = g.referee.state
        d = g.referee.pending()
        if n["commands"] % every == 0 or d.seat == "allied":
            ps = perturbations(s)   # shifts 1 and 2, each distinct rotation once
            if ps:
                n["views"] += check_views(s, ps)
                n["allied_commands"] += check_allied_commands(s, ps, limit=limit if d.seat == "allied" else 0)
        if moves is None:
            c = bot(d.seat, rs.legal_commands(s, d.seat))
        else:
            seat, c = next(moves)
            assert seat == d.seat, (seat, d.seat)
        g.play(d.seat, c)
        n["commands"] += 1
    return n


@functools.lru_cache(maxsize=None)
def _short(seed: bytes = SEED) -> dict:
    return play_perturbed(seed, random_bot(seed), 120, 3)


def _fails(match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        play_perturbed(SEED, random_bot(SEED), 120, 3)


def test_ntnd_hidden_markers_allied_and_spectator_see_nothing_inside_inverted_markers():
    n = _short()
    assert n["views"] > 10 and n["allied_commands"] > 50, n


def test_ntnd_hidden_markers_whole_tet_bot_game():
    """A whole Tet game of the heuristic bot (ambushes, retreats, reactions): the corpus's, its
    recorded commands replayed. It found the public Communist retreat options ("to") that told which
    neighbouring markers were stacked full."""
    n = play_perturbed(corpus.NTND_TET_BOT, None, 10 ** 6, 10, limit=3)
    assert n["commands"] > 300 and n["views"] > 50 and n["allied_commands"] > 1000, n


def test_ntnd_hidden_markers_plant_view_counts_units_in_markers(monkeypatch):
    orig = views.build_view

    def build_view(s, seat):
        v = orig(s, seat)
        v["markers"] = [m | {"n": len(s["markers"][m["id"]]["units"])} for m in v["markers"]]  # only a count
        return v
    monkeypatch.setattr(views, "build_view", build_view)
    _fails("view of allied depends")


def test_ntnd_hidden_markers_plant_view_flags_dummies(monkeypatch):
    orig = views.build_view

    def build_view(s, seat):
        v = orig(s, seat)
        v["dummy_hexes"] = sorted(mk["loc"] for mk in s["markers"].values()
                                  if all(s["units"][u]["type"].endswith("dummy") for u in mk["units"]))
        return v
    monkeypatch.setattr(views, "build_view", build_view)
    _fails("view of allied depends")


def test_ntnd_hidden_markers_plant_rejection_depends_on_contents(monkeypatch):
    orig = NtndRuleset.apply

    def apply(self, s, seat, command, ctx, pending=None):
        if seat == "allied" and command.ntnd.WhichOneof("action") == "attack":
            tgt = command.ntnd.attack.target
            if any(len(mk["units"]) > 1 for mk in s["markers"].values() if tgt in (mk["loc"], )):
                raise Rejection(Code.ILLEGAL_COMMAND, "NTND 19: that hex is too strongly held")
        return orig(self, s, seat, command, ctx, pending)
    monkeypatch.setattr(NtndRuleset, "apply", apply)
    _fails("fate depends")


def test_ntnd_hidden_markers_plant_public_event_names_a_type(monkeypatch):
    orig = NtndRuleset.apply

    def apply(self, s, seat, command, ctx, pending=None):
        out = orig(self, s, seat, command, ctx, pending)
        if seat == "allied":
            first = min(out["markers"], key=lambda m: int(m[1:]), default=None)
            if first is not None:  # what the lowest-numbered marker holds
                ctx.emit({"t": "hint", "types": sorted(out["units"][u]["type"] for u in out["markers"][first]["units"])})
        return out
    monkeypatch.setattr(NtndRuleset, "apply", apply)
    _fails("public events depend")


def test_ntnd_hidden_markers_plant_public_decision_data_counts_a_stack(monkeypatch):
    orig = NtndRuleset.pending

    def pending(self, s):
        d = orig(self, s)
        if d is not None and s["markers"]:
            first = min(s["markers"], key=lambda m: int(m[1:]))
            d.data["hint"] = len(s["markers"][first]["units"])  # the service shows data to everyone
        return d
    monkeypatch.setattr(NtndRuleset, "pending", pending)
    _fails("public decision")


def test_ntnd_hidden_markers_communist_retreat_options_reach_only_the_communist_seat():
    """The hexes a Communist unit may retreat into depend on the hidden stacks next door (stacking):
    the Allied and public views and the public decision data (GetState) omit them; the Communist
    view keeps them."""
    g = LocalGame.create("ntnd", seed=SEED)
    g.handshake()
    s = g.referee.state
    s["decision"] = {"seat": "communist", "kind": "retreat", "prompt": "NTND 19.3: retreat x one hex",
                     "unit": "x", "mode": "must", "to": ["1522", "1623"], "eligible": ["x"]}
    rs = NtndRuleset()
    for seat in ("allied", None):
        d = rs.view(s, seat)["decision"]
        assert d["kind"] == "retreat" and "to" not in d and "eligible" not in d
    assert "to" not in rs.pending(s).data and "eligible" not in rs.pending(s).data
    assert rs.view(s, "communist")["decision"]["to"] == ["1522", "1623"]
