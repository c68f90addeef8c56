"""Good Morning, Vietnam! (rule text 004): the ruleset and its phase machine.

Turn order (the project's choice, docs/rules/gmv.md): each turn the Americans
play the five phases (1 buy, 2 bombing, 3 combat actions, 4 non-combat moves,
5 placement), then the NVA plays the same five phases. US first means a unit
the US reveals in its turn cannot re-infiltrate until the NVA's next turn
("must wait 1 turn"). Interruptions (battles, the NVA's answers to patrols,
hot LZs and bombing) are decisions pushed in front of the phase decision.
"""
from __future__ import annotations

import json
import pathlib

from ...errors import Rejection
from ...ruleset import Context, Decision, Ruleset
from . import board, bombing, combat, economy, noncombat, nva, us, victory
from .zones import ZONES

_SETUP = json.loads((pathlib.Path(__file__).resolve().parent / "data" / "setup.json").read_text(encoding="utf-8"))

PHASES = {1: "buy", 2: "bombing", 3: "combat actions", 4: "non-combat moves", 5: "placement"}

# decision kind -> (seat or None for the phase's side, allowed actions)
ACTIONS = {
    ("us", 1): ("buy", "end_phase"), ("nva", 1): ("buy", "end_phase"),
    ("us", 2): ("bomb", "defoliate", "end_phase"),
    ("us", 3): ("patrol", "build", "airlift", "move", "end_phase"),
    ("nva", 3): ("recruit", "infiltrate", "attack", "move", "end_phase"),
    # the NVA's phase 4 ends with its one sealed hidden-move order (issue 26, nva.hidden_move)
    ("us", 4): ("move", "end_phase"), ("nva", 4): ("move", "hidden_move"),
    ("us", 5): ("place", "end_phase"), ("nva", 5): ("place", "end_phase"),
}
INTERRUPT = {"hot_lz": "hot_lz", "reveal": "reveal", "bomb_casualties": "casualties",
             "support": "support", "casualties": "casualties", "withdraw": "battle_choice"}
PRIVATE_NVA = ("infiltrate", "hidden_move", "hot_lz", "reveal", "buy", "place")


class GmvRuleset(Ruleset):
    game = "gmv"
    # 2: issue 26: hidden units leaving the hidden board into a zone (attack, support) are revealed
    # there and their commitments opened only at the end, so version 1 logs no longer replay
    version = "2"
    seats = ("us", "nva")
    scenarios = ("1965",)
    options = {"turns": _SETUP["turns"], "defoliation_2d6": False}
    # SPEC.md 6.5, docs/rules/gmv.md "Padded sizes": every private event for the NVA (hidden, income,
    # bought, forfeit) pads to 128 bytes (the largest: 112, an income with 32-bit amounts); every sealed
    # NVA order to 768 (the largest of 75 bot games: 195; an order naming 60 units of the longest ids
    # fits, with room for the envelope to grow; a larger one is refused with COMMAND_TOO_LARGE)
    sealed_sizes = {"command": {"nva": 768}, "event": {"nva": 128}}

    def check_options(self, scenario, options):
        # checked at CreateGame and again by the verifier at genesis (SPEC.md 10 B.6)
        out = super().check_options(scenario, options)
        if not 1 <= out["turns"] <= 50:
            raise Rejection("BAD_OPTION", "GMV: turns is 1..50")
        return out

    # -- setup ----------------------------------------------------------------
    def setup(self, scenario, options, ctx: Context):
        s = {"turn": 1, "turns": options["turns"], "side": "us", "phase": 1,
             "opts": {"defoliation_2d6": options["defoliation_2d6"]}, "next": 1, "units": {},
             "zones": {z: {"f": ZONES[z]["f"], "airbase": ZONES[z]["airbase"], "started": None,
                           "lz": False, "positions": False} for z in ZONES},
             "money": json.loads(json.dumps(_SETUP["money"])), "pool": {"us": [], "nva": []},
             "marks": [], "cursor": 0, "stack": [], "battle": None, "over": None, "hidden_moves": 0,
             "kept": []}
        for key, side, hidden in (("us", "us", False), ("nva", "nva", False), ("nva_hidden", "nva", True)):
            for z, t, n in _SETUP[key]:
                for _ in range(n):
                    board.new_unit(s, t, side, z, hidden)
        board.commit_hidden(s, ctx)
        ctx.emit({"t": "setup", "hidden": len(board.units(s, hidden=True))})
        self._begin_side(s, ctx)
        return s

    # -- the phase machine ------------------------------------------------------
    def pending(self, s):
        if s["over"] is not None:
            return None
        if s["stack"]:
            top = s["stack"][0]
            return Decision(top["seat"], top["kind"], f"GMV: answer the {top['kind'].replace('_', ' ')} in {top['zone']}",
                            {"zone": top["zone"]})
        b = s["battle"]
        if b is not None:
            return Decision(b["ask"], b["step"], f"GMV Combat in {b['zone']}, round {b['round']}: {b['step']}",
                            {"zone": b["zone"], "round": b["round"]})
        side, p = s["side"], s["phase"]
        return Decision(side, f"phase{p}", f"GMV turn {s['turn']}: {side} phase {p} ({PHASES[p]})",
                        {"turn": s["turn"], "phase": p})

    def _kind_actions(self, s, seat):
        d = self.pending(s)
        if d is None or d.seat != seat:
            return d, ()
        if d.kind.startswith("phase"):
            return d, ACTIONS.get((seat, s["phase"]), ("end_phase",))
        return d, (INTERRUPT[d.kind],)

    def apply(self, s, seat, command, ctx: Context):
        if command.WhichOneof("game") != "gmv":
            raise Rejection("WRONG_GAME_COMMAND", "this is Good Morning, Vietnam!")
        action = command.gmv.WhichOneof("action")
        d, allowed = self._kind_actions(s, seat)
        if d is None:
            raise Rejection("GAME_OVER", "GMV: the game has ended")
        if action not in allowed:
            raise Rejection("ILLEGAL_COMMAND", f"GMV: the pending decision ({d.kind}) takes {', '.join(allowed)}")
        msg = getattr(command.gmv, action)
        if d.kind == "bomb_casualties":
            bombing.bomb_casualties(s, seat, msg, ctx)
        elif d.kind == "casualties":
            combat.casualties(s, seat, msg, ctx)
        else:
            HANDLERS[action](self, s, seat, msg, ctx)
        self._advance(s, ctx)
        return s

    def _end_phase(self, s, seat, msg, ctx):
        p = s["phase"]
        if p == 5:
            if economy.placeable(s, seat):
                raise Rejection("MUST_PLACE", "GMV Phase 5: place your purchased units first")
            economy.forfeit(s, seat, ctx)
            return self._next_side(s, ctx)
        s["phase"] = p + 1
        ctx.emit({"t": "phase", "turn": s["turn"], "side": s["side"], "phase": p + 1})
        if s["phase"] == 2 and s["side"] == "nva":  # the NVA has no bombers: nothing to do
            s["phase"] = 3
            ctx.emit({"t": "phase", "turn": s["turn"], "side": "nva", "phase": 3})
        if s["phase"] == 3:
            s["cursor"] = 0

    def _next_side(self, s, ctx):
        if s["side"] == "us":
            s["side"] = "nva"
        else:
            s["side"] = "us"
            s["turn"] += 1
            if s["turn"] > s["turns"]:
                s["turn"] = s["turns"]
                s["over"] = victory.final(s, ctx)
                ctx.emit({"t": "game-over", **s["over"]})
                return
        s["phase"] = 1
        self._begin_side(s, ctx)

    def _begin_side(self, s, ctx):
        side = s["side"]
        for u in s["units"].values():
            if u["side"] == side:
                u["acted"] = False
        ctx.emit({"t": "phase", "turn": s["turn"], "side": side, "phase": 1})
        economy.income(s, side, ctx)

    def _advance(self, s, ctx):
        while s["over"] is None and not s["stack"]:
            b = s["battle"]
            if b is not None:
                if b["step"] == "round":
                    combat.run_round(s, ctx)
                    continue
                if b["step"] == "casualties":
                    if combat.casualty_step(s, ctx):
                        return
                    continue
                return
            if s["side"] == "us" and s["phase"] == 2 and bombing.due_marks(s):
                bombing.resolve_next(s, ctx)
                continue
            break
        if s["over"] is None:
            out = victory.immediate(s)
            if out is not None:
                s["over"] = out
                for u in board.units(s, hidden=True):
                    board.reveal(s, u, ctx, "end of the game", mark=False)
                board.open_kept(s, ctx)
                ctx.emit({"t": "game-over", **out})

    # -- interface --------------------------------------------------------------
    def legal_commands(self, s, seat):
        from .legal import legal_commands
        return legal_commands(self, s, seat)

    def is_private(self, s, seat, command):
        if seat != "nva" or command.WhichOneof("game") != "gmv":
            return False
        action = command.gmv.WhichOneof("action")
        if action in PRIVATE_NVA:
            return True
        return action == "casualties" and bool(s["stack"]) and s["stack"][0]["kind"] == "bomb_casualties"

    def view(self, s, seat):
        v = {"turn": s["turn"], "turns": s["turns"], "side": s["side"], "phase": s["phase"],
             "zones": {z: dict(s["zones"][z]) for z in sorted(s["zones"])},
             "units": [board.pub_unit(u) for u in board.units(s, hidden=False)],
             "hidden_count": len(board.units(s, hidden=True)), "hidden_moves": s["hidden_moves"],
             "marks": [dict(m) for m in s["marks"]], "money": {"us": dict(s["money"]["us"])},
             "pool": {"us": list(s["pool"]["us"])}, "stack": [dict(x) for x in s["stack"]],
             "battle": json.loads(json.dumps(s["battle"])) if s["battle"] else None, "over": s["over"]}
        d = self.pending(s)
        v["pending"] = d.as_dict() if d else None
        if seat == "nva":
            v["money"]["nva"] = dict(s["money"]["nva"])
            v["pool"]["nva"] = list(s["pool"]["nva"])
            v["hidden"] = [board.pub_unit(u) for u in board.units(s, hidden=True)]
        return v

    def outcome(self, s):
        return s["over"]

    def copy_state(self, s):
        n = dict(s)
        n["units"] = {k: dict(u) for k, u in s["units"].items()}
        for u in n["units"].values():
            if u["ref"] is not None:
                u["ref"] = list(u["ref"])
        n["zones"] = {k: dict(z) for k, z in s["zones"].items()}
        n["money"] = {k: dict(m) for k, m in s["money"].items()}
        n["pool"] = {k: list(p) for k, p in s["pool"].items()}
        n["marks"] = [dict(m) for m in s["marks"]]
        n["kept"] = [list(r) for r in s["kept"]]
        n["stack"] = json.loads(json.dumps(s["stack"]))
        n["battle"] = json.loads(json.dumps(s["battle"])) if s["battle"] is not None else None
        n["opts"] = dict(s["opts"])
        n["over"] = json.loads(json.dumps(s["over"])) if s["over"] is not None else None
        return n


HANDLERS = {
    "end_phase": GmvRuleset._end_phase,
    "buy": lambda self, s, seat, m, ctx: economy.buy(s, seat, m, ctx),
    "place": lambda self, s, seat, m, ctx: economy.place(s, seat, m, ctx),
    "bomb": lambda self, s, seat, m, ctx: bombing.bomb(s, seat, m, ctx),
    "defoliate": lambda self, s, seat, m, ctx: bombing.defoliate(s, seat, m, ctx),
    "recruit": lambda self, s, seat, m, ctx: nva.recruit(s, seat, m, ctx),
    "infiltrate": lambda self, s, seat, m, ctx: nva.infiltrate(s, seat, m, ctx),
    "hidden_move": lambda self, s, seat, m, ctx: (nva.hidden_move(s, seat, m, ctx),
                                                  GmvRuleset._end_phase(self, s, seat, m, ctx)),
    "attack": lambda self, s, seat, m, ctx: nva.attack(s, seat, m, ctx),
    "patrol": lambda self, s, seat, m, ctx: us.patrol(s, seat, m, ctx),
    "build": lambda self, s, seat, m, ctx: us.build(s, seat, m, ctx),
    "airlift": lambda self, s, seat, m, ctx: us.airlift(s, seat, m, ctx),
    "move": lambda self, s, seat, m, ctx: noncombat.move(s, seat, m, ctx),
    "support": lambda self, s, seat, m, ctx: combat.support(s, seat, m, ctx),
    "battle_choice": lambda self, s, seat, m, ctx: combat.choice(s, seat, m, ctx),
    "hot_lz": lambda self, s, seat, m, ctx: nva.hot_lz_answer(s, seat, m, ctx),
    "reveal": lambda self, s, seat, m, ctx: nva.reveal_answer(s, seat, m, ctx),
}
