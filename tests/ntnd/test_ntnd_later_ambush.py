"""Ambush results (NTND 20) as later-action pairs (docs/rules/ntnd.md "What the opponent can see").
An ambush opens the ambushing markers (20.2: they flip face up), so what the rules reveal is their
contents; nothing else hidden may show in the ambush's public events, its result, the decisions after
it or a walk after it. Two positions that differ only in hidden content outside the ambushing stack (a
bystander marker next to the ambushed unit, a marker holding a supply unit or a dummy near the
ambushers) or in what a marker the Communist player declines to ambush with holds (a regiment or a
dummy), then the same public continuation: the Allied move, the Communist answer, the losses and
aftermath decisions, then a seeded walk; after every action the Allied seat and a spectator observe the
same things (leakcheck: public events, sealed events by recipient, views, the public decision, the
Allied legal commands, an Allied refusal's code and message)."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.rules import cmd

from .leakcheck import RS, check_owner_sequence, check_walk, applied
from .mapplay import at, blank, done, put
from .test_ntnd_battles_on_the_map import _far_from_supply
from .test_ntnd_rules import hide

DUMMY = "communist-dummy-1"


def _position(bystander: list[str], units=("nva-3",), geometry=("1715", "1714", "1713"), bystander_at="1814",
              allied="us-1-4"):
    """``allied`` at ``start`` (about to move to ``stop``), the inverted ``units`` at ``where`` (marker
    M_a), and a second marker holding ``bystander`` at ``bystander_at``; the Allied movement phase."""
    start, stop, where = geometry
    s = blank()
    put(s, allied, start)
    mk = hide(s, list(units), where)
    other = hide(s, list(bystander), bystander_at)
    return at(s, "a_move"), mk, other


def _pair(**kw):
    (s, mk, other), (p, mk2, other2) = _position(["vc-dak-to"], **kw), _position([DUMMY], **kw)
    assert (mk, other) == (mk2, other2)
    return s, p, mk, other


def _through(s, p, steps, faces, walk=20, seed=1):
    """``steps`` compared (openings included), then the decisions that follow answered by the first
    command both offer and compared, then a seeded walk."""
    check_owner_sequence(s, p, steps, faces)
    for seat, c in steps:
        s, p = applied(s, seat, c, faces), applied(p, seat, c, faces)
    n = len(steps)
    for _ in range(8):          # the ambush's losses, retreats and 20.5: the same answers on both
        d = RS.pending(s)
        if d is None or d.kind in ("move",) or d.seat != "communist":
            break
        c = RS.legal_commands(s, d.seat)[0]
        check_owner_sequence(s, p, [(d.seat, c)], faces)
        s, p = applied(s, d.seat, c, faces), applied(p, d.seat, c, faces)
        n += 1
    return n + check_walk(s, p, walk=walk, seed=seed, faces=faces)


@pytest.mark.parametrize("faces", [[1, 1], [1, 6], [6, 1]])
def test_ntnd_20_2_an_ambush_result_does_not_tell_what_a_bystander_marker_holds(faces):
    """M_a (an NVA regiment) ambushes the Allied unit that moved next to it; M_b, next to the ambushed
    unit too but not ambushing, holds a VC regiment (A) or a dummy (B). Whoever wins the ambush, its
    result, the decisions after it and a walk are the same."""
    s, p, mk, _ = _pair()
    steps = [("allied", cmd("move", piece="us-1-4", path=["1714"])), ("communist", cmd("ambush", markers=[mk]))]
    assert _through(s, p, steps, faces) >= len(steps)


def test_ntnd_20_2_an_ambush_declined_does_not_tell_whether_the_marker_could_ambush():
    """The Allied unit moves next to one marker, an NVA regiment (A) or a dummy (B, which cannot
    ambush: 17.2): the question is asked on both, the Communist player declines, and nothing after
    it differs."""
    out = []
    for units in (["nva-3"], [DUMMY]):
        s = blank()
        put(s, "us-1-4", "1715")
        hide(s, units, "1713")
        out.append(at(s, "a_move"))
    s, p = out
    steps = [("allied", cmd("move", piece="us-1-4", path=["1714"])), ("communist", done())]
    assert _through(s, p, steps, [1, 1]) >= len(steps)


@pytest.mark.parametrize("faces", [[1, 1], [6, 1]])
def test_ntnd_20_6_an_ambush_spending_a_hidden_supply_unit_does_not_tell_what_another_marker_holds(faces):
    """NVA ambushers in the south, out of supply unless a supply unit is near (20.6). Two markers next
    to the ambushers: one holds the 353 supply unit, the other a dummy (A) or a VC regiment (B). Whether
    the ambushers are supplied is public by the rules (their morale in the combat, 20.6, as the player
    states it across the table), and so is the supply unit spent for them (18.6.2: a supply counter
    taken off that stack); what the other marker holds is not."""
    start, stop, where = _far_from_supply()
    from afteraction.engine.games.ntnd.components.map import load_map
    m = load_map()
    near = [h for h in sorted(m.hex_neighbours(where)) if h not in (stop, start) and m.hexes[h].is_land
            and stop not in m.hex_neighbours(h)][:2]
    assert len(near) == 2
    out = []
    for a, b in ((["sup-353"], [DUMMY]), (["sup-353"], ["vc-dak-to"])):
        s = blank()
        put(s, "us-1-1", start)
        mk = hide(s, ["nva-3"], where)
        hide(s, a, near[0])
        hide(s, b, near[1])
        out.append((at(s, "a_move"), mk))
    (s, mk), (p, _) = out
    steps = [("allied", cmd("move", piece="us-1-1", path=[stop])), ("communist", cmd("ambush", markers=[mk]))]
    assert _through(s, p, steps, faces) >= len(steps)
