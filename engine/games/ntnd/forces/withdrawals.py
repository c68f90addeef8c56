"""No Trumpets No Drums 4.3.1, 23.3-23.3.3, 23.6, 23.7, 24.3.1-24.3.3: withdrawals chosen by the
Allied player (campaign game, ``in_force(s, "withdrawals")``). The scenario's scheduled ones (4.3.3
and the authored recalls) stay in recruitment.start_allied_reinforcement.

At the start of each Allied Reinforcement and Replacement phase ``start`` sets the phase's
obligations in ``s["phase"]["wd"]``:

    peace    after a peace-party win, while American units remain in play: one die (the Allied
             player's: "the American player must roll one die", 23.3) = U.S. units to withdraw now
             (our reading of "during the next Allied reinforcement phase": rolled at its start)
    seato    23.6: peace party and the track below 100: one SEATO unit must go
    partial  24.3.1: under Partial Vietnamization at least two U.S./SEATO units a turn
    done     the units withdrawn this phase (at most ten, 23.3.3 / 24.3.1)

A unit may be withdrawn (4.3.1) from a town or city or an off-board zone of Laos (the three Lao zones
lie off the west map edge: our reading of "a zone in Laos adjacent to the west map edge"); air, fleet
and Green Beret units wherever they are. Under the peace party U.S. units "already paid for as
replacements" (bought, not yet arrived) count too (23.3). A withdrawn unit is "out" for good (4.3.2,
23.7): nothing buys or schedules it again.
"""
from __future__ import annotations

from ....errors import Rejection
from ..politics import elections, vietnamization as V
from ..components.features import in_force
from ..components.map import load_map
from ..politics.victory import score
from ..components.pieces import load_counters
from ....codes import Code

MAX_PER_TURN = 10     # 23.3.3, 24.3.1
PARTIAL_MIN = 2       # 24.3.1


def _seato(nat: str) -> bool:
    return nat in ("ROK", "ANZAC", "THAI", "SEATO")


def start(s: dict, ctx) -> None:
    """The phase's withdrawal obligations (23.3, 23.6, 24.3.1)."""
    if not in_force(s, "withdrawals"):
        return
    wd = {"peace": 0, "seato": 0, "partial": 0, "done": [], "us": 0}
    if elections.peace_party(s) and V.american_units_in_play(s):
        r = ctx.roll("d6", "NTND 23.3 Allied die: American units to withdraw")
        wd["peace"] = r.result
        ctx.emit({"t": "withdrawal-due", "rule": "NTND 23.3", "units": r.result, "nationality": "US"})
        if s["pp"] < elections.WAR_LINE and any(_seato(s["units"][u]["nat"]) for u in candidates(s, "any")):
            wd["seato"] = 1
            ctx.emit({"t": "withdrawal-due", "rule": "NTND 23.6", "units": 1, "nationality": "SEATO"})
    elif elections.peace_party(s) and s["pp"] < elections.WAR_LINE and elections._seato_in_play(s):
        wd["seato"] = 1
        ctx.emit({"t": "withdrawal-due", "rule": "NTND 23.6", "units": 1, "nationality": "SEATO"})
    if V.kind(s) == "partial":
        wd["partial"] = PARTIAL_MIN
    s["phase"]["wd"] = wd


def regime(s: dict) -> str | None:
    if elections.peace_party(s):
        return "peace"
    if V.kind(s) == "partial":
        return "partial"
    return None


def candidates(s: dict, which: str | None = None) -> list[str]:
    """Units the Allied player may withdraw now (4.3.1; 23.3 American, 23.6 SEATO, 24.3.1 both)."""
    which = which or regime(s)
    if which is None or not in_force(s, "withdrawals"):
        return []
    m = load_map()
    counters = load_counters()
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["side"] != "allied":
            continue
        us, seato = u["nat"] == "US", _seato(u["nat"])
        if not (us or seato) or (which == "peace" and not (us or (seato and s["pp"] < elections.WAR_LINE))):
            continue
        t = counters.type(u["type"])
        anywhere = t.category == "air" or t.movement_class == "fleet" or t.stacking_class == "green_beret"
        if u["status"] == "air" or (u["status"] == "map" and anywhere):
            out.append(uid)
        elif u["status"] == "map":
            loc = u["loc"]
            if (m.is_zone(loc) and m.zones[loc].country == "LA") or (not m.is_zone(loc) and m.hex(loc).town):
                out.append(uid)
        elif u["status"] == "sched" and u.get("paid") and us and which in ("peace", "any"):
            out.append(uid)                                   # 23.3: already paid for as replacements
    return out


def options(s: dict) -> list[str]:
    wd = s["phase"].get("wd")
    if wd is None or len(wd["done"]) >= MAX_PER_TURN:
        return []
    return candidates(s)


def withdraw(s: dict, uid: str, ctx) -> None:
    wd = s["phase"].get("wd")
    if wd is None or uid not in options(s):
        raise Rejection(Code.ILLEGAL_WITHDRAWAL, "NTND 4.3.1/23.3/24.3.1: withdraw a U.S. (or SEATO) unit in a town, a "
                        "city or a Laotian zone (air, fleet, Green Berets anywhere), at most ten a turn, under the "
                        "peace party or Partial Vietnamization", rule="NTND 4.3.1")
    u = s["units"][uid]
    was = u["status"]
    u.update(status="out", loc=None)
    u.pop("paid", None)
    wd["done"].append(uid)
    us = u["nat"] == "US"
    ev = {"t": "withdrawn", "unit": uid, "type": u["type"], "from": was}
    if regime(s) == "peace":
        ev["rule"] = "NTND 23.3" if us else "NTND 23.6"
        ctx.emit(ev)
        if us:
            wd["us"] += 1
            if wd["us"] > wd["peace"]:
                score(s, ctx, 1, "NTND 23.3.2", "withdrawal-beyond-the-roll", unit=uid)
        return
    ev["rule"] = "NTND 24.3.1"
    ctx.emit(ev)
    score(s, ctx, 1, "NTND 24.3.2", "vietnamization-withdrawal", unit=uid)
    if us:
        n = s.get("vietnamization_us_withdrawn", 0) + 1
        s["vietnamization_us_withdrawn"] = n
        if n % 4 == 0:                                        # 24.3.3: one ARVN point per four U.S. units
            s["rp"]["SV"] = s["rp"].get("SV", 0) + 1
            ctx.emit({"t": "replacement-points", "points": dict(s["rp"]), "rule": "NTND 24.3.3",
                      "added": {"SV": 1}})


def missing(s: dict) -> str | None:
    """Why the policy step may not end yet (a withdrawal that must still be made), else None."""
    wd = s["phase"].get("wd")
    if wd is None:
        return None
    room = len(wd["done"]) < MAX_PER_TURN
    if wd["seato"] and room and not any(_seato(s["units"][u]["nat"]) for u in wd["done"]) \
            and any(_seato(s["units"][u]["nat"]) for u in candidates(s)):
        return "NTND 23.6: one SEATO unit must be withdrawn this turn"
    if regime(s) == "partial" and room and len(wd["done"]) < wd["partial"] and owed(s):
        return "NTND 24.3.1: at least two U.S. or SEATO units must be withdrawn each turn"
    return None


def owed(s: dict) -> list[str]:
    """24.3.1, 24.3.6: the candidates that count toward the two-a-turn minimum: air units only once no
    U.S. ground combat unit is left in play, and never the helicopter gunships nor one SAC wing (24.3.6:
    "may remain in play"; the counter mix has no separate USMC air unit)."""
    counters = load_counters()
    cands = candidates(s)
    ground_left = any(s["units"][u]["nat"] == "US" and counters.type(s["units"][u]["type"]).is_ground_combat
                      for u in V.american_units_in_play(s))
    sac = [u for u in V.american_units_in_play(s) if s["units"][u]["type"] == "us_sac_wing"][:1]
    out = []
    for uid in cands:
        t = counters.type(s["units"][uid]["type"])
        if t.category == "air" and (ground_left or t.id == "us_helicopter" or uid in sac):
            continue
        out.append(uid)
    return out


def finish(s: dict, ctx) -> None:
    """End of the policy step: 23.3.1's penalty for American units not withdrawn."""
    wd = s["phase"].get("wd")
    if wd is None:
        return
    short = wd["peace"] - wd["us"]
    if short > 0:
        score(s, ctx, -2 * short, "NTND 23.3.1", "withdrawal-short", units=short)
