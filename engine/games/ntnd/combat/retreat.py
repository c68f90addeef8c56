"""No Trumpets No Drums, rules 19.3 (Retreats) and 19.4 (Advance after combat): pure functions.

Moved out of combat.py, which re-exports every public name here (``combat.retreat_plan`` keeps
working for its callers). Inputs are combat.py's frozen ``CombatResult``/``CombatUnit``; nothing
here reads or writes game state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ....errors import InternalValueError
from .resolution import (
    ALLIED,
    BASE,
    COMMUNIST,
    DUMMY,
    FIREBASE,
    FLEET,
    PATROL_BOAT,
    CombatResult,
    CombatUnit,
    counted_units,
    other,
)


@dataclass(frozen=True)
class RetreatPlan:
    """What happens to one side's surviving units (19.2.6, 19.3): ``mode`` "must"/"may"/"none";
    ``retreat``: units that (must/may) retreat one hex, each to a destination the owner picks
    (``retreat_verdict``); ``eliminated``/``stay``: (unit, rule) pairs."""
    side: str
    mode: str
    retreat: tuple[str, ...]
    eliminated: tuple[tuple[str, str], ...] = ()
    stay: tuple[tuple[str, str], ...] = ()


def retreat_plan(result: CombatResult, side: str, survivors: Sequence[CombatUnit]) -> RetreatPlan:
    """NTND 19.2.6 / 19.3 for ``side``'s units left after its losses (for the defender: every unit
    still in the hex, incl. artillery, SAM and supply units, as in the 19.2.6 example).

    * the loser "must" retreat (all its other units); on a tie each side "may" (defender first);
    * units in zones never retreat (19.3.9); the fleet is never affected by combat (14.2);
    * firebases (19.3.7, 13.1) and Green Berets/Phoenix (15.2.3.1) are eliminated if forced to
      retreat, and stay put on a "may"; a firebase whose ground units were all eliminated stays and
      is eliminated only if the enemy advances into its hex (13.1.2: the rule for that case; see the
      reading in docs/rules/ntnd.md);
    * patrol boats that lost retreat rather than die (14.1.2), also in an exchange when they
      fought alone;
    * a VC base in the stack negates a retreat the Communist units would suffer (28.9.5; a tie's
      voluntary retreat stays open).
    """
    modes = dict(result.retreat_order)
    mode = modes.get(side, "none")
    mine = [u for u in survivors if u.side == side]
    if mode == "must" and side == COMMUNIST and any(u.role == BASE for u in mine):
        return RetreatPlan(side, "none", (), (), tuple((u.id, "NTND 28.9.5") for u in mine))
    if mode == "may" and mine and all(u.role == PATROL_BOAT for u in counted_units(mine)) \
            and not any(u.is_ground_combat for u in mine):
        mode = "must"  # 14.1.2: "the boat would retreat" in an exchange
    if mode == "none":
        return RetreatPlan(side, mode, ())
    retreat: list[str] = []
    elim: list[tuple[str, str]] = []
    stay: list[tuple[str, str]] = []
    for u in mine:
        if u.role == FLEET:
            stay.append((u.id, "NTND 14.2"))
        elif u.in_zone:
            stay.append((u.id, "NTND 19.3.9"))
        elif u.role == FIREBASE and mode == "must" and not any(x.is_ground_combat for x in mine):
            stay.append((u.id, "NTND 13.1.2"))   # its ground units all eliminated: dies if the enemy advances
        elif u.role == FIREBASE:
            (elim if mode == "must" else stay).append((u.id, "NTND 19.3.7"))
        elif u.green_beret:
            (elim if mode == "must" else stay).append((u.id, "NTND 15.2.3.1"))
        elif u.role == DUMMY:
            elim.append((u.id, "NTND 17.2"))
        elif u.role == BASE:
            stay.append((u.id, "NTND 28.9.1"))   # immobile: never retreats, not even on a tie's "may"
        else:
            retreat.append(u.id)
    return RetreatPlan(side, mode, tuple(retreat), tuple(elim), tuple(stay))


HEX = "hex"
ZONE = "zone"
TO_FLEET = "fleet"
AIRMOBILE_CITY = "airmobile_city"


@dataclass(frozen=True)
class RetreatOption:
    """One proposed retreat destination for one unit (facts the rules code reads off the map)."""
    kind: str = HEX                 # HEX, ZONE (19.3.9), TO_FLEET (19.3.4, 8.7), AIRMOBILE_CITY (19.3.5)
    adjacent: bool = True           # adjacent to the hex the unit occupied during combat
    enemy_units: bool = False       # enemy units in it
    prohibited: bool = False        # prohibited to its type (ground units into all-sea, 19.3)
    under_attack: bool = False      # a hex also under attack this combat phase (19.3.8)
    overstacked: bool = False       # entering exceeds the stacking limit (19.3.2)
    crosses_border: bool = False    # into another country (19.3.3)
    coastal_origin: bool = False    # TO_FLEET: retreating from a coastal hex
    fleet_used: int = 0             # TO_FLEET: units already retreated to the fleet this turn
    friendly_city_in_range: bool = False  # AIRMOBILE_CITY: friendly-occupied city/town within range


@dataclass(frozen=True)
class RetreatVerdict:
    legal: bool
    rule: str
    invert: bool = False               # 19.3.8: flipped upside down, no effect on that combat
    eliminate_overstack: bool = False  # 19.3.2: owner eliminates the units in violation
    must_leave_country: bool = False   # 19.3.3 / 8.9.1: leave in the next movement phase


def retreat_verdict(unit: CombatUnit, opt: RetreatOption) -> RetreatVerdict:
    """NTND 19.3: is this a legal retreat for ``unit`` and what follows from it.

    19.3 adjacent hex free of enemy units, not prohibited to its type; 19.3.1 a stack may split
    (one verdict per unit); 19.3.2 overstacking: eliminate the excess; 19.3.3 crossing a border
    violates no neutrality but the unit must leave next movement phase; 19.3.4 up to two Allied
    units a turn from coastal hexes onto the fleet (8.7); 19.3.5 Allied airmobile units may retreat
    to a friendly-occupied city/town within range instead; 19.3.8 into a hex under attack: flipped
    upside down. 19.3.6: a unit with no legal destination is eliminated (the caller decides that
    no option is legal). 19.3.9: units in zones never retreat (``retreat_plan``).
    """
    if unit.in_zone:
        return RetreatVerdict(False, "NTND 19.3.9")
    if opt.kind == TO_FLEET:
        ok = (unit.side == ALLIED and unit.role != FIREBASE and opt.coastal_origin and opt.fleet_used < 2)
        return RetreatVerdict(ok, "NTND 19.3.4")
    if opt.kind == AIRMOBILE_CITY:
        ok = (unit.side == ALLIED and unit.airmobile and opt.friendly_city_in_range and not opt.enemy_units)
        return RetreatVerdict(ok, "NTND 19.3.5", eliminate_overstack=ok and opt.overstacked)
    if opt.kind not in (HEX, ZONE):
        raise InternalValueError(f"unknown retreat kind {opt.kind!r}")
    if not opt.adjacent or opt.enemy_units or opt.prohibited:
        return RetreatVerdict(False, "NTND 19.3")
    return RetreatVerdict(True, "NTND 19.3.8" if opt.under_attack else "NTND 19.3", invert=opt.under_attack,
                          eliminate_overstack=opt.overstacked, must_leave_country=opt.crosses_border)


def unable_to_retreat(verdicts: Iterable[RetreatVerdict]) -> bool:
    """NTND 19.3.6: "Units that are unable to retreat are eliminated": True when no verdict of the
    unit's possible destinations is legal (13.2: Communist artillery left alone likewise)."""
    return not any(v.legal for v in verdicts)


@dataclass(frozen=True)
class AdvanceRule:
    """NTND 19.4: whether the attacker may advance into the attacked hex, with which units."""
    allowed: bool
    eligible: tuple[str, ...] = ()
    eliminated_on_entry: tuple[str, ...] = ()   # 13.1.2 firebases left without ground units
    displaced: tuple[str, ...] = ()             # 14.2.1 the fleet moves one hex out to sea
    rule: str = "NTND 19.4"


def advance_rule(result: CombatResult, attackers: Sequence[CombatUnit], remaining_defenders: Sequence[CombatUnit],
                 attacker_retreated: bool) -> AdvanceRule:
    """NTND 19.4: the victorious player or, on a tie, the player who does not retreat may advance into
    the attacked hex if it is vacant of enemy units: any number of the surviving mobile attackers
    (not militia without Green Beret supervision, not firebases) up to the stacking limits, never
    into prohibited hexes (both checked by the caller). A firebase whose ground units were all
    eliminated does not keep the attacker out: it is eliminated when he enters (13.1.2); the fleet
    moves out to sea (14.2.1). The defender never "advances" into his own hex."""
    a_side = result.attacker.side
    if result.winner == other(a_side) or (result.winner is None and attacker_retreated):
        return AdvanceRule(False)
    left = [u for u in remaining_defenders if u.side != a_side]
    blockers = [u for u in left if u.role not in (FIREBASE, FLEET)]
    if blockers:
        return AdvanceRule(False)
    eligible = tuple(u.id for u in attackers if u.side == a_side and u.mobile and not u.in_zone)
    return AdvanceRule(bool(eligible), eligible,
                       tuple(u.id for u in left if u.role == FIREBASE),
                       tuple(u.id for u in left if u.role == FLEET), "NTND 19.4")
