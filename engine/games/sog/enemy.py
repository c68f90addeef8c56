"""SOG 4-4.2.1: the enemy. Squad compositions (4.1), the extra leader (4.1.1),
eliminated squads (4.1.2), the optional composition roll (4.1.3), VC counters
on the Strategic Movement Map (1.2, 3.5.2, 3.5.3) and their random movement (4.2,
4.2.1).

VC counters are kept in the state as ``s["vc"]``: a list of ``{"n": number,
"at": square}`` sorted by number ("VC 1" ... "VC 10"; beyond 10 only with the
optional rule 3.5.3).
"""
from __future__ import annotations

from . import board

MAX_VC = 10  # SOG 1.2, 3.5.2

# SOG 4.1: the two squad types, as printed.
SQUADS: dict[str, dict] = {
    "vc": {
        "name": "Viet Cong Infantry Squad",
        "impulse_action": "4/2",
        "leaders": ["1S"],
        "weapons": {"LMG6": 1, "MPL19": 1, "MTR6": 1, "RFL1": 4, "RFL7": 1, "PST3": 1, "SMG4": 1},
        "equipment": {"HGN3": 19, "MPL19AMO": 3, "MTR6AMO": 4},
        "notes": "19xHGN3 (\"G\" only)",
        "men": 10,
    },
    "nva": {
        "name": "NVA Infantry Squad",
        "impulse_action": "4/3",
        "leaders": ["1S", "1A"],
        "weapons": {"LMG21": 1, "MPL20": 1, "PST4": 1, "RFL1": 6},
        "equipment": {"NST": 1, "HGN3 and/or HGN5": 20, "MPL20AMO": 4},
        "notes": "",
        "men": 9,
    },
}
# SOG 4.1.1: the leader the Vietnamese player may add when two squads are present.
EXTRA_LEADER = {"rank": "1C", "weapon": "PST4"}


def squad_types(ctx, specified: list[str], random_composition: bool) -> list[str]:
    """SOG 4.1 / 4.1.3: the squads actually faced. With the optional rule the
    Vietnamese player rolls one d10 per squad: 1-5 VC, 6-0 NVA."""
    if not random_composition:
        return list(specified)
    out = []
    for _ in specified:
        r = ctx.roll("d10", "SOG 4.1.3").result
        out.append("vc" if r <= 5 else "nva")
    return out


def composition(kind: str, leader: bool = False) -> dict:
    sq = SQUADS[kind]
    out = {"type": kind, "name": sq["name"], "impulse_action": sq["impulse_action"],
           "leaders": list(sq["leaders"]), "weapons": dict(sq["weapons"]),
           "equipment": dict(sq["equipment"]), "men": sq["men"], "notes": sq["notes"]}
    if leader:  # SOG 4.1.1
        out["leaders"].append(EXTRA_LEADER["rank"])
        out["weapons"][EXTRA_LEADER["weapon"]] = out["weapons"].get(EXTRA_LEADER["weapon"], 0) + 1
        out["men"] += 1
    return out


# ---------------------------------------------------------------------------
# VC counters (SOG 1.2, 3.5.2, 3.5.3)
def counters_in(s: dict, sq: str) -> list[int]:
    return [c["n"] for c in s["vc"] if c["at"] == sq]


def on_map(s: dict) -> int:
    return len(s["vc"])


def pool_available(s: dict) -> bool:
    """SOG 3.5.2: no more than ten VC counters on the map, unless 3.5.3 is in use."""
    return s["options"]["unlimited_vc"] or on_map(s) < MAX_VC


def place(s: dict, sq: str, ctx) -> int | None:
    """SOG 3.5.2: place a VC counter in the team's square only if none is present,
    a counter is available, and the square is not the Target square."""
    if counters_in(s, sq) or not pool_available(s) or sq == s["target"]:
        return None
    used = {c["n"] for c in s["vc"]}
    n = 1
    while n in used:
        n += 1
    s["vc"].append({"n": n, "at": sq})
    s["vc"].sort(key=lambda c: c["n"])
    ctx.emit({"t": "vc-placed", "vc": n, "square": sq, "rule": "SOG 3.5.2"})
    return n


def remove(s: dict, n: int, ctx, rule: str) -> None:
    s["vc"] = [c for c in s["vc"] if c["n"] != n]
    ctx.emit({"t": "vc-removed", "vc": n, "rule": rule})


def move_all(s: dict, ctx) -> list[int]:
    """SOG 4.2: after each American move every VC counter moves by the Random
    Movement Diagram; a counter leaving the map returns to the pool. Returns the
    counters that entered the team's square (SOG 4.2.1: each brings an Ambush)."""
    entered = []
    team = s["team_at"]
    for c in list(s["vc"]):
        r = ctx.roll("d10", "SOG 4.2").result
        label, new = board.diagram_step(c["at"], r)
        if new is None:
            s["vc"] = [x for x in s["vc"] if x["n"] != c["n"]]
            ctx.emit({"t": "vc-moved", "vc": c["n"], "from": c["at"], "direction": label, "to": None,
                      "rule": "SOG 4.2: off the map, back to the pool"})
            continue
        ctx.emit({"t": "vc-moved", "vc": c["n"], "from": c["at"], "direction": label, "to": new, "rule": "SOG 4.2"})
        if new != c["at"] and new == team:
            entered.append(c["n"])
        for x in s["vc"]:
            if x["n"] == c["n"]:
                x["at"] = new
    return entered
