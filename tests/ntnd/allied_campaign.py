"""Campaign states for the Allied political-war tests (4.2, 4.5.2, 23, 24): a campaign game set up by
the ruleset, moved to a turn, and put at the start of a phase with FLOW.enter/advance as a game does;
commands are answered through NtndRuleset.apply (mapplay.play checks each is offered)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.phases import FLOW

advance, enter = FLOW.advance, FLOW.enter
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.games.ntnd.sequence.turns import INDEX, turn_label
from afteraction.engine.ruleset import Context

from .mapplay import RS, legal, play  # noqa: F401

ALLIED = "allied"
PART_2B_FAMILIES = ("fleet", "montagnards", "special_units")   # in force in the campaign (features.py)


def campaign(turn: int = 1) -> dict:
    s = RS.setup("campaign", {}, Context.for_tests())
    # the Allied policy rules on their own: no neutrality (10.5.2's coup is asked in the same
    # reinforcement phase, after the policy step; its tests are test_ntnd_neutrality's)
    s["scenario"]["features"] = [f for f in s["scenario"]["features"] if f != "neutrality"]
    s["turn"] = turn
    s["turn_label"] = turn_label(s["scenario"]["turns"], turn)
    return s


def only_families(s: dict, features) -> dict:
    """The state with exactly ``features`` of the fleet, Montagnard and special-unit families in force
    (the campaign has all three), for a test of a family with and without it."""
    s["scenario"]["features"] = sorted((set(s["scenario"]["features"]) - set(PART_2B_FAMILIES)) | set(features))
    return s


def at(s: dict, phase: str, faces: list[int] | None = None) -> tuple[dict, list[dict]]:
    s["step"] = INDEX[phase]
    s["battle"] = None
    s["decision"] = None
    ctx = Context.for_tests(faces=faces)
    enter(s, ctx)
    advance(s, ctx)
    return s, [e for e, _ in ctx.events]


def actions(s: dict) -> list[tuple[str, str]]:
    """The policy step's offered answers as (action, argument)."""
    out = []
    for c in legal(s, ALLIED):
        a = c.ntnd.WhichOneof("action")
        m = getattr(c.ntnd, a)
        out.append((a, getattr(m, "kind", "") or getattr(m, "unit", "")))
    return out


def answer(s: dict, action: str, faces: list[int] | None = None, **fields) -> tuple[dict, list[dict]]:
    return play(s, ALLIED, cmd(action, **fields), faces)


def of(events: list[dict], t: str) -> list[dict]:
    return [e for e in events if e["t"] == t]


def reinforcing(s: dict, rp_us: int = 3) -> dict:
    """``s`` advanced to the Allied Reinforcement phase's "reinforce" decision (its policy step ended),
    with ``rp_us`` U.S. replacement points."""
    s, _ = at(s, "a_reinforce")
    if s["decision"]["kind"] == "policy":
        s, _ = play(s, ALLIED, cmd("done"))
    assert s["decision"]["kind"] == "reinforce"
    s["rp"]["US"] = rp_us
    return s
