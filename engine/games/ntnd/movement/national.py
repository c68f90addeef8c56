"""No Trumpets No Drums 8.9 (national movement restrictions), 5.3-5.3.1 (corps boundaries) and rule 10's
closed borders where it is not in force: may units of these types stand in a location (``may_enter``),
and the part of the state it reads (``neutral_key``)."""
from __future__ import annotations

from ..components.map import load_map
from ..components.features import in_force
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters
from .hexes import region_neighbours, region_of


#: in a ``neutral_key``: neutrality is refereed (10: entering a neutral country is a violation that
#: costs points, not a closed border)
OPEN = "10.2"


def neutral_key(s: dict) -> tuple[str, ...]:
    """What ``may_enter`` reads of the neutrality state, hashable (reach's memoised searches key on it):
    the still-neutral countries, and ``OPEN`` where rule 10 is in force (the campaign). Tet: the
    neutral countries alone, as before."""
    n = tuple(s["neutral"])
    return n + (OPEN,) if in_force(s, "neutrality") else n


def neutral_state(key: tuple[str, ...]) -> dict:
    """The part of a state ``may_enter`` reads, rebuilt from a ``neutral_key``."""
    return {"neutral": [c for c in key if c != OPEN], "neutral_open": OPEN in key}


def _borders_open(s: dict) -> bool:
    return s["neutral_open"] if "neutral_open" in s else in_force(s, "neutrality")


def may_enter(s: dict, types: list, side: str, corps: str | None, loc: str) -> str | None:
    """None if units of these types may stand in ``loc``; else the rule that forbids it. Reads only
    ``s["neutral"]`` and whether rule 10 is in force (``neutral_key``)."""
    m = load_map()
    counters = load_counters()
    if m.is_zone(loc):
        country = m.zones[loc].country
    else:
        h = m.hex(loc)
        if not h.is_land:
            return "NTND 8.2.3: ground units may not enter all-sea or all-lake hexes"
        country = h.country
    for t in types:
        nat = counters.nationalities[t.nationality]
        home = nat.get("home")
        if t.id == "communist_dummy":
            continue  # project reading: dummies move as inverted guerrillas of any country (17.1)
        if side == COMMUNIST and t.guerrilla and home and country != home:
            return f"NTND 8.9.1: {t.nationality} guerrillas may not leave their own country"
        if side == ALLIED:
            if t.stacking_class == "militia" and home and country != home:
                return "NTND 8.9.1: militia may not leave their own country"
            if t.nationality in ("LAO", "KHMER") and country != home:
                return "NTND 8.9.2: Laotian and Cambodian forces may not leave their country"
    if side == ALLIED and _borders_open(s):
        for t in types:
            if t.nationality == "KHMER" and "CA" in s["neutral"]:
                return "NTND 10.3.1: Cambodian units cannot move while Cambodia is neutral"
            if t.id == "lao_guard" and loc not in ("LUANG_PRABANG", "VIENTIANE"):
                return "NTND 28.11.4: the Laotian Guard moves only between Luang Prabang and Vientiane"
    if side == ALLIED:
        if country == "CN":
            return "NTND 10.7: China may not be invaded by Allied ground units"
        if _borders_open(s):
            pass  # 10.2, 10.8: Laos, Cambodia and North Vietnam may be entered, at a political cost (neutrality.py)
        elif country == "NV":
            return "NTND 10.8: North Vietnam is closed to Allied ground units where rule 10 is not in force (the military scenarios)"
        elif country in s["neutral"] and not all(t.nationality in ("LAO", "KHMER") for t in types):
            return f"NTND 10.2: neutral {country} is closed to Allied units where rule 10 is not in force (the military scenarios)"
        if corps is not None and country == "SV":
            here = region_of(loc)
            if here != corps:
                return f"NTND 5.3: units attached to {corps} Corps move only within its boundary"
        if corps is not None and country in ("LA", "CA") and corps in ("I", "II", "III", "IV"):
            if country not in region_neighbours().get(corps, ()):
                return f"NTND 5.3.1: {country} does not border {corps} Corps"
    return None
