"""No Trumpets No Drums, special units as they modify combat: 28.7 VC Sappers, 28.8 NVA Armor Shock.

Pure functions; combat.py (``resolve``) and ambush.py call the two combat hooks themselves, so the
rules code only has to keep the armor shock turn in its state.

Entry points
------------
  ``sapper_cancels_terrain(attackers, defender_side) -> bool``   28.7.2 (used by combat.resolve)
  ``armor_shock_available(scenario_start_year, campaign, shock_turn) -> bool``   28.8
  ``armor_shock_trigger(shock_turn, current_turn, attackers, *, scenario_start_year, campaign,
                        declare=False) -> int | None``   28.8: the new value of the state's shock turn
  ``armor_shock_active(shock_turn, current_turn) -> bool``  28.8: put into CombatSituation.armor_shock
  ``armor_shock_bonus(attackers, active) -> int``   28.8: +1 if active and a tank attacks (used by resolve)

28.7.1 (sappers are built like VC regiments, 6.1.2) is the rules code's promotion step; a sapper
otherwise acts as a VC regiment (its counters.json morale and flags).
"""
from __future__ import annotations

from typing import Iterable, Protocol

from ..components.state import ALLIED, COMMUNIST


class Fighter(Protocol):
    """What these rules read of a unit in a battle (combat.CombatUnit has it; combat.py imports
    this module, this module imports nothing of combat: no import cycle)."""
    side: str
    face_up: bool
    sapper: bool
    armor: bool


#: 28.8 "This rule can be used only in scenarios starting in 1965, 1966, 1967 or 1968."
ARMOR_SHOCK_YEARS = (1965, 1966, 1967, 1968)


def sapper_cancels_terrain(attackers: Iterable[Fighter], defender_side: str) -> bool:
    """NTND 28.7.2: if a Communist force that includes a sapper attacks Allied units, the Allied
    defensive terrain modifier (including towns/cities) is not received. One sapper suffices and no
    more than one applies ("no more than one sapper may apply this bonus per attack"), so a second
    sapper adds nothing. Sappers "have no additional effect on defense": only attackers count.

    Project reading: the whole 19.2.3 Terrain Effects Chart modifier is cancelled, the river rows
    ("All attackers on: river") included, since the text calls it the defensive terrain modifier.
    """
    if defender_side != ALLIED:
        return False
    return any(u.sapper and u.side == COMMUNIST and u.face_up for u in attackers)


def armor_shock_available(scenario_start_year: int, campaign: bool, shock_turn: int | None) -> bool:
    """NTND 28.8: usable only in scenarios starting in 1965-1968; in the Campaign Game the Communists
    may declare it once per game. ``shock_turn`` is the turn it was used (None: not yet)."""
    if shock_turn is not None:
        return False
    return campaign or scenario_start_year in ARMOR_SHOCK_YEARS


def armor_shock_trigger(shock_turn: int | None, current_turn: int, attackers: Iterable[Fighter], *,
                        scenario_start_year: int, campaign: bool, declare: bool = False) -> int | None:
    """NTND 28.8: the state's armor shock turn after a Communist attack by ``attackers`` on
    ``current_turn``. In a scenario (starting 1965-1968) the shock turn is "the first turn that the
    Communists use a Tank Regiment to make an attack", automatically; in the Campaign Game the
    Communist player declares it (``declare``) once per game, on a turn a tank attacks.
    Call it before resolving each Communist attack, then use ``armor_shock_active``."""
    if shock_turn is not None:
        return shock_turn
    if not armor_shock_available(scenario_start_year, campaign, shock_turn):
        return None
    tank = any(u.armor and u.side == COMMUNIST for u in attackers)
    if not tank:
        return None
    if campaign and not declare:
        return None
    return current_turn


def armor_shock_active(shock_turn: int | None, current_turn: int) -> bool:
    """NTND 28.8: "This applies only to that one turn" (the game turn, both player turns)."""
    return shock_turn is not None and shock_turn == current_turn


def armor_shock_bonus(attackers: Iterable[Fighter], *, active: bool) -> int:
    """NTND 28.8: on the shock turn "all Communist attacks which involve at least one Tank unit gain
    an additional +1 combat modifier". Defending tanks gain nothing."""
    if not active:
        return 0
    return 1 if any(u.armor and u.side == COMMUNIST for u in attackers) else 0
