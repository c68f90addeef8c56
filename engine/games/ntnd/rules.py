"""No Trumpets No Drums: the ruleset (the state machine over rule 3's sequence).

``setup`` builds the Tet Offensive scenario (data/scenario_tet.json); every
command is one answer to the pending decision; after each command ``_advance``
runs the automatic steps (part-2 phases, supply, flips, battles' automatic
parts, politics) until a player must decide, and stores that decision in the
state so ``pending`` is a pure read. See docs/rules/ntnd.md.
"""
from __future__ import annotations

from afteraction.v1 import command_pb2, ntnd_pb2

from ...errors import Rejection
from ...ruleset import Context, Decision, Ruleset
from . import battles, corps, movement, operations, politics, reach, reaction, recruitment, setup as _setup
from .map import load_map
from .sequence import PHASES, phase_of, turn_label
from .state import ALLIED, COMMUNIST, SEATS, copy_state
from .supply import out_of_supply


_MSG = {"done": ntnd_pb2.NtndDone, "place": ntnd_pb2.NtndPlace, "move": ntnd_pb2.NtndMove,
        "promote": ntnd_pb2.NtndPromote, "break_down": ntnd_pb2.NtndBreakDown, "invert": ntnd_pb2.NtndInvert,
        "flip": ntnd_pb2.NtndFlip, "attack": ntnd_pb2.NtndAttack, "ambush": ntnd_pb2.NtndAmbush,
        "losses": ntnd_pb2.NtndLosses, "retreat": ntnd_pb2.NtndRetreat, "advance": ntnd_pb2.NtndAdvance,
        "reassign": ntnd_pb2.NtndReassign, "relocate": ntnd_pb2.NtndRelocate}


def cmd(action: str, **fields) -> command_pb2.Command:
    """Build a Command carrying one NtndCommand action."""
    return command_pb2.Command(ntnd=ntnd_pb2.NtndCommand(**{action: _MSG[action](**fields)}))


class NtndRuleset(Ruleset):
    game = "ntnd"
    version = "2"  # 2 since the issue-25 rule fixes: a log of ntnd/1 does not replay here
    seats = SEATS
    scenarios = ("tet",)
    options: dict = {}
    # SPEC.md 6.5, docs/rules/ntnd.md "Padded sizes": a marker identity pads to 4736 bytes, which holds a
    # marker of all 98 invertible Communist counters (zones stack without limit, 8.10.1.3; 4683 bytes);
    # a Communist command to 1664, which holds a list naming all 109 Communist units (1554 bytes) with
    # room for the envelope to grow. The largest of 15 bot games: 328 and 292 bytes.
    # tests/engine/test_sealed_lengths.py derives both bounds from the counter data.
    sealed_sizes = {"command": {"communist": 1664}, "event": {"communist": 4736}}

    # -- lifecycle ----------------------------------------------------------
    def setup(self, scenario, options, ctx: Context):
        s = _setup.initial_state(scenario, ctx)
        _enter(s, ctx)
        _advance(s, ctx)
        return s

    def demo_bot(self, seed, view_of):
        """The Tet heuristic bot: attacks, ambushes and hides (bots.py)."""
        from .bots import tet_bot
        return tet_bot(seed)

    def copy_state(self, s):
        return copy_state(s)

    def pending(self, s):
        d = s.get("decision")
        if d is None or s.get("outcome"):
            return None
        # The service shows this data to everyone (GetState, ListLegalCommands, SubmitCommand's next
        # decision): only the public part of the decision (views.decision_view); the seat to decide
        # learns its options from legal_commands.
        from .views import decision_view
        return Decision(d["seat"], d["kind"], d["prompt"], {k: v for k, v in decision_view(d, None).items()
                                                            if k not in ("seat", "kind", "prompt")})

    def outcome(self, s):
        return s.get("outcome")

    def is_private(self, s, seat, command):
        """Every Communist command is sealed: it may name hidden units or hidden placements; the public
        events of its application say only what the Allied seat may see."""
        return seat == COMMUNIST

    # -- legal commands -------------------------------------------------------
    def legal_commands(self, s, seat):
        d = s.get("decision")
        if d is None or d["seat"] != seat or s.get("outcome"):
            return []
        return _legal(s, d)

    # -- apply ----------------------------------------------------------------
    def apply(self, s, seat, command, ctx: Context):
        if command.WhichOneof("game") != "ntnd":
            raise Rejection("WRONG_GAME_COMMAND", "this is a No Trumpets No Drums game")
        d = s.get("decision")
        if d is None or d["seat"] != seat:
            raise Rejection("NOT_YOUR_DECISION", "NTND 3: the pending decision belongs to the other seat")
        action = command.ntnd.WhichOneof("action")
        if action is None:
            raise Rejection("ILLEGAL_COMMAND", "NTND: the command names no action")
        _dispatch(s, d, action, getattr(command.ntnd, action), ctx)
        _advance(s, ctx)
        return s

    # -- views ------------------------------------------------------------------
    def view(self, s, seat):
        return view(s, seat)


# ---------------------------------------------------------------------------
# the flow
# ---------------------------------------------------------------------------

def _enter(s: dict, ctx) -> None:
    """Automatic actions at the start of the current phase."""
    ph = phase_of(s)
    s["phase"] = {"id": ph.id}
    ctx.emit({"t": "phase", "turn": s["turn"], "label": s["turn_label"], "phase": ph.id, "rule": "NTND " + ph.rule,
              "title": ph.title})
    if ph.part == 2:
        ctx.emit({"t": "phase-skipped", "phase": ph.id, "rule": "NTND " + ph.rule, "note": ph.note + " (part 2)"})
        s["phase"]["done"] = True
        return
    if ph.id == "c_recruit":
        recruitment.start_communist_recruitment(s, ctx)
    elif ph.id == "c_ops":
        pass
    elif ph.id == "c_move":
        s["attacks"] = []
        s["phase"]["sub"] = "move"
        s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)   # 18.2.1.3
    elif ph.id == "a_reaction":
        if ph.note:
            ctx.emit({"t": "phase-note", "phase": ph.id, "note": ph.note})
    elif ph.id == "c_combat":
        s["phase"]["stack_check"] = True                             # 8.10.2
        s["phase"]["out_of_supply"] = out_of_supply(s, COMMUNIST)   # 18.2.1.4
        s["phase"]["queue"] = [dict(a) for a in s["attacks"]]
    elif ph.id in ("c_politics", "a_politics"):
        s["attacks"] = []
        politics.political_phase(s, ctx, "NTND " + ph.rule)
        s["phase"]["done"] = True
    elif ph.id == "a_reinforce":
        recruitment.start_allied_reinforcement(s, ctx)
        recruitment.award_points(s, ctx)
    elif ph.id == "a_move":
        s["flags"]["allied_moved"] = []
        s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)      # 18.2.1.3
    elif ph.id == "c_reaction":
        s["flags"]["vacated"] = []
    elif ph.id == "a_combat":
        # 19.1.2: inverted units adjacent to Allied ground combat units flip face up
        for mid in reaction.markers_in_contact(s, ground_only=True):
            operations.flip_marker(s, mid, ctx, "NTND 19.1.2")
        s["phase"]["out_of_supply"] = out_of_supply(s, ALLIED)      # 18.2.1.4
        s["phase"]["stack_check"] = True                             # 8.10.2


def _advance(s: dict, ctx) -> None:
    """Run automatic steps until a player must decide (stored in s["decision"]) or the game ends."""
    while True:
        if s.get("outcome"):
            s["decision"] = None
            return
        if s["battle"] is not None:
            bd = battles.next_decision(s, ctx)
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
            from .apply_ import resume_path
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
            v = movement.first_violation(s)
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
        _next_phase(s, ctx)


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


def _next_phase(s: dict, ctx) -> None:
    ph = phase_of(s)
    if ph.id in ("c_move", "a_move"):
        _stranded(s, ph.player, ctx)
    if ph.id == "a_move":
        from .sea import forced_returns
        forced_returns(s, ctx)                                       # 8.6.4.3
    if ph.id in ("c_combat", "a_combat") and not s["phase"].get("end_checked"):
        s["phase"]["end_checked"] = True                             # 8.10.2: also at the end
        s["phase"]["stack_check"] = True
        s["phase"]["done"] = True
        return
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
    _enter(s, ctx)


def _stranded(s: dict, side: str, ctx) -> None:
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
    if ph.id == "c_combat":
        # resolve the announced attacks in the order announced (3.1.6)
        while p["queue"]:
            a = p["queue"].pop(0)
            able = {x for tgt, g in battles.attack_options(s, COMMUNIST) if tgt == a["target"] for x in g}
            att = [x for x in a["attackers"] if x in able]
            if not att:
                ctx.emit({"t": "attack-cancelled", "target": a["target"], "rule": "NTND 19.1"})
                continue
            battles.start_battle(s, COMMUNIST, a["target"], att, ctx)
            return _battle_or_none(s, ctx)
        return None
    kinds = {"c_recruit": (COMMUNIST, "recruit", "NTND 4.1: place recruits (cadres, dummies, NVA units), then done"),
             "c_ops": (COMMUNIST, "operations", "NTND 6: promote, break down, invert or flip, then done"),
             "a_reaction": (ALLIED, "reaction", "NTND 8.8.1: airmobile reaction moves, then done"),
             "a_reinforce": (ALLIED, "reinforce", "NTND 4.2.1, 5.7, 5.8: place reinforcements, reassign, relocate"),
             "a_move": (ALLIED, "move", "NTND 8: move units, then done"),
             "c_reaction": (COMMUNIST, "reaction", "NTND 8.8.2: move inverted units next to Allied units one hex"),
             "a_combat": (ALLIED, "combat", "NTND 19: attack, then done")}
    if ph.id == "c_move":
        if p["sub"] == "move":
            return {"seat": COMMUNIST, "kind": "move", "prompt": "NTND 8: move units, then done"}
        return {"seat": COMMUNIST, "kind": "announce", "prompt": "NTND 3.1.4: announce attacks, then done"}
    if ph.id == "a_combat" and p.get("sub") == "occupy":
        return {"seat": ALLIED, "kind": "occupy", "prompt": "NTND 8.8.2.2: occupy hexes the inverted units left"}
    seat, kind, prompt = kinds[ph.id]
    if ph.id in ("a_reaction",) and not reaction.allied_reaction_options(s):
        return None
    if ph.id == "c_reaction" and not reaction.markers_in_contact(s):
        # asked whenever a marker touches an Allied unit, whether or not its (hidden) units can move,
        # so that the question itself reveals nothing
        return None
    return {"seat": seat, "kind": kind, "prompt": prompt}


def _battle_or_none(s, ctx):
    bd = battles.next_decision(s, ctx)
    return _battle_decision(bd) if bd is not None else _phase_decision(s, ctx)


# ---------------------------------------------------------------------------
# legal commands per decision
# ---------------------------------------------------------------------------

def _legal(s: dict, d: dict) -> list:
    kind = d["kind"]
    done = [cmd("done")]
    if kind == "recruit":
        return [cmd("place", **p) for p in recruitment.place_options(s)] + done
    if kind == "operations":
        out = [cmd("promote", piece=c, supply=sp, to=to) for c, sp, to in operations.promotion_options(s)]
        out += [cmd("break_down", piece=u) for u in operations.breakdown_options(s)]
        toggled = set(s["phase"].get("toggled", ()))
        out += [cmd("invert", location=loc, units=list(us)) for loc, us in operations.invert_options(s)
                if not set(us) & toggled]
        out += [cmd("flip", marker=mid) for mid in sorted(s["markers"], key=lambda x: int(x[1:])) if mid not in toggled]
        return out + done
    if kind == "move":
        return [cmd("move", piece=p, path=path) for p, path in move_options(s)] + done
    if kind == "announce":
        taken = {a["target"] for a in s["attacks"]}
        used = {x for a in s["attacks"] for x in a["attackers"]}
        out = []
        for tgt, att in battles.attack_options(s, COMMUNIST):
            att = [x for x in att if x not in used]
            if tgt not in taken and att:
                out.append(cmd("attack", target=tgt, attackers=att))
        return out + done
    if kind == "combat":
        return [cmd("attack", target=t, attackers=list(a)) for t, a in battles.attack_options(s, ALLIED)] + done
    if kind == "reaction":
        opts = reaction.allied_reaction_options(s) if d["seat"] == ALLIED else reaction.communist_reaction_options(s)
        return [cmd("move", piece=p, path=[t]) for p, t in opts] + done
    if kind == "reinforce":
        out = [cmd("place", unit=u, location=loc) for u, loc in recruitment.reinforcement_options(s)]
        out += [cmd("place", unit=u, location=loc) for u, loc in recruitment.purchase_options(s)]
        out += [cmd("relocate", unit=f, to=t) for f, t in corps.relocate_options(s)]
        out += [cmd("reassign", group=g, corps=c) for g, c in corps.reassign_options(s)]
        return out + done
    if kind == "ambush":
        cands = battles.ambush_candidates(s, d["unit"])
        out = []
        if battles.ambush_allowed(s, d["unit"], cands):
            for combo in [cands] + ([[c] for c in cands] if len(cands) > 1 else []):
                if _ambush_ok(s, d["unit"], combo):
                    out.append(cmd("ambush", markers=combo))
        return out + done
    if kind == "interdict":
        from .apply_ import interdict_targets
        return [cmd("attack", target=h, attackers=[d["unit"]]) for h in interdict_targets(s, d["unit"])] + done
    if kind == "occupy":
        from .apply_ import occupy_options
        return [cmd("move", piece=u, path=[h]) for u, h in occupy_options(s)] + done
    if kind == "continue":
        from .apply_ import resume_path
        return [cmd("move", piece=d["unit"], path=resume_path(s, s["resume"]))] + done
    if kind == "supply":
        from .battles import supply_covers
        return [cmd("losses", units=c) for c in supply_covers(s["battle"])]
    if kind in ("losses", "overstack_losses"):
        import itertools
        return [cmd("losses", units=list(c)) for c in itertools.combinations(d["eligible"], d["count"])]
    if kind == "retreat":
        out = [cmd("retreat", unit=d["unit"], to=t) for t in d["to"]]
        return out + (done if d["mode"] == "may" else [])
    if kind == "advance":
        el = d["eligible"]
        opts = [el] + ([[x] for x in el] if len(el) > 1 else [])
        return [cmd("advance", units=o) for o in opts
                if movement.stacking_problem(s, s["battle"]["side"], s["battle"]["target"], o) is None] + done
    return done


def _ambush_ok(s, uid, combo) -> bool:
    try:
        probe = copy_state(s)
        battles.start_ambush(probe, uid, combo, _NullCtx())
        return True
    except Rejection:
        return False


class _NullCtx:
    """A context for probing legality without effects (dice fixed at 1, no events kept)."""

    def roll(self, die, rule, to=None):
        from ...crypto import dice as _d
        return _d.Roll(0, die, (1,), 1, rule)

    def emit(self, event, to=None):
        return (0, 0) if to else None

    def reveal(self, ref):
        return {}


def move_options(s: dict) -> list[tuple[str, list[str]]]:
    """Per piece (face-up unit or marker) of the deciding side that has not moved: one path per
    reachable destination."""
    d = s["decision"]
    side = d["seat"]
    moved = set(s["phase"].get("moved", ()))
    out = []
    pieces = []
    if side == COMMUNIST:
        pieces += sorted(s["markers"], key=lambda x: int(x[1:]))
    pieces += [u["id"] for u in sorted(s["units"].values(), key=lambda x: x["id"])
               if u["status"] == "map" and u["side"] == side and not u["inv"]]
    env = movement.Env(s)
    for p in pieces:
        if p in moved:
            continue
        for key, path in sorted(reach.reachable(s, p, env).items()):
            out.append((p, path))
    return out


# ---------------------------------------------------------------------------
# dispatch
# ---------------------------------------------------------------------------

def _dispatch(s: dict, d: dict, action: str, msg, ctx) -> None:
    kind = d["kind"]
    allowed = {"recruit": ("place", "done"), "operations": ("promote", "break_down", "invert", "flip", "done"),
               "move": ("move", "done"), "announce": ("attack", "done"), "combat": ("attack", "done"),
               "reaction": ("move", "done"), "reinforce": ("place", "relocate", "reassign", "done"),
               "ambush": ("ambush", "done"), "losses": ("losses",), "overstack_losses": ("losses",), "supply": ("losses",), "continue": ("move", "done"), "occupy": ("move", "done"),
               "interdict": ("attack", "done"), "retreat": ("retreat", "done"),
               "advance": ("advance", "done")}
    if action not in allowed.get(kind, ()):
        raise Rejection("ILLEGAL_COMMAND", f"NTND 3: the pending decision is {kind}; {action} does not answer it")
    from . import apply_ as A
    A.apply_action(s, d, action, msg, ctx)


def view(s: dict, seat: str | None) -> dict:
    from .views import build_view
    return build_view(s, seat)


__all__ = ["NtndRuleset", "cmd", "move_options"]
