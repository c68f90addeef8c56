"""GMV "Units" and "Buildable Units": the unit table, helicopter capacity and
the improvements infantry can build.

The table is the text's (cost, moves, attack, defend). ``aa`` (NVA
anti-aircraft) is the project's own: the text lets "NVA anti-aircraft" fire at
bombers and helicopters but gives no unit, so it is authored here (cost 5,
1 move, no combat value, never infiltrates); see docs/rules/gmv.md.
"""
from __future__ import annotations

INF_MOVES = 99  # the bomber's "inf" move allowance

# type -> (cost, moves, attack, defend)
UNITS: dict[str, tuple[int, int, int, int]] = {
    "inf": (3, 1, 1, 2),        # Regular (US or NVA) infantry
    "sv": (2, 1, 1, 1),         # Recruited infantry, US side (South Vietnamese)
    "vc": (2, 1, 1, 1),         # Recruited infantry, NVA side (Viet Cong)
    "art": (4, 1, 2, 2),
    "apc": (3, 2, 1, 2),        # * only 1 move in swamp or allowable jungle zones
    "armor": (5, 2, 3, 2),      # * idem
    "heli": (5, 4, 2, 1),
    "fighter": (10, 6, 4, 3),
    "bomber": (15, INF_MOVES, 4, 1),
    "aa": (5, 1, 0, 0),         # project's own (see module doc)
}

# What each seat may buy (Phase 1). Natives are bought with R-rating income only.
BUY = {"us": ("inf", "art", "apc", "armor", "heli", "fighter", "bomber", "sv"),
       "nva": ("inf", "art", "apc", "armor", "aa", "vc")}
NATIVE = {"us": "sv", "nva": "vc"}

INFANTRY = ("inf", "sv", "vc")
TANKS = ("apc", "armor")          # "Tanks/APC's" of the F-rating table
AIR = ("fighter", "bomber")       # aircraft (helicopters are separate)
FLYING = ("heli", "fighter", "bomber")
HIDEABLE = ("inf", "vc", "art")   # 3. Combat Move: tanks and APCs may not infiltrate (nor AA)

IMPROVEMENTS = ("lz", "positions", "airbase")


def cost(t: str) -> int:
    return UNITS[t][0]


def moves(t: str) -> int:
    return UNITS[t][1]


def attack(t: str) -> int:
    return UNITS[t][2]


def defend(t: str) -> int:
    return UNITS[t][3]


def heli_capacity(cargo_type: str, lz: bool) -> int:
    """Units: a helicopter carries 2 infantry or 1 artillery; an LZ adds 1 (3 inf or 2 arty)."""
    base = 2 if cargo_type in INFANTRY else 1 if cargo_type == "art" else 0
    return base + (1 if lz and base else 0)


def cargo_class(t: str) -> str | None:
    """Helicopters carry infantry or artillery, never mixed."""
    return "inf" if t in INFANTRY else "art" if t == "art" else None
