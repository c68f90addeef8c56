"""No Trumpets No Drums rule 11 (Air Operations): the air units as pieces, where ``air_war`` is in force
(the campaign; features.py). The missions themselves are air_missions.py, anti-aircraft fire
antiaircraft.py.

State (``s["air"]``, created by ``start`` only where the feature is in force, so the Tet state has none):

    where     {air uid: target}  where it last flew (11.7); ``kind`` its mission
    flew      {air uid: player-turn}  the player-turn of its last mission (11.2). Player-turns are
              numbered 2*turn-1 (the Communist player turn, whose Allied Reaction flies defensive
              ground support, 3.1.5) and 2*turn (the Allied player turn, Air Operations 3.2.5).
              The Available box is every air unit (status "air") that did not fly in this or the
              previous player-turn; the Unavailable box the others (11.2's boxes are derived, not
              kept: a unit that flew in player-turn p is back in the Available box at p+2).
    bombed    {"turn": t, "hexes": [...], "areas": [...], "charged": [...]}  hexes bombed this turn
              (11.4), Hearts and Minds areas whose marker moved (7.5) and countries charged (24.2.8,
              23.5) this turn
    support   [{"hex", "hits", "pt"}]  ground support missions that survived AA fire (11.1.2), used
              by the next battle they apply to in their player-turn
    supplied  {"turn": t, "hexes": [...]}  air supply this turn (11.1.3)
    attached  {ground uid: {"heli", "pt"}}  helicopters on transport missions (11.1.4, 11.3.1) and the
              player-turn they were attached in (the unit is airmobile from the next one)
    pending   the mission waiting for the Communist seat (AA fire of inverted stacks, bombing losses)

8.2.5: Allied air units are placed freely on any hex or zone (no movement: a mission names its target;
``validate`` in air_missions.py). Communist interceptors (8.2.5, 11.5) stay in China, Hanoi and
Haiphong: the movement class "interceptor" (counters.json) keeps them there.
"""
from __future__ import annotations

from ..components.features import dated, in_force
from ..components.map import load_map
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_REACTION, BY_ID, C_RECRUIT, phase_id
from ..components.pieces import load_counters

FIGHTERS = ("us_fighter_wing", "us_carrier_wing", "arvn_fighter_wing")
HELICOPTERS = ("us_helicopter", "arvn_helicopter")
SAC = "us_sac_wing"
SOA = "us_soa"
INTERCEPTOR = "nva_interceptor"
INTERCEPTOR_ZONES = ("CHINA", "HANOI", "HAIPHONG")   # 8.2.5, 11.5
NORTH = ("NV", "CN")                                  # 24.2.8, 23.5


def active(s: dict) -> bool:
    return in_force(s, "air_war")


def _empty() -> dict:
    return {"flew": {}, "where": {}, "kind": {}, "bombed": {"turn": 0, "hexes": [], "areas": [], "charged": []},
            "support": [], "supplied": {"turn": 0, "hexes": []}, "attached": {}, "pending": None}


def start(s: dict) -> dict:
    """The air state (created once, where ``air_war`` is in force)."""
    return s.setdefault("air", _empty())


def st(s: dict) -> dict:
    return s.get("air") or _empty()


def player_turn(s: dict) -> int:
    """11.2: the number of the current player-turn (the Communist one first, 3): the Communist
    player's phases and the Allied Reaction (3.1.5) count with the first; so does the Communist
    Reaction (3.2.4), whose phasing player is the Communist one (the recorded logs count it so).
    Before the first phase, the first player-turn."""
    ph = phase_id(s) or C_RECRUIT
    return 2 * s["turn"] - (1 if BY_ID[ph].player == COMMUNIST or ph == A_REACTION else 0)


def type_of(s: dict, uid: str) -> str:
    return s["units"][uid]["type"]


def available(s: dict) -> list[str]:
    """11.2: the Allied air units in the Available box (sorted): in play (status "air"), not attached
    to a ground unit (11.3.1), and not flown in this or the previous player-turn."""
    a = st(s)
    pt = player_turn(s)
    held = _held(a)
    return [uid for uid, u in sorted(s["units"].items())
            if u["status"] == "air" and u["side"] == ALLIED and uid not in held
            and a["flew"].get(uid, -9) < pt - 1]


def unavailable(s: dict) -> list[str]:
    """11.2: the Allied air units that flew in this or the previous player-turn (a helicopter attached
    to a ground unit is in neither box, 11.3.1)."""
    a = st(s)
    pt = player_turn(s)
    held = _held(a)
    return [uid for uid, u in sorted(s["units"].items())
            if u["status"] == "air" and u["side"] == ALLIED and uid not in held
            and a["flew"].get(uid, -9) >= pt - 1]


def _held(a: dict) -> set[str]:
    """11.3.1: the helicopters attached to ground units (in neither air box)."""
    return {v["heli"] for v in a["attached"].values()}


def role(type_id: str) -> str:
    """The air unit's kind for the missions: "fighter" (fighters and carrier wings, 11.6), "sac",
    "helicopter", "soa" (28.1)."""
    if type_id in FIGHTERS:
        return "fighter"
    if type_id == SAC:
        return "sac"
    if type_id in HELICOPTERS:
        return "helicopter"
    if type_id == SOA:
        return "soa"
    return "other"


def nationality(s: dict, uid: str) -> str:
    return load_counters().type(type_of(s, uid)).nationality


# ---------------------------------------------------------------------------
# constraints, one named predicate each
# ---------------------------------------------------------------------------

def once_per_hex_ok(s: dict, target: str) -> bool:
    """11.4: a hex may be bombed once per turn; any number of bombings in an off-board zone."""
    if load_map().is_zone(target):
        return True
    b = st(s)["bombed"]
    return not (b["turn"] == s["turn"] and target in b["hexes"])


def carrier_ok(s: dict, target: str) -> bool:
    """11.6: until November-December 1967 (before the campaign's dated rule 11.6, turn 18) carrier air
    targets only North Vietnam, Laos and China (hexes and zones) or a corps zone holding U.S. Marine
    units; from January-February 1968 anywhere."""
    if dated(s, "11.6"):
        return True
    m = load_map()
    if m.country_of(target) in ("NV", "LA", "CN"):
        return True
    corps = m.corps_of(target)
    if corps is None:
        return False
    return any(u["status"] == "map" and u["type"].startswith("us_marine") and not m.is_zone(u["loc"])
               and m.corps_of(u["loc"]) == corps for u in s["units"].values())


def joint_ok(s: dict, target: str, air: list[str]) -> bool:
    """11.7: before January-February 1968 (the dated rule 11.7) U.S. and ARVN air units may not be
    combined in the same hex (this mission and the missions already flown to the hex this
    player-turn); they may in zones."""
    if dated(s, "11.7") or load_map().is_zone(target):
        return True
    a = st(s)
    pt = player_turn(s)
    here = list(air) + [x for x in a["flew"] if a["flew"][x] == pt and a.get("where", {}).get(x) == target]
    nats = {"US" if nationality(s, x) == "US" else "ARVN" for x in here}
    return len(nats) <= 1


def niagara(s: dict) -> bool:
    """11.8: from January-February 1968 (dated rule 11.8) two SAC or four fighters (or one SAC and two
    fighters) may bomb one hex holding two Communist units."""
    return bool(dated(s, "11.8"))


def linebacker(s: dict) -> bool:
    """11.9.1 / 11.9.2: from January-February 1972 (dated rule 11.9.1) for the rest of the game."""
    return bool(dated(s, "11.9.1"))


def cambodia_allied(s: dict) -> bool:
    """28.1.2 / 28.1.3: Cambodia is an active ally (it left neutrality by joining the Allies, 10.5)."""
    return "CA" not in s.get("neutral", ("CA",))


def soa_area_ok(s: dict, target: str) -> bool:
    """28.1.2 / 28.1.3: the SOA flies only over Laos and South Vietnam, and Cambodia once an active ally."""
    c = load_map().country_of(target)
    return c in ("LA", "SV") or (c == "CA" and cambodia_allied(s))


def over_restricted_country(s: dict, target: str) -> str | None:
    """24.2.8: the country of the target when it is North Vietnam, China or a neutral country."""
    c = load_map().country_of(target)
    if c in NORTH or (c is not None and c in s.get("neutral", ())):
        return c
    return None


# ---------------------------------------------------------------------------
# 11.1.4 transport: helicopters attached to ground units
# ---------------------------------------------------------------------------

def carried(s: dict, uid: str) -> bool:
    """11.1.4: the unit has a helicopter attached since an earlier player-turn: it moves and makes
    reaction moves as an airmobile unit (8.10.1.1: the pair is one unit for stacking; the helicopter is
    not on the map as a piece)."""
    rec = s.get("air", {}).get("attached", {}).get(uid)
    return bool(rec) and s["units"][rec["heli"]]["status"] == "air" and player_turn(s) > rec["pt"]


def dead(s: dict, uid: str) -> None:
    """An air unit is eliminated; a transferred U.S. helicopter is a U.S. counter again (24.3.5)."""
    u = s["units"][uid]
    u["status"] = "dead"
    orig = u.pop("transferred", None)
    if orig:
        u.update(type=orig, nat=load_counters().type(orig).nationality)


def detach(s: dict, uid: str) -> str | None:
    """11.1.4: the helicopter of a unit leaving the map ("if the unit is eliminated, the helicopter unit
    is also eliminated"): returns its id when it was still in play."""
    rec = s.get("air", {}).get("attached", {}).pop(uid, None)
    if not rec or s["units"][rec["heli"]]["status"] != "air":
        return None
    dead(s, rec["heli"])
    return rec["heli"]
