"""No Trumpets No Drums rule 25: South Vietnamese morale, where ``sv_morale`` is in force.

25.1: at the start of each player-turn (the Communist Recruitment phase 3.1.1, the Allied
Reinforcement phase 3.2.1) ARVN is demoralized for that player-turn if the track is below 50, or
when a random event made it so for the turn (``s["mods"]["arvn_demoralized_turn"]``, 21). The
state keeps it in ``s["sv_demoralized"]`` (absent in Tet: nothing changes there).
25.2: demoralized ARVN units fight at one less morale (combat.current_morale, through
battles.combat_unit) and have no zone of control (zones.zoc_hexes).
25.3 / 25.3.1: desertion by the fall of cities, rolled once a turn at the start of the Allied
Reinforcement phase. 25.4 / 25.4.1: severe demoralization, a die per ARVN unit before each battle
and each ambush (battles.start_battle, battles.start_ambush).
Deserted units go to the Allied eliminated pile (they "may be replaced", 4.2.3) without points;
a deserting division, or two regiments of one hex, leave a Communist supply unit there.

Readings (project): "two or more major cities" are two map cities (town kind "city") of the corps
held by face-up Communist units (as 22.4 counts occupation); "printed morale"/"printed combat
value" is the counter's morale (2.2); ARVN units without a printed morale (firebases) do not roll.
The peace party's win is elections.peace_party.
"""
from __future__ import annotations

from . import elections
from ..components.features import in_force
from ..components.map import load_map
from ..forces.operations import first_in_mix, name_public
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters

THRESHOLD = 50   # 25.1


def demoralized(s: dict) -> bool:
    """25.1: ARVN demoralized this player-turn."""
    return bool(s.get("sv_demoralized"))


def start_player_turn(s: dict, ctx) -> None:
    """25.1 at the start of a player-turn (3.1.1 / 3.2.1)."""
    if not in_force(s, "sv_morale"):
        return
    mods = s.setdefault("mods", {})
    forced = mods.get("arvn_demoralized_turn")
    if forced is not None and forced < s["turn"]:
        del mods["arvn_demoralized_turn"]
        forced = None
    now = s["pp"] < THRESHOLD or forced == s["turn"]
    if now or s.get("sv_demoralized"):
        ctx.emit({"t": "sv-morale", "rule": "NTND 25.1", "demoralized": now, "pp": s["pp"],
                  "cause": ("random event (21)" if forced == s["turn"] else f"fewer than {THRESHOLD} points")
                  if now else "recovered"})
    s["sv_demoralized"] = now


def _us_ground_in_sv(s: dict) -> bool:
    m, c = load_map(), load_counters()
    return any(u["status"] == "map" and u["nat"] == "US" and c.type(u["type"]).category == "ground_combat"
               and m.country_of(u["loc"]) == "SV" for u in s["units"].values())


def _vietnamization(s: dict) -> str | None:
    from .victory import vietnamization_in_effect
    return vietnamization_in_effect(s)


def severe(s: dict) -> bool:
    """25.4: no U.S. ground units in South Vietnam, the peace party has won, or partial Vietnamization."""
    peace = elections.peace_party(s)
    return demoralized(s) and (not _us_ground_in_sv(s) or peace or _vietnamization(s) == "partial")


def _held_cities(s: dict) -> dict[str, list[str]]:
    """Map cities held by face-up Communist units, per South Vietnamese corps."""
    m = load_map()
    out: dict[str, list[str]] = {}
    for u in s["units"].values():
        if u["status"] == "map" and u["side"] == COMMUNIST and not u["inv"] and not m.is_zone(u["loc"]) \
                and u["type"] not in ("communist_supply", "communist_dummy"):
            h = m.hex(u["loc"])
            if h.country == "SV" and h.town and h.town.is_city and u["loc"] not in out.get(h.corps, []):
                out.setdefault(h.corps, []).append(u["loc"])
    return {k: sorted(v) for k, v in sorted(out.items())}


def _arvn(s: dict, corps: str | None) -> list[str]:
    m, c = load_map(), load_counters()
    return [uid for uid in sorted(s["units"]) if (u := s["units"][uid])["status"] == "map" and u["nat"] == "ARVN"
            and c.type(u["type"]).morale and m.country_of(u["loc"]) == "SV"
            and (corps is None or m.corps_of(u["loc"]) == corps)]


def city_desertion(s: dict, ctx) -> None:
    """25.3 / 25.3.1: at the start of the Allied Reinforcement phase, once a turn."""
    if not in_force(s, "sv_morale") or not demoralized(s):
        return
    if not (_us_ground_in_sv(s) or _vietnamization(s) == "full"):
        return
    held = _held_cities(s)
    saigon = load_map().town("Saigon").hex
    if any(saigon in v for v in held.values()):
        areas = [None]
    else:
        areas = [k for k, v in held.items() if len(v) >= 2]
    for area in areas:
        for uid in _arvn(s, area):
            morale = load_counters().type(s["units"][uid]["type"]).morale
            r = ctx.roll("d6", f"NTND 25.3 {uid} desertion (deserts above morale {morale})").result
            if r > morale:
                desert(s, [uid], ctx, "NTND 25.3")


def desert(s: dict, uids: list[str], ctx, rule: str) -> None:
    """Deserted units: to the eliminated pile, no political points; a division, or two regiments of
    one hex, leave a Communist supply unit in the hex (25.3)."""
    c = load_counters()
    regiments: dict[str, int] = {}
    for uid in uids:
        u = s["units"][uid]
        loc, size = u["loc"], c.type(u["type"]).size
        u.update(status="dead", loc=None)
        ctx.emit({"t": "deserted", "unit": uid, "type": u["type"], "loc": loc, "rule": rule, "pp": 0})
        if size == "regiment":
            regiments[loc] = regiments.get(loc, 0) + 1
        if size == "division" or (size == "regiment" and regiments[loc] == 2):
            sup = first_in_mix(s, "communist_supply")
            if sup is not None:
                s["units"][sup].update(status="map", loc=loc, inv=False, mk=None)
                sup = name_public(s, sup)                            # ntnd/5 (4.4)
                ctx.emit({"t": "recruit", "unit": sup, "type": "communist_supply", "loc": loc, "rule": rule})


def _modifier(s: dict, uid: str, attacking: bool, n_arvn_side: int, n_communist: int, loc: str) -> int:
    """The South Vietnamese Morale Table (25.4.1)."""
    from .points_table import area_of
    mod = -1 if attacking else 0
    if n_arvn_side > n_communist:
        mod -= 1
    elif n_communist > n_arvn_side:
        mod += 1
    area = area_of(loc)
    box = s.get("hm", {}).get(area) if area else None
    if box == "allied_control":
        mod -= 1
    elif box == "communist_control":
        mod += 1
    return mod


def combat_desertions(s: dict, side: str, target: str, attackers: list[str], defenders: list[str], ctx) -> set:
    """25.4.1: before a battle (or ambush) is resolved, a die for each ARVN unit involved while
    severely demoralized; above its printed morale after the table's modifiers, it deserts."""
    if not in_force(s, "sv_morale") or not severe(s):
        return set()
    c = load_counters()
    allied = attackers if side == ALLIED else defenders
    communist = defenders if side == ALLIED else attackers
    gone = []
    for uid in allied:
        u = s["units"][uid]
        t = c.type(u["type"])
        if u["nat"] != "ARVN" or not t.morale:
            continue
        mod = _modifier(s, uid, side == ALLIED, len(allied), len(communist), target)
        r = ctx.roll("d6", f"NTND 25.4.1 {uid} demoralized (deserts above {t.morale}, modifier {mod:+d})").result
        if r + mod > t.morale:
            gone.append(uid)
    if gone:
        desert(s, gone, ctx, "NTND 25.4.1")
    return set(gone)
