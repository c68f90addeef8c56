"""No Trumpets No Drums rule 3 (the sequence of play): the automatic steps between decisions.

``enter`` runs the automatic actions at the start of a phase (3.1, 3.2: recruitment quotas, supply
at the start of movement and combat, 19.1.2 flips, politics); ``advance`` runs after setup and after
every accepted answer (the machine's ``Ruleset.advance``): battles' automatic parts, the 8.6.3
search, 20.5 going on after an ambush, 20.2 ambush opportunities, 8.10.2 stacking checks, and the
next phase, until a seat must decide; that decision is stored in ``s["decision"]`` so that
``pending`` is a pure read. Which answers each decision takes, how they are listed and applied:
answers.py (the decision table).
"""
from __future__ import annotations

from ..combat import aftermath, battles
from ..politics import (
    aid,
    elections,
    hearts,
    hearts_phases,
    sv_morale as morale,
    victory as politics,
    random_events,
    uprising,
)
from ..air import answers as air_answers, missions as air_missions
from ..forces import recruit_extras as extras, operations, recruitment, replacements
from ..arms import fleet, montagnards
from ..optional import special_units
from ..movement import ground as movement, neutrality, reaction
from ..movement import stacking
from ..movement.moves import resume_path
from ..components.map import load_map
from ..movement.sea import forced_returns
from .turns import PHASES, phase_of, turn_label
from ..components.state import ALLIED, COMMUNIST
from ..supply.lines import out_of_supply
from ..components.features import dated_events, in_force

# part-2 phases (sequence.PHASES part 2) refereed here when their feature is in force; the others are
# announced and skipped (a "phase-skipped" event)
PLAYED_PART2: frozenset[str] = frozenset({"a_random", "c_hearts", "a_hearts", "a_air"})


def enter(s: dict, ctx) -> None:
    """Automatic actions at the start of the current phase."""
    ph = phase_of(s)
    s["phase"] = {"id": ph.id}
    ctx.emit({"t": "phase", "turn": s["turn"], "label": s["turn_label"], "phase": ph.id, "rule": "NTND " + ph.rule,
              "title": ph.title})
    if s["step"] == 0:
        dated_events(s, ctx)   # the campaign's dated rules of this turn (none in Tet)
    if ph.part == 2 and not (ph.feature and in_force(s, ph.feature) and ph.id in PLAYED_PART2):
        ctx.emit({"t": "phase-skipped", "phase": ph.id, "rule": "NTND " + ph.rule, "note": ph.note + " (part 2)"})
        s["phase"]["done"] = True
        return
    if ph.id in ("c_recruit", "a_reinforce"):
        morale.start_player_turn(s, ctx)                            # 25.1 (sv_morale only)
    if ph.id == "c_recruit":
        recruitment.start_communist_recruitment(s, ctx)
        if in_force(s, "random_events"):
            random_events.persistent_recruits(s, ctx)               # 21 persistent ops (4.1.5)
        uprising.start_recruitment(s, ctx)                          # 26 (uprising only)
        extras.apply_mods(s, ctx)                                    # 4.1.5 (campaign)
        aid.start(s, ctx)                                            # 27.1 (campaign)
    elif ph.id == "c_hearts":
        hearts_phases.enter_communist(s, ctx)                      # 7.4
    elif ph.id == "a_hearts":
        hearts_phases.enter_allied(s, ctx)                         # 7.2
    elif ph.id == "c_ops":
        pass
    elif ph.id == "c_move":
        s["attacks"] = []
        s["phase"]["sub"] = "move"
        s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)   # 18.2.1.3
    elif ph.id == "a_reaction":
        if ph.note and in_force(s, "air_war"):
            ctx.emit({"t": "phase-note", "phase": ph.id, "note": "airmobile reaction moves (8.8.1.1) and defensive "
                                                                 "ground support (8.8.1.2, 11.1.2)"})
        elif ph.note:
            ctx.emit({"t": "phase-note", "phase": ph.id, "note": ph.note})
    elif ph.id == "c_combat":
        s["phase"]["stack_check"] = True                             # 8.10.2
        s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)   # 18.2.1.4
        s["phase"]["queue"] = [dict(a) for a in s["attacks"]]
    elif ph.id in ("c_politics", "a_politics"):
        s["attacks"] = []
        politics.political_phase(s, ctx, "NTND " + ph.rule)
        if in_force(s, "hearts_and_minds"):
            hearts.political_phase(s, ctx, ph.id)                  # 7.3, 7.3.2, 7.4.2
        if ph.id == "a_politics":
            elections.at_political_phase_end(s, ctx)                 # 23.1-23.2: after the phase's points
        s["phase"]["done"] = True
    elif ph.id == "a_reinforce":
        montagnards.start_reinforcement(s)                          # 15.2 counters (montagnards only)
        special_units.start_reinforcement(s)                        # 28.3.1, 28.3.2 (special_units only)
        recruitment.start_allied_reinforcement(s, ctx)
        morale.city_desertion(s, ctx)                               # 25.3.1 (sv_morale only)
        if replacements.policy_in_force(s):
            replacements.start_phase(s, ctx)                         # 4.2.2, 7.3.1, 23.3, then the policy step
        else:
            recruitment.award_points(s, ctx)
        uprising.rally(s, ctx)                                      # 26.7 (uprising only)
        neutrality.start_reinforcement(s)                            # 10.5.2 (campaign)
    elif ph.id == "a_move":
        s["flags"]["allied_moved"] = []
        s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)      # 18.2.1.3
        if hearts.local_vc_areas(s):
            s["phase"]["local_vc"] = list(hearts.local_vc_areas(s))   # 8.3, 7.4.3
    elif ph.id == "c_reaction":
        s["flags"]["vacated"] = []
    elif ph.id == "a_random":
        random_events.start(s, ctx)                                 # 3.2.8, 21
    elif ph.id == "a_combat":
        # 19.1.2: inverted units adjacent to Allied ground combat units flip face up
        for mid in reaction.markers_in_contact(s, ground_only=True):
            operations.flip_marker(s, mid, ctx, "NTND 19.1.2")
        s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)      # 18.2.1.4
        s["phase"]["stack_check"] = True                             # 8.10.2
    if ph.id in ("c_combat", "a_combat") and hearts.allied_controlled_at_combat(s):
        s["phase"]["hm_allied"] = list(hearts.allied_controlled_at_combat(s))   # 7.3.3


def advance(s: dict, ctx) -> None:
    """Run automatic steps until a player must decide (stored in s["decision"]) or the game ends."""
    while True:
        if s.get("outcome"):
            s["decision"] = None
            return
        if s["battle"] is not None:
            bd = aftermath.next_decision(s, ctx)
            if bd is not None:
                s["decision"] = _battle_decision(bd)
                return
            if _check_sudden_death(s, ctx):
                return
            continue
        if s.get("interdict") is not None:
            s["decision"] = {"seat": ALLIED, "kind": "interdict", "unit": s["interdict"]["unit"],
                             "prompt": "NTND 8.6.3: search an adjacent hex for Communist supply units, or done"}
            return
        if s.get("resume") is not None:
            if resume_path(s, s["resume"]):
                s["decision"] = {"seat": ALLIED, "kind": "continue", "unit": s["resume"]["unit"],
                                 "prompt": "NTND 20.5: the ambushed unit survived: go on moving or stop"}
                return
            s["resume"] = None
        if s["ambush"] is not None:
            s["decision"] = {"seat": COMMUNIST, "kind": "ambush",
                             "prompt": f"NTND 20.2: an Allied unit moved next to your inverted units at "
                                       f"{s['units'][s['ambush']['unit']]['loc']}: ambush or pass",
                             "unit": s["ambush"]["unit"]}
            return
        if s["phase"].get("stack_check"):
            v = stacking.first_violation(s)
            if v is not None:
                s["decision"] = {"kind": "losses", "prompt": f"NTND 8.10.2: {v['loc']} is over-stacked: "
                                 f"eliminate {v['count']} unit(s)", **v, "overstack": True}
                return
            s["phase"]["stack_check"] = False
        d = _phase_decision(s, ctx)
        if d is not None:
            s["decision"] = d
            return
        if _check_sudden_death(s, ctx):
            return
        next_phase(s, ctx)


def _check_sudden_death(s, ctx) -> bool:
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


def next_phase(s: dict, ctx) -> None:
    ph = phase_of(s)
    if ph.id in ("c_move", "a_move"):
        stranded(s, ph.player, ctx)
    if ph.id == "a_move":
        forced_returns(s, ctx)                                       # 8.6.4.3
    if ph.id in ("c_combat", "a_combat") and not s["phase"].get("end_checked"):
        s["phase"]["end_checked"] = True                             # 8.10.2: also at the end
        s["phase"]["stack_check"] = True
        s["phase"]["done"] = True
        return
    neutrality.phase_end(s, ph.id, ctx)                              # 10.2.2, 10.6, 10.8 (campaign)
    special_units.laos_conquered(s, ctx)                             # 28.6.2 (special_units only)
    if ph.id == "c_reaction":
        # 8.8.2.1: inverted units still adjacent to Allied units flip face up
        for mid in reaction.markers_in_contact(s):
            operations.flip_marker(s, mid, ctx, "NTND 8.8.2.1")
    if s["step"] + 1 < len(PHASES):
        s["step"] += 1
    else:
        if s["turn"] >= len(s["scenario"]["turns"]):
            _finish(s, ctx, politics.final_outcome(s))
            return
        s["turn"] += 1
        s["turn_label"] = turn_label(s["scenario"]["turns"], s["turn"])
        s["step"] = 0
    enter(s, ctx)


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


def _phase_decision(s: dict, ctx) -> dict | None:
    ph = phase_of(s)
    p = s["phase"]
    if p.get("done"):
        return None
    if ph.id == "c_recruit" and p.get("uprising_q"):
        return uprising.decision(s)                                  # 26.1: at the start of recruitment
    if ph.id == "a_reinforce" and p.get("sub") == "policy":
        return replacements.decision(s)                              # 24, 4.5.2, 23.3 before placements
    d = neutrality.phase_decision(s) or aid.phase_decision(s)        # 10.5.2, 27.2-27.4 (campaign)
    if d is not None:
        return d
    if ph.id in ("a_air", "a_reaction"):
        d = air_missions.pending_decision(s)                         # 12.1 hidden AA, 11.1.1.2 (air_war)
        if d is not None:
            return d
    if ph.id == "a_air":
        return {"seat": ALLIED, "kind": "fly", "prompt": "NTND 3.2.5: fly air missions (11), then done"}
    if ph.id == "c_combat":
        # resolve the announced attacks in the order announced (3.1.6)
        while p["queue"]:
            a = p["queue"].pop(0)
            opts = battles.attack_options(s, COMMUNIST, a["target"])
            able = {x for _, g in opts for x in g}
            att = [x for x in a["attackers"] if x in able]
            if not att:
                ctx.emit({"t": "attack-cancelled", "target": a["target"], "rule": "NTND 19.1"})
                continue
            battles.start_battle(s, COMMUNIST, a["target"], att, ctx, opts)   # the same state: its options
            return _battle_or_none(s, ctx)
        return None
    kinds = {"c_recruit": (COMMUNIST, "recruit", "NTND 4.1: place recruits (cadres, dummies, NVA units), then done"),
             "c_ops": (COMMUNIST, "operations", "NTND 6: promote, break down, invert or flip, then done"),
             "a_reaction": (ALLIED, "reaction", "NTND 8.8.1: airmobile reaction moves, then done"),
             "a_reinforce": (ALLIED, "reinforce", "NTND 4.2.1, 5.7, 5.8: place reinforcements, reassign, relocate"),
             "a_move": (ALLIED, "move", "NTND 8: move units, then done"),
             "c_reaction": (COMMUNIST, "reaction", "NTND 8.8.2: move inverted units next to Allied units one hex"),
             "a_combat": (ALLIED, "combat", "NTND 19: attack, then done")}
    if ph.id in ("c_hearts", "a_hearts"):
        return hearts_phases.decision(s)
    if ph.id == "c_move":
        if p["sub"] == "move":
            return {"seat": COMMUNIST, "kind": "move", "prompt": "NTND 8: move units, then done"}
        return {"seat": COMMUNIST, "kind": "announce", "prompt": "NTND 3.1.4: announce attacks, then done"}
    if ph.id == "a_combat" and p.get("sub") == "occupy":
        return {"seat": ALLIED, "kind": "occupy", "prompt": "NTND 8.8.2.2: occupy hexes the inverted units left"}
    if ph.id == "a_random":
        return random_events.decision(s)
    if ph.id == "a_move" and p.get("sub") == "mine":
        return fleet.decision(s)                                     # 14.2.2: at the end of Allied movement
    seat, kind, prompt = kinds[ph.id]
    if ph.id in ("a_reaction",) and not reaction.allied_reaction_options(s) \
            and not air_answers.fly_options(s):                # 8.8.1.2 (air_war)
        return None
    if ph.id == "c_reaction" and not reaction.markers_in_contact(s):
        # asked whenever a marker touches an Allied unit, whether or not its (hidden) units can move,
        # so that the question itself reveals nothing
        return None
    return {"seat": seat, "kind": kind, "prompt": prompt}


def _battle_or_none(s, ctx):
    bd = aftermath.next_decision(s, ctx)
    return _battle_decision(bd) if bd is not None else _phase_decision(s, ctx)
