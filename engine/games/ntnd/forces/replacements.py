"""No Trumpets No Drums 4.2.2, 4.2.4, 4.2.6, 4.5.2-4.5.3, 7.3.1: Allied replacement points in the
campaign game (``in_force(s, "replacements")``), and the Allied "policy" step that opens the Allied
Reinforcement and Replacement phase (3.2.1) where Vietnamization (24), the draft (4.5.2) and the
withdrawals (4.3.1, 23.3, 24.3.1) are decided, before any unit is placed or bought.

    s["rp"][pool]        whole points of this phase (pools US, SEATO, INDOCHINESE, SV; 4.2.5)
    s["rp_half"][pool]   a saved half point (4.2.6; only SV points come in halves: 7.3.1)
    s["draft"]           {"year": game-year, "count": drafts declared in it} (4.5.3)

The Tet scenario keeps recruitment.award_points (its fixed points; none of these keys change).
Other rules spend points through ``spend`` (the Hearts and Minds rule 7.2: 4.2.4).
"""
from __future__ import annotations

from ....decisions import DecisionKind
from ....errors import Rejection
from ..politics import elections, hearts, vietnamization as V
from . import withdrawals as W
from ..components.features import in_force
from ..politics.victory import score
from ..components.state import ALLIED
from ....codes import Code

POOLS = ("INDOCHINESE", "SEATO", "SV", "US")
SV_CORPS = ("I", "II", "III", "IV")
HALVES = {"pro_allied": 1, "allied_control": 2}     # 7.3.1: 1/2 point per Pro-Allied corps, 1 per controlled


def award(s: dict, ctx) -> None:
    """4.2.2 and 7.3.1 at the start of the Allied replacement phase: the fixed points, the South
    Vietnamese points from the Hearts and Minds track, then the changes of other rules: a random
    event's (s["mods"]: "rp", "no_sv_rp", consumed here), Full Vietnamization's extra U.S. point
    (24.2.5), the peace party's cap of one U.S. point (23.4); 4.2.6: a saved half point joins the
    new halves; unspent whole points of the last phase are forfeited."""
    pts = {p: 0 for p in POOLS}
    pts.update(s["scenario"]["replacement_points"])
    mods = s.setdefault("mods", {})
    notes = []
    halves = 0
    if mods.pop("no_sv_rp", False):
        notes.append("random event: no South Vietnamese points this turn (NTND 21)")
    else:
        halves = sum(HALVES.get(hearts.control(s, a), 0) for a in SV_CORPS)
    for pool, change in sorted(mods.pop("rp", {}).items()):
        pts[pool] = max(0, pts.get(pool, 0) + change)
        notes.append(f"random event: {pool} {change:+d} (NTND 21)")
    if V.kind(s) == "full":
        pts["US"] += 1
        notes.append("NTND 24.2.5: one more U.S. point")
    if elections.peace_party(s) and pts["US"] > 1:
        pts["US"] = 1
        notes.append("NTND 23.4: at most one U.S. point")
    saved = s.get("rp_half", {}).get("SV", 0)
    halves += saved
    pts["SV"] += halves // 2
    s["rp"] = dict(sorted(pts.items()))
    s["rp_half"] = {**s.get("rp_half", {}), "SV": halves % 2}
    ctx.emit({"t": "replacement-points", "points": dict(s["rp"]), "half": dict(s["rp_half"]),
              "saved_half_used": bool(saved and halves >= 2), "notes": notes, "rule": "NTND 4.2.2, 7.3.1, 4.2.6"})


def available(s: dict, pool: str) -> int:
    return s.get("rp", {}).get(pool, 0)


def spend(s: dict, pool: str, n: int, rule: str = "NTND 4.2.4") -> None:
    """Spend ``n`` whole replacement points of ``pool`` (4.2.4: e.g. on the Hearts and Minds track,
    7.2; 4.2.5 decides which pool may pay for what: the caller's rule). Rejects, changing nothing,
    when the pool holds fewer."""
    if pool not in POOLS or n < 1 or available(s, pool) < n:
        raise Rejection(Code.ILLEGAL_PURCHASE, f"{rule}: {n} {pool} replacement point(s) are not available "
                        f"(have {available(s, pool)})", rule=rule)
    s["rp"][pool] -= n


def game_year(s: dict) -> int:
    return s["scenario"]["turns"][s["turn"] - 1]["year"]


def draft_allowed(s: dict) -> bool:
    return in_force(s, "replacements") and s["phase"].get("drafted") is None


def draft(s: dict, ctx) -> None:
    """4.5.2: one die (the Allied player's) of extra South Vietnamese points for this turn, each
    costing one political point; 4.5.3: the n-th draft of a game-year costs n points each (once a
    turn: "for that turn", our reading)."""
    if not draft_allowed(s):
        raise Rejection(Code.ILLEGAL_DRAFT, "NTND 4.5.2: one draft a turn, in the replacement phase", rule="NTND 4.5.2")
    year = game_year(s)
    d = s.get("draft") or {}
    nth = d.get("count", 0) + 1 if d.get("year") == year else 1
    s["draft"] = {"year": year, "count": nth}
    r = ctx.roll("d6", "NTND 4.5.2 Allied draft die").result
    s["rp"]["SV"] = s["rp"].get("SV", 0) + r
    s["phase"]["drafted"] = r
    ctx.emit({"t": "draft", "rule": "NTND 4.5.2" if nth == 1 else "NTND 4.5.3", "year": year, "nth": nth,
              "points": r, "pp_each": nth, "pp": -r * nth})
    score(s, ctx, -r * nth, "NTND 4.5.3" if nth > 1 else "NTND 4.5.2", "draft", points=r, nth=nth)


# ---------------------------------------------------------------------------
# the policy step of 3.2.1 (flow: s["phase"]["sub"] == "policy")
# ---------------------------------------------------------------------------

def policy_in_force(s: dict) -> bool:
    return any(in_force(s, f) for f in ("replacements", "vietnamization", "withdrawals"))


def start_phase(s: dict, ctx) -> None:
    """flow.enter_a_reinforce in the campaign: points (4.2.2), withdrawal dice (23.3), the step."""
    if in_force(s, "replacements"):
        award(s, ctx)
    W.start(s, ctx)
    s["phase"]["sub"] = "policy"


def _legal(s, d) -> list:
    from ..sequence.kinds import cmd
    out = [cmd("declare", kind=k) for k in V.declare_options(s)]
    if draft_allowed(s):
        out.append(cmd("draft"))
    out += [cmd("withdraw", unit=u) for u in W.options(s)]
    out += [cmd("transfer", unit=u) for u in V.transfer_options(s)]     # 24.3.5
    if W.missing(s) is None:
        out.append(cmd("done"))
    return out


def _declare(s, seat, msg, ctx) -> None:
    V.declare(s, msg.kind, ctx)
    if msg.kind == "partial" and in_force(s, "withdrawals"):
        s["phase"].setdefault("wd", {"peace": 0, "seato": 0, "partial": 0, "done": [], "us": 0})
        s["phase"]["wd"]["partial"] = W.PARTIAL_MIN     # 24.3.1: from the turn it is declared (reading)


def _draft(s, seat, msg, ctx) -> None:
    draft(s, ctx)


def _withdraw(s, seat, msg, ctx) -> None:
    W.withdraw(s, msg.unit, ctx)


def _transfer(s, seat, msg, ctx) -> None:
    V.transfer(s, msg.unit, ctx)


def _done(s, seat, msg, ctx) -> None:
    why = W.missing(s)
    if why:
        raise Rejection(Code.ILLEGAL_WITHDRAWAL, why, rule=why.split(":")[0])
    W.finish(s, ctx)
    s["phase"]["sub"] = None


def decision(s: dict) -> dict:
    return {"seat": ALLIED, "kind": "policy",
            "prompt": "NTND 3.2.1: declare or reverse Vietnamization (24), draft (4.5.2), withdraw units (4.3.1, "
                      "23.3, 24.3.1), transfer firebases (24.3.5), then done"}


DECISIONS_ALLIED = [
    DecisionKind("policy", "NTND 4.5.2/23.3/24", {"declare": _declare, "draft": _draft, "withdraw": _withdraw,
                                                  "transfer": _transfer, "done": _done}, _legal,
                 "each Vietnamization declaration or reversal allowed now, a draft (once a turn), each unit that may "
                 "be withdrawn now, each U.S. firebase that may go to the ARVN (24.3.5), and done once every "
                 "required withdrawal is made", seat=ALLIED),
]
