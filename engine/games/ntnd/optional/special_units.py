"""No Trumpets No Drums 28.2, 28.3, 28.5, 28.6: special units (the ``special_units`` feature; 28.7 and
28.8 are special.py, 28.4 hearts_phases.py, 28.9 vcbases.py, 28.11 neutrality.py).

28.2   The 5th Special Forces Mobile Strike Force (5SFM) operates as an airmobile unit (counters.json
       us_5sfm); 28.2.1: morale 3 in a Green Beret zone of influence (combat.current_morale, every
       scenario) and reaction moves (8.8.1) only into a hex of a Green Beret zone of influence
       (``reaction_ok``, read by reaction.allied_reaction_options). The zone is the one 15.2.2 reads
       (``green_beret_zoi``, as battles.gb_zoi: Green Berets and, 28.4.2, Phoenix units).
28.3.1 The USMC III regiment (scenario_campaign.json reinforcements.allied_purchasable, rule 28.3.1) is
       recruited on any turn from its ``from_turn`` for two U.S. replacement points (replacements.spend),
       and returned the same way if eliminated (then as a U.S. unit replaced, 4.2.3: political points).
       It arrives the next reinforcement phase (4.2.7) at its corps' headquarters (its ``enter``).
28.3.2 Optional (the scenario's ``optional_rules_in_force`` lists "28.3.2"; the campaign does not): the
       U.S. 3/82 Airborne and 1/5 Mech are not received as scheduled but recruited the same way.
28.5   ARVN Ranger groups stay attached to their corps of placement in 1965; from January/February 1966
       one a turn, from January/February 1969 two a turn, may change their corps of assignment (the
       campaign's dated rules 28.5; the ``reassign_ranger`` answer of the "reinforce" kind).
28.6   The Thai 333 Ranger functions as a ranger (counters.json thai_333_ranger); 28.6.2: replaced by
       the normal rules (4.2.3: it returns the next turn at Luang Prabang or Vientiane, its record's
       ``enter``, recruitment.reinforcement_options); withdrawn permanently when the Communists conquer
       Laos (10.6, neutrality's ``conquered``), wherever it is (``laos_conquered``).

State: the units' own records (``status`` "mix" for an unbought special unit, ``u["bought"]``);
``s["flags"]["rangers"]`` = {"turn", "units"}: the Rangers reassigned this turn. All public.
"""
from __future__ import annotations

from ....errors import Rejection
from ..politics import victory as politics, vietnamization
from ..forces import replacements
from ..politics.elections import peace_party
from ..components.features import dated, in_force
from ..components.map import load_map
from ..components.state import ALLIED
from ..components.pieces import load_counters, unit_name
from ....codes import Code

SV_CORPS = ("I", "II", "III", "IV")
COST = {"US": 2}                                                       # 28.3.1
OPTIONAL_UNITS = ("us-3-82", "us-1-5mech")                             # 28.3.2
RANGERS_PER_TURN = {"January/February 1966": 1, "January/February 1969": 2}   # 28.5
RULE_III = "NTND 28.3.1"


def on(s: dict) -> bool:
    return in_force(s, "special_units")


def optional(s: dict, rule: str) -> bool:
    return rule in s["scenario"].get("optional_rules_in_force", ())


# ---------------------------------------------------------------------------
# 28.2.1 the 5SFM's reaction moves
# ---------------------------------------------------------------------------

def reaction_ok(s: dict, uid: str, to: str) -> bool:
    """28.2.1: the 5SFM reacts only into a hex of a Green Beret zone of influence."""
    if not on(s) or s["units"][uid]["type"] != "us_5sfm":
        return True
    return to in green_beret_zoi(s)


def green_beret_zoi(s: dict) -> frozenset:
    """The hexes within two of a Green Beret (or, 28.4.2, a Phoenix unit: stacking class green_beret) on
    the map, as battles.gb_zoi reads them for 15.2.2 (not imported: battles imports recruitment)."""
    m = load_map()
    counters = load_counters()
    out: set[str] = set()
    for u in s["units"].values():
        if u["status"] == "map" and u["side"] == ALLIED and u["loc"] is not None and not m.is_zone(u["loc"]) \
                and counters.type(u["type"]).stacking_class == "green_beret":
            out.update(m.hexes_within(u["loc"], 2))
    return frozenset(out)


# ---------------------------------------------------------------------------
# 28.3.1 / 28.3.2 units recruited by paying points
# ---------------------------------------------------------------------------

def _purchasable(s: dict) -> list[dict]:
    from ..components.scenarios import SCENARIOS, load_scenario
    for name in SCENARIOS:
        sc = load_scenario(name)
        if sc["id"] == s["scenario"]["id"]:
            return [p for p in sc["reinforcements"].get("allied_purchasable", ()) if p["rule"] == "28.3.1"]
    return []


def start_reinforcement(s: dict) -> None:
    """flow.enter_a_reinforce: the 28.3.1 unit enters the counter mix from its first turn; under
    28.3.2 the 3/82 and 1/5 Mech leave the schedule for the mix (bought, not received)."""
    if not on(s):
        return
    from ..components.scenarios import group_of
    t = load_counters()
    for p in _purchasable(s):
        if p["id"] not in s["units"] and p["from_turn"] <= s["turn"]:
            tt = t.type(p["type"])
            u = {"id": p["id"], "type": p["type"], "nat": tt.nationality, "side": ALLIED,
                 "name": unit_name(p["id"], p["type"], p.get("name")), "group": "", "status": "mix", "loc": None,
                 "inv": False, "mk": None, "corps": p["enter"] if p["enter"] in SV_CORPS else None, "arrive": 0}
            u["group"] = group_of(u)
            s["units"][p["id"]] = u
    if optional(s, "28.3.2"):
        for uid in OPTIONAL_UNITS:
            u = s["units"].get(uid)
            if u is not None and u["status"] == "sched" and not u.get("bought"):
                u["status"] = "mix"


def _specials(s: dict) -> list[str]:
    out = [p["id"] for p in _purchasable(s)]
    if optional(s, "28.3.2"):
        out += list(OPTIONAL_UNITS)
    return [uid for uid in out if uid in s["units"]]


def is_special(s: dict, uid: str) -> bool:
    """A unit recruited by 28.3.1/28.3.2 (recruitment.purchase_options leaves it to ``purchase``)."""
    return on(s) and uid in _specials(s)


def purchase_options(s: dict) -> list[str]:
    """28.3.1: the unit (not in play, or eliminated) when two U.S. points are left."""
    if not on(s) or s["phase"].get("sub"):
        return []
    out = []
    for uid in _specials(s):
        u = s["units"][uid]
        if u["status"] not in ("mix", "dead") or replacements.available(s, "US") < COST["US"]:
            continue
        if u["status"] == "dead" and in_force(s, "elections") and peace_party(s):
            continue                                   # 23.4: no American unit is ever replaced
        out.append(uid)
    return out


def purchase(s: dict, uid: str, ctx) -> None:
    """28.3.1: two U.S. points; it arrives the next reinforcement phase (4.2.7) at its corps HQ."""
    if uid not in purchase_options(s):
        raise Rejection(Code.ILLEGAL_PURCHASE, "NTND 28.3.1: the USMC III (or, 28.3.2, the 3/82 and 1/5 Mech) is "
                        "recruited for two U.S. replacement points when not in play", rule=RULE_III)
    u = s["units"][uid]
    replacements.spend(s, "US", COST["US"], RULE_III)
    pp = 0
    if u["status"] == "dead":                          # returned to play: a U.S. unit replaced (4.2.3)
        pp = politics.add(s, vietnamization.us_replacement_pp(s, -2))
    u.update(status="sched", arrive=s["turn"] + 1, loc=None, bought=True)
    if in_force(s, "withdrawals"):
        u["paid"] = True                               # 23.3: paid for as a replacement
    ctx.emit({"t": "purchase", "unit": uid, "type": u["type"], "arrive": s["turn"] + 1, "pool": "US",
              "points": COST["US"], "pp": pp, "rule": RULE_III})


# ---------------------------------------------------------------------------
# 28.5 ARVN Ranger groups change corps
# ---------------------------------------------------------------------------

def rangers_allowed(s: dict) -> int:
    """28.5: Rangers that may change corps this turn (none in 1965; the campaign's dated rules)."""
    if not on(s):
        return 0
    return max([RANGERS_PER_TURN.get(d["text_date"], 0) for d in dated(s, "28.5")], default=0)


def _reassigned(s: dict) -> list[str]:
    r = s["flags"].get("rangers")
    return list(r["units"]) if r and r["turn"] == s["turn"] else []


def ranger_options(s: dict) -> list[tuple[str, str]]:
    if s["phase"].get("sub"):
        return []
    done = _reassigned(s)
    if len(done) >= rangers_allowed(s):
        return []
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["type"] == "arvn_ranger" and u["status"] == "map" and u["corps"] in SV_CORPS and uid not in done:
            out += [(uid, c) for c in SV_CORPS if c != u["corps"]]
    return out


def reassign_ranger(s: dict, uid: str, corps: str, ctx) -> None:
    if (uid, corps) not in ranger_options(s):
        raise Rejection(Code.ILLEGAL_REASSIGN, f"NTND 28.5: {rangers_allowed(s)} ARVN Ranger(s) a turn may change corps "
                        "now (none in 1965, one from 1966, two from 1969)", rule="NTND 28.5")
    u = s["units"][uid]
    old = u["corps"]
    u["corps"] = corps
    s["flags"]["rangers"] = {"turn": s["turn"], "units": _reassigned(s) + [uid]}
    ctx.emit({"t": "ranger-reassign", "unit": uid, "from": old, "corps": corps, "rule": "NTND 28.5"})


# ---------------------------------------------------------------------------
# 28.6.2 the Thai 333 leaves when Laos falls
# ---------------------------------------------------------------------------

def laos_conquered(s: dict, ctx) -> None:
    """28.6.2: Laos conquered by the Communists (10.6): the 333 is withdrawn permanently, wherever it is
    (on leaving every phase, phases.py, after neutrality's phase end)."""
    if not on(s) or "LA" not in s.get("neutrality", {}).get("conquered", {}):
        return
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["type"] == "thai_333_ranger" and u["status"] != "out":
            u.update(status="out", loc=None)
            ctx.emit({"t": "withdrawn", "unit": uid, "rule": "NTND 28.6.2"})
