"""No Trumpets No Drums rule 3 as data: each phase of the sequence (sequence.PHASES: its id, rule,
phasing player, title), what happens on entering and leaving it, and the questions it asks, in the
order asked; the engine's loop (engine/phases.py) runs them. The steps are flow.py's; the decision
kinds and their answers decisions.py's (answers.py's table).

Asked before any phase's own questions (the interrupts), in order: a battle's decisions (its
automatic steps run first: 19.2-19.4, 18.6.2), the 8.6.3 interdiction search, going on after an
ambush (20.5), an ambush opportunity (20.2), the 8.10.2 stacking check. The pending decision is
stored in ``s["decision"]`` (asking may roll a battle's dice); ``pending`` reads its public part
(views.decision_data).
"""
from __future__ import annotations

from ...decisions import Decision
from ...phases import Ask, Flow, Phase
from .politics import aid, hearts_phases, random_events, uprising
from .air import missions as air_missions
from .arms import fleet
from .sequence import flow as F
from .movement import neutrality
from .forces import replacements
from .presentation import views
from .sequence import turns as T
from .sequence.turns import PHASES, phase_of
from .components.state import ALLIED, COMMUNIST
from ...errors import InternalValueError

BATTLE = ("losses", "overstack_losses", "supply", "retreat", "advance")

# asked in every phase that asks anything, before its own: 10.5.2's coup, 27.2-27.4's aid (campaign)
CAMPAIGN = (Ask("coup", lambda s, ctx: neutrality.phase_decision(s), rule="NTND 10.5.2"),
            Ask("aid", lambda s, ctx: aid.phase_decision(s), rule="NTND 27.2-27.4"))
AIR = Ask(("aa_fire", "air_losses"), lambda s, ctx: air_missions.pending_decision(s), rule="NTND 12.1, 11.1.1.2")
ALL_LEAVE = (F.neutrality_end, F.laos_conquered)


def _sub(name: str):
    return lambda s: s["phase"].get("sub") == name


def _phase(id_: str, asks=(), enter=(), leave=ALL_LEAVE) -> Phase:
    ph = PHASES[[p.id for p in PHASES].index(id_)]
    return Phase(ph.id, "NTND " + ph.rule, ph.player, tuple(asks), tuple(enter), tuple(leave), ph.title)


FLOW = Flow("ntnd", (
    _phase(T.C_RECRUIT, (Ask("uprising", F.last(uprising.decision), lambda s: bool(s["phase"].get("uprising_q")),
                             "NTND 26.1"),
                         *CAMPAIGN,
                         Ask("recruit", F.fixed(COMMUNIST, "recruit",
                                                "NTND 4.1: place recruits (cadres, dummies, NVA units), then done"))),
           enter=(F.start_player_turn, F.enter_c_recruit)),
    _phase(T.C_HEARTS, (*CAMPAIGN, Ask(("hearts", "corruption"), F.last(hearts_phases.decision), rule="NTND 7.4")),
           enter=(hearts_phases.enter_communist,)),
    _phase(T.C_OPS, (*CAMPAIGN, Ask("operations", F.fixed(COMMUNIST, "operations",
                                                          "NTND 6: promote, break down, invert or flip, then done")))),
    _phase(T.C_MOVE, (*CAMPAIGN,
                      Ask("move", F.fixed(COMMUNIST, "move", "NTND 8: move units, then done"), _sub("move")),
                      Ask("announce", F.fixed(COMMUNIST, "announce", "NTND 3.1.4: announce attacks, then done"))),
           enter=(F.enter_c_move,), leave=(F.stranded_communist, *ALL_LEAVE)),
    _phase(T.A_REACTION, (*CAMPAIGN, AIR, Ask("reaction", F.allied_reaction, rule="NTND 8.8.1")),
           enter=(F.enter_a_reaction,)),
    _phase(T.C_COMBAT, (*CAMPAIGN, Ask(BATTLE, F.combat_queue, rule="NTND 3.1.6, 19")),
           enter=(F.enter_c_combat, F.hm_allied), leave=(F.combat_end_check, *ALL_LEAVE)),
    _phase(T.C_POLITICS, enter=(F.enter_politics,)),
    _phase(T.A_REINFORCE, (Ask("policy", F.last(replacements.decision), _sub("policy"), "NTND 24, 4.5.2, 23.3"),
                           *CAMPAIGN,
                           Ask("reinforce", F.fixed(ALLIED, "reinforce",
                                                    "NTND 4.2.1, 5.7, 5.8: place reinforcements, reassign, relocate"))),
           enter=(F.start_player_turn, F.enter_a_reinforce)),
    _phase(T.A_HEARTS, (*CAMPAIGN, Ask(("hearts", "corruption"), F.last(hearts_phases.decision), rule="NTND 7.2")),
           enter=(hearts_phases.enter_allied,)),
    _phase(T.A_MOVE, (*CAMPAIGN,
                      Ask("mine", lambda s, ctx: fleet.decision(s), _sub("mine"), "NTND 14.2.2"),
                      Ask("move", F.fixed(ALLIED, "move", "NTND 8: move units, then done"))),
           enter=(F.enter_a_move,), leave=(F.stranded_allied, F.returns, *ALL_LEAVE)),
    _phase(T.C_REACTION, (*CAMPAIGN, Ask("reaction", F.communist_reaction, rule="NTND 8.8.2")),
           enter=(F.enter_c_reaction,), leave=(*ALL_LEAVE, F.flip_in_contact)),
    _phase(T.A_AIR, (*CAMPAIGN, AIR,
                     Ask("fly", F.fixed(ALLIED, "fly", "NTND 3.2.5: fly air missions (11), then done")))),
    _phase(T.A_COMBAT, (*CAMPAIGN,
                        Ask("occupy", F.fixed(ALLIED, "occupy", "NTND 8.8.2.2: occupy hexes the inverted units left"),
                            _sub("occupy")),
                        Ask("combat", F.fixed(ALLIED, "combat", "NTND 19: attack, then done"))),
           enter=(F.enter_a_combat, F.hm_allied), leave=(F.combat_end_check, *ALL_LEAVE)),
    _phase(T.A_POLITICS, enter=(F.enter_politics, F.elections_due)),
    _phase(T.A_RANDOM, (*CAMPAIGN, Ask("random_choice", F.last(random_events.decision), rule="NTND 21")),
           enter=(random_events.start,)),
), phase_of=lambda s: phase_of(s).id, over=lambda s: bool(s.get("outcome")), interrupts=(
    Ask(BATTLE, F.battle, lambda s: s["battle"] is not None, "NTND 19"),
    Ask("interdict", F.interdict, lambda s: s.get("interdict") is not None, "NTND 8.6.3"),
    Ask("continue", F.resume, lambda s: s.get("resume") is not None, "NTND 20.5"),
    Ask("ambush", F.ambush, lambda s: s["ambush"] is not None, "NTND 20.2"),
    Ask("losses", F.stack_check, lambda s: bool(s["phase"].get("stack_check")), "NTND 8.10.2"),
), phase_over=lambda s: bool(s["phase"].get("done")), ends=F.check_sudden_death, begin=F.begin, next=F.next_step,
    store="decision", public=lambda d: Decision(d["seat"], d["kind"], d["prompt"], views.decision_data(d)))

# each phase of sequence.PHASES is declared here once, in the same order
if tuple(p.id for p in FLOW.phases) != tuple(p.id for p in PHASES):
    raise InternalValueError("ntnd: phases.FLOW must declare sequence.PHASES, in order")
