"""SOG 2.2 (movement on the Strategic Movement Map) and 3.5-3.5.3 (Enemy Contact)."""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from . import board, enemy, tactical, team as team_mod

# SOG 3.5.1: terrain modifiers to the Enemy Contact roll.
TERRAIN_DRM = {"clear": 3, "elephant_grass": -1, "jungle": -2, "mountain": 2, "broken": 1}


def destination(s: dict, name: str) -> str:
    """SOG 2.2 / 3.5: one square in any direction (or none: 2.2 says "no more than
    one square per turn"), and the team stays on the map."""
    rc = board.parse(name)
    if rc is None:
        raise Rejection(Code.ILLEGAL_MOVE, "SOG 2.2: the team counter must remain on the Strategic Movement Map "
                        "(squares 1-A to 10-J)", rule="SOG 2.2")
    sq = board.square(*rc)
    here = s["team_at"]
    if sq != here and not board.adjacent(here, sq):
        raise Rejection(Code.ILLEGAL_MOVE, "SOG 3.5 allows one square per turn", rule="SOG 3.5")
    return sq


def legal_destinations(s: dict) -> list[str]:
    return [s["team_at"], *board.neighbours(s["team_at"])]


def group_drm(men: int) -> int:
    """SOG 3.5.1: -1 for each (whole) group of three less than 12 in the team."""
    return -(max(0, 12 - men) // 3)


def contact_drm(s: dict, sq: str) -> dict:
    """SOG 3.5.1: all modifiers, cumulative, with their parts (for the event)."""
    parts = {"vc_counters": len(enemy.counters_in(s, sq)),
             "team_size": group_drm(team_mod.size(s["team"])),
             "terrain": TERRAIN_DRM[board.TERRAIN[sq]]}
    parts["total"] = parts["vc_counters"] + parts["team_size"] + parts["terrain"]
    return parts


def contact_result(modified: int) -> str:
    """The Enemy Contact table, a modified roll clamped to 1..10 (0 = 10)."""
    m = min(10, max(1, modified))
    if m <= 5:
        return "none"
    if m <= 7:
        return "evaded"
    if m <= 9:
        return "contacted"
    return "ambush"


def contact_possible(s: dict, sq: str) -> bool:
    """SOG 3.5.2: with ten counters on the map (and 3.5.3 not in use) the roll is
    suspended unless the square entered holds a VC counter."""
    return enemy.pool_available(s) or bool(enemy.counters_in(s, sq))


def roll_contact(s: dict, sq: str, ctx, rule: str = "SOG 3.5") -> tuple[str, int | None, dict | None]:
    """Roll on the Enemy Contact table for the team's square: (result, the VC counter
    standing for the squad if any, the action spec or None)."""
    drm = contact_drm(s, sq)
    r = ctx.roll("d10", rule).result
    result = contact_result(r + drm["total"])
    ctx.emit({"t": "contact", "square": sq, "roll": r, "drm": drm, "modified": r + drm["total"],
              "result": result, "rule": "SOG 3.5, 3.5.1"})
    if result == "none":
        return result, None, None
    enemy.place(s, sq, ctx)
    here = enemy.counters_in(s, sq)
    counter = here[0] if here else None
    counters = [counter] if counter is not None else []
    if result == "evaded":
        return result, counter, None
    if result == "contacted":
        return result, counter, tactical.spec(
            "meeting", "SOG 3.5 Enemy Contact 8-9: One Patrol Contacted", sq, ["vc"], counters,
            sog_role="Side A", nva_role="Side B", panel_by=None,
            panels="as the Meeting Engagement scenario (page 42) specifies",
            entry="as the Meeting Engagement scenario specifies",
            notes=["Victory Condition #1 is in effect, never #2 regardless of the presence of buildings (SOG 3.5)."])
    return result, counter, contact_ambush(sq, counters, "SOG 3.5 Enemy Contact 0: Ambush")


def contact_ambush(sq: str, counters: list[int], cause: str) -> dict:
    """SOG 3.5 result 0: one NVA squad defends (and picks panel 2 or 3), the team enters from the south."""
    return tactical.spec("ambush", cause, sq, ["nva"], counters, sog_role="attacker (enters from the south)",
                         nva_role="defender", panel_by="nva",
                         panels="map panel 2 or 3 (the NVA defender's choice)",
                         entry="the SOG Team enters the map from the south", notes=[])
