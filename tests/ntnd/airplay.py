"""Air war positions for the NTND air tests (11, 12, 28.1): a campaign state from the game's own set-up,
at a phase entered by the game's own flow (campaign_states.at_phase), missions flown by answering the
pending decision through the ruleset (``fly``), dice forced with ``faces``."""
from __future__ import annotations

from afteraction.engine.games.ntnd.sequence.kinds import cmd
from afteraction.engine.games.ntnd.sequence.turns import turn_label

from .campaign_states import RS, answer, at_phase, camp, clear_communists, free, of, put  # noqa: F401


def air_camp(turn: int = 1, scenario: str = "campaign") -> dict:
    """A campaign state at ``turn`` (the full campaign for later turns) with no Communist units."""
    s = camp(scenario, turn)
    s["turn_label"] = turn_label(s["scenario"]["turns"], turn)
    clear_communists(s)
    return s


def ready(s: dict, uid: str) -> str:
    """An Allied air unit in the Available box (11.2: in play, not flown)."""
    s["units"][uid].update(status="air", loc=None)
    s["air"]["flew"].pop(uid, None)
    return uid


def commie(s: dict, type_id: str, loc: str) -> str:
    return put(s, free(s, type_id), loc)


def fly_cmd(kind: str, target: str, air: list[str]):
    return cmd("fly", mission=kind, target=target, air=list(air))


def fly(s: dict, kind: str, target: str, air: list[str], faces: list[int] | None = None) -> list[dict]:
    return answer(s, "allied", fly_cmd(kind, target, air), faces)


def kinds(s: dict, seat: str) -> list[str]:
    return sorted({c.ntnd.WhichOneof("action") for c in RS.legal_commands(s, seat)})


def rejected(s: dict, command, seat: str = "allied") -> str:
    """The code of a refused command (the state is unchanged: applied to a copy)."""
    from afteraction.engine.errors import Rejection
    from afteraction.engine.ruleset import Context
    try:
        RS.apply(RS.copy_state(s), seat, command, Context.for_tests())
    except Rejection as e:
        return e.code
    raise AssertionError(f"accepted: {command}")
