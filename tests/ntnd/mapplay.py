"""Play NTND positions on the map through the game's own path: a position is built from the Tet
set-up (``blank``/``put``), the game is put at the start of a phase (``at``: the phase's automatic
entry steps run as in a game), and every decision is answered with a command that
``NtndRuleset.legal_commands`` offers and ``NtndRuleset.apply`` carries out, as the referee does.
Dice are fixed per command (``faces``)."""
from __future__ import annotations

from fractions import Fraction

from afteraction.engine.games.ntnd.phases import FLOW

_advance, _enter = FLOW.advance, FLOW.enter
from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
from afteraction.engine.games.ntnd.sequence.turns import INDEX
from afteraction.engine.ruleset import Context

from .test_ntnd_rules import blank, put  # noqa: F401  (re-exported for the tests)

RS = NtndRuleset()


def at(s: dict, phase: str) -> dict:
    """Enter ``phase`` of the current turn as the game does (``FLOW.enter``), then run the automatic
    steps up to the first decision."""
    s["step"] = INDEX[phase]
    s["battle"] = None
    s["decision"] = None
    ctx = Context.for_tests()
    _enter(s, ctx)
    _advance(s, ctx)
    return s


def legal(s: dict, seat: str) -> list:
    return RS.legal_commands(s, seat)


def play(s: dict, seat: str, command, faces: list[int] | None = None):
    """Answer the pending decision with ``command``, which must be one of the legal commands.
    Returns (state, events of the command)."""
    offered = legal(s, seat)
    assert command in offered or _offered_subset(command, offered), (command, offered)
    ctx = Context.for_tests(faces=faces)
    s = RS.apply(s, seat, command, ctx)
    return s, [e for e, _ in ctx.events]


def _offered_subset(command, offered) -> bool:
    """19.1.1: an attack may withhold units: the legal commands offer each attack with every eligible
    unit, and ``apply`` accepts any non-empty subset of one of them (docs/rules/ntnd.md)."""
    if command.ntnd.WhichOneof("action") != "attack":
        return False
    a = command.ntnd.attack
    return any(c.ntnd.WhichOneof("action") == "attack" and c.ntnd.attack.target == a.target
               and set(a.attackers) <= set(c.ntnd.attack.attackers) for c in offered)


def attack_cmd(s: dict, seat: str, target: str, attackers: list[str] | None = None):
    """The offered attack on ``target``, or the attack by ``attackers`` (a subset of an offered one)."""
    offered = legal(s, seat)
    for c in offered:
        if c.ntnd.WhichOneof("action") == "attack" and c.ntnd.attack.target == target \
                and (attackers is None or sorted(c.ntnd.attack.attackers) == sorted(attackers)):
            return c
    if attackers is not None:
        c = cmd("attack", target=target, attackers=list(attackers))
        if _offered_subset(c, offered):
            return c
    return None


def done():
    return cmd("done")


def battle_of(events: list[dict]) -> dict:
    (b,) = [e for e in events if e["t"] == "battle"]
    return b


def terms(side_total: dict) -> list[tuple[str, Fraction]]:
    """A side's addends as (rule, value), in the order they were added."""
    return [(t["rule"], Fraction(*t["value"])) for t in side_total["terms"]]


def term(side_total: dict, rule: str) -> Fraction:
    return sum((v for r, v in terms(side_total) if r == rule), Fraction(0))


def communist_attack(s: dict, target: str, attackers: list[str], faces: list[int]):
    """A Communist turn from its movement phase: no moves, announce one attack, done; the Allied
    reaction phase (if it asks) is passed; the battle is fought with ``faces``. Returns (state, events)."""
    s = at(s, "c_move")
    s, _ = play(s, "communist", done())                      # end of movement: announcements
    c = attack_cmd(s, "communist", target, attackers)
    assert c is not None, legal(s, "communist")
    s, _ = play(s, "communist", c)
    if s["decision"]["kind"] == "announce":
        s, ev = play(s, "communist", done(), faces=faces)
        if s["decision"] and s["decision"]["kind"] == "reaction" and s["decision"]["seat"] == "allied":
            s, ev = play(s, "allied", done(), faces=faces)
    return s, ev


def allied_attack(s: dict, target: str, attackers: list[str] | None, faces: list[int]):
    """An Allied combat phase: the offered attack on ``target`` fought with ``faces``."""
    s = at(s, "a_combat")
    c = attack_cmd(s, "allied", target, attackers)
    assert c is not None, legal(s, "allied")
    return play(s, "allied", c, faces=faces)
