"""No Trumpets No Drums: seeded heuristic bots for demos and tests (``tet_bot``; ``campaign_bot`` for the
campaign game, below; bots_political.ntnd_bot picks one by the scenario).

``tet_bot(seed)`` returns ``choose(seat, legal)`` like ``afteraction.engine.bots.random_bot``
(so ``LocalGame.run_bots`` and the service's bot runner can use it) and, like it, sees only the
legal commands: no hidden information. It plays a little less aimlessly than the uniform bot:
it attacks when it can, keeps recruits hidden, rarely flips its own stacks, ambushes more often
than not, advances with everything, and ends a movement phase only now and then. The Communist
player's recruits and moves are drawn public part first (``public_key``, ``bots.public_pick``; issue
42): the bot's choice shows nothing more of its markers than the rules do. Deterministic: choices
come from ``Prng`` (no ``random`` module).
"""
from __future__ import annotations

from typing import Callable

from functools import lru_cache

from ....bots import Prng, public_pick
from . import air as bots_air
from ..components.map import load_map


def _action(c) -> str:
    return c.ntnd.WhichOneof("action")


def group(legal: list) -> dict[str, list]:
    """The legal commands by action name, each list in the order of ``legal``."""
    by: dict[str, list] = {}
    for c in legal:
        by.setdefault(_action(c), []).append(c)
    return by


def _without(legal: list, drop: list) -> list:
    """``legal`` less the commands of ``drop`` (the same objects), in order."""
    ids = {id(x) for x in drop}
    return [x for x in legal if id(x) not in ids]


def public_key(c) -> tuple:
    """A Communist command in two parts for ``public_pick``: what the Allied seat sees of it, then what it
    hides. A move: the piece, then its destination and path (all public). A
    placement: the hex, whether inverted and, face up, the unit and its type, then an inverted
    recruit's type and nationality (hidden: one marker whatever it is)."""
    a = _action(c)
    if a == "move":
        m = c.ntnd.move
        return (m.piece, (m.path[-1] if m.path else "", tuple(m.path)))
    if a == "place":
        p = c.ntnd.place
        face = ("", "", p.unit) if p.inverted else (p.kind, p.nationality, p.unit)
        return ((p.location, p.inverted) + face, (p.kind, p.nationality) if p.inverted else ("", ""))
    return (c.SerializeToString(deterministic=True), b"")


def tet_bot(seed) -> Callable[[str, list], object]:
    prng = Prng(b"ntnd-tet-bot/" + (seed if isinstance(seed, bytes) else str(seed).encode()))

    def pick(cands: list):
        return cands[prng.below(len(cands))]

    def hidden_safe(seat: str, cands: list):
        """The Communist player's recruits and moves: the public part drawn first (``public_key``)."""
        return public_pick(prng, cands, public_key) if seat == "communist" else pick(cands)

    def chance(num: int, den: int) -> bool:
        return prng.below(den) < num

    def choose(seat: str, legal: list, by: dict | None = None):
        """``by``: ``group(legal)``, if the caller has it."""
        by = group(legal) if by is None else by
        done = by.get("done", [])
        if "attack" in by and (not done or chance(4, 5)):
            return pick(by["attack"])                               # 3.1.4 / 3.2.6 / 8.6.3
        if "ambush" in by and (not done or chance(3, 5)):
            return pick(by["ambush"])                               # 20.2
        if "advance" in by:
            return max(by["advance"], key=lambda c: len(c.ntnd.advance.units))  # 19.4: all in
        if "place" in by:
            hidden = [c for c in by["place"] if c.ntnd.place.inverted or c.ntnd.place.unit]
            return hidden_safe(seat, hidden or by["place"])         # 4.1: recruits stay hidden
        if "promote" in by or "break_down" in by:
            return pick(by.get("promote", []) + by.get("break_down", []))   # 6.1
        if "flip" in by or "invert" in by:                          # 6.2: mostly keep stacks hidden
            inverts = by.get("invert", [])
            if inverts and chance(1, 2):
                return pick(inverts)
            if done and not chance(1, 20):
                return done[0]
            return pick(by.get("flip", []) + inverts)
        if "move" in by and (not done or not chance(1, 25)):
            return hidden_safe(seat, by["move"])
        if done:
            return done[0]
        return pick(legal)

    return choose


# ---------------------------------------------------------------------------
# The campaign bot: the military habits of tet_bot plus a policy per political action
# ---------------------------------------------------------------------------

SEATO_PREFIXES = ("us-", "rok-", "anzac-", "thai-", "seato-")   # 4.2.3: their replacements cost 2 points

# Political actions (NtndCommand fields 20-39, docs/rules/ntnd.md) by name: how often the bot takes one
# when it may also pass (num, den), per seat. A named action absent here is an unknown one (UNKNOWN_TAKE).
TAKE = {
    "communist": {"expend": (2, 3), "aid": (1, 1), "declare_uprising": (1, 6), "build_base": (1, 2),
                  "upgrade": (1, 2), "choose": (1, 1), "announce_zoc": (0, 1)},
    # the Allies: every Hearts and Minds point (7.2), rarely a draft (4.5.3: each later one costs more),
    # a withdrawal or a Vietnamization policy only now and then (when one is owed, "done" is not offered),
    # a coup seldom (10.5.2: x5 the dice unless the country is Allied controlled), a firebase to the ARVN
    # half the time (24.3.5); neither side ever announces a ZOC across a border (10.2, 10.8: a violation
    # each turn for a blocking power the bot does not plan for)
    "allied": {"allocate": (1, 1), "draft": (1, 6), "declare": (1, 24), "withdraw": (1, 20), "coup": (1, 8),
               "choose": (1, 1), "announce_zoc": (0, 1), "transfer": (1, 2)},
}
UNKNOWN_TAKE = (3, 4)   # an action the bot has no policy for: usually taken (an action has a purpose)
MILITARY = ("attack", "ambush", "advance", "place", "promote", "break_down", "flip", "invert", "move",
            "losses", "retreat", "reassign", "relocate", "done")
STALL = 400             # consecutive non-done answers after which the bot passes when it may


def _strings(c) -> list[str]:
    """The string values of a command's action message (its fields, one level deep)."""
    msg = getattr(c.ntnd, _action(c))
    out = []
    for f, v in msg.ListFields():
        vals = v if _repeated(f) else [v]
        out += [x.lower() for x in vals if isinstance(x, str)]
    return out


def _favours(c, seat: str) -> bool:
    """A political option that names the bot's own side (e.g. a Hearts and Minds move toward "allied")."""
    mine = ("allied", "pro_allied", "allied_control") if seat == "allied" else \
        ("communist", "pro_communist", "communist_control")
    return any(s in mine for s in _strings(c))


@lru_cache(maxsize=1)
def _nv_hexes() -> frozenset:
    """North Vietnam's hexes and zones (public map data): 10.8 charges Allied ground units there."""
    m = load_map()
    return frozenset([h for h, x in m.hexes.items() if x.country == "NV"]
                     + [z for z, x in m.zones.items() if getattr(x, "country", None) == "NV"])


@lru_cache(maxsize=1)
def _sv_towns() -> frozenset:
    """The town and city hexes of South Vietnam (public map data): 22.4 scores them every political phase."""
    m = load_map()
    return frozenset(h for h, x in m.hexes.items() if x.town and x.country == "SV")


def campaign_bot(seed) -> Callable[[str, list], object]:
    """A bot for the campaign game (any scenario), one per seat or shared: deterministic (Prng), seeing only
    the legal commands. Military answers as ``tet_bot`` with one change: the Allies rarely buy back U.S. or
    SEATO units (4.2.3: two political points each), the Allies attack towns first and with the most units they can (a lone unit now and then),
the Allies move the units they placed this turn away from their entry city first (8.10.2), neither
side moves a unit into a hex it moved another unit to in the same phase (when it has another move),
and both sides move into South Vietnam's towns and cities more often than not (22.4). Political answers by the action's name (TAKE): an
    action that names the bot's own side is preferred among its options; an action it has no policy for is
    taken three times in four (a sensible pick among its options, not always ``done``)."""
    return _CampaignBot(seed).choose


class _CampaignBot:
    """``campaign_bot``'s state (its Prng, tet_bot for the military answers, and ``run``: commands since
    the last done, units it placed not yet moved, where it moved units this phase) and its steps."""

    def __init__(self, seed):
        tag = seed if isinstance(seed, bytes) else str(seed).encode()
        self.prng = Prng(b"ntnd-campaign-bot/" + tag)
        self.military = tet_bot(b"campaign/" + tag)
        self.run = {"n": 0, "placed": set(), "into": set()}

    def chance(self, p: tuple[int, int]) -> bool:
        return self.prng.below(p[1]) < p[0]

    def political(self, seat: str, by: dict, done: list):
        names = sorted(a for a in by if a not in MILITARY)
        for name in names:   # sorted: deterministic order of policies
            p = TAKE[seat].get(name, UNKNOWN_TAKE)
            if not done or self.chance(p):
                cands = [c for c in by[name] if _favours(c, seat)] or by[name]
                return cands[self.prng.below(len(cands))]
        return None

    def choose(self, seat: str, legal: list, by: dict | None = None):
        """``by``: ``group(legal)``, if the caller has it (changed here)."""
        by = group(legal) if by is None else by
        done = by.get("done", [])
        if done and self.run["n"] >= STALL:
            self.run["n"] = 0
            return done[0]
        c = bots_air.choose(seat, by, done, self.prng) or self.political(seat, by, done)   # 11, 12 (air_war)
        if c is None and seat == "allied" and "place" in by:
            c = self.rebuy_rarely(seat, by, legal)
        if c is None and "attack" in by and seat == "allied":
            c = self.allied_attack(by, done)
        if seat == "allied" and "move" in by:
            legal = _out_of_the_north(by, legal, done)
        if "move" in by and self.run["into"]:
            legal = self.spread(by, legal)
        if c is None and "move" in by and self.run["placed"]:
            c = self.move_placed(by)
        if c is None and "move" in by and self.chance((2, 3)):
            into = [x for x in by["move"] if x.ntnd.move.path and x.ntnd.move.path[-1] in _sv_towns()]
            if into:                                  # 22.4: South Vietnam's towns and cities are the points
                c = public_pick(self.prng, into, public_key) if seat == "communist" else into[self.prng.below(len(into))]
        if c is None:
            c = self.military(seat, legal, by)   # by is legal's grouping still (spread, _out_of_the_north)
        self.remember(c)
        return c

    def rebuy_rarely(self, seat: str, by: dict, legal: list):
        """4.2.3: a U.S. or SEATO unit bought back costs two political points: mostly something else."""
        rebuy = [x for x in by["place"] if not x.ntnd.place.location
                 and x.ntnd.place.unit.startswith(SEATO_PREFIXES)]
        skip = {id(x) for x in rebuy}
        rest = [x for x in legal if id(x) not in skip]
        if rebuy and rest and not self.chance((1, 5)):
            return self.military(seat, rest)
        return None

    def allied_attack(self, by: dict, done: list):
        """Retake South Vietnam's towns first (22.4), with the most units; a lone unit attacks now and then."""
        towns = [x for x in by["attack"] if x.ntnd.attack.target in _sv_towns()]
        strong = [x for x in by["attack"] if len(x.ntnd.attack.attackers) >= 2]
        pool = towns or strong or (by["attack"] if not done or self.chance((1, 3)) else [])
        if pool:
            return max(pool, key=lambda x: (len(x.ntnd.attack.attackers), self.prng.below(1 << 16)))
        return done[0]

    def spread(self, by: dict, legal: list) -> list:
        """8.10: do not pile units into a hex this bot already moved a unit to this phase."""
        into = self.run["into"]
        spread, off = [], []
        for x in by["move"]:
            path = x.ntnd.move.path
            (spread if not path or path[-1] not in into else off).append(x)
        if spread and off:
            legal = _without(legal, off)
            by["move"] = spread
        return legal

    def move_placed(self, by: dict):
        """8.10.2: units placed this turn may stand over-stacked at their entry city (5.4) only until the
        combat phase: move them away first."""
        fresh = [x for x in by["move"] if x.ntnd.move.piece in self.run["placed"]]
        if not fresh:
            return None
        c = fresh[self.prng.below(len(fresh))]
        self.run["placed"].discard(c.ntnd.move.piece)
        return c

    def remember(self, c) -> None:
        run = self.run
        run["n"] = 0 if _action(c) == "done" else run["n"] + 1
        if _action(c) == "done":
            run["into"].clear()
        elif _action(c) == "move" and c.ntnd.move.path:
            run["into"].add(c.ntnd.move.path[-1])
        if _action(c) == "place" and c.ntnd.place.unit and c.ntnd.place.location:
            run["placed"].add(c.ntnd.place.unit)


def _out_of_the_north(by: dict, legal: list, done: list) -> list:
    """10.8: ten points a turn for Allied ground units in North Vietnam: keep out unless nothing else."""
    nv, out, off = _nv_hexes(), [], []
    for x in by["move"]:
        path = x.ntnd.move.path
        (off if path and path[-1] in nv else out).append(x)
    if off and (out or done):
        legal = _without(legal, off)
        by["move"] = out
        if not out:
            del by["move"]
    return legal


def _repeated(f) -> bool:
    """A repeated field of a command message (protobuf's is_repeated; label on older descriptors)."""
    rep = getattr(f, "is_repeated", None)
    return bool(rep) if rep is not None else f.label == f.LABEL_REPEATED

