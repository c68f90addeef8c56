"""No Trumpets No Drums rule 13: firebases and artillery.

13.1   Allied firebases are immobile (movement class "immobile"); one U.S. and one ARVN/SEATO firebase
       may be repositioned in each reinforcement phase (corps.relocate_options / relocate, rule 5.8);
       eliminated if forced to retreat (retreat.retreat_plan, 19.3.7).
13.1.1 / 13.2.1 / 14.1 / 14.2 fire support: ``supporters`` measures every fire support unit's distance
       to the hex under attack at the instant of combat (combat.fire_support applies the ranges).
13.1.2 a firebase left without ground units is eliminated when the Communist units advance into its
       hex (retreat.advance_rule, aftermath.apply_advance).
13.1.3 / 13.2.1 alone in a hex: defensive morale 1 (combat.current_morale).
13.2   Communist artillery moves as Communist ground units and retreats with its stack (aftermath._plan).
13.3   SAMs (combat_checks.automatic_eliminations, combat.loss_requirement).
13.4   supply of fire support: only in the unit's own turn (``supporters``: supplied=...).
"""
from __future__ import annotations

from ..combat import resolution as cb
from ..components.map import load_map
from ..components.state import COMMUNIST
from ..supply.lines import communist_supply_trace
from ..components.pieces import load_counters


def supporters(s: dict, side: str, target: str, exclude: set, own_turn: bool) -> tuple[cb.FireSupporter, ...]:
    """19.2.2 fire support units of ``side`` within range of the hex under attack (13.1.1, 13.2.1,
    14.1, 14.2), with their distance; Communist artillery in its own turn must trace supply (13.4,
    18.3). Zones have no distances: no fire support there."""
    m = load_map()
    if m.is_zone(target):
        return ()
    counters = load_counters()
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side or uid in exclude or m.is_zone(u["loc"]):
            continue
        t = counters.type(u["type"])
        role = "fleet" if t.id == "us_fleet" else t.stacking_class
        if role not in cb.FIRE_SUPPORT_RANGE:
            continue
        d = m.distance(u["loc"], target)
        if d > cb.FIRE_SUPPORT_RANGE[role]:
            continue
        supplied = True
        if own_turn and side == COMMUNIST:
            supplied = communist_supply_trace(s, u)[0]  # 13.4 / 18.3
        out.append(cb.FireSupporter(uid, role, d, supplied=supplied, face_up=not u["inv"]))
    return tuple(out)
