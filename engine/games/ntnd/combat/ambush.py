"""No Trumpets No Drums, rule 20 (Ambushes): pure functions on combat.py's inputs.

During the Allied movement phase, when an Allied ground unit moves adjacent to an inverted
Communist unit, the Communist player may declare an ambush (20.1, 20.2): the Allied unit stops,
the ambushers flip face up, and an immediate combat is fought with 20.4's exceptions.

Entry points (for battles.py)
---------------------------
  ``AmbushSituation``                     the ambushers, the Allied units of the ambushed hex, its terrain
  ``may_declare_ambush(moved_unit, adjacent_inverted) -> bool``       20.1, 20.2, 20.7
  ``validate_ambush(sit)``                 20.2, 20.3, 20.7; raises Rejection
  ``ambush_terrain(sit) -> int``           20.4.1, 20.7 (the Communist player's terrain modifier)
  ``fight_ambush(sit, ctx) -> CombatResult``        rolls the two dice (19.2.6) and resolves
  ``resolve_ambush(sit, communist_die, allied_die) -> CombatResult``   with given dice
        The result's ``losses`` are combat.py's 19.2.6 requirements (owner's choice,
        ``combat.check_loss_choice``); ``retreat_order`` is empty (20.5 replaces 19.3 here);
        ``flips`` lists every ambusher: face up now and they must stay face up (20.2, 20.5).
  ``ambush_aftermath(allied_survivors) -> AmbushAftermath``          20.5 after the losses
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ....errors import InternalValueError, Rejection
from ....codes import Code
from .resolution import (
    ALLIED,
    ARTILLERY,
    COMMUNIST,
    DUMMY,
    CombatResult,
    CombatUnit,
    FireSupporter,
    Term,
    counted_units,
    current_morale,
    fire_support,
    morale_average,
    numbers_bonus,
    outcome,
    roll_dice,
    side_total,
    terrain_modifier,
)
from ..optional.sappers_armor import armor_shock_bonus


@dataclass(frozen=True)
class AmbushSituation:
    """One ambush. ``ambushers``: the inverted Communist units adjacent to the ambushed unit that
    flip up and take part (20.3), given as they are (``face_up=False``); ``defenders``: the Allied
    units of the ambushed hex (the moving unit, and, since an ambush "is conducted as a combat"
    and 19.1.1 makes a hex defend as one group, any Allied units already there); ``terrain``/
    ``city``/``in_zone``: the ambushed hex. ``allied_support``: Allied fire support units with their
    distance to the ambushed hex (20.4.2 lets only those in it count); ``air_hits_in_hex``: Allied
    air units in the ambushed hex that survived AA (20.4.2); ``unsupplied``: ids of NVA/artillery
    ambushers for which no supply was used (20.6); ``sam_supplied``: a supplied SAM is present
    (20.7, airmobile targets only)."""
    ambushers: tuple[CombatUnit, ...]
    defenders: tuple[CombatUnit, ...]
    terrain: str = "clear"
    city: bool = False
    in_zone: bool = False
    allied_support: tuple[FireSupporter, ...] = ()
    air_hits_in_hex: int = 0
    unsupplied: tuple[str, ...] = ()
    sam_supplied: bool = False
    armor_shock: bool = False

    @property
    def airmobile_target(self) -> bool:
        """20.7: the ambushed units are airmobile, "considered flying" (project reading: every Allied
        ground combat unit in the ambushed hex is airmobile)."""
        ground = [u for u in self.defenders if u.is_ground_combat]
        return bool(ground) and all(u.airmobile for u in ground)

    @property
    def fighting_ambushers(self) -> tuple[CombatUnit, ...]:
        """The ambushers that fight: dummies flipped face up are eliminated instead (17.2)."""
        return tuple(u for u in self.ambushers if u.role != DUMMY)


def may_declare_ambush(moved_unit: CombatUnit, adjacent_inverted: tuple[CombatUnit, ...]) -> bool:
    """NTND 20.1 / 20.2 / 20.7: an Allied ground unit moving (Allied movement phase) adjacent to an
    inverted Communist unit may be ambushed; an airmobile unit only if an adjacent inverted NVA
    division or armored regiment could ambush it. The caller passes the inverted Communist units
    adjacent to the moved unit's new hex (their identities are known to the Communist seat only)."""
    if moved_unit.side != ALLIED or not moved_unit.is_ground_combat:
        return False
    inverted = [u for u in adjacent_inverted if u.side == COMMUNIST and not u.face_up and u.role != DUMMY]
    if not any(u.is_ground_combat or u.role == ARTILLERY for u in inverted):
        return False
    if moved_unit.airmobile:
        return any(u.nva and (u.division or u.armor) for u in inverted)
    return True


def validate_ambush(sit: AmbushSituation) -> None:
    """Refuse an ambush the rules forbid (``Rejection``):
    20.2: ambushers are inverted Communist units (they flip now), the target holds an Allied ground
    unit; 20.7: guerrillas may not ambush airmobile units, which only NVA divisions or armored
    regiments (with their artillery, whose fire support 20.7 allows) may ambush."""
    if not sit.ambushers or any(u.side != COMMUNIST for u in sit.ambushers):
        raise Rejection(Code.NTND_AMBUSH_UNITS, "NTND 20.2: ambushers are Communist units", rule="NTND 20.2")
    if any(u.face_up for u in sit.ambushers):
        raise Rejection(Code.NTND_AMBUSH_FACE_UP, "NTND 20.2 / 20.3: only inverted units ambush (they flip up)", rule="NTND 20.2 / 20.3")
    if not any(u.is_ground_combat and u.side == ALLIED for u in sit.defenders) \
            or any(u.side != ALLIED for u in sit.defenders):
        raise Rejection(Code.NTND_AMBUSH_TARGET, "NTND 20.2: an ambush is against an Allied ground unit", rule="NTND 20.2")
    if not counted_units(sit.fighting_ambushers):
        raise Rejection(Code.NTND_AMBUSH_UNITS, "NTND 20.3: no ambusher with a combat value (dummies have none, 17.2)", rule="NTND 20.3")
    if sit.airmobile_target:
        if any(u.guerrilla for u in sit.ambushers):
            raise Rejection(Code.NTND_AMBUSH_AIRMOBILE, "NTND 20.7: airmobile units may not be ambushed by guerrillas", rule="NTND 20.7")
        if not any(u.nva and (u.division or u.armor) for u in sit.ambushers):
            raise Rejection(Code.NTND_AMBUSH_AIRMOBILE,
                            "NTND 20.7: airmobile units may be ambushed by NVA divisions or armored regiments only", rule="NTND 20.7")


def ambush_terrain(sit: AmbushSituation) -> int:
    """NTND 20.4.1: the Allied unit receives no terrain benefit; the Communist units receive the
    morale benefit of the terrain of the ambushed hex; no other terrain modifier (no rivers).
    20.7: against airmobile units ("flying") the Communist player gets no terrain benefit.
    Example (20.4.1): an Allied unit in a mountain hex: the Communist player adds 2."""
    if sit.airmobile_target:
        return 0
    return terrain_modifier(sit.terrain, sit.city, (), in_zone=sit.in_zone)


def _ambusher_morale(unsupplied: tuple[str, ...]):
    def morale_of(u: CombatUnit, *, own_turn: bool, alone: bool = False,
                  defending: bool = False) -> tuple[int, tuple[Term, ...]]:
        # 18.4: in the Allied player turn Communist units count as supplied, except 20.6.
        m, terms = current_morale(u, own_turn=False, alone=alone, defending=defending)
        if u.id in unsupplied and (u.nva or u.role == ARTILLERY):
            return m - 1, terms + (Term("NTND 20.6", f"{u.id} ambushed without supplies", Fraction(-1)),)
        return m, terms
    return morale_of


def resolve_ambush(sit: AmbushSituation, communist_die: int, allied_die: int) -> CombatResult:
    """NTND 20.4: an ambush "is conducted as a combat" (19.2) with these exceptions:
    20.4.1 terrain to the Communist player only (``ambush_terrain``); 20.4.2 Allied fire support
    and air only from units in the ambushed hex; 20.4.3 Communist artillery only from artillery
    units among the ambushers (+1 each, each is adjacent by 20.3), not if unsupplied (20.6);
    20.4.4 +1 Communist for surprise; 20.6 unsupplied NVA/artillery ambushers -1 morale;
    20.7 +1 with a supplied SAM against airmobile units. The Communist player is the attacker of
    ``CombatResult`` (his die first). 19.2.4 numbers and 28.8 armor shock apply as in combat."""
    validate_ambush(sit)
    amb = sit.fighting_ambushers
    c_avg, c_n, c_mt = morale_average(amb, air_hits=sit.air_hits_in_hex, own_turn=False, defending=False,
                                      morale_of=_ambusher_morale(sit.unsupplied))
    a_avg, a_n, a_mt = morale_average(sit.defenders, own_turn=False, defending=True)  # 18.2.1.4: no combat phase
    artillery = sum(1 for u in amb if u.role == ARTILLERY and u.id not in sit.unsupplied)
    allied_fire = fire_support([s for s in sit.allied_support if s.distance == 0], own_turn=True)
    c_extra = [Term("NTND 20.4.4", "ambush surprise", Fraction(1))]
    if sit.airmobile_target and sit.sam_supplied:
        c_extra.append(Term("NTND 20.7", "SAM versus airmobile", Fraction(1)))
    shock = armor_shock_bonus(amb, active=sit.armor_shock)
    if shock:
        c_extra.append(Term("NTND 28.8", "armor shock", Fraction(shock)))
    terrain = ambush_terrain(sit)
    if terrain:
        c_extra.append(Term("NTND 20.4.1", "terrain of the ambushed hex", Fraction(terrain)))
    com = side_total(COMMUNIST, c_avg, c_n, fire=artillery, terrain=0, numbers=numbers_bonus(c_n, a_n),
                     extras=c_extra, die=communist_die)
    ally = side_total(ALLIED, a_avg, a_n, fire=allied_fire, terrain=0, numbers=numbers_bonus(a_n, c_n),
                      extras=(), die=allied_die)
    notes = [f"{t.rule}: {t.label}" for t in c_mt + a_mt]
    notes += [f"NTND 17.2: dummy {u.id} revealed and eliminated" for u in sit.ambushers if u.role == DUMMY]
    res = outcome(com, ally, amb, sit.defenders,
                  att_armor_art=any(u.armor or u.role == ARTILLERY for u in amb),
                  def_armor_art=False, notes=notes, flips=tuple(u.id for u in sit.ambushers))
    # 20.5 replaces the retreat of 19.2.6: see ambush_aftermath.
    return CombatResult(res.attacker, res.defender, res.winner, res.band, res.losses, (), res.flips, res.notes)


def fight_ambush(sit: AmbushSituation, ctx) -> CombatResult:
    """Roll the Communist then the Allied die (19.2.6) and ``resolve_ambush``."""
    c, a = roll_dice(ctx, COMMUNIST)
    return resolve_ambush(sit, c, a)


@dataclass(frozen=True)
class AmbushAftermath:
    """NTND 20.5 after the losses of an ambush."""
    allied_may_continue: bool       # surviving Allied units may go on moving, never forced to retreat
    communist_must_retreat: bool    # every participating Communist unit retreats one hex (19.3 rules)
    communist_may_enter: bool       # the Allied units were all eliminated: survivors may enter the hex
    ambushers_stay_face_up: bool = True
    rule: str = "NTND 20.5"


def ambush_aftermath(allied_survivors: int) -> AmbushAftermath:
    """NTND 20.5: whoever won, surviving Allied units may continue moving and are not forced to
    retreat; if any Allied unit survived, all Communist participants must retreat one hex in any
    direction (per the retreat rules, ``retreat.retreat_verdict``); if the Allied units were all
    eliminated, surviving Communist units may enter the vacant hex. Ambushers stay face up."""
    if allied_survivors < 0:
        raise InternalValueError("survivors cannot be negative")
    alive = allied_survivors > 0
    return AmbushAftermath(allied_may_continue=alive, communist_must_retreat=alive, communist_may_enter=not alive)


__all__ = ["AmbushSituation", "AmbushAftermath", "may_declare_ambush", "validate_ambush", "ambush_terrain",
           "resolve_ambush", "fight_ambush", "ambush_aftermath"]
