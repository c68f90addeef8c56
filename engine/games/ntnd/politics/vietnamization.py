"""No Trumpets No Drums rule 24: Vietnamization (campaign game, ``in_force(s, "vietnamization")``).

State (ALLIED owns, others read through the functions below):

    s["vietnamization"]           None | "full" | "partial": the policy in effect (24.1)
    s["vietnamization_reversed"]  None | "full" | "partial": which policy was reversed (24.4), once
    s["election_extra_dice"]      dice added to the next election by a reversal (24.4.1, 24.4.2)

Declarations and reversals are Allied answers of the "policy" step that opens the Allied Reinforcement
and Replacement phase (replacements.DECISIONS_ALLIED). Effects on other rules are reads: the number
of Communist basic cadres (24.2.9, 24.3.4, 24.4.3: ``basic_cadres``, used by recruitment), the
Communist Aid die modifier (24.2.9, 24.3.4: ``aid_modifier``, for the aid rule 27), U.S. replacement
political cost (24.2.4, 24.4.1-24.4.2: ``us_replacement_pp``), U.S. entry caps (24.2.1, 24.4.5:
``may_enter``), election dice (24.2.7, 24.4.1-24.4.2: ``election_dice``), the Allied sudden-death
line (24.4.3: ``allied_wins_above``; the sudden-death line itself is politics_table's), and the air restriction (24.2.8: ``air_restricted``, read by
air_missions.py where the air war is in force).
"""
from __future__ import annotations

from ....errors import Rejection
from ..components.features import in_force
from ..components.pieces import POOL_OF_NAT, load_counters
from ....codes import Code

US_GROUND_CAP = 6        # 24.2.1: at most six U.S. ground combat units on the board
REVERSAL_RATE = 6        # 24.4.5: six U.S. units a turn after a reversal


def kind(s: dict) -> str | None:
    """The Vietnamization policy in effect (24.1): None, "full" or "partial"."""
    return s.get("vietnamization") if in_force(s, "vietnamization") else None


def reversed_(s: dict) -> str | None:
    return s.get("vietnamization_reversed") if in_force(s, "vietnamization") else None


def _us_ground(u: dict) -> bool:
    t = load_counters().type(u["type"])
    return u["nat"] == "US" and t.is_ground_combat


def american_units_in_play(s: dict) -> list[str]:
    """U.S. units on the map, in the air Available box or bought and awaiting arrival (23.3, 24.3.4)."""
    return [uid for uid in sorted(s["units"]) if s["units"][uid]["nat"] == "US"
            and (s["units"][uid]["status"] in ("map", "air") or s["units"][uid].get("paid"))]


def basic_cadres(s: dict) -> int:
    """The Communist basic cadres per turn (4.1.1: three): two under Full Vietnamization (24.2.9) and
    under Partial Vietnamization once every American unit is withdrawn (24.3.4); three again after a
    reversal (24.4.3)."""
    k = kind(s)
    if k == "full":
        return 2
    if k == "partial" and not american_units_in_play(s):
        return 2
    return 3


def aid_modifier(s: dict) -> int:
    """The modifier to the Communist Aid die rolls (27; 24.2.9: -2 full, 24.3.4: -1 partial)."""
    return {"full": -2, "partial": -1}.get(kind(s), 0)


def aid_at_once(s: dict) -> bool:
    """24.4.3: after a reversal the Communist player receives Soviet and Chinese aid at once."""
    return reversed_(s) is not None


HALF_COST_TYPES = ("arvn_militia", "khmer_militia", "montagnard")   # 24.2.6


def half_cost(s: dict, type_id: str) -> bool:
    """24.2.6: under Full Vietnamization ARVN militia, Cambodian militia and Montagnards cost half a
    replacement point (the other half is saved, 4.2.6)."""
    return type_id in HALF_COST_TYPES and kind(s) == "full"


def air_restricted(s: dict) -> bool:
    """24.2.8: under Full Vietnamization Allied air units over North Vietnam, China or a neutral
    country cost one political point per country per turn (charged by air_missions.py, 11)."""
    return kind(s) == "full"


def us_replacement_pp(s: dict, default: int) -> int:
    """Political points of replacing one U.S. unit from the dead pile (4.2.3: ``default`` = -2):
    none under Full Vietnamization (24.2.4), three after a reversal (24.4.1, 24.4.2)."""
    if not in_force(s, "vietnamization"):
        return default
    if reversed_(s):
        return -3
    if kind(s) == "full":
        return 0
    return default


def allied_wins_above(s: dict, default: int) -> int:
    """24.4.3: after a reversal the Allied player needs 300 political points to win."""
    if reversed_(s):
        return s["scenario"]["victory"]["sudden_death"].get("allied_if_above_after_reversal", 300)
    return default


def may_enter(s: dict, u: dict) -> bool:
    """Whether a scheduled (or bought) Allied unit may be placed in this reinforcement phase: its turn
    has come (4.2.1, 4.2.7); under Full Vietnamization a U.S. ground combat unit only while fewer than
    six are on the board, but any of them at once (24.2.1: "any six units ... immediately available");
    after a reversal U.S. units come at six a turn (24.4.5)."""
    due = u["arrive"] <= s["turn"]
    if not in_force(s, "vietnamization") or u["nat"] != "US":
        return due
    if kind(s) == "full" and _us_ground(u):
        on_board = sum(1 for v in s["units"].values() if v["status"] == "map" and _us_ground(v))
        return on_board < US_GROUND_CAP
    if reversed_(s):
        placed = [x for x in s["phase"].get("placed", []) if s["units"][x]["nat"] == "US"]
        return due and len(placed) < REVERSAL_RATE
    return due


def declare_options(s: dict) -> list[str]:
    """The declarations the Allied player may make now (24.2, 24.3, 24.4.4)."""
    from . import election_results as elections
    out = []
    if not in_force(s, "vietnamization"):
        return out
    k = kind(s)
    if k is None and reversed_(s) is None:
        if s["turn"] <= s["scenario"]["vietnamization"]["full"]["declare_by_turn"]:
            out.append("full")                                   # 24.2: before January/February 1966
        if not elections.peace_party(s):
            out.append("partial")                                # 24.3: not after a peace-party win
    if k is not None and reversed_(s) is None and not s.get("vietnamization_forced") \
            and not elections.peace_party(s) and not elections.decided(s, 1972):
        out.append("reverse")                                    # 24.4, 24.4.4 (23.8: never reversed)
    return out


def declare(s: dict, what: str, ctx, forced_by: str = "") -> None:
    """Declare ``what`` ("full", "partial", "reverse") with a public "vietnamization" event."""
    if not forced_by and what not in declare_options(s):
        raise Rejection(Code.ILLEGAL_DECLARATION, {
            "full": "NTND 24.2: Full Vietnamization is declared once, before January/February 1966",
            "partial": "NTND 24.3: Partial Vietnamization is declared once, never after a peace-party win",
            "reverse": "NTND 24.4.4: Vietnamization is reversed once, never after a lost election or after the "
                       "1972 election (nor a Partial Vietnamization forced by 23.8)"}.get(
            what, "NTND 24.1: declare full, partial or reverse"), rule="NTND 24")
    if what == "reverse":
        old = s["vietnamization"]
        s["vietnamization"] = None
        s["vietnamization_reversed"] = old
        # 24.4.1: one extra die at the next election (partial); 24.4.2: an extra pair (full)
        s["election_extra_dice"] = 2 if old == "full" else 1
        ctx.emit({"t": "vietnamization", "action": "reversed", "kind": old, "turn": s["turn"],
                  "rule": "NTND 24.4", "extra_election_dice": s["election_extra_dice"],
                  "allied_wins_above": allied_wins_above(s, 250), "communist_basic_cadres": 3})
        return
    s["vietnamization"] = what
    if forced_by:
        s["vietnamization_forced"] = True
    ev = {"t": "vietnamization", "action": "declared", "kind": what, "turn": s["turn"],
          "rule": "NTND " + ("24.2" if what == "full" else "24.3"), "communist_basic_cadres": basic_cadres(s),
          "aid_modifier": aid_modifier(s)}
    if forced_by:
        ev["forced_by"] = forced_by
    if what == "full":
        ev["air_restriction"] = "NTND 24.2.8: one political point per country per turn for Allied air over " \
                                "North Vietnam, China or neutral countries"
    ctx.emit(ev)


def cancel_partial(s: dict, ctx) -> None:
    """24.3: a peace-party win cancels the benefits of Partial Vietnamization at once."""
    if kind(s) == "partial":
        s["vietnamization"] = None
        ctx.emit({"t": "vietnamization", "action": "cancelled", "kind": "partial", "turn": s["turn"],
                  "rule": "NTND 24.3"})


def attack_cost(s: dict, attackers: list[str], ctx) -> None:
    """24.4.6: under Full or Partial Vietnamization an attack by a force holding U.S. or SEATO ground
    units costs one political point."""
    if kind(s) is None:
        return
    from .victory import score
    for uid in attackers:
        u = s["units"][uid]
        if POOL_OF_NAT.get(u["nat"]) in ("US", "SEATO") and u["nat"] != "MTG" \
                and load_counters().type(u["type"]).is_ground_combat:
            score(s, ctx, -1, "NTND 24.4.6", "vietnamization-attack", unit=uid)
            return


# 24.3.5: U.S. firebases transferred to the ARVN (and U.S. helicopter gunships: TRANSFERS below, where
# the air war is in force). A transferred firebase is an ARVN firebase while it stands (its record's type and
# nationality: every rule reads them, 5.6.2, 13.1, 23.3/24.3.1 withdrawals, 22.4); eliminated, its
# counter goes back to the U.S. pile (``transferred`` keeps the type; politics.eliminate), so only a U.S.
# point replaces it.
TRANSFER_FROM, TRANSFER_TO = "us_firebase", "arvn_firebase"
# the same for U.S. helicopter gunships (air_war: air units in play have status "air"; a transferred one
# is a VNAF helicopter for every air rule, 11.1.4, 11.7; eliminated, a U.S. counter again: air.dead)
TRANSFERS = {TRANSFER_FROM: (TRANSFER_TO, "map"), "us_helicopter": ("arvn_helicopter", "air")}


def transfer_options(s: dict) -> list[str]:
    """24.3.5: under Partial Vietnamization, each U.S. firebase on the map (in the policy step), and each
    U.S. helicopter gunship in play where the air war is in force."""
    if kind(s) != "partial":
        return []
    return [uid for uid in sorted(s["units"]) if s["units"][uid]["type"] in TRANSFERS
            and s["units"][uid]["status"] == TRANSFERS[s["units"][uid]["type"]][1]
            and (s["units"][uid]["type"] == TRANSFER_FROM or in_force(s, "air_war"))]


def transfer(s: dict, uid: str, ctx) -> None:
    if uid not in transfer_options(s):
        raise Rejection(Code.ILLEGAL_TRANSFER, "NTND 24.3.5: under Partial Vietnamization a U.S. firebase on the map "
                        "(or a U.S. helicopter gunship) may be transferred to the ARVN", rule="NTND 24.3.5", input=uid)
    u = s["units"][uid]
    frm = u["type"]
    to = TRANSFERS[frm][0]
    u.update(type=to, nat=load_counters().type(to).nationality, transferred=frm)
    ctx.emit({"t": "transferred", "unit": uid, "from": frm, "to": to, "loc": u["loc"],
              "rule": "NTND 24.3.5"})

