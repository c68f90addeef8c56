"""SOG 3, 3.1-3.1.3 and 3.2-3.3: the mission objective, the team organised and the Target placed,
and the action fought at the target."""
from __future__ import annotations

from . import insertion, tactical

OBJECTIVES = ("trail", "sanctuary", "snatch")
OBJECTIVE_NAMES = {"trail": "Trail Interdiction", "sanctuary": "Sanctuary Interdiction", "snatch": "Prisoner Snatch"}


def objective_of(d10: int) -> str:
    """SOG 3.1: 1-4 Trail Interdiction, 5-8 Sanctuary Interdiction, 9-0 Prisoner Snatch."""
    if d10 <= 4:
        return "trail"
    if d10 <= 8:
        return "sanctuary"
    return "snatch"


def roll_objective(s: dict, ctx) -> None:
    r = ctx.roll("d10", "SOG 3.1").result
    s["objective"] = objective_of(r)
    ctx.emit({"t": "objective", "objective": s["objective"], "name": OBJECTIVE_NAMES[s["objective"]],
              "rule": "SOG 3.1"})


def organise(s: dict, team: dict, ctx) -> None:
    """SOG 3.2-3.3: the team organised (checked by team.team_from_command), then the Target placed."""
    s["team"] = team
    ctx.emit({"t": "team-organised", "team": s["team"], "rule": "SOG 3.2"})
    insertion.place_target(s, ctx)  # SOG 3.3
    s["phase"] = "insertion"


def ambush_at_target(square: str, cause: str) -> dict:
    """SOG 3.1.1: Scenario Three, SOG Team defending, one VC and one NVA squad entering from the north;
    the American player chooses panel 2 or 3, orientation rolled."""
    return tactical.spec("ambush", cause, square, ["vc", "nva"], [], sog_role="defender", nva_role="attacker",
                         panel_by="sog", panels="map panel 2 or 3 (American player's choice)",
                         entry="the Vietnamese squads enter the map from the north",
                         notes=["Victory Points are awarded normally (SOG 3.1.1)."], mission=True)


def base_camp_at_target(square: str, cause: str) -> dict:
    """SOG 3.1.2: Scenario Five (A.I), SOG Team attacking two VC squads; no fortifications."""
    return tactical.spec("base_camp", cause, square, ["vc", "vc"], [], sog_role="attacker", nva_role="defender",
                         panel_by=None,
                         panels="three map panels placed by the Vietnamese player in any configuration shown "
                                "under Scenario Five (A.I, page 46)",
                         entry="as Scenario Five",
                         notes=["The Vietnamese player may place no fortifications (SOG 3.1.2).",
                                "Victory Points are awarded normally (SOG 3.1.2)."], mission=True)


def target_action(s: dict, square: str, ctx) -> dict:
    """SOG 3.6.1: the action of the mission profile, fought when the target is located."""
    obj = s["objective"]
    if obj == "trail":
        return ambush_at_target(square, "SOG 3.1.1 Trail Interdiction at the target")
    if obj == "sanctuary":
        return base_camp_at_target(square, "SOG 3.1.2 Sanctuary Interdiction at the target")
    # SOG 3.1.3: one d10; 1-5 Ambush, 6-0 Base Camp Assault; the team tries to take prisoners.
    r = ctx.roll("d10", "SOG 3.1.3").result
    note = "Prisoner Snatch: take one or more prisoners; +10 VP if one is still held on exiting (SOG 3.1.3, 5.1.1)."
    if r <= 5:
        sp = ambush_at_target(square, "SOG 3.1.3 Prisoner Snatch (1-5: Ambush)")
    else:
        sp = base_camp_at_target(square, "SOG 3.1.3 Prisoner Snatch (6-0: Base Camp Assault)")
    sp["notes"].append(note)
    return sp
