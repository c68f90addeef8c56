"""No Trumpets No Drums 14.2.1-14.2.2: the fleet moves out to sea when enemy ground units enter its hex,
and it mines Haiphong harbor (the ``fleet`` feature; the fleet's 14.1-14.2 ZOI and fire support are
movement.py, combat.py, battles.py).

14.2.1: "If enemy ground units enter a hex occupied solely by the fleet, the fleet moves one hex out to
sea." The enemy ground units are Communist ones: by a move of the movement phase (ntnd/5 on:
``alone_hexes`` opens such a hex to a Communist ground move, which stops there, and ``to_sea`` moves the
fleet out when the move ends there; ntnd/4 kept the hex closed) and by an advance after combat
(aftermath.apply_advance, every version). A hex with no sea hex next to it stays closed (the fleet
could not move out to sea).

"The fleet may be used to mine Haiphong harbor. It spends an entire turn in the Haiphong zone after
moving into it. At the end of the Allied movement phase after it entered the zone, it places the mine
counter in the zone." Reading (docs/rules/ntnd-authoring/fleet.md): the fleet enters the Haiphong zone
by its move of an Allied movement phase (8.6.1, 9.1.1.1); when the Allied player ends that phase, he
is asked (the ``mine`` decision) whether it places the mine counter; it stays in the zone for the rest
of the turn (it has moved: one move a phase). Effects, from then on:

  (1) the Allied player rolls one die at once and loses that many political points (a "pp" event);
  (2) the Communist player may not move by sea into or out of Haiphong (sea.sea_reach reads
      ``mined``); supply units due at Haiphong (4.1.4) and Soviet aid (27.3, aid.take) are placed in
      China on the turn following (``deferred_supply``); +1 to the Soviet aid roll (aid.modifiers).

State: ``s["haiphong_mined"]`` (bool, the marker; aid.haiphong_mined reads it) and ``s["fleet"]`` =
{"mined_turn": turn, "deferred_supply": n}. Everything here is public.
"""
from __future__ import annotations

from ....decisions import DecisionKind
from ....errors import Rejection
from ..components.features import in_force
from ..components.map import load_map
from ..movement.zones import _type_facts
from ..politics.victory import score
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_MOVE, phase_id
from ..versions import FLEET_ENTRY
from ....codes import Code

RULE = "NTND 14.2.2"
ZONE = "HAIPHONG"


def mined(s: dict) -> bool:
    """The mine counter is in the Haiphong zone (14.2.2)."""
    return bool(s.get("haiphong_mined", False))


def _fleet(s: dict) -> dict | None:
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["type"] == "us_fleet" and u["status"] == "map":
            return u
    return None


def alone_hexes(s: dict, env) -> frozenset:
    """14.2.1 (ntnd/5 on, ``FLEET_ENTRY``): the land hexes a Communist ground move may enter although
    an Allied unit stands there: held by the fleet alone (no other Allied unit but air units, which are
    not in a hex: ``movement.Env``'s locations), with a sea hex next to them. ``env``: the state's Env."""
    if not FLEET_ENTRY.on(s):
        return frozenset()
    key = "fleet_alone"
    if key not in env.memo:
        m = load_map()
        enemy = env.enemy(COMMUNIST)   # the hexes holding Allied units other than air units
        out = []
        for loc, here in env.types_at(ALLIED).items():
            if loc in enemy and not m.is_zone(loc) and m.hexes[loc].is_land and _seas(loc) \
                    and {t for _, t in here if _holds(t)} == {"us_fleet"}:
                out.append(loc)
        env.memo[key] = frozenset(out)
    return env.memo[key]


def _holds(type_id: str) -> bool:
    """A unit of this type stands in its hex (not an air unit: 11, zones._type_facts)."""
    return not _type_facts(type_id)[2]


def _seas(loc: str) -> list[str]:
    m = load_map()
    return [n for n in m.hex_neighbours(loc) if m.hexes[n].is_sea]


def to_sea(s: dict, uid: str, ctx) -> None:
    """14.2.1: the fleet moves one hex out to sea (the first sea hex next to it, in the map's order)."""
    u = s["units"][uid]
    seas = _seas(u["loc"])
    if seas:
        ctx.emit({"t": "fleet-to-sea", "unit": uid, "from": u["loc"], "to": seas[0], "rule": "NTND 14.2.1"})
        u["loc"] = seas[0]


def entered(s: dict, loc: str, ctx) -> None:
    """14.2.1 (ntnd/5 on): a Communist ground move ended in ``loc``: a fleet there alone moves out to sea."""
    if not FLEET_ENTRY.on(s):
        return
    here = [u for u in s["units"].values() if u["status"] == "map" and u["loc"] == loc and u["side"] == ALLIED
            and _holds(u["type"])]
    if len(here) == 1 and here[0]["type"] == "us_fleet":
        to_sea(s, here[0]["id"], ctx)


def may_mine(s: dict) -> bool:
    """At the end of an Allied movement phase: the fleet entered the Haiphong zone by this phase's
    move and the harbor is not mined yet (``fleet`` in force)."""
    if not in_force(s, "fleet") or mined(s) or phase_id(s) != A_MOVE:
        return False
    f = _fleet(s)
    return f is not None and f["loc"] == ZONE and f["id"] in s["phase"].get("moved", ())


def end_of_movement(s: dict) -> bool:
    """answers' Allied "done" of the movement phase: True if the ``mine`` question comes first."""
    if may_mine(s):
        s["phase"]["sub"] = "mine"
        return True
    return False


def decision(s: dict) -> dict:
    return {"seat": ALLIED, "kind": "mine",
            "prompt": "NTND 14.2.2: the fleet is in the Haiphong zone: place the mine counter, or done"}


def mine(s: dict, ctx) -> None:
    """14.2.2: the mine counter is placed; (1) one Allied die of political points lost."""
    if s["phase"].get("sub") != "mine" or not may_mine(s):
        raise Rejection(Code.ILLEGAL_MINING, "NTND 14.2.2: the fleet mines Haiphong at the end of the Allied movement "
                        "phase in which it entered the zone, once", rule=RULE)
    s["haiphong_mined"] = True
    s.setdefault("fleet", {"mined_turn": 0, "deferred_supply": 0})["mined_turn"] = s["turn"]
    r = ctx.roll("d6", "NTND 14.2.2 adverse world reaction").result
    ctx.emit({"t": "haiphong-mined", "rule": RULE, "unit": _fleet(s)["id"], "roll": r, "turn": s["turn"]})
    score(s, ctx, -r, RULE, "haiphong-mined", roll=r)
    s["phase"]["sub"] = None
    s["phase"]["done"] = True


def supply_zone(s: dict, zone: str, ctx) -> bool:
    """4.1.4 with Haiphong mined: the supply unit due at Haiphong is placed in China on the turn
    following (recruitment.start_communist_recruitment). True if it was deferred."""
    if zone != ZONE or not (in_force(s, "fleet") and mined(s)):
        return False
    st = s.setdefault("fleet", {"mined_turn": 0, "deferred_supply": 0})
    st["deferred_supply"] = st.get("deferred_supply", 0) + 1
    ctx.emit({"t": "supply-deferred", "rule": RULE, "from": ZONE, "loc": "CHINA", "arrive": s["turn"] + 1})
    return True


def deferred_supplies(s: dict) -> int:
    """The supply units deferred last turn (placed in China now); the count is reset."""
    st = s.get("fleet")
    if not st or not st.get("deferred_supply"):
        return 0
    n = st["deferred_supply"]
    st["deferred_supply"] = 0
    return n


# ---------------------------------------------------------------------------
# the decision (decisions.DECISIONS)
# ---------------------------------------------------------------------------

def _legal(s, d) -> list:
    from ..sequence.kinds import _done, cmd
    return ([cmd("mine_haiphong")] if may_mine(s) else []) + _done()


def _mine(s, seat, msg, ctx) -> None:
    mine(s, ctx)


def _done(s, seat, msg, ctx) -> None:
    s["phase"]["sub"] = None
    s["phase"]["done"] = True


DECISIONS_FLEET = [
    DecisionKind("mine", RULE, {"mine_haiphong": _mine, "done": _done}, _legal,
                 "place the mine counter in the Haiphong zone (the fleet entered it this phase), or done",
                 seat=ALLIED),
]
