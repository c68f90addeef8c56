"""No Trumpets No Drums rule 17: dummy counters.

17.1 In the recruitment phase every dummy in the counter mix may be placed, inverted, wherever a
     guerrilla unit of any country could be placed (placement.cadre_hexes(s, None), less 7.3.4's closed areas, recruitment.place_options); each
     goes into its own marker, committed to the Communist seat like any inverted unit.
17.2 Dummies move as inverted guerrillas (movement: 1 MP a hex, 10 MP, not bound to a country); they
     have no combat value (combat_checks.automatic_eliminations, ambush.AmbushSituation.fighting_ambushers);
     turned face up they are eliminated and go back to the mix with no points (``remove_revealed``,
     called by operations.flip_marker; politics.eliminate scores nothing for them).
"""
from __future__ import annotations

DUMMY = "communist_dummy"


def is_dummy(u: dict) -> bool:
    return u["type"] == DUMMY


def remove_revealed(s: dict, uid: str, ctx) -> None:
    """17.2: a dummy turned face up is eliminated and returns to the counter mix; no points."""
    u = s["units"][uid]
    u.update(status="mix", loc=None, inv=False, mk=None)
    ctx.emit({"t": "dummy-removed", "unit": uid, "rule": "NTND 17.2"})
