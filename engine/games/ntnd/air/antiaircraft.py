"""No Trumpets No Drums rule 12 (Anti-Aircraft Fire), with the dogfights of 11.5 and Linebacker's SAM
numbers (11.9.2). Called by air_missions.py for each mission, after its air units are placed and
before it is carried out (12.2).

12.1   The Communist units with AA (counters.json ``aa``) that fire: those in the hex or zone under
       strategic bombing or ground support, and those in the hexes next to a hex supplied by air.
12.1.1 Each fires once (one d6); a hit eliminates one Allied air unit. Project reading of "the Allied
       player can choose which one": the mission names its air units in the order he loses them
       (NtndFly.air); each die is fired at the first one still flying, so that 12.1.2 is known.
12.1.2 -1 to the die against a SAC.
11.5   In China, Hanoi or Haiphong, each interceptor there fires (4-6, the AA table's number) and each
       Allied fighter of the mission fires back (3-6 destroys an interceptor), simultaneously: the
       results are applied after all dice are rolled; the Allied losses in his order, the interceptors
       lost lowest id first (they are face up). Then the ground AA fires ("they can both dogfight and
       bomb", 12.2).
11.9.2 From January-February 1972: SAMs hit a SAC only on a 6, other air units on 5-6.

Hidden stacks (docs/developers.md "the owner of hidden units makes every choice that depends on
them"): face-up units always fire (public dice; firing can only help the Communist player). Where an
inverted marker is among the firing locations the Communist seat answers an ``aa_fire`` decision
(sealed): the hidden AA units that fire (12.1: they "may"). Then every firing location that holds
a marker (public) rolls AA_DICE_HEX (a hex: at most two ground combat units, one artillery and one
SAM can be in it, 8.10.1) or AA_DICE_ZONE dice sealed to the Communist seat, whatever its markers
hold; the firing units use the first dice of their location, in the order named. Project reading
(a bound, not in the text): in a zone (no stacking limit) at most AA_DICE_ZONE = 8 hidden AA units
fire at one mission. Every sealed die is a sealed event padded to the Communist seat's declared size
(SPEC.md 6.5, 5,888 bytes), so dice for every invertible AA counter of the mix (27) in each zone
would make one mission's record larger than the service's record limit (256 KiB). Public: the air units shot down (the rules reveal losses), nothing else. Firing does not flip a
marker (12 is silent: reading).
"""
from __future__ import annotations

from .pieces import INTERCEPTOR, SAC, linebacker, role
from ..components.map import load_map
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters
from ....codes import Code

AA_DICE_HEX = 4
AA_DICE_ZONE = 8


def dice_for(loc: str) -> int:
    """The sealed AA dice a firing location with markers rolls (and the most hidden AA units that fire there)."""
    return AA_DICE_ZONE if load_map().is_zone(loc) else AA_DICE_HEX


def firing_locations(mission: dict) -> list[str]:
    """12.1: the target (bombing, ground support) or the locations next to it (air supply)."""
    if mission["kind"] == "supply":
        return sorted(load_map().neighbours(mission["target"]))
    return [mission["target"]]


def hits(type_id: str, die: int, target_type: str, late: bool) -> bool:
    """12.1.1, 12.1.2, 11.9.2: does an AA die of ``type_id`` shoot down an air unit of ``target_type``."""
    if late and type_id == "nva_sam":
        return die >= (6 if target_type == SAC else 5)
    return load_counters().type(type_id).aa_hits(die, target_is_sac=target_type == SAC)


def face_up_aa(s: dict, mission: dict) -> list[str]:
    """The face-up Communist ground and support units with AA at the firing locations (not
    interceptors: they fight in 11.5's dogfight)."""
    locs = set(firing_locations(mission))
    return [uid for uid, u in sorted(s["units"].items())
            if u["status"] == "map" and u["side"] == COMMUNIST and not u["inv"] and u["loc"] in locs
            and u["type"] != INTERCEPTOR and load_counters().type(u["type"]).aa]


def hidden_markers(s: dict, mission: dict) -> list[str]:
    locs = set(firing_locations(mission))
    return sorted((m for m, v in s["markers"].items() if v["loc"] in locs), key=lambda x: int(x[1:]))


def hidden_aa(s: dict, mission: dict) -> list[str]:
    """The inverted AA units of the markers at the firing locations (private: the Communist seat's)."""
    out = set()
    for mid in hidden_markers(s, mission):
        out.update(u for u in s["markers"][mid]["units"] if load_counters().type(s["units"][u]["type"]).aa)
    return sorted(out)


def _shoot(s: dict, mission: dict, firer_types: list[str], dice: list[int]) -> list[str]:
    """Apply AA dice in order to the mission's air units still flying (its loss order): the ones hit."""
    down = []
    late = linebacker(s)
    for tid, die in zip(firer_types, dice):
        alive = [x for x in mission["alive"] if x not in down]
        if not alive:
            break
        if hits(tid, die, s["units"][alive[0]]["type"], late):
            down.append(alive[0])
    return down


def dogfight(s: dict, mission: dict, ctx) -> list[str]:
    """11.5: the interceptors in the target zone and the mission's fighters; returns the air units lost
    (interceptors lost are eliminated here: +1 point each, 22.4)."""
    from ..politics.victory import eliminate
    t = mission["target"]
    icpt = [uid for uid, u in sorted(s["units"].items())
            if u["status"] == "map" and u["type"] == INTERCEPTOR and u["loc"] == t]
    if not icpt:
        return []
    fighters = [x for x in mission["alive"] if role(s["units"][x]["type"]) == "fighter"]
    c_dice = [ctx.roll("d6", "NTND 11.5: interceptor").result for _ in icpt]
    a_dice = [ctx.roll("d6", "NTND 11.5: Allied fighter").result for _ in fighters]
    down = _shoot(s, mission, [INTERCEPTOR] * len(icpt), c_dice)
    kills = min(len(icpt), sum(1 for d in a_dice if d >= 3))
    ctx.emit({"t": "dogfight", "rule": "NTND 11.5", "zone": t, "interceptors": icpt, "fighters": fighters,
              "interceptor_dice": c_dice, "fighter_dice": a_dice, "shot_down": down,
              "interceptors_lost": icpt[:kills]})
    for uid in icpt[:kills]:
        eliminate(s, uid, ctx, "NTND 11.5")
    return down


def public_fire(s: dict, mission: dict, ctx) -> list[str]:
    """12.1.1: the face-up AA units fire (public dice); returns the air units shot down."""
    firers = face_up_aa(s, mission)
    if not firers:
        return []
    dice = [ctx.roll("d6", "NTND 12.1.1").result for _ in firers]
    down = _shoot(s, mission, [s["units"][f]["type"] for f in firers], dice)
    ctx.emit({"t": "aa-fire", "rule": "NTND 12.1.1", "target": mission["target"], "firers": firers,
              "dice": dice, "shot_down": down})
    return down


def check_hidden_choice(s: dict, mission: dict, units: list[str]) -> None:
    from ....errors import Rejection
    ok = set(hidden_aa(s, mission))
    if len(set(units)) != len(units) or not set(units) <= ok:
        raise Rejection(Code.ILLEGAL_AA_FIRE, "NTND 12.1: name inverted units with AA under this mission, each once", rule="NTND 12.1")
    for loc in _marker_locations(s, mission):
        if sum(1 for u in units if s["units"][u]["loc"] == loc) > dice_for(loc):
            raise Rejection(Code.ILLEGAL_AA_FIRE, f"NTND 12.1: at most {dice_for(loc)} hidden AA units fire from {loc} "
                                               "(AA_DICE_ZONE, docs/rules/ntnd.md 12.1.1)", rule="NTND 12.1")


def most_that_fire(s: dict, mission: dict) -> list[str]:
    """The largest legal ``aa_fire`` answer: every hidden AA unit under the mission, at most
    ``dice_for(loc)`` of each location (lowest ids first)."""
    units, out = hidden_aa(s, mission), []
    for loc in _marker_locations(s, mission):
        out += [u for u in units if s["units"][u]["loc"] == loc][:dice_for(loc)]
    return sorted(out)


def _marker_locations(s: dict, mission: dict) -> list[str]:
    """The firing locations that hold markers (public), in order."""
    return sorted({s["markers"][m]["loc"] for m in hidden_markers(s, mission)})


def hidden_fire(s: dict, mission: dict, units: list[str], ctx) -> list[str]:
    """The Communist seat's answer: ``units`` (hidden AA units of the markers concerned) fire. Every
    marker rolls its fixed number of sealed dice; public: the air units shot down."""
    check_hidden_choice(s, mission, units)
    firer_types, dice, detail = [], [], []
    for loc in _marker_locations(s, mission):
        rolled = [ctx.roll("d6", "NTND 12.1.1", to=COMMUNIST).result for _ in range(dice_for(loc))]
        mine = [u for u in units if s["units"][u]["loc"] == loc]
        for uid, die in zip(mine, rolled):
            firer_types.append(s["units"][uid]["type"])
            dice.append(die)
            detail.append({"unit": uid, "die": die})
    down = _shoot(s, mission, firer_types, dice)
    ctx.emit({"t": "aa-fire-hidden", "rule": "NTND 12.1.1", "fired": detail}, to=COMMUNIST)
    ctx.emit({"t": "aa-fire", "rule": "NTND 12.1.1", "target": mission["target"], "hidden": True,
              "shot_down": down})
    return down


__all__ = ["public_fire", "hidden_fire", "dogfight", "hidden_markers", "hidden_aa", "most_that_fire", "ALLIED"]
