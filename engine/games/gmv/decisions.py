"""Good Morning, Vietnam!'s decision table (engine/decisions.py): each decision kind the
phases ask (phases.py), declared once with its rule, the ``GmvCommand`` actions that
answer it and the rule function each applies, its legal-answer enumerator (legal.py) and the
answers sealed for the NVA (its buying, placing, infiltrating, hidden moves, hot-LZ
fire, patrol reveals and bombing casualties name hidden units or hidden zones).

A phase decision is ``phase1``..``phase5``, declared per side (its answers differ: the NVA's
phase 3 recruits, infiltrates and attacks, the American patrols, builds and airlifts); an
interruption (stack: hot LZ, patrol reveal, bombing casualties; battle: support, casualties,
withdraw) is declared for the seat that answers it. docs/rules/gmv.md "Decisions" lists them.
"""
from __future__ import annotations

from ...decisions import DecisionKind, DecisionTable
from . import bombing, combat, economy, legal, noncombat, nva, phases, us

SAY = "Good Morning, Vietnam! (GMV)"
END = {"end_phase": phases.end_phase}


def _phase(n: int, seat: str, rule: str, answers: dict, enumerate_, space: str, *, complete: bool = False,
           sealed: tuple[str, ...] = ()) -> DecisionKind:
    return DecisionKind(f"phase{n}", rule, answers, enumerate_, space, seat=seat, complete=complete, sealed=sealed)


DECISIONS = DecisionTable("gmv", SAY, [
    # -- the five phases of each side -------------------------------------------------------------
    _phase(1, "us", "GMV Phase 1", {"buy": economy.buy, **END}, legal.buy,
           "buy one unit type the money allows (GMV Units table), or end the phase", complete=True),
    _phase(1, "nva", "GMV Phase 1", {"buy": economy.buy, **END}, legal.buy,
           "buy one unit type the money allows (GMV Units table), or end the phase", complete=True,
           sealed=("buy",)),
    _phase(2, "us", "GMV Phase 2", {"bomb": bombing.bomb, "defoliate": bombing.defoliate, **END}, legal.bombing,
           "send a fresh bomber to bomb or defoliate a land zone, or end the phase", complete=True),
    _phase(3, "us", "GMV Phase 3 US", {"patrol": us.patrol, "build": us.build, "airlift": us.airlift,
                                       "move": us.combat_move, **END}, legal.us_actions,
           "one combat action (patrol, build, airlift, combat move) north to south, or end the phase"),
    _phase(3, "nva", "GMV Phase 3 NVA", {"recruit": nva.recruit, "infiltrate": nva.infiltrate, "attack": nva.attack,
                                         "move": nva.exposed_combat_move, **END}, legal.nva_actions,
           "recruit, infiltrate, attack or move exposed units, or end the phase", sealed=("infiltrate",)),
    _phase(4, "us", "GMV Phase 4", {"move": noncombat.move, **END}, legal.us_moves,
           "a non-combat move of units from one zone, or end the phase"),
    _phase(4, "nva", "GMV Phase 4", {"move": noncombat.move, "hidden_move": phases.hidden_move_order},
           legal.nva_moves, "a non-combat move of exposed units, or the one hidden-move order that ends the phase",
           sealed=("hidden_move",)),
    _phase(5, "us", "GMV Phase 5", {"place": economy.place, **END}, legal.placement,
           "place a purchased unit in a zone that takes it, or end the phase once none can be placed", complete=True),
    _phase(5, "nva", "GMV Phase 5", {"place": economy.place, **END}, legal.placement,
           "place a purchased unit in a zone that takes it, or end the phase once none can be placed", complete=True,
           sealed=("place",)),
    # -- interruptions: answered by the seat named -------------------------------------------------
    DecisionKind("hot_lz", "GMV Phase 3 US 3 hot LZ", {"hot_lz": nva.hot_lz_answer}, legal.hot_lz,
                 "the hidden infantry in the drop zone that fire (any of them, or none)", seat="nva", complete=False,
                 sealed=True),
    DecisionKind("reveal", "GMV Phase 3 US 1 patrol", {"reveal": nva.reveal_answer}, legal.reveal,
                 "exactly the number of hidden units the patrol's d3 says (all if fewer), in the zone", seat="nva",
                 complete=False, sealed=True),
    DecisionKind("bomb_casualties", "GMV Phase 2 bombing", {"casualties": bombing.bomb_casualties},
                 legal.bomb_casualties, "as many units in the bombed zone as the hits", seat="nva", complete=False,
                 sealed=True),
    DecisionKind("support", "GMV Combat: call for support", {"support": combat.support}, legal.support,
                 "the units answering the call for support (none, any candidates; helicopters with infantry)",
                 complete=False),
    DecisionKind("casualties", "GMV Combat: casualties", {"casualties": combat.casualties}, legal.casualties,
                 "as many of the side's units in the battle as the hits", complete=False),
    DecisionKind("withdraw", "GMV Combat: withdrawal", {"battle_choice": combat.choice}, legal.withdraw,
                 "fight on, or withdraw to a zone every leaving unit can reach", complete=True),
])
