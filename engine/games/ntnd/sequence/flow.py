"""No Trumpets No Drums rule 3 (the sequence of play): the steps of its phases, which phases.py
declares as data for the engine's loop (engine/phases.py).

``begin`` runs on entering every phase (its public event, the campaign's dated events, the part-2
phases skipped); ``enter_*`` on entering one phase (3.1, 3.2: recruitment quotas, supply at the start
of movement and combat, 19.1.2 flips, politics); the exit steps on leaving one (8.9 stranded units,
8.6.4.3 forced returns, 8.10.2's check at the end of combat, 10.2.2/10.6/10.8 neutrality, 28.6.2,
8.8.2.1 flips); ``next_step`` moves to the next phase or turn (or ends the game); the questions
(``battle``, ``interdict``, ``resume``, ``ambush``, ``stack_check``, ``combat_queue``, ``fixed``)
make the decision a seat is asked, which the loop stores in ``s["decision"]`` so that ``pending`` is
a pure read. Which answers each decision takes, how they are listed and applied: answers.py (the
decision table).
"""
from __future__ import annotations

from ....phases import AGAIN, DONE, HOLD
from ..combat import aftermath, battles
from ..politics import aid, elections, hearts, random_events, uprising
from ..politics import sv_morale as morale, victory as politics
from ..air import answers as air_answers
from ..forces import recruit_extras as extras, operations, recruitment, replacements
from ..arms import montagnards
from ..optional import special_units
from ..movement import ground as movement, neutrality, reaction, stacking
from ..movement import stacking
from ..movement.moves import resume_path
from ..components.map import load_map
from ..movement.sea import forced_returns
from .turns import PHASES, phase_of, turn_label
from ..components.state import ALLIED, COMMUNIST
from ..supply.lines import out_of_supply
from ..components.features import dated_events, in_force

# -- entering a phase ----------------------------------------------------------------------------

def begin(s: dict, ctx) -> bool:
    """On entering every phase: its public event, the turn's dated events; False: a part-2 phase
    (sequence.PHASES) whose feature is not in force, announced and skipped (done at once)."""
    ph = phase_of(s)
    s["phase"] = {"id": ph.id}
    ctx.emit({"t": "phase", "turn": s["turn"], "label": s["turn_label"], "phase": ph.id, "rule": "NTND " + ph.rule,
              "title": ph.title})
    if s["step"] == 0:
        dated_events(s, ctx)   # the campaign's dated rules of this turn (none in Tet)
    if ph.part == 2 and not (ph.feature and in_force(s, ph.feature)):
        ctx.emit({"t": "phase-skipped", "phase": ph.id, "rule": "NTND " + ph.rule, "note": ph.note + " (part 2)"})
        s["phase"]["done"] = True
        return False
    return True


def start_player_turn(s: dict, ctx) -> None:
    morale.start_player_turn(s, ctx)                                # 25.1 (sv_morale only)


def enter_c_recruit(s: dict, ctx) -> None:
    recruitment.start_communist_recruitment(s, ctx)
    if in_force(s, "random_events"):
        random_events.persistent_recruits(s, ctx)                   # 21 persistent ops (4.1.5)
    uprising.start_recruitment(s, ctx)                              # 26 (uprising only)
    extras.apply_mods(s, ctx)                                       # 4.1.5 (campaign)
    aid.start(s, ctx)                                               # 27.1 (campaign)


def enter_c_move(s: dict, ctx) -> None:
    s["attacks"] = []
    s["phase"]["sub"] = "move"
    s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)       # 18.2.1.3


def enter_a_reaction(s: dict, ctx) -> None:
    ph = phase_of(s)
    if ph.note and in_force(s, "air_war"):
        ctx.emit({"t": "phase-note", "phase": ph.id, "note": "airmobile reaction moves (8.8.1.1) and defensive "
                                                             "ground support (8.8.1.2, 11.1.2)"})
    elif ph.note:
        ctx.emit({"t": "phase-note", "phase": ph.id, "note": ph.note})


def enter_c_combat(s: dict, ctx) -> None:
    s["phase"]["stack_check"] = True                                 # 8.10.2
    s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)       # 18.2.1.4
    s["phase"]["queue"] = [dict(a) for a in s["attacks"]]


def enter_politics(s: dict, ctx) -> None:
    ph = phase_of(s)
    s["attacks"] = []
    politics.political_phase(s, ctx, "NTND " + ph.rule)
    if in_force(s, "hearts_and_minds"):
        hearts.political_phase(s, ctx, ph.id)                      # 7.3, 7.3.2, 7.4.2
    s["phase"]["done"] = True


def elections_due(s: dict, ctx) -> None:
    elections.at_political_phase_end(s, ctx)                         # 23.1-23.2: after the phase's points


def enter_a_reinforce(s: dict, ctx) -> None:
    montagnards.start_reinforcement(s)                              # 15.2 counters (montagnards only)
    special_units.start_reinforcement(s)                            # 28.3.1, 28.3.2 (special_units only)
    recruitment.start_allied_reinforcement(s, ctx)
    morale.city_desertion(s, ctx)                                   # 25.3.1 (sv_morale only)
    if replacements.policy_in_force(s):
        replacements.start_phase(s, ctx)                             # 4.2.2, 7.3.1, 23.3, then the policy step
    else:
        recruitment.award_points(s, ctx)
    uprising.rally(s, ctx)                                          # 26.7 (uprising only)
    neutrality.start_reinforcement(s)                                # 10.5.2 (campaign)


def enter_a_move(s: dict, ctx) -> None:
    s["flags"]["allied_moved"] = []
    s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)          # 18.2.1.3
    if hearts.local_vc_areas(s):
        s["phase"]["local_vc"] = list(hearts.local_vc_areas(s))       # 8.3, 7.4.3


def enter_c_reaction(s: dict, ctx) -> None:
    s["flags"]["vacated"] = []


def enter_a_combat(s: dict, ctx) -> None:
    # 19.1.2: inverted units adjacent to Allied ground combat units flip face up
    for mid in reaction.markers_in_contact(s, ground_only=True):
        operations.flip_marker(s, mid, ctx, "NTND 19.1.2")
    s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)          # 18.2.1.4
    s["phase"]["stack_check"] = True                                 # 8.10.2


def hm_allied(s: dict, ctx) -> None:
    """7.3.3: the Allied Controlled areas at the start of a combat phase (hearts_and_minds)."""
    if hearts.allied_controlled_at_combat(s):
        s["phase"]["hm_allied"] = list(hearts.allied_controlled_at_combat(s))


# -- leaving a phase -----------------------------------------------------------------------------

def stranded_communist(s: dict, ctx) -> None:
    stranded(s, COMMUNIST, ctx)


def stranded_allied(s: dict, ctx) -> None:
    stranded(s, ALLIED, ctx)


def returns(s: dict, ctx) -> None:
    forced_returns(s, ctx)                                           # 8.6.4.3


def combat_end_check(s: dict, ctx):
    """8.10.2: stacking is checked at the end of a combat phase too (HOLD: once more before leaving)."""
    if not s["phase"].get("end_checked"):
        s["phase"]["end_checked"] = True
        s["phase"]["stack_check"] = True
        s["phase"]["done"] = True
        return HOLD
    return None


def neutrality_end(s: dict, ctx) -> None:
    neutrality.phase_end(s, phase_of(s).id, ctx)                     # 10.2.2, 10.6, 10.8 (campaign)


def laos_conquered(s: dict, ctx) -> None:
    special_units.laos_conquered(s, ctx)                             # 28.6.2 (special_units only)


def flip_in_contact(s: dict, ctx) -> None:
    # 8.8.2.1: inverted units still adjacent to Allied units flip face up
    for mid in reaction.markers_in_contact(s):
        operations.flip_marker(s, mid, ctx, "NTND 8.8.2.1")


def next_step(s: dict, ctx) -> None:
    """The next phase of the turn, or the next turn's first (after the last turn: the game's end)."""
    if s["step"] + 1 < len(PHASES):
        s["step"] += 1
    else:
        if s["turn"] >= len(s["scenario"]["turns"]):
            _finish(s, ctx, politics.final_outcome(s))
            return
        s["turn"] += 1
        s["turn_label"] = turn_label(s["scenario"]["turns"], s["turn"])
        s["step"] = 0


# -- the questions ---------------------------------------------------------------------------------

def battle(s: dict, ctx):
    """A battle's automatic steps, then its next decision (19.2.6 losses, 19.3 retreat, 19.4 advance,
    18.6.2 supply); once it is over, 22.7's sudden death."""
    bd = aftermath.next_decision(s, ctx)
    if bd is not None:
        return _battle_decision(bd)
    check_sudden_death(s, ctx)
    return AGAIN


def interdict(s: dict, ctx) -> dict:
    return {"seat": ALLIED, "kind": "interdict", "unit": s["interdict"]["unit"],
            "prompt": "NTND 8.6.3: search an adjacent hex for Communist supply units, or done"}


def resume(s: dict, ctx) -> dict | None:
    if resume_path(s, s["resume"]):
        return {"seat": ALLIED, "kind": "continue", "unit": s["resume"]["unit"],
                "prompt": "NTND 20.5: the ambushed unit survived: go on moving or stop"}
    s["resume"] = None
    return None


def ambush(s: dict, ctx) -> dict:
    return {"seat": COMMUNIST, "kind": "ambush",
            "prompt": f"NTND 20.2: an Allied unit moved next to your inverted units at "
                      f"{s['units'][s['ambush']['unit']]['loc']}: ambush or pass",
            "unit": s["ambush"]["unit"]}


def stack_check(s: dict, ctx) -> dict | None:
    v = stacking.first_violation(s)
    if v is not None:
        return {"kind": "losses", "prompt": f"NTND 8.10.2: {v['loc']} is over-stacked: "
                f"eliminate {v['count']} unit(s)", **v, "overstack": True}
    s["phase"]["stack_check"] = False
    return None


def combat_queue(s: dict, ctx):
    """3.1.6: the announced attacks resolved in the order announced; DONE once none is left."""
    p = s["phase"]
    while p["queue"]:
        a = p["queue"].pop(0)
        opts = battles.attack_options(s, COMMUNIST, a["target"])
        able = {x for _, g in opts for x in g}
        att = [x for x in a["attackers"] if x in able]
        if not att:
            ctx.emit({"t": "attack-cancelled", "target": a["target"], "rule": "NTND 19.1"})
            continue
        battles.start_battle(s, COMMUNIST, a["target"], att, ctx, opts)   # the same state: its options
        bd = aftermath.next_decision(s, ctx)
        return _battle_decision(bd) if bd is not None else AGAIN
    return DONE


def fixed(seat: str, kind: str, prompt: str):
    """The question of a phase's one kind: ``kind`` of ``seat`` with its prompt (a fresh dict each time)."""
    return lambda s, ctx: {"seat": seat, "kind": kind, "prompt": prompt}


def last(decision):
    """A question that is the phase's last (its module's ``decision(s)``; None: nothing more, DONE)."""
    return lambda s, ctx: decision(s) or DONE


def allied_reaction(s: dict, ctx):
    if not reaction.allied_reaction_options(s) and not air_answers.fly_options(s):   # 8.8.1.2 (air_war)
        return DONE
    return {"seat": ALLIED, "kind": "reaction", "prompt": "NTND 8.8.1: airmobile reaction moves, then done"}


def communist_reaction(s: dict, ctx):
    if not reaction.markers_in_contact(s):
        # asked whenever a marker touches an Allied unit, whether or not its (hidden) units can move,
        # so that the question itself reveals nothing
        return DONE
    return {"seat": COMMUNIST, "kind": "reaction", "prompt": "NTND 8.8.2: move inverted units next to Allied units one hex"}


# -- the end of the game ---------------------------------------------------------------------------

def check_sudden_death(s, ctx) -> bool:
    out = politics.sudden_death(s)
    if out is not None:
        _finish(s, ctx, out)
        return True
    return False


def _finish(s: dict, ctx, out: dict) -> None:
    operations.reveal_all(s, ctx)
    s["outcome"] = out
    s["decision"] = None
    ctx.emit({"t": "game-over", **{k: v for k, v in out.items()}})


def stranded(s: dict, side: str, ctx) -> None:
    """8.9.1 / 8.9.2: face-up guerrillas, militia and Laotian/Cambodian units left outside their own
    country at the end of their side's movement phase (after a retreat) could not re-enter it: they
    are eliminated and count for no points."""
    m = load_map()
    counters = movement.load_counters()
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side or u["inv"]:
            continue
        t = counters.type(u["type"])
        home = counters.nationalities[t.nationality].get("home")
        bound = t.guerrilla or t.stacking_class == "militia" or t.nationality in ("LAO", "KHMER")
        if bound and home and t.id != "communist_dummy" and m.country_of(u["loc"]) != home:
            u.update(status="mix" if side == COMMUNIST else "dead", loc=None)
            ctx.emit({"t": "eliminated", "unit": uid, "type": u["type"], "rule": "NTND 8.9.1", "pp": 0})


def _battle_decision(bd: dict) -> dict:
    kind = bd["kind"]
    if kind == "losses":
        prompt = f"NTND 19.2.6: choose {bd['count']} unit(s) to eliminate"
    elif kind == "overstack_losses":  # no count: it may depend on what an inverted marker holds
        prompt = f"NTND 19.3.2: the retreat over-stacked {bd['loc']}: eliminate the units in violation (8.10)"
    elif kind == "supply":
        prompt = "NTND 18.6.2: name the supply units that supplied your NVA attackers (eliminated)"
    elif kind == "retreat":
        prompt = f"NTND 19.3: retreat {bd['unit']} one hex" + (" (or stay: a tie)" if bd["mode"] == "may" else "")
    else:
        prompt = "NTND 19.4: advance into the vacated location (or not)"
    return {"seat": bd["seat"], "kind": kind, "prompt": prompt, **{k: v for k, v in bd.items() if k not in ("seat", "kind")}}
