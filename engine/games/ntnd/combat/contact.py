"""No Trumpets No Drums, rule 19.1 (Combat occurs between face up units in adjacent hexes): what
is settled before the dice, as pure functions over combat.py's inputs.

  ``inverted_must_flip(contacts) -> bool``                  19.1.2 (one ``Contact`` per adjacent unit)
  ``automatic_eliminations(defenders) -> tuple[str, ...]``  13.3, 17.2, 18.6.1 (no die rolled)
  ``validate_battle(sit, attacked_before, defended_before)``  19.1, 19.1.1, 19.1.3; raises Rejection

The battle itself (19.2) is combat.py; battles.py calls both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ....errors import InternalValueError, Rejection
from .resolution import DUMMY, FLEET, GROUND, SAM, STAND_IN_ROLES, SUPPLY, CombatSituation, CombatUnit
from ....codes import Code

OPEN = "open"
ALL_SEA = "all_sea"
ALL_LAKE_CAMBODIA = "all_lake_cambodia"
NEUTRAL_BORDER = "neutral_border"


@dataclass(frozen=True)
class Contact:
    """An Allied ground combat unit adjacent to an inverted unit at the start of an Allied combat
    phase, and what separates them (19.1.2)."""
    separation: str = OPEN
    allied_attacks_across_border: bool = False


def inverted_must_flip(contacts: Iterable[Contact]) -> bool:
    """NTND 19.1.2: an inverted unit that begins an Allied combat phase adjacent to an Allied ground
    combat unit must be flipped face up (and may be attacked), unless every such contact is across
    an all-sea or (in Cambodia) all-lake hexside, or across a neutral border the Allied player does
    not wish to attack across. Pass one ``Contact`` per adjacent Allied ground combat unit."""
    for c in contacts:
        if c.separation == OPEN:
            return True
        if c.separation == NEUTRAL_BORDER and c.allied_attacks_across_border:
            return True
        if c.separation not in (ALL_SEA, ALL_LAKE_CAMBODIA, NEUTRAL_BORDER):
            raise InternalValueError(f"unknown separation {c.separation!r}")
    return False


def automatic_eliminations(defenders: Sequence[CombatUnit]) -> tuple[str, ...]:
    """Units eliminated when attacked without a die roll: a stack with no ground combat unit and no
    artillery/firebase/patrol boat (the units with a morale of their own) loses its SAMs (13.3
    "if alone in a hex and attacked they are eliminated"), supply units (18.6.1) and dummies
    (17.2: turned face up, they are eliminated; also whenever revealed). Returns their ids."""
    dummies = tuple(u.id for u in defenders if u.role == DUMMY)
    if any(u.role in (GROUND,) + STAND_IN_ROLES for u in defenders):
        return dummies
    return tuple(u.id for u in defenders if u.role in (SAM, SUPPLY, DUMMY))


def validate_battle(sit: CombatSituation, attacked_before: Iterable[str] = (),
                    defended_before: Iterable[str] = ()) -> None:
    """Refuse a battle the rules forbid (raises ``Rejection``):

    * 19.1 / 6.2.1: combat is between face-up units; inverted units do not attack (ambushes, 20,
      are the exception and do not come here);
    * one attacking side, the other defending; attackers able to attack (19.2.1: ground combat
      units, or artillery/firebase/patrol boat attacking alone; 28.9.5 a base may not attack);
    * 19.1.3: no unit attacks or is attacked more than once per combat phase;
    * 14.2.1: a hex held by the fleet alone is not attacked (the fleet moves out to sea).
    19.1.1 (all units of the defending hex defend) is the caller's: pass them all.
    """
    if not sit.attackers or not sit.defenders:
        raise Rejection(Code.NTND_COMBAT_EMPTY, "NTND 19.1: a battle needs attacking and defending units", rule="NTND 19.1")
    side = sit.attacker_side
    if any(u.side != side for u in sit.attackers) or any(u.side == side for u in sit.defenders):
        raise Rejection(Code.NTND_COMBAT_SIDES, "NTND 19.1: attackers are one player's units, defenders the other's", rule="NTND 19.1")
    for u in sit.attackers + sit.defenders:
        if not u.face_up:
            raise Rejection(Code.NTND_COMBAT_INVERTED, "NTND 19.1 / 6.2.1: only face-up units attack or are attacked", rule="NTND 19.1 / 6.2.1")
    if any(u.role not in (GROUND,) + STAND_IN_ROLES for u in sit.attackers):
        raise Rejection(Code.NTND_COMBAT_ATTACKER,
                        "NTND 19.2.1: only ground combat units attack (artillery, firebases and patrol boats alone)", rule="NTND 19.2.1")
    if any(u.is_ground_combat for u in sit.attackers) and any(not u.is_ground_combat for u in sit.attackers):
        raise Rejection(Code.NTND_COMBAT_ATTACKER,
                        "NTND 19.2.1: artillery/firebases/patrol boats attack only alone; otherwise they give fire support", rule="NTND 19.2.1")
    if all(u.role == FLEET for u in sit.defenders):
        raise Rejection(Code.NTND_COMBAT_FLEET, "NTND 14.2 / 14.2.1: the fleet is never affected by combat", rule="NTND 14.2 / 14.2.1")
    a_before, d_before = set(attacked_before), set(defended_before)
    for u in sit.attackers:
        if u.id in a_before:
            raise Rejection(Code.NTND_COMBAT_TWICE, f"NTND 19.1.3: {u.id} has already attacked this combat phase", rule="NTND 19.1.3")
    for u in sit.defenders:
        if u.id in d_before:
            raise Rejection(Code.NTND_COMBAT_TWICE, f"NTND 19.1.3: {u.id} has already been attacked this combat phase", rule="NTND 19.1.3")
