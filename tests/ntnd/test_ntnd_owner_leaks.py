"""The public footprint of the Communist player's own hidden actions is the same whatever
the markers hold (docs/rules/ntnd.md "What the opponent can see"). Each test builds two positions
the rules make indistinguishable to the Allied seat and a spectator, differing only in hidden content,
plays the same Communist command on both through the game's own path, and compares what is public."""
from __future__ import annotations

from afteraction.engine.games.ntnd.forces import operations
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .leakcheck import check_owner_action, check_owner_sequence
from .mapplay import at, blank, put


def _marker(s, uids, loc):
    for u in uids:
        put(s, u, loc)
    return operations.make_marker(s, list(uids), loc, Context.for_tests(), "test")


def _ops(extra: list[str], lead: str, loc: str, face_up: list[str] = ()) -> dict:
    s = blank()
    for u in face_up:
        put(s, u, loc)
    _marker(s, [lead] + extra, loc)
    return at(s, "c_ops")


def test_ntnd_6_1_1_promoting_an_inverted_cadre_does_not_show_its_markers_size():
    """Leak 1: {cadre, dummy} and {cadre} under one marker, a face-up supply with them: the promotion
    publishes the same marker events and leaves the same number of markers."""
    s = _ops(["communist-dummy-1"], "vc-cadre-1", "1812", face_up=["sup-ashau"])
    p = _ops([], "vc-cadre-1", "1812", face_up=["sup-ashau"])
    check_owner_action(s, p, cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment"))


def test_ntnd_6_1_1_promoting_with_the_supply_in_the_cadres_marker():
    s = _ops(["sup-ashau", "communist-dummy-1"], "vc-cadre-1", "1812")
    p = _ops(["sup-ashau"], "vc-cadre-1", "1812")
    check_owner_action(s, p, cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="sapper"))


def test_ntnd_6_1_3_breaking_down_an_inverted_division_does_not_show_its_markers_size():
    """Leak 2: {division, supply} vs {division}."""
    s = _ops(["sup-ashau"], "nva-320", "1812")
    p = _ops([], "nva-320", "1812")
    check_owner_action(s, p, cmd("break_down", piece="nva-320"))


def _supply_pair():
    """An NVA division at 1814 attacks the US brigade at 1714; a face-up supply unit at 1914 and a
    marker at 1815 (nearer) holding a supply unit (s) or a dummy (p): the same to the Allied seat."""
    out = []
    for inside in ("sup-353", "communist-dummy-1"):
        s = blank()
        put(s, "us-1-4", "1714")
        put(s, "nva-304", "1814")
        put(s, "sup-ashau", "1914")
        _marker(s, [inside], "1815")
        out.append(s)
    return out


def _attack_commands(s):
    """A Communist turn from its movement phase: no moves, announce the attack on 1714, done (no
    Allied reaction is possible; the battle is fought); the spent supply chosen by the owner
    (18.6.2): the face-up one, legal in both positions."""
    return [("communist", cmd("done")), ("communist", cmd("attack", target="1714", attackers=["nva-304"])),
            ("communist", cmd("done")), ("communist", cmd("losses", units=["sup-ashau"]))]


def test_ntnd_18_6_2_an_nva_attack_spends_the_supply_unit_its_owner_chooses():
    """Leak 3: the engine spent the nearest supply unit, a hidden one included, and published its
    elimination: {supply} under the marker vs {dummy} gave different public events. The owner
    chooses (a decision asked after every Communist attack with NVA attackers, 18.6.2)."""
    s, p = _supply_pair()
    s, p = at(s, "c_move"), at(p, "c_move")
    check_owner_sequence(s, p, _attack_commands(s), faces=[3, 3])


def test_ntnd_18_6_2_the_owner_may_spend_the_hidden_supply_and_must_spend_one():
    import pytest

    from afteraction.engine.errors import Rejection

    from .mapplay import RS, legal, play
    s, _ = _supply_pair()
    s = at(s, "c_move")
    for seat, c in _attack_commands(s)[:3]:
        s, _ = play(s, seat, c, faces=[3, 3])
    d = RS.pending(s)
    assert d.kind == "supply" and "eligible" not in d.as_dict().get("data", d.as_dict())  # options: the owner's
    offered = sorted(tuple(c.ntnd.losses.units) for c in legal(s, "communist"))
    assert offered == [("sup-353",), ("sup-ashau",)]   # the marker's supply (nearer) or the face-up one
    for bad in ([], ["sup-353", "sup-ashau"], ["sup-china"]):
        with pytest.raises(Rejection, match="NTND 18.6.2"):
            RS.apply(RS.copy_state(s), "communist", cmd("losses", units=bad), Context.for_tests())
    s, ev = play(s, "communist", cmd("losses", units=["sup-353"]))
    assert s["units"]["sup-353"]["status"] == "mix" and s["units"]["sup-ashau"]["status"] == "map"


def test_ntnd_18_6_2_the_supply_question_is_asked_when_a_free_source_supplies_too():
    """North Vietnam supplies for free (18.1.2): the decision is still asked (its presence must not
    tell whether a hidden supply unit was in range) and its one answer names nothing."""
    from .mapplay import RS, legal, play
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "nva-304", "1814")
    s = at(s, "c_move")
    for seat, c in _attack_commands(s)[:3]:
        s, _ = play(s, seat, c, faces=[3, 3])
    assert RS.pending(s).kind == "supply"
    assert [list(c.ntnd.losses.units) for c in legal(s, "communist")] == [[]]


def _move_pair(a: list[str], b: list[str], loc: str, face_up: dict[str, str] = {}):
    out = []
    for inside in (a, b):
        s = blank()
        for u, h in face_up.items():
            put(s, u, h)
        mid = _marker(s, inside, loc)
        out.append(at(s, "c_move"))
    return out, mid


def test_ntnd_8_a_markers_path_is_its_owners_choice_whatever_its_size():
    """Leak 4: one dummy or two dummies at 1813 moving to 1811 past a face-up VC regiment at 1812:
    the engine fixed [1812, 1811] for one and the detour [1713, 1712, 1811] for two (it does not pass
    a stack through a hex it would over-stack). The owner chooses the path: the detour is legal for
    both and the public sees the path chosen."""
    (s, p), mid = _move_pair(["communist-dummy-1"], ["communist-dummy-1", "communist-dummy-2"], "1813", {"vc-dak-to": "1812"})
    check_owner_action(s, p, cmd("move", piece=mid, path=["1713", "1712", "1811"]))


def test_ntnd_8_a_markers_path_does_not_tell_a_guerrilla_from_an_nva_unit():
    """Leak 5: an inverted VC cadre and an inverted NVA division at 1813 moving to 1409 got different
    engine-chosen paths; the cadre's route is legal for the division too, and the owner chooses."""
    (s, p), mid = _move_pair(["vc-cadre-1"], ["nva-304"], "1813")
    check_owner_action(s, p, cmd("move", piece=mid, path=["1713", "1712", "1611", "1610", "1510", "1409"]))
