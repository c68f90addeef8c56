"""SOG 3.2-3.2.4 (organising, arming and equipping the team) and 3.8 (losses).

A team in the state is ``{"members": {letter: member}, "impulse": 6, "action": 3,
"prisoners": n}`` where a member is ``{"american": bool, "rank": str, "weapon":
str, "items": {code: count}}``. Every weapon and item belongs to one member
(3.2.4).
"""
from __future__ import annotations

from afteraction.v1 import command_pb2

from ...errors import Rejection
from ...codes import Code

MAX_MEN = 12            # SOG 3.2
MAX_AMERICANS = 3       # SOG 3.2
RANKS = ("", "5", "A")  # SOG 3.2: at most one "5" and one "A"; the text names no other rank
IMPULSE, ACTION = 6, 3  # SOG 3.2: impulse/action values "6/3"
# SOG 3.2.2: the weapons a member may carry (one each).
WEAPONS = ("RFL1", "RFL6", "RFL10", "SMG1", "SMG2", "SMG9", "PST1", "GMG4", "GLR2")
# SOG 3.2.3: optional equipment with its limit per team (BDA: one per member, see below).
EQUIPMENT_LIMITS = {"BPD": 2, "SHG": 1, "BNL": 1, "HGN3": 30, "HGN5": 20, "NST": 1, "SCP": 1, "LPL3": 5}
RADIO = "RDO"       # SOG 3.2.1: every team carries a radio
SMOKE = "SMK"       # SOG 3.2.1: at least five smoke grenades (SMK is the project's code)
MIN_SMOKE = 5
BANDAGE = "BDA"     # SOG 3.2.3: one per team member
EQUIPMENT = tuple(sorted([*EQUIPMENT_LIMITS, RADIO, SMOKE, BANDAGE]))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def shown(text: str) -> str:
    """A submitted string as quoted in a rejection message (cut short: messages stay small)."""
    return repr(text if len(text) <= 16 else text[:16] + "...")


def _bad(msg: str) -> Rejection:
    """``msg`` begins with its rule ("SOG 3.2.4: ...", "SOG 3.2 allows ...")."""
    return Rejection(Code.ILLEGAL_TEAM, msg, rule=" ".join(msg.split()[:2]).rstrip(":"))


def team_from_command(org) -> dict:
    """Validate a SogOrganise message against SOG 3.2-3.2.4 and build the team."""
    members: dict[str, dict] = {}
    if not 1 <= len(org.members) <= MAX_MEN:
        raise _bad("SOG 3.2 allows a team of one to twelve men")
    for m in org.members:
        letter = m.letter
        if len(letter) != 1 or letter not in LETTERS:
            raise _bad("SOG 3.2.4: each member is named by the letter code of his counter (A-Z)")
        if letter in members:
            raise _bad(f"SOG 3.2.4: letter {letter} is used twice")
        if m.rank not in RANKS:
            raise _bad(f"SOG 3.2: rank {shown(m.rank)} is not allowed (the team may have one \"5\" and one \"A\")")
        if m.weapon and m.weapon not in WEAPONS:
            raise _bad(f"SOG 3.2.2: {shown(m.weapon)} is not an allowed weapon ({', '.join(WEAPONS)})")
        items: dict[str, int] = {}
        for it in m.equipment:
            if it.code not in EQUIPMENT:
                raise _bad(f"SOG 3.2.3: {shown(it.code)} is not allowed equipment ({', '.join(EQUIPMENT)})")
            if it.count < 1:
                raise _bad("SOG 3.2.3: an equipment count is at least 1")
            items[it.code] = items.get(it.code, 0) + it.count
        if items.get(BANDAGE, 0) > 1:
            raise _bad("SOG 3.2.3: BDA is limited to one per team member")
        members[letter] = {"american": bool(m.american), "rank": m.rank, "weapon": m.weapon,
                           "items": dict(sorted(items.items()))}
    check_team_limits(members)
    return {"members": dict(sorted(members.items())), "impulse": IMPULSE, "action": ACTION, "prisoners": 0}


def limits() -> dict:
    """SOG 3.2-3.2.4 as canonical data: what the ``organise`` decision accepts."""
    return {"max_men": MAX_MEN, "max_americans": MAX_AMERICANS, "ranks": {"5": 1, "A": 1},
            "impulse_action": f"{IMPULSE}/{ACTION}", "weapons": list(WEAPONS), "letters": LETTERS,
            "equipment": list(EQUIPMENT), "equipment_limits": dict(sorted(EQUIPMENT_LIMITS.items())),
            "required": {RADIO: 1, SMOKE: MIN_SMOKE}, "per_member": {BANDAGE: 1},
            "exclusive": [["HGN3", "HGN5"]]}


def totals(members: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in members.values():
        for code, n in m["items"].items():
            out[code] = out.get(code, 0) + n
    return out


def check_team_limits(members: dict) -> None:
    """SOG 3.2, 3.2.1 and 3.2.3 limits for a whole team (raised as ILLEGAL_TEAM)."""
    if sum(1 for m in members.values() if m["american"]) > MAX_AMERICANS:
        raise _bad("SOG 3.2: only three team members may be Americans")
    for rank in ("5", "A"):
        if sum(1 for m in members.values() if m["rank"] == rank) > 1:
            raise _bad(f"SOG 3.2: no more than one \"{rank}\" may be assigned")
    tot = totals(members)
    if tot.get(RADIO, 0) < 1:
        raise _bad("SOG 3.2.1: every team must carry a radio (RDO)")
    if tot.get(SMOKE, 0) < MIN_SMOKE:
        raise _bad("SOG 3.2.1: every team must include at least five smoke grenades (SMK)")
    for code, limit in EQUIPMENT_LIMITS.items():
        if tot.get(code, 0) > limit:
            raise _bad(f"SOG 3.2.3: {code} is limited to {limit} per team")
    if tot.get("HGN3", 0) and tot.get("HGN5", 0):
        raise _bad("SOG 3.2.3: the team carries HGN3 (maximum 30) or HGN5 (maximum 20), not both")
    if tot.get(BANDAGE, 0) > len(members):
        raise _bad("SOG 3.2.3: BDA is limited to one per team member")


def size(team: dict) -> int:
    """Men in the team (SOG 3.5.1); prisoners are not counted (project choice)."""
    return len(team["members"])


# ---------------------------------------------------------------------------
# Representative complete teams offered by legal_commands (the space of teams
# is combinatorial; apply validates any team, see docs/rules/sog.md).
_NUNG_WEAPONS = ("RFL1", "SMG2", "RFL1", "GLR2", "RFL6", "SMG1", "RFL1", "SMG9", "RFL10")


def _template(americans: int, nungs: int, grenades: str) -> list[dict]:
    out = []
    n = americans + nungs
    for i in range(n):
        letter = LETTERS[i]
        american = i < americans
        rank = "5" if i == 0 else "A" if i == 1 else ""
        weapon = ("SMG1", "RFL6", "GMG4")[i] if american else _NUNG_WEAPONS[(i - americans) % len(_NUNG_WEAPONS)]
        items = {BANDAGE: 1, SMOKE: 1}
        if i == 0:
            items[RADIO] = 1
            items["SCP"] = 1
        if i == 1:
            items["NST"] = 1
            items["BPD"] = 1
        if i == 2:
            items["LPL3"] = 2
            items["SHG"] = 1
        items[grenades] = min(3, EQUIPMENT_LIMITS[grenades] // n)
        out.append({"letter": letter, "american": american, "rank": rank, "weapon": weapon,
                    "items": {k: v for k, v in items.items() if v}})
    # SOG 3.2.1: make sure there are five smoke grenades however small the team
    while sum(m["items"].get(SMOKE, 0) for m in out) < MIN_SMOKE:
        out[0]["items"][SMOKE] += 1
    return out


TEMPLATES: dict[str, list[dict]] = {
    "twelve (3 Americans, 9 Nung)": _template(3, 9, "HGN3"),
    "nine (3 Americans, 6 Nung)": _template(3, 6, "HGN3"),
    "seven (3 Americans, 4 Nung)": _template(3, 4, "HGN5"),
    "six (2 Americans, 4 Nung)": _template(2, 4, "HGN3"),
    "four (2 Americans, 2 Nung)": _template(2, 2, "HGN5"),
}


def organise_command(members: list[dict]) -> command_pb2.Command:
    c = command_pb2.Command()
    org = c.sog.organise
    for m in members:
        pm = org.members.add()
        pm.letter, pm.american, pm.rank, pm.weapon = m["letter"], m["american"], m["rank"], m["weapon"]
        for code in sorted(m["items"]):
            it = pm.equipment.add()
            it.code, it.count = code, m["items"][code]
    return c


# ---------------------------------------------------------------------------
# SOG 3.8 / 3.2.4: applying the losses of an action.
def apply_losses(team: dict, casualties: list[str], lost: list[tuple[str, str, int]],
                 recovered: list[tuple[str, str, str, int]]) -> dict:
    """Remove casualties and lost items; a casualty's items are removed unless
    recovered by a survivor (3.2.4). Returns what was removed (for the event).
    Validation has been done by ``tactical.result_from_command``."""
    members = team["members"]
    for from_l, to_l, code, n in recovered:
        _take(members[from_l], code, n)
        dst = members[to_l]["items"]
        dst[code] = dst.get(code, 0) + n
        members[to_l]["items"] = dict(sorted(dst.items()))
    for letter, code, n in lost:
        _take(members[letter], code, n)
    removed = {}
    for letter in casualties:
        removed[letter] = members.pop(letter)
    return removed


def _take(member: dict, code: str, n: int) -> None:
    """Remove ``n`` x ``code`` from a member: carried items first, then his weapon."""
    have = member["items"].get(code, 0)
    take = min(have, n)
    if have - take > 0:
        member["items"][code] = have - take
    else:
        member["items"].pop(code, None)
    if n - take > 0 and member["weapon"] == code:
        member["weapon"] = ""


def holdings(member: dict) -> dict[str, int]:
    """Weapon and items of a member as one count per code."""
    out = dict(member["items"])
    if member["weapon"]:
        out[member["weapon"]] = out.get(member["weapon"], 0) + 1
    return out
