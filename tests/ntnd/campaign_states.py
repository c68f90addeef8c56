"""Campaign states for the political-war rules tests: built by the game's own set-up, moved to a
phase by the game's own ``FLOW.enter``/``FLOW.advance`` (phases.py) (the path a game takes), dice forced with
``Context.for_tests(faces=...)``."""
from __future__ import annotations

from afteraction.engine.games.ntnd.phases import FLOW
from afteraction.engine.games.ntnd.rules import NtndRuleset
from afteraction.engine.games.ntnd.sequence.turns import INDEX
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

RS = NtndRuleset()


def camp(scenario: str = "campaign_short", turn: int = 1) -> dict:
    s = initial_state(scenario, Context.for_tests())
    s["turn"] = turn
    s["phase"] = {"id": "c_recruit"}
    return s


def clear_communists(s: dict) -> None:
    """Every Communist unit back to the mix, no markers."""
    s["markers"] = {}
    for u in s["units"].values():
        if u["side"] == "communist" and u["status"] == "map":
            u.update(status="mix", loc=None, inv=False, mk=None)


def put(s: dict, uid: str, loc: str) -> str:
    s["units"][uid].update(status="map", loc=loc, inv=False, mk=None)
    return uid


def free(s: dict, type_id: str) -> str:
    """A unit of ``type_id`` from the mix (Communist) or the eliminated pile/schedule (Allied)."""
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["type"] == type_id and u["status"] in ("mix", "sched", "dead"):
            return uid
    raise LookupError(type_id)


def at_phase(s: dict, phase: str, faces: list[int] | None = None) -> list[dict]:
    """Enter ``phase`` and run the automatic steps (FLOW.enter, FLOW.advance); the public events."""
    s["step"] = INDEX[phase]
    ctx = Context.for_tests(faces=faces)
    FLOW.enter(s, ctx)
    FLOW.advance(s, ctx)
    return [e for e, to in ctx.events if to is None]


def answer(s: dict, seat: str, command, faces: list[int] | None = None) -> list[dict]:
    """Answer the pending decision through the ruleset (decision table, then advance)."""
    ctx = Context.for_tests(faces=faces)
    RS.apply(s, seat, command, ctx)
    return [e for e, to in ctx.events if to is None]


def of(events: list[dict], t: str) -> list[dict]:
    return [e for e in events if e.get("t") == t]


def neutral_track(s: dict) -> dict:
    """Every Hearts and Minds marker in the neutral box: no 7.3.2/7.4.2 points, so that a test of
    22.4's other items sees only them."""
    s["hm"] = {a: "neutral" for a in s["hm"]}
    return s
