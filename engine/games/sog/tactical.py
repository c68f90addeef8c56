"""SOG 2.3-2.4 and the tactical actions the campaign calls for (3.1.1-3.1.3,
3.5, 3.7.2, 4.2.1). FIREPOWER itself is outside the text, so the engine does
what the rules ask of the players around it:

1. the action is called (event ``action-called``); with 4.1.3 the squad types
   are rolled;
2. when the text gives a seat the choice of map panel 2 or 3, that seat decides
   (``panel_choice``) and the North/South orientation is rolled (d10: 1-5 north
   edge to the north, 6-0 reversed: the project's reading of "random");
3. when two squads are present the Vietnamese player may add 1C (4.1.1,
   ``add_leader``);
4. the full description is published (event ``action``: scenario and page,
   panels, orientation, forces and compositions, roles, the 2.4 terrain rules);
5. the SOG player submits the outcome (``action_result``), the Vietnamese player
   confirms it or disputes it (``confirm_result``); a dispute is logged and the
   SOG player must submit a corrected outcome (the game waits; there is no
   umpire in the text). A confirmed outcome is applied: losses (3.8, 3.2.4),
   prisoners (3.1.3), eliminated squads' counters (4.1.2), VP (5.1).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from . import board, enemy, team as team_mod

# SOG 2.4: how each terrain of the Strategic Movement Map is represented on the FIREPOWER panels.
TERRAIN_RULES = {
    "clear": "Use all standard terrain values and heights. Buildings are of log construction.",
    "elephant_grass": ("All trees are height \"2\", offering \"-1\" concealment and no cover, becoming clear "
                       "terrain upon destruction. \"H\" weapons may be fired through them. Hills are height \"1\"; "
                       "depressions are \"-1\". Ignore all fences and hedges. Buildings are of bamboo construction."),
    "jungle": ("All dark green and light green hexes, as well as all tree hexes, are considered to be tree hexes. "
               "Brown hexes are mud hexes, but otherwise clear terrain. Ignore all fences and hedges. Buildings are "
               "of bamboo construction."),
    "mountain": ("Treat all hexes as rough. Ignore all walls, fences and hedges. Buildings are of log construction. "
                 "Hills are height \"4\"."),
    "broken": ("All dark green, as well as tree hexes, are considered to be tree hexes. Ignore all fences and "
               "hedges. Hills are height \"2\". Buildings are of log construction."),
}

# SOG 5.2: the FIREPOWER optional rules required or recommended for the campaign's actions.
OPTIONAL_RULES = {
    "required": ["16.7 Optional Weapon and Equipment", "24. Morale", "25. Prisoners"],
    "recommended": ["1. Grenade Return Throw", "16.2 Assorted Optional Firing Modifiers", "16.3 Weapon Reliability",
                    "16.4 Suppression by Non-Automatic Weapons", "16.6 Pinned and Inactive Status",
                    "16.8 Extra Major Personal Weapons", "16.9 Standing Behind \"2\" Height Cover", "21. Fires",
                    "22. Individual Personal Characteristics (for SOG Team)", "23. Wounds and Cover"],
}

# The three FIREPOWER scenarios the campaign uses.
SCENARIOS = {
    "meeting": {"scenario": "Meeting Engagement", "page": 42},
    "ambush": {"scenario": "Ambush (Scenario Three)", "page": 45},
    "base_camp": {"scenario": "Base Camp Assault (Scenario Five, A.I)", "page": 46},
}


def spec(kind: str, cause: str, square: str, squads: list[str], counters: list[int], *, sog_role: str,
         nva_role: str, panel_by: str | None, panels: str, entry: str, notes: list[str],
         mission: bool = False) -> dict:
    """An action to be fought (canonical data, queued in the state)."""
    sc = SCENARIOS[kind]
    return {"kind": kind, "scenario": sc["scenario"], "page": sc["page"], "cause": cause, "square": square,
            "squads": list(squads), "counters": list(counters), "sog_role": sog_role, "nva_role": nva_role,
            "panel_by": panel_by, "panels": panels, "entry": entry, "notes": list(notes), "mission": mission}


def start(s: dict, sp: dict, ctx) -> None:
    """Step 1: call the action and ask for the first decision it needs."""
    s["actions_fought"] += 1
    a = dict(sp)
    a.update({"id": s["actions_fought"], "stage": "", "panel": None, "orientation": None,
              "squad_types": [], "leader_squad": 0, "result": None, "disputes": 0})
    ctx.emit({"t": "action-called", "id": a["id"], "scenario": a["scenario"], "page": a["page"],
              "square": a["square"], "cause": a["cause"]})
    a["squad_types"] = enemy.squad_types(ctx, a["squads"], s["options"]["random_squads"])
    s["action"] = a
    if a["panel_by"] is not None:
        a["stage"] = "panel"
    else:
        _after_panel(s, ctx)


def choose_panel(s: dict, panel: int, ctx) -> None:
    a = s["action"]
    if panel not in (2, 3):
        raise Rejection(Code.ILLEGAL_PANEL, "SOG 3.1.1/3.5/4.2.1: the Ambush is fought on map panel 2 or 3", rule="SOG 3.1.1/3.5/4.2.1")
    a["panel"] = panel
    r = ctx.roll("d10", "SOG 3.1.1 North/South orientation").result
    a["orientation"] = "north edge to the north" if r <= 5 else "north edge to the south"
    _after_panel(s, ctx)


def _after_panel(s: dict, ctx) -> None:
    a = s["action"]
    if len(a["squad_types"]) == 2:  # SOG 4.1.1
        a["stage"] = "leader"
    else:
        _describe(s, ctx)


def add_leader(s: dict, squad: int, ctx) -> None:
    a = s["action"]
    if not 0 <= squad <= len(a["squad_types"]):
        raise Rejection(Code.ILLEGAL_LEADER, "SOG 4.1.1: 1C may be added to one of the two squads (1 or 2), or none (0)", rule="SOG 4.1.1")
    a["leader_squad"] = squad
    _describe(s, ctx)


def forces(s: dict) -> dict:
    a = s["action"]
    squads = [enemy.composition(t, leader=(i + 1 == a["leader_squad"])) for i, t in enumerate(a["squad_types"])]
    for i, sq in enumerate(squads):
        sq["number"] = i + 1
        sq["counter"] = a["counters"][i] if i < len(a["counters"]) else None
    t = s["team"]
    sog = {"members": {k: {"american": m["american"], "rank": m["rank"], "weapon": m["weapon"],
                           "items": dict(m["items"])} for k, m in t["members"].items()},
           "impulse_action": f"{t['impulse']}/{t['action']}", "prisoners": t["prisoners"]}
    return {"sog": sog, "nva": squads}


def _describe(s: dict, ctx) -> None:
    """Step 4: everything the players need to set up the FIREPOWER action."""
    a = s["action"]
    terrain = board.TERRAIN[a["square"]]
    panels = a["panels"]
    if a["panel"] is not None:
        panels = f"map panel {a['panel']} ({a['panel_by']} chose), {a['orientation']}"
    ctx.emit({"t": "action", "id": a["id"], "scenario": a["scenario"], "page": a["page"], "cause": a["cause"],
              "square": a["square"], "terrain": terrain, "terrain_rules": TERRAIN_RULES[terrain],
              "panels": panels, "orientation": a["orientation"], "entry": a["entry"],
              "roles": {"sog": a["sog_role"], "nva": a["nva_role"]}, "forces": forces(s), "notes": a["notes"],
              "optional_rules": {k: list(v) for k, v in OPTIONAL_RULES.items()}, "rule": "SOG 2.3, 2.4, 5.2"})
    a["stage"] = "result"


# ---------------------------------------------------------------------------
# Step 5: the outcome.
def result_from_command(s: dict, r) -> dict:
    """Validate a SogActionResult against the team and the action (SOG 3.2.4, 3.8, 4.1.2)."""
    a = s["action"]
    members = s["team"]["members"]
    cas = list(r.casualties)
    if len(set(cas)) != len(cas) or any(c not in members for c in cas):
        raise Rejection(Code.ILLEGAL_RESULT, "SOG 3.8: casualties are distinct letters of current team members", rule="SOG 3.8")
    held = {k: team_mod.holdings(m) for k, m in members.items()}
    lost = []
    for it in r.lost_equipment:
        if it.letter not in held or it.count < 1 or held[it.letter].get(it.code, 0) < it.count:
            raise Rejection(Code.ILLEGAL_RESULT, f"SOG 3.2.4: member {team_mod.shown(it.letter)} does not carry {it.count} x {team_mod.shown(it.code)}", rule="SOG 3.2.4")
        held[it.letter][it.code] -= it.count
        lost.append([it.letter, it.code, it.count])
    rec = []
    for it in r.recovered:
        if it.from_letter not in cas:
            raise Rejection(Code.ILLEGAL_RESULT, "SOG 3.2.4: only a lost member's items are recovered", rule="SOG 3.2.4")
        if it.to_letter not in members or it.to_letter in cas:
            raise Rejection(Code.ILLEGAL_RESULT, "SOG 3.2.4: recovered items go to a surviving team member", rule="SOG 3.2.4")
        if it.count < 1 or held[it.from_letter].get(it.code, 0) < it.count:
            raise Rejection(Code.ILLEGAL_RESULT, f"SOG 3.2.4: member {it.from_letter} did not carry {it.count} x {team_mod.shown(it.code)}", rule="SOG 3.2.4")
        held[it.from_letter][it.code] -= it.count
        rec.append([it.from_letter, it.to_letter, it.code, it.count])
    enemy_men = _enemy_men(a)
    if r.prisoners_taken > enemy_men:
        raise Rejection(Code.ILLEGAL_RESULT, f"SOG 3.1.3: at most {enemy_men} prisoners can be taken in this action", rule="SOG 3.1.3")
    if r.prisoners_lost > s["team"]["prisoners"] + r.prisoners_taken:
        raise Rejection(Code.ILLEGAL_RESULT, "SOG 3.1.3: the team cannot lose more prisoners than it holds", rule="SOG 3.1.3")
    elim = list(r.squads_eliminated)
    if len(set(elim)) != len(elim) or any(not 1 <= n <= len(a["squad_types"]) for n in elim):
        raise Rejection(Code.ILLEGAL_RESULT, f"SOG 4.1.2: squads are numbered 1 to {len(a['squad_types'])}, each once", rule="SOG 4.1.2")
    return {"casualties": cas, "lost_equipment": lost, "recovered": rec, "prisoners_taken": r.prisoners_taken,
            "prisoners_lost": r.prisoners_lost, "squads_eliminated": sorted(elim), "sog_vp": r.sog_vp,
            "nva_vp": r.nva_vp}


def result_space(s: dict) -> dict:
    """What an outcome may name (validated by ``result_from_command``): the members (and what
    each carries), the squads, the most prisoners the action can yield, the prisoners held."""
    a = s["action"]
    members = s["team"]["members"]
    return {"members": {k: team_mod.holdings(m) for k, m in members.items()},
            "squads": len(a["squad_types"]), "max_prisoners_taken": _enemy_men(a),
            "prisoners_held": s["team"]["prisoners"]}


def _enemy_men(a: dict) -> int:
    return sum(enemy.SQUADS[t]["men"] for t in a["squad_types"]) + (1 if a["leader_squad"] else 0)


def submit(s: dict, result: dict, ctx) -> None:
    a = s["action"]
    a["result"] = result
    a["stage"] = "confirm"
    ctx.emit({"t": "action-result", "id": a["id"], "result": result})


def dispute(s: dict, reason: str, ctx) -> None:
    a = s["action"]
    a["disputes"] += 1
    ctx.emit({"t": "action-result-disputed", "id": a["id"], "reason": reason[:500], "disputes": a["disputes"]})
    a["result"] = None
    a["stage"] = "result"


def confirm(s: dict, ctx) -> None:
    """Apply a confirmed outcome: SOG 3.8, 3.2.4, 3.1.3, 4.1.2, 5.1."""
    a = s["action"]
    r = a["result"]
    t = s["team"]
    team_mod.apply_losses(t, r["casualties"], [tuple(x) for x in r["lost_equipment"]],
                          [tuple(x) for x in r["recovered"]])
    t["prisoners"] += r["prisoners_taken"] - r["prisoners_lost"]
    s["vp"]["sog"] += r["sog_vp"]
    s["vp"]["nva"] += r["nva_vp"]
    for n in r["squads_eliminated"]:
        if n <= len(a["counters"]):
            c = a["counters"][n - 1]
            if any(x["n"] == c for x in s["vc"]):
                enemy.remove(s, c, ctx, "SOG 4.1.2")
    ctx.emit({"t": "action-resolved", "id": a["id"], "team": sorted(t["members"]), "prisoners": t["prisoners"],
              "vp": dict(s["vp"]), "rule": "SOG 3.8, 5.1"})
    s["action"] = None
    if not t["members"]:  # SOG 3.8
        s["over"] = {"winner": "nva", "reason": "SOG 3.8: the entire SOG team was eliminated", "vp": dict(s["vp"])}
        s["queue"] = []
        ctx.emit({"t": "team-eliminated", "rule": "SOG 3.8"})
