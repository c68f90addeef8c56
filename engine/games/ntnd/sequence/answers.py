"""No Trumpets No Drums: the answers of the decision kinds of movement, operations, recruitment,
reinforcement and battle (engine/decisions.py); decisions.py collects them with the section modules'
into the game's table. Each kind is declared once below, in ``KINDS``: its rule number(s), the actions of
``NtndCommand`` that answer it with their apply functions, its legal-answer enumerator, whether
that enumerator lists every legal answer (``complete``) or a representative set (the apply
function validates the rest), and which answers are sealed.

Every Communist command is sealed (SPEC.md 6): it may name hidden units or hidden placements, and
the public events of its application say only what the Allied seat may see. A kind either seat
may decide (moves, battles' aftermath) is declared once per seat by ``_per_seat``, the Communist
declaration sealed.

The state keeps the pending decision in ``s["decision"]`` (the loop over phases.FLOW writes it); the
enumerators read its private data (eligible units, retreat hexes) from there, never from the
public ``Decision`` the machine passes.
"""
from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Sequence

from afteraction.v1 import command_pb2, ntnd_pb2

from .... import snapshot
from ....crypto import dice as _dice
from ....errors import InternalIndexError, Rejection
from ....codes import Code
from ..movement import moves as A
from ..combat import aftermath, battles
from ..air import answers as air_answers
from ..optional import allied_specials, special_units, vc_bases as vcbases
from ..forces import corps, operations, recruitment
from ..arms import fleet, montagnards
from ..movement import search as ground_search, ground as movement, neutrality, reach, reaction
from ..movement import stacking
from ..movement import paths as move_paths
from ..politics.victory import eliminate
from ..components.state import ALLIED, COMMUNIST
from ..supply.lines import apply_supply, supply_covers
from .turns import C_MOVE

from .kinds import DONE, _allied, _communist, _done, _per_seat, cmd  # noqa: E402,F401 (cmd: the game's command builder)


def _phase_done(s, seat, msg, ctx) -> None:
    s["phase"]["done"] = True


def _moved(apply):
    """A move answer followed by neutrality's check of the borders it crossed (10.2, 10.5.1, 10.8;
    campaign): moves (8), reaction moves (8.8.1), occupying a vacated hex (8.8.2.2), going on after an
    ambush (20.5)."""
    def run(s, seat, msg, ctx) -> None:
        frm = s["units"][msg.piece]["loc"] if msg.piece in s["units"] else None
        apply(s, seat, msg, ctx)
        neutrality.after_move(s, seat, msg.piece, frm, list(msg.path), ctx)
    return run


# ---------------------------------------------------------------------------
# 4.1 recruitment, 6 operations (Communist)
# ---------------------------------------------------------------------------

def _recruit_legal(s, d) -> list:
    return [cmd("place", **p) for p in recruitment.place_options(s)] + _done()


def _recruit_place(s, seat, msg, ctx) -> None:
    recruitment.place_recruit(s, {"kind": msg.kind, "nationality": msg.nationality,
                                  "location": msg.location, "inverted": msg.inverted}, ctx)


def _recruit_done(s, seat, msg, ctx) -> None:
    s["phase"]["done"] = True
    ctx.emit({"t": "recruitment-done", "rule": "NTND 4.1.6: unused recruits are forfeited"})


def _ops_legal(s, d) -> list:
    out = [cmd("promote", piece=c, supply=sp, to=to) for c, sp, to in operations.promotion_options(s)]
    out += [cmd("break_down", piece=u) for u in operations.breakdown_options(s)]
    toggled = set(s["phase"].get("toggled", ()))
    out += [cmd("invert", location=loc, units=list(us)) for loc, us in operations.invert_options(s)
            if not set(us) & toggled]
    out += [cmd("flip", marker=mid) for mid in sorted(s["markers"], key=lambda x: int(x[1:])) if mid not in toggled]
    out += [cmd("build_base", location=h, supplies=list(p)) for h, p in vcbases.build_options(s)]   # 28.9.3
    out += [cmd("upgrade", regiment=r, cadre=c, supply=sp) for r, c, sp in vcbases.upgrade_options(s)]   # 28.9.7
    return out + _done()


def _ops_promote(s, seat, msg, ctx) -> None:
    s["phase"].setdefault("toggled", [])
    operations.promote(s, msg.piece, msg.supply, msg.to, ctx)


def _ops_break_down(s, seat, msg, ctx) -> None:
    s["phase"].setdefault("toggled", [])
    operations.break_down(s, msg.piece, ctx)


def _ops_invert(s, seat, msg, ctx) -> None:
    toggled = s["phase"].setdefault("toggled", [])
    uids = list(msg.units)
    if set(uids) & set(toggled):
        raise Rejection(Code.ILLEGAL_INVERT, "NTND 6.2: a unit is inverted or flipped once per Operations phase", rule="NTND 6.2")
    mid = operations.invert(s, msg.location, uids, ctx)
    toggled.extend(uids + [mid])


def _ops_flip(s, seat, msg, ctx) -> None:
    toggled = s["phase"].setdefault("toggled", [])
    if msg.marker not in s["markers"] or msg.marker in toggled:
        raise Rejection(Code.ILLEGAL_FLIP, "NTND 6.2: flip an inverted marker in play (once per phase)", rule="NTND 6.2")
    up = operations.flip_marker(s, msg.marker, ctx, "NTND 6.2")
    toggled.extend(up + [msg.marker])
    neutrality.after_flip(s, up, ctx)   # 10.5.1 (campaign)


def _ops_build_base(s, seat, msg, ctx) -> None:
    s["phase"].setdefault("toggled", [])
    vcbases.build(s, msg.location, list(msg.supplies), ctx)


def _ops_upgrade(s, seat, msg, ctx) -> None:
    s["phase"].setdefault("toggled", [])
    vcbases.upgrade(s, msg.regiment, msg.cadre, msg.supply, ctx)


def _ops_done(s, seat, msg, ctx) -> None:
    s["phase"].setdefault("toggled", [])
    s["phase"]["done"] = True


# ---------------------------------------------------------------------------
# 8 movement, 3.1.4 announcing attacks, 19 Allied combat, 8.8 reaction
# ---------------------------------------------------------------------------

def move_options(s: dict) -> list[tuple[str, list[str]]]:
    """Per piece (face-up unit or marker) of the deciding side that has not moved: one path per
    reachable destination."""
    return [(p, path) for p, paths in _move_chunks(s) for path in paths]


def _move_chunks(s: dict) -> list[tuple[str, Sequence[list[str]]]]:
    """``move_options`` per piece: (piece, its paths in the order of their destinations: a ground
    search's are decoded when read, ``ground_search.PathList``), pieces without one left out."""
    side = s["decision"]["seat"]
    moved = set(s["phase"].get("moved", ()))
    out = []
    pieces = []
    if side == COMMUNIST:
        pieces += sorted(s["markers"], key=lambda x: int(x[1:]))
    pieces += sorted(u["id"] for u in s["units"].values()
                     if u["status"] == "map" and u["side"] == side and not u["inv"])   # ids are unique
    env = movement.Env(s)
    for p in pieces:
        if p in moved:
            continue
        r = reach.reachable(s, p, env)
        if r:
            paths = r.ordered() if type(r) is ground_search.Paths else [r[k] for k in sorted(r)]
            # a marker's offered routes are those a dummy would take where its contents may (8, 17.2)
            out.append((p, move_paths.public_paths(s, p, paths, env) if p in s["markers"] else paths))
    return out


class MoveCommands(Sequence):
    """The legal answers of a movement decision, as a sequence of Commands: every (piece, path) is
    enumerated up front (``move_options``, kept per piece: ``_move_chunks``); each Command is built
    when it is read. A Tet movement phase offers thousands of moves and a player sends one; building
    them all took longer than the searches, and so did building every path and sorting every
    piece's destinations (a ground piece's paths are read by position when its Command is built). Reading every item (a list of them, the
    service's ListLegalCommands) gives the same Commands, in the same order, as building them eagerly."""

    __slots__ = ("_chunks", "_starts", "_n", "_tail", "_made")

    def __init__(self, chunks: list[tuple[str, Sequence[list[str]]]], tail: list) -> None:
        self._chunks = chunks
        self._starts = list(itertools.accumulate((len(paths) for _, paths in chunks), initial=0))
        self._n = self._starts.pop()   # the moves; each chunk's first index in _starts
        self._tail = tail
        self._made: dict[int, command_pb2.Command] = {}

    def __len__(self) -> int:
        return self._n + len(self._tail)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise InternalIndexError("legal command index out of range")
        if i >= self._n:
            return self._tail[i - self._n]
        c = self._made.get(i)
        if c is None:
            j = bisect_right(self._starts, i) - 1   # no chunk is empty: one start per chunk, increasing
            p, paths = self._chunks[j]
            c = command_pb2.Command()   # cmd("move", piece=p, path=path), unrolled
            m = c.ntnd.move
            m.piece = p
            m.path.extend(paths[i - self._starts[j]])
            self._made[i] = c
        return c

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple, Sequence)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __iter__(self):
        """Every item in order, as ``self[i]`` for i = 0, 1, ... gives it (the same objects), without
        the index arithmetic of each read: the bots read every legal command of a state."""
        made, i = self._made, 0
        for p, paths in self._chunks:
            for path in paths:
                c = made.get(i)
                if c is None:
                    c = made[i] = command_pb2.Command()   # cmd("move", piece=p, path=path), unrolled
                    m = c.ntnd.move
                    m.piece = p
                    m.path.extend(path)
                yield c
                i += 1
        yield from self._tail


def _move_legal(s, d) -> MoveCommands:
    zoc = [cmd("announce_zoc", country=c, extend=e) for c, e in neutrality.zoc_options(s, s["decision"]["seat"])]
    return MoveCommands(_move_chunks(s), zoc + _done())     # 10.2, 8.5.1, 10.8: ZOC across a border


def _move_announce_zoc(s, seat, msg, ctx) -> None:
    neutrality.announce_zoc(s, seat, msg.country, msg.extend, ctx)


@_moved
def _move_move(s, seat, msg, ctx) -> None:
    A.move(s, seat, msg.piece, list(msg.path), ctx)


def _move_done(s, seat, msg, ctx) -> None:
    if s["phase"]["id"] == C_MOVE:
        s["phase"]["sub"] = "announce"
    elif not fleet.end_of_movement(s):                             # 14.2.2 (fleet): the mine first
        s["phase"]["done"] = True


def _announce_legal(s, d) -> list:
    taken = {a["target"] for a in s["attacks"]}
    used = {x for a in s["attacks"] for x in a["attackers"]}
    out = []
    for tgt, att in battles.attack_options(s, COMMUNIST):
        att = [x for x in att if x not in used]
        if tgt not in taken and att:
            out.append(cmd("attack", target=tgt, attackers=att))
    return out + _done()


def _announce_attack(s, seat, msg, ctx) -> None:
    A.announce(s, msg, ctx)


def _combat_legal(s, d) -> list:
    return [cmd("attack", target=t, attackers=list(a)) for t, a in battles.attack_options(s, ALLIED)] + _done()


def _combat_attack(s, seat, msg, ctx) -> None:
    battles.start_battle(s, ALLIED, msg.target, list(msg.attackers), ctx)


def _combat_done(s, seat, msg, ctx) -> None:
    if A.occupy_options(s):
        s["phase"]["sub"] = "occupy"
    else:
        s["phase"]["done"] = True


def _reaction_legal(s, d) -> list:
    opts = reaction.allied_reaction_options(s) if d.seat == ALLIED else reaction.communist_reaction_options(s)
    air = air_answers.fly_commands(s) if d.seat == ALLIED else []       # 8.8.1.2 (air_war)
    return [cmd("move", piece=p, path=[t]) for p, t in opts] + air + _done()


@_moved
def _reaction_move(s, seat, msg, ctx) -> None:
    A.react(s, seat, msg, ctx)


# ---------------------------------------------------------------------------
# 4.2.1, 5.7, 5.8 Allied reinforcement
# ---------------------------------------------------------------------------

def _reinforce_legal(s, d) -> list:
    out = [cmd("place", unit=u, location=loc) for u, loc in recruitment.reinforcement_options(s)]
    out += [cmd("place", unit=u, location=loc) for u, loc in recruitment.purchase_options(s)]
    out += [cmd("place", unit=u, location=loc) for u, loc in allied_specials.options(s)]   # 28.4.1, 28.11.5
    out += [cmd("relocate", unit=f, to=t) for f, t in corps.relocate_options(s)]
    out += [cmd("reassign", group=g, corps=c) for g, c in corps.reassign_options(s)]
    out += [cmd("recall_green_beret", unit=u) for u in montagnards.recall_options(s)]      # 15.2.3
    out += [cmd("place", unit=u, location="") for u in special_units.purchase_options(s)]   # 28.3.1
    out += [cmd("reassign_ranger", unit=u, corps=c) for u, c in special_units.ranger_options(s)]   # 28.5
    return out + _done()


def _reinforce_place(s, seat, msg, ctx) -> None:
    u = s["units"].get(msg.unit)
    if allied_specials.handles(s, msg.unit) and (u is None or u["status"] in ("dead", "mix")):
        allied_specials.buy(s, msg.unit, msg.location, ctx)                # 28.4.1, 28.11.5
    elif u is not None and special_units.is_special(s, msg.unit) and u["status"] in ("dead", "mix"):
        special_units.purchase(s, msg.unit, ctx)                   # 28.3.1 / 28.3.2
    elif u is not None and u["side"] == ALLIED and u["status"] in ("dead", "mix"):
        recruitment.purchase(s, msg.unit, msg.location, ctx)
    else:
        recruitment.place_reinforcement(s, msg.unit, msg.location, ctx)


def _reinforce_recall(s, seat, msg, ctx) -> None:
    montagnards.recall(s, msg.unit, ctx)


def _reinforce_ranger(s, seat, msg, ctx) -> None:
    special_units.reassign_ranger(s, msg.unit, msg.corps, ctx)


def _reinforce_relocate(s, seat, msg, ctx) -> None:
    corps.relocate(s, msg.unit, msg.to, ctx)


def _reinforce_reassign(s, seat, msg, ctx) -> None:
    corps.reassign(s, msg.group, msg.corps, ctx)


# ---------------------------------------------------------------------------
# 20.2 ambush, 20.5 going on, 8.6.3 interdiction, 8.8.2.2 occupying vacated hexes
# ---------------------------------------------------------------------------

def _ambush_legal(s, d) -> list:
    uid = s["decision"]["unit"]
    cands = battles.ambush_candidates(s, uid)
    out = []
    if battles.ambush_allowed(s, uid, cands):
        for combo in [cands] + ([[c] for c in cands] if len(cands) > 1 else []):
            if _ambush_ok(s, uid, combo):
                out.append(cmd("ambush", markers=combo))
    return out + _done()


def _ambush_ok(s, uid, combo) -> bool:
    """Would this ambush be accepted? Tried on a copy with fixed dice (nothing of it is kept)."""
    try:
        battles.start_ambush(snapshot.copy(s), uid, combo, _ProbeCtx())
        return True
    except Rejection:
        return False


class _ProbeCtx:
    """A context for probing legality without effects (dice fixed at 1, no events kept)."""

    def roll(self, die, rule, to=None):
        return _dice.Roll(0, die, (1,), 1, rule)

    def emit(self, event, to=None):
        return (0, 0) if to else None

    def reveal(self, ref):
        return {}


def _ambush_ambush(s, seat, msg, ctx) -> None:
    amb = s["ambush"]
    battles.start_ambush(s, amb["unit"], list(msg.markers), ctx)
    s["ambush"] = None  # 20.2: the ambushed unit stops; 20.5: if it survives it may go on moving
    if amb["rest"]:
        s["resume"] = {"unit": amb["unit"], "rest": list(amb["rest"])}


def _ambush_done(s, seat, msg, ctx) -> None:
    A.no_ambush(s, ctx)


def _interdict_legal(s, d) -> list:
    unit = s["decision"]["unit"]
    return [cmd("attack", target=h, attackers=[unit]) for h in A.interdict_targets(s, unit)] + _done()


def _interdict_attack(s, seat, msg, ctx) -> None:
    A.interdict(s, msg.target, ctx)


def _interdict_done(s, seat, msg, ctx) -> None:
    s["interdict"] = None


def _occupy_legal(s, d) -> list:
    return [cmd("move", piece=u, path=[h]) for u, h in A.occupy_options(s)] + _done()


@_moved
def _occupy_move(s, seat, msg, ctx) -> None:
    A.occupy(s, msg, ctx)


def _continue_legal(s, d) -> list:
    return [cmd("move", piece=s["decision"]["unit"], path=A.resume_path(s, s["resume"]))] + _done()


@_moved
def _continue_move(s, seat, msg, ctx) -> None:
    A.go_on(s, msg, ctx)


def _continue_done(s, seat, msg, ctx) -> None:
    s["resume"] = None


# ---------------------------------------------------------------------------
# a battle's aftermath: 18.6.2 supply spent, 19.2.6 / 8.10.2 losses, 19.3.2, 19.3 retreats, 19.4
# ---------------------------------------------------------------------------

def _supply_legal(s, d) -> list:
    return [cmd("losses", units=c) for c in supply_covers(s["battle"])]


def _supply_losses(s, seat, msg, ctx) -> None:
    apply_supply(s, list(msg.units), ctx)  # 18.6.2


def _losses_legal(s, d) -> list:
    dd = s["decision"]
    return [cmd("losses", units=list(c)) for c in itertools.combinations(dd["eligible"], dd["count"])]


def _losses_losses(s, seat, msg, ctx) -> None:
    d = s["decision"]
    if not d.get("overstack"):
        aftermath.apply_loss(s, list(msg.units), ctx)
        return
    chosen = list(msg.units)
    if len(set(chosen)) != d["count"] or len(chosen) != d["count"] or any(c not in d["eligible"] for c in chosen):
        raise Rejection(Code.ILLEGAL_LOSSES, f"NTND 8.10.2: eliminate {d['count']} of the over-stacked units", rule="NTND 8.10.2")
    for c in chosen:
        eliminate(s, c, ctx, "NTND 8.10.2")


def _overstack_losses(s, seat, msg, ctx) -> None:
    aftermath.apply_overstack_losses(s, list(msg.units), ctx)


def _retreat_legal(s, d) -> list:
    dd = s["decision"]
    out = [cmd("retreat", unit=dd["unit"], to=t) for t in dd["to"]]
    return out + (_done() if dd["mode"] == "may" else [])


def _retreat_retreat(s, seat, msg, ctx) -> None:
    d = s["decision"]
    if msg.unit != d["unit"]:
        raise Rejection(Code.ILLEGAL_RETREAT, f"NTND 19.3: the unit to retreat now is {d['unit']}", rule="NTND 19.3")
    aftermath.apply_retreat(s, msg.unit, msg.to, ctx)


def _retreat_done(s, seat, msg, ctx) -> None:
    aftermath.apply_retreat(s, s["decision"]["unit"], None, ctx)


def _advance_legal(s, d) -> list:
    el = s["decision"]["eligible"]
    opts = [el] + ([[x] for x in el] if len(el) > 1 else [])
    return [cmd("advance", units=o) for o in opts
            if stacking.stacking_problem(s, s["battle"]["side"], s["battle"]["target"], o) is None] + _done()


def _advance_advance(s, seat, msg, ctx) -> None:
    frm = {x: s["units"][x]["loc"] for x in msg.units if x in s["units"]}
    aftermath.apply_advance(s, list(msg.units), ctx)
    neutrality.after_advance(s, list(msg.units), frm, ctx)   # 10.2, 10.5.1 (campaign)


def _advance_done(s, seat, msg, ctx) -> None:
    aftermath.apply_advance(s, [], ctx)


# ---------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------

# the kinds this module answers; decisions.py collects them with those of the section modules
KINDS = [
    _communist("recruit", "NTND 4.1", {"place": _recruit_place, "done": _recruit_done}, _recruit_legal,
               "each placement of a recruit (cadre, dummy, NVA unit; face up or inverted), then done"),
    _communist("operations", "NTND 6", {"promote": _ops_promote, "break_down": _ops_break_down,
                                        "invert": _ops_invert, "flip": _ops_flip, "build_base": _ops_build_base,
                                        "upgrade": _ops_upgrade, "done": _ops_done}, _ops_legal,
               "promotions, break-downs, flips, and inverting all face-up units of a location (any subset of "
               "them is accepted); in the campaign VC bases built and regiments upgraded on them (28.9.3, "
               "28.9.7); then done", complete=False),
    *_per_seat("move", "NTND 8", {"move": _move_move, "announce_zoc": _move_announce_zoc, "done": _move_done},
               _move_legal,
               "one path per reachable destination of each piece not yet moved, ZOC extensions across borders to "
               "announce or take back (campaign, 10.2), then done; any other path legal step by step for the "
               "piece's real contents is accepted (paths.check_path)", complete=False),
    _communist("announce", "NTND 3.1.4", {"attack": _announce_attack, "done": _phase_done}, _announce_legal,
               "per Allied-held target, the face-up units that may attack it (any subset is accepted), then done",
               complete=False),
    _allied("combat", "NTND 19", {"attack": _combat_attack, "done": _combat_done}, _combat_legal,
            "per target, the units that may attack it (any subset is accepted), then done", complete=False),
    _allied("reaction", "NTND 8.8.1", {"move": _reaction_move, "fly": air_answers._fly, "done": _phase_done},
            _reaction_legal, "airmobile units flying to a hex under announced attack, defensive ground support "
                             "(8.8.1.2, air_war: representative missions), then done", complete=False),
    _communist("reaction", "NTND 8.8.2", {"move": _reaction_move, "done": _phase_done}, _reaction_legal,
               "inverted markers next to Allied units moving one hex, then done"),
    _allied("reinforce", "NTND 4.2.1/5.7/5.8", {"place": _reinforce_place, "relocate": _reinforce_relocate,
                                                "reassign": _reinforce_reassign,
                                                "recall_green_beret": _reinforce_recall,
                                                "reassign_ranger": _reinforce_ranger, "done": _phase_done},
            _reinforce_legal, "placements, purchases (militia and Montagnards with Green Berets, 15.2), firebase "
                              "relocations, group reassignments, Green Beret withdrawals (15.2.3), special units "
                              "bought (28.3.1) and ARVN Rangers reassigned (28.5), then done"),
    _communist("ambush", "NTND 20.2", {"ambush": _ambush_ambush, "done": _ambush_done}, _ambush_legal,
               "all adjacent markers together or each alone (any subset is accepted), or done (no ambush)",
               complete=False),
    _allied("interdict", "NTND 8.6.3", {"attack": _interdict_attack, "done": _interdict_done}, _interdict_legal,
            "an adjacent hex to search for supply units, or done"),
    _allied("occupy", "NTND 8.8.2.2", {"move": _occupy_move, "done": _phase_done}, _occupy_legal,
            "a unit into a hex an inverted stack left, then done"),
    _allied("continue", "NTND 20.5", {"move": _continue_move, "done": _continue_done}, _continue_legal,
            "the rest of the ambushed unit's move, or done (it stops)"),
    *_per_seat("supply", "NTND 18.6.2", {"losses": _supply_losses}, _supply_legal,
               "a set of supply units covering every NVA attacker that needed one, none to spare "
               "(representative covers listed)", complete=False),
    *_per_seat("losses", "NTND 19.2.6/8.10.2", {"losses": _losses_losses}, _losses_legal,
               "every choice of count units among the eligible ones"),
    *_per_seat("overstack_losses", "NTND 19.3.2", {"losses": _overstack_losses}, _losses_legal,
               "the units in violation of 8.10 after a retreat"),
    *_per_seat("retreat", "NTND 19.3", {"retreat": _retreat_retreat, "done": _retreat_done}, _retreat_legal,
               "a retreat hex for the unit, or done where it may stay (a tie)"),
    *_per_seat("advance", "NTND 19.4", {"advance": _advance_advance, "done": _advance_done}, _advance_legal,
               "all eligible units or each alone (any subset within stacking is accepted), or done", complete=False),
]
