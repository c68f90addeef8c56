"""No Trumpets No Drums rule 10 (neutral states), 8.9.4-8.9.5, 19.3.3's charge and 28.11 (the secret
war in Laos): in force where the scenario has the ``neutrality`` feature (the campaign); the Tet
scenario keeps its closed borders (national.may_enter, battles.attack_options).

State: ``s["neutral"]`` the sorted still-neutral countries (setup; a country leaves it when it joins
the Allies, 10.5, 10.6); ``s["neutrality"]`` (created here, in force only):

    charged     {"<side>:<country>": turn}  the last turn a violation was charged (10.2.1, 10.2.3, 10.8)
    joined      {country: {"side", "turn", "rule"}}  neutrality ended (10.5.1, 10.5.2, events 21)
    conquered   {country: turn}  conquered by the Communists (10.6)
    nva_attack  the last turn one NVA unit attacked in Laos without a violation (28.11.3)
    nv_entered  the last turn Allied ground units entered North Vietnam (10.8, 27.1.2)
    zoc         {side: [country]}  ZOC extensions announced across borders (10.2, 8.5.1, 10.8;
                zones.zoc_closed reads it)

Everything here is public: a violation is made by face-up units only (10.2: "a face up unit"), so an
inverted stack moving, standing or being revealed in a neutral country charges nothing by itself and
nothing here reads what a marker holds; a stack revealed there by Allied action is charged at the end
of its side's next movement phase if it stays face up (10.2.2), by which time it is public.
"""
from __future__ import annotations

from ....decisions import DecisionKind
from ....errors import Rejection
from ..politics import hearts
from ..politics.election_results import peace_party
from ..components.features import in_force
from ..components.map import load_map
from ..politics.victory import score
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_REINFORCE, COMBAT, MOVEMENT, phase_id
from ..components.pieces import load_counters
from ....codes import Code

NATIVE = {"LA": ("LAO", "PL"), "CA": ("KHMER", "KR")}     # each neutral's own forces (10.3, 8.9.2)
#: 10.2.3.1 (2) / 28.11.1: Allied units that enter and fight in Laos without a violation
SECRET_WAR = frozenset({"us_green_beret", "us_soa", "montagnard", "thai_333_ranger"})
NV_COST = 10                                               # 10.8: points per turn of invasion
COUP_FACTOR = {True: 2, False: 5}                          # 10.5.2: controlled / not controlled


def _st(s: dict) -> dict:
    return s.setdefault("neutrality", {"charged": {}, "joined": {}, "conquered": {}, "nva_attack": 0,
                                       "nv_entered": 0})


def _type(s: dict, uid: str):
    return load_counters().type(s["units"][uid]["type"])


def violates(s: dict, uid: str, country: str | None) -> bool:
    """Would face-up unit ``uid`` violate ``country``'s neutrality by entering it, standing in it at
    the end of its movement phase or attacking into it (10.2)? Never once the country is no longer
    neutral (8.9.5); never its own forces (10.3); Communist: only NVA non-supply units (8.9.4);
    Allied: not the 10.2.3.1 (2) / 28.11.1 units in Laos; air units fly strategic bombing and fleet
    operations only in this engine (10.2.3.1 (1))."""
    if country not in s["neutral"]:
        return False
    t = _type(s, uid)
    if t.category == "air" or t.nationality in NATIVE.get(country, ()):
        return False
    if s["units"][uid]["side"] == COMMUNIST:
        return t.nationality == "NVA" and t.id != "communist_supply"        # 8.9.4
    return not (country == "LA" and t.id in SECRET_WAR)                    # 10.2.3.1 (2), 28.11.1


def _invader(s: dict, uid: str) -> bool:
    """10.8: an Allied ground unit (not air, not the fleet or patrol boats)."""
    u = s["units"][uid]
    return u["side"] == ALLIED and _type(s, uid).category not in ("air", "naval")


def charge(s: dict, side: str, country: str, ctx, rule: str, by: str) -> bool:
    """Charge ``side`` for violating ``country`` this turn, once a turn (10.2.3): 10.2.1 one die of
    political points against him and the country's Hearts and Minds marker one box farther from his
    control unless he controls it; North Vietnam: 10 points (10.8). Returns whether it charged."""
    st = _st(s)
    key = f"{side}:{country}"
    if st["charged"].get(key) == s["turn"]:
        return False
    st["charged"][key] = s["turn"]
    ctx.emit({"t": "neutrality", "rule": rule, "country": country, "event": "violated", "side": side, "by": by})
    times = 2 if side == ALLIED and _us_violator(s, by) and peace_party(s) else 1   # 23.5: double for U.S.
    if country == "NV":
        score(s, ctx, -NV_COST * times, "NTND 10.8" + (", 23.5" if times == 2 else ""), "north-vietnam-invaded",
              country=country, by=by)
        return True
    r = ctx.roll("d6", f"NTND 10.2.1 {side} neutrality violation of {country}")
    score(s, ctx, -r.result * times if side == ALLIED else r.result,
          "NTND 10.2.1" + (", 23.5" if times == 2 else ""), "neutrality-violation", country=country, side=side, by=by)
    own = "allied_control" if side == ALLIED else "communist_control"
    if hearts.control(s, country) != own:
        hearts.move(s, country, "communist" if side == ALLIED else "allied", 1, ctx, "NTND 10.2.1")
    return True


def _us_violator(s: dict, by: str) -> bool:
    """Whether the violation was made by a U.S. unit (``by`` starts with the violating unit's id)."""
    u = s["units"].get(by.split(" ", 1)[0]) if by else None
    return bool(u and u["nat"] == "US")


def join_allies(s: dict, ctx, country: str, rule: str, boxes: int = 0, by: str = "") -> bool:
    """``country``'s neutrality ends: it joins the Allies (10.5, 10.6: never neutral again). The Allied
    player controls its forces from now (10.3 no longer binds them, 8.9.5 no charge for entering it);
    ``boxes`` moves its Hearts and Minds marker toward Allied control (10.5.1). The one way a country
    leaves ``s["neutral"]`` (also for random events 21: ``join_allies(s, ctx, "CA", "NTND 21 ...")``)."""
    if country not in s["neutral"]:
        return False
    s["neutral"] = [c for c in s["neutral"] if c != country]
    _st(s)["joined"][country] = {"side": ALLIED, "turn": s["turn"], "rule": rule}
    ctx.emit({"t": "neutrality", "rule": rule, "country": country, "event": "joined", "side": ALLIED, "by": by})
    if boxes:
        hearts.move(s, country, "allied", boxes, ctx, rule)
    return True


# ---------------------------------------------------------------------------
# movement: crossing a border (10.2), occupying a town (10.5.1), invading the North (10.8, 27.1.2)
# ---------------------------------------------------------------------------

def entered(s: dict, uid: str, frm: str | None, loc: str, ctx, how: str = "move") -> None:
    """Face-up unit ``uid`` moved from ``frm`` into ``loc`` by its own move or advance (not a retreat:
    19.3.3, 10.2.2)."""
    m = load_map()
    u = s["units"][uid]
    if u["inv"] or u["status"] != "map":
        return
    here = m.country_of(loc)
    crossed = frm is None or m.country_of(frm) != here
    if crossed and violates(s, uid, here):
        charge(s, u["side"], here, ctx, "NTND 10.2", f"{uid} {how}")
    if crossed and here == "NV" and _invader(s, uid):
        charge(s, ALLIED, "NV", ctx, "NTND 10.8", f"{uid} {how}")
        st = _st(s)
        if st["nv_entered"] != s["turn"]:
            st["nv_entered"] = s["turn"]
            from ..politics import aid
            aid.invasion_roll(s, ctx)                                      # 27.1.2: rolled at once
    t = _type(s, uid)
    if u["side"] == COMMUNIST and here in s["neutral"] and not m.is_zone(loc) and m.hex(loc).town \
            and t.is_ground_combat and t.id != "communist_dummy":
        # 10.5.1: a Communist face-up unit enters a town or city: the country joins the Allies
        join_allies(s, ctx, here, "NTND 10.5.1", 2 if t.nationality == "NVA" else 1, f"{uid} entered {loc}")


def after_move(s: dict, seat: str, piece: str, frm: str | None, path: list[str], ctx) -> None:
    """After a move command: each border a face-up unit crossed on the hexes it walked (10.2, 10.8)
    and each neutral town it entered (10.5.1). An inverted marker's move charges nothing (10.2: face
    up units), even if it flips on the way (8.5.2: forced to flip, 10.2.2)."""
    if not in_force(s, "neutrality") or piece not in s["units"]:
        return
    u = s["units"][piece]
    if u["status"] != "map" or u["inv"]:
        return
    m = load_map()
    steps = [h for h in path if h in m.hexes or m.is_zone(h)]
    if u["loc"] in steps:
        steps = steps[:steps.index(u["loc"]) + 1]   # an ambush may have stopped it on the way (20.2)
    here = frm
    for h in steps:
        entered(s, piece, here, h, ctx)
        here = h


def after_advance(s: dict, units: list[str], frm: dict[str, str], ctx) -> None:
    """19.4: advancing after combat is entering (10.2, 10.5.1)."""
    if not in_force(s, "neutrality"):
        return
    for uid in units:
        if s["units"][uid]["status"] == "map":
            entered(s, uid, frm.get(uid), s["units"][uid]["loc"], ctx, "advance")


def after_flip(s: dict, uids: list[str], ctx) -> None:
    """A Communist stack turned face up by its owner (6.2) in a neutral town occupies it (10.5.1; only
    units revealed by Allied action do not count)."""
    if not in_force(s, "neutrality"):
        return
    m = load_map()
    for uid in uids:
        u = s["units"][uid]
        c = m.country_of(u["loc"])
        t = _type(s, uid)
        if c in s["neutral"] and not m.is_zone(u["loc"]) and m.hex(u["loc"]).town and t.is_ground_combat:
            join_allies(s, ctx, c, "NTND 10.5.1", 2 if t.nationality == "NVA" else 1, f"{uid} revealed in {u['loc']}")


def end_of_movement(s: dict, side: str, ctx) -> None:
    """10.2.2 / 19.3.3: face-up units left in a neutral country at the end of their side's movement
    phase violate it (units that retreated or were revealed there had this phase to leave or
    re-invert); 10.8: Allied ground units that remained in North Vietnam."""
    m = load_map()
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side or u["inv"]:
            continue
        c = m.country_of(u["loc"])
        if violates(s, uid, c):
            charge(s, side, c, ctx, "NTND 10.2.2", f"{uid} remained")
        elif c == "NV" and _invader(s, uid):
            charge(s, ALLIED, "NV", ctx, "NTND 10.8", f"{uid} remained")
    for c in zoc_announced(s, side):                                      # 10.2.3: each turn it stands
        charge(s, side, c, ctx, "NTND 10.8" if c == "NV" else "NTND 10.2", "zoc extended")


# ---------------------------------------------------------------------------
# 10.2 (third case), 8.5.1, 10.8: a player designates that his ZOCs extend across a border
# ---------------------------------------------------------------------------

def zoc_announced(s: dict, side: str) -> list[str]:
    """The countries into which ``side`` has announced that his ZOCs extend and that are still closed
    to them by default (neutral; North Vietnam for the Allied player)."""
    st = s.get("neutrality", {}).get("zoc", {})
    return [c for c in st.get(side, ()) if c in s["neutral"] or (c == "NV" and side == ALLIED)]


def zoc_options(s: dict, side: str) -> list[tuple[str, bool]]:
    """(country, extend) a player may announce in his movement phase: extend his ZOCs across the
    border of each neutral country (10.2; North Vietnam too for the Allied player, 10.8), or take
    back an extension he announced (reading: it stands, and is charged each turn, until he does)."""
    if not in_force(s, "neutrality"):
        return []
    closed = sorted(set(s["neutral"]) | ({"NV"} if side == ALLIED else set()))
    on = set(zoc_announced(s, side))
    return [(c, c not in on) for c in closed]


def announce_zoc(s: dict, side: str, country: str, extend: bool, ctx) -> None:
    """10.2: "a player announces that the zone of control of any of his units extends across a
    border": a violation, charged now and each later turn it stands (10.2.1, 10.2.3; North Vietnam:
    10.8's 10 points, ZOC extensions "count as invasions"); taking it back closes the border to his
    ZOCs again (8.5.1). Public (ZOCs are face-up units')."""
    if (country, extend) not in zoc_options(s, side):
        raise Rejection(Code.ILLEGAL_ANNOUNCEMENT, "NTND 10.2/8.5.1/10.8: a ZOC extension across the border of a neutral "
                        "country (or, Allied, North Vietnam) not yet announced, or one announced to take back",
                        rule="NTND 10.2", input=country)
    zoc = _st(s).setdefault("zoc", {})
    now = set(zoc.get(side, ())) | {country} if extend else set(zoc.get(side, ())) - {country}
    zoc[side] = sorted(now)
    ctx.emit({"t": "neutrality", "rule": "NTND 10.2", "country": country, "side": side,
              "event": "zoc-extended" if extend else "zoc-withdrawn"})
    if extend:
        charge(s, side, country, ctx, "NTND 10.8" if country == "NV" else "NTND 10.2", "zoc extended")


# ---------------------------------------------------------------------------
# attacks: 10.2 across a border, 10.4, 10.5.1 attacking a neutral unit, 28.11.3
# ---------------------------------------------------------------------------

def may_attack_from(s: dict, uid: str) -> bool:
    """10.3.1: Cambodian units cannot attack while Cambodia is neutral (the Allied player may use
    Laotian units, 10.4)."""
    return not (in_force(s, "neutrality") and _type(s, uid).nationality == "KHMER" and "CA" in s["neutral"])


#: 28.11.2: Laotian rangers and airmobile units attack inverted Communist units in Laos (28.11.1: so do the
#: secret-war units)
HUNTERS = SECRET_WAR | {"lao_ranger", "lao_paracommando"}


def hunters(s: dict, side: str, target: str, attackers: list[str]) -> tuple[str, ...]:
    """28.11.1-28.11.2: of the Allied units that may attack ``target`` (a location holding inverted
    Communist units, which 19.1 otherwise forbids), those that may attack it: in Laos, the secret-war
    units and Laotian rangers and airmobile units. Depends only on where the markers are."""
    if side != ALLIED or not in_force(s, "neutrality") or load_map().country_of(target) != "LA":
        return ()
    return tuple(a for a in attackers if s["units"][a]["type"] in HUNTERS)


def may_flip(s: dict, u: dict) -> bool:
    """19.1.2 flips inverted units next to Allied ground combat units "and may be attacked": 10.3.2, a
    Laotian unit of a neutral Laos may not attack inverted units, so it flips none (its rangers and
    airmobile units may, 28.11.2)."""
    return not (in_force(s, "neutrality") and "LA" in s["neutral"] and _type(s, u["id"]).nationality == "LAO"
                and u["type"] not in HUNTERS)


def hunted_markers(s: dict, side: str, target: str) -> list[str]:
    """The markers at ``target`` an Allied attack allowed by ``hunters`` turns face up first."""
    if side != ALLIED or not in_force(s, "neutrality") or load_map().country_of(target) != "LA":
        return []
    return sorted((m for m, v in s["markers"].items() if v["loc"] == target), key=lambda x: int(x[1:]))


def on_attack(s: dict, side: str, target: str, attackers: list[str], defenders: list[str], ctx) -> None:
    """A battle begins (19.2): face-up attackers attacking across a border into a neutral country
    violate it (10.2); a Communist attack on a neutral country's own units makes it join the Allies
    (10.5.1: one box of Hearts and Minds for guerrillas, two for NVA) except, in Laos, an attack by
    Pathet Lao and at most one NVA unit a turn (28.11.3)."""
    if not in_force(s, "neutrality"):
        return
    m = load_map()
    country = m.country_of(target)
    if country not in s["neutral"]:
        return
    st = _st(s)
    nats = [_type(s, a).nationality for a in attackers]
    nva = sum(1 for n in nats if n == "NVA")
    if side == COMMUNIST and country == "LA" and all(n in ("PL", "NVA") for n in nats) and nva <= 1 \
            and (nva == 0 or st["nva_attack"] != s["turn"]):
        if nva:
            st["nva_attack"] = s["turn"]
        ctx.emit({"t": "neutrality", "rule": "NTND 28.11.3", "country": country, "event": "exempt", "side": side,
                  "by": f"attack on {target}"})
        return
    for a in attackers:
        if m.country_of(s["units"][a]["loc"]) != country and violates(s, a, country):
            charge(s, side, country, ctx, "NTND 10.2", f"{a} attacked {target}")
            break
    if side == COMMUNIST and any(_type(s, d).nationality in NATIVE[country] for d in defenders):
        join_allies(s, ctx, country, "NTND 10.5.1", 2 if nva else 1, f"attack on {target}")


# ---------------------------------------------------------------------------
# 10.5.2 the Allied coup (a decision at the start of the Allied reinforcement phase)
# ---------------------------------------------------------------------------

def start_reinforcement(s: dict) -> None:
    """3.2.1 / 10.5.2: the Allied player may launch a coup first, in a still-neutral Laos or Cambodia."""
    if in_force(s, "neutrality"):
        s["phase"]["coup"] = [c for c in s["neutral"] if c in NATIVE]


def phase_decision(s: dict) -> dict | None:
    if phase_id(s) == A_REINFORCE and s["phase"].get("coup"):
        return {"seat": ALLIED, "kind": "coup",
                "prompt": "NTND 10.5.2: launch a coup in " + " or ".join(s["phase"]["coup"]) + ", or done"}
    return None


def coup(s: dict, country: str, ctx) -> None:
    """10.5.2: two dice; x2 political points if the Allies control the country (Hearts and Minds), else
    x5; the country joins the Allies."""
    if country not in s["phase"].get("coup", ()):
        raise Rejection(Code.ILLEGAL_COUP, "NTND 10.5.2: a coup makes a still-neutral Laos or Cambodia an Allied "
                        "state, at the start of the Allied reinforcement phase", rule="NTND 10.5.2")
    r = ctx.roll("2d6", f"NTND 10.5.2 Allied coup in {country}")
    controlled = hearts.control(s, country) == "allied_control"
    cost = COUP_FACTOR[controlled] * r.result
    s["phase"]["coup"] = [c for c in s["phase"]["coup"] if c != country]   # the other may follow
    score(s, ctx, -cost, "NTND 10.5.2", "coup", country=country, dice=r.result, controlled=controlled)
    join_allies(s, ctx, country, "NTND 10.5.2", 0, "coup")


def coup_done(s: dict) -> None:
    s["phase"]["coup"] = []


# ---------------------------------------------------------------------------
# 10.6 conquest
# ---------------------------------------------------------------------------

def conquest(s: dict, ctx) -> None:
    """10.6: a previously neutral state is conquered when face-up Communist units occupy every town,
    city and off-board zone of it and no ground combat unit of its own is on the board: its units
    leave the game (and the Thai 333 Ranger with Laos, 28.6.2)."""
    st = _st(s)
    m = load_map()
    held = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == COMMUNIST and not u["inv"]
            and load_counters().type(u["type"]).is_ground_combat and u["type"] != "communist_dummy"}
    for country in sorted(st["joined"]):
        if country in st["conquered"] or country not in NATIVE:
            continue
        places = sorted([h for h, x in m.hexes.items() if x.country == country and x.town]
                        + [z for z, x in m.zones.items() if x.country == country])
        own = NATIVE[country][0]
        if any(p not in held for p in places) or any(
                u["status"] == "map" and load_counters().type(u["type"]).nationality == own
                and load_counters().type(u["type"]).is_ground_combat for u in s["units"].values()):
            continue
        st["conquered"][country] = s["turn"]
        ctx.emit({"t": "neutrality", "rule": "NTND 10.6", "country": country, "event": "conquered", "side": COMMUNIST})
        for uid in sorted(s["units"]):
            u = s["units"][uid]
            t = load_counters().type(u["type"])
            if (t.nationality == own or (country == "LA" and t.id == "thai_333_ranger")) and u["status"] != "out":
                u.update(status="out", loc=None)
                ctx.emit({"t": "withdrawn", "unit": uid, "rule": "NTND 10.6" if t.nationality == own else "NTND 28.6.2"})


def phase_end(s: dict, phase: str, ctx) -> None:
    """On leaving a phase (phases.py, flow.neutrality_end): the end of a movement phase (10.2.2, 10.8), of a combat phase (10.6)."""
    if not in_force(s, "neutrality"):
        return
    if phase in MOVEMENT:
        end_of_movement(s, MOVEMENT[phase], ctx)
    elif phase in COMBAT:
        conquest(s, ctx)


# ---------------------------------------------------------------------------
# the decision (decisions.DECISIONS)
# ---------------------------------------------------------------------------

def _coup_legal(s, d) -> list:
    from ..sequence.kinds import _done, cmd
    return [cmd("coup", country=c) for c in s["phase"].get("coup", ())] + _done()


def _coup_coup(s, seat, msg, ctx) -> None:
    coup(s, msg.country, ctx)


def _coup_done(s, seat, msg, ctx) -> None:
    coup_done(s)


DECISIONS_NEUTRAL = [
    DecisionKind("coup", "NTND 10.5.2", {"coup": _coup_coup, "done": _coup_done}, _coup_legal,
                 "a coup in each still-neutral Laos or Cambodia, or done (no coup this turn)", seat=ALLIED),
]
