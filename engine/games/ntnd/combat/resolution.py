"""No Trumpets No Drums, rule 19 (Combat): the mathematics, as pure functions.

Nothing here reads or writes game state: the rules code (battles.py) turns the
state into the small frozen inputs below, calls these functions, and carries
out what they return (asking the owners for their choices). No floats: morale
averages are ``fractions.Fraction`` ("fractions are retained", 19.2.1).

Entry points (the rules developer calls these)
----------------------------------------------
Inputs:
  ``CombatUnit``       one counter in the battle (``unit_from_type`` builds it from counters.json)
  ``FireSupporter``    an artillery/firebase/patrol boat/fleet counter and its distance (19.2.2)
  ``CombatSituation``  one battle: attackers, the defending hex's units, terrain, rivers, support

Before the battle (combat_checks.py):
  ``inverted_must_flip(contacts) -> bool``                  19.1.2
  ``automatic_eliminations(defenders) -> tuple[str, ...]``  13.3, 17.2, 18.6.1 (no die rolled)
  ``validate_battle(sit, attacked_before, defended_before)``  19.1, 19.1.1, 19.1.3; raises Rejection

The battle:
  ``fight(sit, ctx) -> CombatResult``                 rolls both dice (19.2.6) and resolves
  ``resolve(sit, attacker_die, defender_die) -> CombatResult``   the same with given dice
  pieces: ``current_morale``, ``morale_average``, ``fire_support``, ``terrain_modifier``,
  ``numbers_bonus``, ``band_of``, ``loss_requirement``

After the battle (the owners' decisions, in the order ``CombatResult.retreat_order`` gives):
  ``check_loss_choice(req, chosen)`` 19.2.6; retreats and the advance (19.3, 19.4): retreat.py.

Ambushes (20) are in ambush.py, sappers (28.7) and armor shock (28.8) in special.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Iterable, Sequence

from ....errors import InternalTypeError, InternalValueError, Rejection
from ..components.state import ALLIED, COMMUNIST
from ..optional.sappers_armor import armor_shock_bonus, sapper_cancels_terrain
from ..components.pieces import UnitType, load_terrain
from ....codes import Code

SIDES = (ALLIED, COMMUNIST)

# Roles of counters in combat (NTND 2.2, 19.2.1).
GROUND = "ground"            # ground combat units (incl. Green Berets, militia, Phoenix)
ARTILLERY = "artillery"      # Communist artillery group (13.2)
FIREBASE = "firebase"        # Allied firebase (13.1)
PATROL_BOAT = "patrol_boat"  # Allied river patrol flotilla (14.1)
FLEET = "fleet"              # US Navy task force (14.2)
SAM = "sam"                  # NVA SAM regiment (13.3)
SUPPLY = "supply"            # Communist supply unit (18.6)
DUMMY = "dummy"              # Communist dummy (17)
BASE = "base"                # VC base (28.9)
ROLES = (GROUND, ARTILLERY, FIREBASE, PATROL_BOAT, FLEET, SAM, SUPPLY, DUMMY, BASE)
#: 19.2.1: "Artillery, firebase and patrol boat/fleet units are not ground combat units ... morale
#: values are not used unless they themselves are the only unit in a hex that is under attack or
#: are attacking alone."
STAND_IN_ROLES = (ARTILLERY, FIREBASE, PATROL_BOAT)
#: 19.2.2 ranges: 2 hexes for firebases/fleet (13.1.1, 14.2), 1 for artillery (13.2.1) and patrol boats (14.1).
FIRE_SUPPORT_RANGE = {ARTILLERY: 1, FIREBASE: 2, FLEET: 2, PATROL_BOAT: 1}

DOUBLE = "double"   # 19.2.6: total twice the opponent's or more: two losses, the rest retreat
HIGHER = "higher"   # 19.2.6: higher but not twice: one loss, the rest retreat
TIE = "tie"         # 19.2.6: each side loses one, either/neither/both may retreat
BANDS = (DOUBLE, HIGHER, TIE)


def other(side: str) -> str:
    return ALLIED if side == COMMUNIST else COMMUNIST


@dataclass(frozen=True)
class CombatUnit:
    """One counter in a battle. ``morale`` is the printed morale (NTND 2.2); the flags are facts
    the rules code knows; this module applies the rules that turn them into modifiers."""
    id: str
    side: str
    role: str = GROUND
    morale: int = 0
    face_up: bool = True
    armor: bool = False          # mechanized: NVA tank regiment (28.8, 14.1.2), Allied armor/mech
    sapper: bool = False         # VC sapper (28.7)
    nva: bool = False            # North Vietnamese (20.6, 20.7)
    division: bool = False       # division-size (20.7: NVA divisions may ambush airmobile units)
    guerrilla: bool = False      # VC/PL/KR cadre, regiment, sapper (20.7)
    militia: bool = False        # militia incl. Montagnards (16.3): 7.3.3, 15.2.2, 19.4
    green_beret: bool = False    # Green Beret, or Phoenix "used in the same manner" (28.4.2): 15.2.3
    airmobile: bool = False      # airmobile, incl. units with a helicopter attached (11.1.4): 19.3.5, 20.7
    arvn: bool = False           # South Vietnamese (25.2 demoralization)
    sfm5: bool = False           # US 5th Special Forces Mobile Strike Force (28.2.1)
    # situational facts
    out_of_supply: bool = False           # began this combat phase out of supply (18.2.1.4)
    in_green_beret_zoi: bool = False      # in a Green Beret zone of influence (15.2.2, 28.2.1, 19.4)
    allied_controlled_area: bool = False  # its corps/country is Allied Controlled (7.3.3)
    demoralized: bool = False             # ARVN demoralized this player-turn (25.1, 25.2)
    in_zone: bool = False                 # stands in an off-board zone (19.3.9, 9.2)

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise InternalValueError(f"side must be one of {SIDES}: {self.side!r}")
        if self.role not in ROLES:
            raise InternalValueError(f"role must be one of {ROLES}: {self.role!r}")
        if isinstance(self.morale, bool) or not isinstance(self.morale, int):
            raise InternalTypeError("morale is an int (no floats)")

    @property
    def is_ground_combat(self) -> bool:
        return self.role == GROUND

    @property
    def mobile(self) -> bool:
        """19.4: militia (except with Green Beret supervision, 15.2.1) and firebases are immobile;
        Green Berets are immobile when placed (15.2.3); bases are immobile (28.9.1)."""
        if self.role in (FIREBASE, BASE, FLEET, DUMMY):
            return False
        if self.green_beret:
            return False
        if self.militia:
            return self.in_green_beret_zoi
        return True


def unit_from_type(uid: str, utype: UnitType, *, face_up: bool = True, airmobile: bool = False,
                   **facts: bool) -> CombatUnit:
    """Build a ``CombatUnit`` from a counters.json type (units.py), so every caller maps the
    counter types the same way. ``airmobile`` adds a helicopter attachment (11.1.4); ``facts`` are
    the situational flags of ``CombatUnit`` (out_of_supply, in_green_beret_zoi, ...)."""
    if utype.category == "air":
        raise InternalValueError(f"{utype.id}: air units are not combat units (11.1.2 ground support is an input)")
    if utype.category == "ground_combat":
        role = GROUND
    elif utype.category == "dummy":
        role = DUMMY
    elif utype.stacking_class in (ARTILLERY, FIREBASE, SAM, SUPPLY, PATROL_BOAT):
        role = utype.stacking_class
    elif utype.stacking_class == "vc_base":
        role = BASE
    elif utype.category == "naval":
        role = FLEET
    else:
        raise InternalValueError(f"{utype.id}: no combat role")
    return CombatUnit(
        id=uid, side=utype.side, role=role, morale=utype.morale or 0, face_up=face_up,
        armor=utype.mechanized, sapper=utype.id == "vc_sapper", nva=utype.nationality == "NVA",
        division=utype.size == "division", guerrilla=utype.guerrilla,
        militia=utype.stacking_class == "militia", green_beret=utype.stacking_class == "green_beret",
        airmobile=utype.airmobile or airmobile, arvn=utype.nationality == "ARVN",
        sfm5=utype.id == "us_5sfm", **facts,
    )


@dataclass(frozen=True)
class FireSupporter:
    """A fire support counter (19.2.2). ``distance``: hexes from it to the hex under attack
    (0 = in it; the rules code measures it, 13.1.1 "at the instant of combat")."""
    id: str
    role: str
    distance: int
    supplied: bool = True          # traced supply (13.4 / 18.3 matter only in its own player turn)
    face_up: bool = True
    retreated_into: bool = False   # 19.3.8: retreated into this battle's hex: no effect

    def __post_init__(self) -> None:
        if self.role not in FIRE_SUPPORT_RANGE:
            raise InternalValueError(f"{self.role!r} gives no fire support (19.2.2)")


@dataclass(frozen=True)
class CombatSituation:
    """One battle (19.2): ``attackers`` (the phasing player's committed units, 19.1.1), every unit
    of the defending hex (or zone, 9.3) in ``defenders``, the defender hex's terrain, one river
    class (None/"minor"/"major") per hexside attacked across, support, and the air ground support
    missions that survived AA fire (11.1.2, 12.2) against each side (Allied air only)."""
    attackers: tuple[CombatUnit, ...]
    defenders: tuple[CombatUnit, ...]
    terrain: str = "clear"                       # clear/jungle/mountain/swamp of the defender's hex
    city: bool = False                           # a city in the defender's hex (towns: +0)
    in_zone: bool = False                        # the defender is in an off-board zone (9.2: clear)
    attacker_rivers: tuple[str | None, ...] = ()  # per attacking hex: river on the hexside crossed
    attacker_support: tuple[FireSupporter, ...] = ()
    defender_support: tuple[FireSupporter, ...] = ()
    air_hits_on_attackers: int = 0               # surviving Allied ground support vs Communist attackers
    air_hits_on_defenders: int = 0               # ... vs Communist defenders
    aa_vs_airmobile: bool = False                # 12.3: +1 to the Communist total
    armor_shock: bool = False                    # 28.8 in effect this turn (special.armor_shock_active)
    vc_base: bool = False                        # 28.9.4: +1 Communist (vcbases.base_bonus decides)

    @property
    def attacker_side(self) -> str:
        return self.attackers[0].side

    @property
    def defender_side(self) -> str:
        return other(self.attacker_side)


@dataclass(frozen=True)
class Term:
    """One addend of a side's combat total, with the rule that gives it."""
    rule: str
    label: str
    value: Fraction

    def to_event(self) -> dict:
        return {"rule": self.rule, "label": self.label, "value": [self.value.numerator, self.value.denominator]}


@dataclass(frozen=True)
class SideTotal:
    side: str
    terms: tuple[Term, ...]
    units: int                  # units counted for 19.2.4 (the 19.2.1 divisor)

    @cached_property
    def total(self) -> Fraction:
        """The sum of the terms (fixed: a battle asks it several times; kept beside the
        fields, so equality and hashing are the fields' alone)."""
        return sum((t.value for t in self.terms), Fraction(0))

    def term(self, rule: str) -> Fraction:
        return sum((t.value for t in self.terms if t.rule == rule), Fraction(0))

    def to_event(self) -> dict:
        tot = self.total
        return {"side": self.side, "units": self.units, "terms": [t.to_event() for t in self.terms],
                "total": [tot.numerator, tot.denominator]}


@dataclass(frozen=True)
class LossRequirement:
    """19.2.6: ``side`` must eliminate ``count`` of ``eligible`` units, its owner's choice."""
    side: str
    count: int
    eligible: tuple[str, ...]
    rule: str = "NTND 19.2.6"


@dataclass(frozen=True)
class CombatResult:
    attacker: SideTotal
    defender: SideTotal
    winner: str | None                  # side, or None on a tie
    band: str                           # DOUBLE, HIGHER or TIE
    losses: tuple[LossRequirement, ...]  # defender's first
    retreat_order: tuple[tuple[str, str], ...]  # ((side, "must"|"may"), ...) in the order to execute
    flips: tuple[str, ...] = ()         # units that must be (and stay) face up after this combat
    notes: tuple[str, ...] = field(default=())

    @property
    def attacker_total(self) -> Fraction:
        return self.attacker.total

    @property
    def defender_total(self) -> Fraction:
        return self.defender.total

    def to_event(self) -> dict:
        """Canonical event body (fractions as [num, den], 'no floats')."""
        return {"attacker": self.attacker.to_event(), "defender": self.defender.to_event(),
                "winner": self.winner, "band": self.band,
                "losses": [{"side": r.side, "count": r.count, "eligible": list(r.eligible)} for r in self.losses],
                "retreat_order": [list(x) for x in self.retreat_order], "flips": list(self.flips),
                "notes": list(self.notes)}


# --------------------------------------------------------------------------
# 19.2.1 - 19.2.4: the combat total
# --------------------------------------------------------------------------

def current_morale(u: CombatUnit, *, own_turn: bool, alone: bool = False,
                   defending: bool = False) -> tuple[int, tuple[Term, ...]]:
    """NTND 19.2.1 "current morale" of one unit, before ground support (see ``morale_average``).

    * printed morale (2.2); a firebase or artillery unit alone in a hex under attack defends with
      morale 1 (13.1.3, 13.2.1); a patrol boat alone uses its intrinsic morale (14.1.1, printed);
    * +1 militia/Montagnards in a Green Beret zone of influence (15.2.2, 16.3); the 5SFM's morale 2
      "is raised to 3" there (28.2.1);
    * +1 militia in an Allied Controlled corps/country (7.3.3, Hearts and Minds);
    * -1 ARVN while demoralized (25.2);
    * -1 out of supply at the start of its combat phase (18.2.1.4), only in its own player turn:
      18.4 every unit is in supply for combat in the opponent's turn.
    Returns (morale, terms) where terms explain the modifiers.
    """
    base = u.morale
    terms: list[Term] = []
    if alone and defending and u.role in (FIREBASE, ARTILLERY):
        base = 1
        terms.append(Term("NTND 13.1.3" if u.role == FIREBASE else "NTND 13.2.1", "alone: defensive morale 1",
                          Fraction(0)))
    m = base
    if u.militia and u.in_green_beret_zoi:
        m += 1
        terms.append(Term("NTND 15.2.2", f"{u.id} militia in Green Beret ZOI", Fraction(1)))
    if u.sfm5 and u.in_green_beret_zoi:
        m += 1
        terms.append(Term("NTND 28.2.1", f"{u.id} 5SFM in Green Beret ZOI", Fraction(1)))
    if u.militia and u.allied_controlled_area:
        m += 1
        terms.append(Term("NTND 7.3.3", f"{u.id} militia in Allied Controlled area", Fraction(1)))
    if u.arvn and u.demoralized:
        m -= 1
        terms.append(Term("NTND 25.2", f"{u.id} ARVN demoralized", Fraction(-1)))
    if u.out_of_supply and own_turn:
        m -= 1
        terms.append(Term("NTND 18.2.1.4", f"{u.id} out of supply", Fraction(-1)))
    return m, tuple(terms)


def counted_units(units: Sequence[CombatUnit]) -> tuple[CombatUnit, ...]:
    """NTND 19.2.1: the units whose morale is averaged and who count as the side's units (19.2.4):
    its ground combat units; if it has none, its artillery/firebases/patrol boats ("the only unit
    in a hex under attack or attacking alone"). Fleet, SAM, supply and dummies never count; a VC base
    only when it defends by itself (28.9.5-28.9.6, project reading: it stands in as the hex's unit with
    morale 0, its printed "none"; it is never a loss, ``loss_requirement``)."""
    ground = tuple(u for u in units if u.is_ground_combat)
    if ground:
        return ground
    return tuple(u for u in units if u.role in STAND_IN_ROLES) or tuple(u for u in units if u.role == BASE)


def morale_average(units: Sequence[CombatUnit], *, air_hits: int = 0, own_turn: bool,
                   defending: bool, morale_of=current_morale) -> tuple[Fraction, int, tuple[Term, ...]]:
    """NTND 19.2.1: total current morale divided by the number of counted units, fractions retained.

    ``air_hits``: Allied ground support missions that survived AA fire against this side (11.1.2):
    each reduces the printed morale of one ground combat unit by one, no unit by more than one, so
    the total drops by min(air_hits, ground combat units). Returns (average, divisor, terms).
    """
    counted = counted_units(units)
    if not counted:
        raise InternalValueError("NTND 19.2.1: no unit with a morale in this force")
    alone = not counted[0].is_ground_combat
    total = 0
    terms: list[Term] = []
    for u in counted:
        m, t = morale_of(u, own_turn=own_turn, alone=alone, defending=defending)
        total += m
        terms.extend(t)
    if air_hits < 0:
        raise InternalValueError("air hits cannot be negative")
    hit = min(air_hits, sum(1 for u in counted if u.is_ground_combat))
    if hit:
        total -= hit
        terms.append(Term("NTND 11.1.2", f"ground support: {hit} unit(s) -1", Fraction(-hit)))
    return Fraction(total, len(counted)), len(counted), tuple(terms)


def fire_support(supporters: Iterable[FireSupporter], *, own_turn: bool) -> int:
    """NTND 19.2.2: +1 per fire support unit within range of the hex under attack: artillery stacked
    with or adjacent (13.2.1), firebases and the fleet within 2 hexes (13.1.1, 14.2), patrol boats
    adjacent (14.1, 14.1.1). Not if out of supply in its own player turn (13.4, 18.3; 18.4: always
    in supply in the opponent's), nor inverted, nor retreated into this battle's hex (19.3.8)."""
    n = 0
    for s in supporters:
        if s.distance < 0:
            raise InternalValueError("distance cannot be negative")
        if s.distance > FIRE_SUPPORT_RANGE[s.role] or not s.face_up or s.retreated_into:
            continue
        if own_turn and not s.supplied:
            continue
        n += 1
    return n


def terrain_modifier(terrain: str, city: bool, attacker_rivers: Sequence[str | None] = (), *,
                     in_zone: bool = False) -> int:
    """NTND 19.2.3 Terrain Effects Chart (defence modifier), cumulative:
    city +2, mountain +2, jungle/swamp +1 (defender's hex); all attackers across a minor river +1,
    across a major river +2. Towns +0 (the table lists cities only). Zones are clear (9.2).
    The values come from data/terrain.json "defence" (units.load_terrain: one source; a test checks
    them against the text). Rivers: one entry per attacking hex; if they differ, the lowest applies.
    """
    chart = load_terrain()
    if in_zone:
        return 0
    mod = chart.defence.get(terrain, 0) + (chart.defence["city"] if city else 0)
    if attacker_rivers and all(r is not None for r in attacker_rivers):
        mod += min(chart.river_defence[r] for r in attacker_rivers)  # type: ignore[index]
    return mod


def numbers_bonus(mine: int, theirs: int) -> int:
    """NTND 19.2.4: +1 with twice as many units engaged as the opponent, +2 with three times or more.
    (An opponent with no counted unit cannot arise: 19.2.1 stand-ins count, see ``counted_units``.)"""
    if theirs <= 0 or mine <= 0:
        return 0
    if mine >= 3 * theirs:
        return 2
    if mine >= 2 * theirs:
        return 1
    return 0


def side_total(side: str, average: Fraction, divisor: int, *, fire: int, terrain: int, numbers: int,
               extras: Sequence[Term], die: int) -> SideTotal:
    """Assemble 19.2.1-19.2.6 addends into a ``SideTotal`` (shared with ambush.py)."""
    if not 1 <= die <= 6:
        raise InternalValueError("NTND 19.2.6: one six-sided die")
    terms = [Term("NTND 19.2.1", "morale average", average)]
    if fire:
        terms.append(Term("NTND 19.2.2", "fire support", Fraction(fire)))
    if terrain:
        terms.append(Term("NTND 19.2.3", "terrain", Fraction(terrain)))
    if numbers:
        terms.append(Term("NTND 19.2.4", "numbers", Fraction(numbers)))
    terms.extend(extras)
    terms.append(Term("NTND 19.2.6", "die", Fraction(die)))
    return SideTotal(side, tuple(terms), divisor)


def _notes(terms: Iterable[Term]) -> tuple[str, ...]:
    return tuple(f"{t.rule}: {t.label} ({'+' if t.value > 0 else ''}{t.value})" if t.value else f"{t.rule}: {t.label}"
                 for t in terms)


def _check_air(side: str, hits: int) -> int:
    if hits and side != COMMUNIST:
        raise InternalValueError("NTND 11.1.2: ground support is flown by Allied air against Communist units only")
    return hits


# --------------------------------------------------------------------------
# 19.2.6: the die, the three bands, the losses
# --------------------------------------------------------------------------

def band_of(total_a: Fraction, total_b: Fraction) -> tuple[int, str]:
    """NTND 19.2.6: compare two totals. Returns (winner, band): winner 0 (first), 1 (second) or
    -1 (tie); band DOUBLE when the higher total is twice the other or more, HIGHER when higher but
    not twice, TIE when equal."""
    if total_a == total_b:
        return -1, TIE
    win, lose, w = (total_a, total_b, 0) if total_a > total_b else (total_b, total_a, 1)
    return w, (DOUBLE if win >= 2 * lose else HIGHER)


def loss_requirement(side: str, units: Sequence[CombatUnit], count: int, *,
                     enemy_armor_or_artillery: bool) -> LossRequirement:
    """NTND 19.2.6: ``side`` loses ``count`` ground combat units "of the owning player's choice".
    Eligible: its ground combat units (or, alone, its artillery/firebase/patrol boat stand-ins,
    19.2.1), plus SAMs stacked with them ("they can also be taken as a loss", 13.3). Patrol boats
    are eliminated only if the enemy force includes armor or artillery (14.1.2; otherwise they
    retreat, ``retreat_plan``). If fewer are eligible, all of them are lost."""
    counted = counted_units(units)
    eligible = [u.id for u in counted if (u.role != PATROL_BOAT or enemy_armor_or_artillery)
                and u.role != BASE]   # 28.9.6: "other results do not affect the Base"
    if counted and counted[0].is_ground_combat:
        eligible += [u.id for u in units if u.role == SAM]
    return LossRequirement(side, min(count, len(eligible)), tuple(eligible))


def roll_dice(ctx, attacker_side: str) -> tuple[int, int]:
    """NTND 19.2.6 "Each player now rolls one die": two d6 rolls through ``ctx.roll``, the
    attacker's first. Returns (attacker_die, defender_die)."""
    a = ctx.roll("d6", f"NTND 19.2.6 {attacker_side} combat die").result
    d = ctx.roll("d6", f"NTND 19.2.6 {other(attacker_side)} combat die").result
    return a, d


def fight(sit: CombatSituation, ctx) -> CombatResult:
    """Roll both dice with ``ctx`` (19.2.6) and ``resolve`` the battle."""
    a, d = roll_dice(ctx, sit.attacker_side)
    return resolve(sit, a, d)


def _armor_or_artillery(units: Iterable[CombatUnit], supporters: Iterable[FireSupporter], own_turn: bool) -> bool:
    return (any(u.armor or u.role == ARTILLERY for u in units)
            or fire_support([s for s in supporters if s.role == ARTILLERY], own_turn=own_turn) > 0)


def outcome(att: SideTotal, dfn: SideTotal, attackers: Sequence[CombatUnit], defenders: Sequence[CombatUnit], *,
            att_armor_art: bool, def_armor_art: bool, notes: Sequence[str] = (),
            flips: Sequence[str] = ()) -> CombatResult:
    """NTND 19.2.6 results from two totals (shared with ambush.py): the winner's opponent loses two
    ground combat units (DOUBLE) or one (HIGHER) and all its other units must retreat; on a TIE
    each loses one and either, neither or both may retreat, the defender choosing (and retreating)
    first."""
    w, band = band_of(att.total, dfn.total)
    if band == TIE:
        losses = (loss_requirement(dfn.side, defenders, 1, enemy_armor_or_artillery=att_armor_art),
                  loss_requirement(att.side, attackers, 1, enemy_armor_or_artillery=def_armor_art))
        return CombatResult(att, dfn, None, TIE, losses, ((dfn.side, "may"), (att.side, "may")),
                            tuple(flips), tuple(notes))
    n = 2 if band == DOUBLE else 1
    if w == 0:
        loss = loss_requirement(dfn.side, defenders, n, enemy_armor_or_artillery=att_armor_art)
        return CombatResult(att, dfn, att.side, band, (loss,), ((dfn.side, "must"),), tuple(flips), tuple(notes))
    loss = loss_requirement(att.side, attackers, n, enemy_armor_or_artillery=def_armor_art)
    return CombatResult(att, dfn, dfn.side, band, (loss,), ((att.side, "must"),), tuple(flips), tuple(notes))


def resolve(sit: CombatSituation, attacker_die: int, defender_die: int) -> CombatResult:
    """NTND 19.2: resolve one battle with the two dice already rolled.

    Attacker (the phasing player, so supply matters: 18.2.1.4, 13.4) and defender (always in supply
    for defence, 18.4) each total: morale average (19.2.1, incl. ground support 11.1.2) + fire
    support (19.2.2) + [defender only] terrain (19.2.3, cancelled by an attacking sapper 28.7.2) +
    numbers (19.2.4) + 12.3 AA versus airmobile (+1 Communist) + 28.8 armor shock (+1) + die.
    """
    a_side, d_side = sit.attacker_side, sit.defender_side
    fighting_defenders = tuple(u for u in sit.defenders if u.role != DUMMY)
    if not counted_units(fighting_defenders):
        raise InternalValueError("NTND 13.3 / 18.6.1 / 17.2: nothing here can defend; use automatic_eliminations")
    a_avg, a_n, a_mt = morale_average(sit.attackers, air_hits=_check_air(a_side, sit.air_hits_on_attackers),
                                      own_turn=True, defending=False)
    d_avg, d_n, d_mt = morale_average(fighting_defenders, air_hits=_check_air(d_side, sit.air_hits_on_defenders),
                                      own_turn=False, defending=True)
    notes = list(_notes(a_mt + d_mt))
    terrain = terrain_modifier(sit.terrain, sit.city, sit.attacker_rivers, in_zone=sit.in_zone)
    if terrain and sapper_cancels_terrain(sit.attackers, d_side):
        notes.append(f"NTND 28.7.2: sapper attacking: defender's terrain modifier {terrain:+} not received")
        terrain = 0
    a_extra: list[Term] = []
    d_extra: list[Term] = []
    if sit.aa_vs_airmobile:
        (a_extra if a_side == COMMUNIST else d_extra).append(Term("NTND 12.3", "AA versus airmobile", Fraction(1)))
    shock = armor_shock_bonus(sit.attackers, active=sit.armor_shock)
    if shock:
        a_extra.append(Term("NTND 28.8", "armor shock", Fraction(shock)))
    if sit.vc_base:
        (a_extra if a_side == COMMUNIST else d_extra).append(Term("NTND 28.9.4", "VC base", Fraction(1)))
    att = side_total(a_side, a_avg, a_n, fire=fire_support(sit.attacker_support, own_turn=True), terrain=0,
                     numbers=numbers_bonus(a_n, d_n), extras=a_extra, die=attacker_die)
    dfn = side_total(d_side, d_avg, d_n, fire=fire_support(sit.defender_support, own_turn=False),
                     terrain=terrain, numbers=numbers_bonus(d_n, a_n), extras=d_extra, die=defender_die)
    return outcome(att, dfn, sit.attackers, fighting_defenders,
                   att_armor_art=_armor_or_artillery(sit.attackers, sit.attacker_support, True),
                   def_armor_art=_armor_or_artillery(fighting_defenders, sit.defender_support, False),
                   notes=notes)


def check_loss_choice(req: LossRequirement, chosen: Sequence[str]) -> None:
    """NTND 19.2.6: the owner eliminates exactly ``req.count`` distinct units of ``req.eligible``."""
    if len(set(chosen)) != len(chosen) or len(chosen) != req.count:
        raise Rejection(Code.NTND_LOSS_COUNT, f"NTND 19.2.6: choose exactly {req.count} different unit(s) to eliminate", rule="NTND 19.2.6")
    bad = sorted(c for c in chosen if c not in req.eligible)
    if bad:
        raise Rejection(Code.NTND_LOSS_UNIT, f"NTND 19.2.6: {', '.join(bad)} may not be taken as a loss in this battle", rule="NTND 19.2.6")
