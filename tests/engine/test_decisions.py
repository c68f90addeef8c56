"""The engine's decision machine (engine/decisions.py) and its one copy and digest
(engine/snapshot.py): unit tests on the duel and on plain state data."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine import registry, snapshot
from afteraction.engine.decisions import DecisionKind, DecisionTable, UndeclaredDecision
from afteraction.engine.errors import Rejection
from afteraction.engine.ruleset import Context, Decision, Ruleset
from afteraction.v1 import command_pb2

NOT_YET: set[str] = set()   # every ruleset is on the table (NTND since wip/ntnd)
MACHINE = ("apply", "legal_commands", "is_private", "copy_state", "digest")


def _duel_cmd(action, n):
    c = command_pb2.Command()
    getattr(c.duel, action).number = n
    return c


def _duel():
    rs = registry.get("duel")
    return rs, rs.setup("standard", rs.check_options("standard", {}), Context.for_tests())


def test_every_ruleset_on_the_table_leaves_the_machine_to_the_engine():
    """A ruleset declares a table and writes no dispatcher, enumerator plumbing or copy of its own."""
    for game, version in registry.available():
        rs = registry.get(game, version)
        if game in NOT_YET and "decisions" not in type(rs).__dict__:
            continue  # ported onto the table in a later commit (NTND: by its own branch, wip/ntnd)
        assert isinstance(type(rs).__dict__.get("decisions"), DecisionTable), game
        for name in MACHINE:
            assert getattr(type(rs), name) is getattr(Ruleset, name), f"{game} overrides Ruleset.{name}"


def test_every_pending_kind_of_the_duel_is_declared_once_with_a_rule():
    rs, s = _duel()
    k = rs.decisions.kind_of(rs.pending(s))
    assert (k.name, k.rule, tuple(k.answers), k.sealed) == ("pick", "DUEL", ("pick",), True)


def test_the_machine_rejects_the_wrong_game_the_wrong_seat_and_the_wrong_action_with_rule_and_input():
    rs, s = _duel()
    before = snapshot.digest(s)
    sog = command_pb2.Command()
    sog.sog.confirm.SetInParent()
    cases = [("a", sog, "WRONG_GAME_COMMAND", None, "sog"),
             ("b", _duel_cmd("guess", 3), "NOT_YOUR_DECISION", None, "b"),
             ("a", _duel_cmd("guess", 3), "ILLEGAL_COMMAND", "DUEL", "guess"),
             ("a", command_pb2.Command(duel={}), "ILLEGAL_COMMAND", "DUEL", None),
             ("a", _duel_cmd("pick", 7), "ILLEGAL_COMMAND", "DUEL", 7)]
    for seat, c, code, rule, inp in cases:
        with pytest.raises(Rejection) as e:
            rs.apply(rs.copy_state(s), seat, c, Context.for_tests())
        assert (e.value.code, e.value.rule, e.value.input) == (code, rule, inp)
    assert snapshot.digest(s) == before


def test_legal_answers_and_sealing_come_from_the_table():
    rs, s = _duel()
    assert [c.duel.pick.number for c in rs.legal_commands(s, "a")] == [1, 2, 3, 4, 5, 6]
    assert rs.legal_commands(s, "b") == []
    assert rs.is_private(s, "a", _duel_cmd("pick", 2)) and not rs.is_private(s, "b", _duel_cmd("pick", 2))
    s = rs.apply(rs.copy_state(s), "a", _duel_cmd("pick", 2), Context.for_tests())
    assert not rs.is_private(s, "b", _duel_cmd("guess", 2))


def test_a_pending_kind_missing_from_the_table_is_a_ruleset_bug_not_a_rejection():
    t = DecisionTable("duel", "t", [DecisionKind("pick", "R", {"pick": lambda *a: None}, lambda s, d: [], "-")])
    with pytest.raises(UndeclaredDecision):
        t.answer({}, Decision("a", "other", ""), "a", _duel_cmd("pick", 1), None)
    with pytest.raises(ValueError):
        DecisionTable("duel", "t", [t.kinds[0], t.kinds[0]])


def test_snapshot_copy_is_independent_and_shares_only_atoms():
    s = {"a": [1, {"b": Fraction(1, 3)}], "t": (1, [2]), 3: b"x", "n": None}
    c = snapshot.copy(s)
    assert c == s and snapshot.digest(c) == snapshot.digest(s)
    c["a"][1]["b"] += 1
    c["t"][1].append(3)
    assert s == {"a": [1, {"b": Fraction(1, 3)}], "t": (1, [2]), 3: b"x", "n": None}
    assert snapshot.digest(c) != snapshot.digest(s)


@pytest.mark.parametrize("a,b", [({"x": 1}, {"x": True}), ({"x": [1]}, {"x": (1,)}), ({"x": 1, "y": 2}, {"y": 2, "x": 1}),
                                 ({"x": "1"}, {"x": b"1"}), ({"x": Fraction(2, 4)}, {"x": [1, 2]}), ({1: 0}, {"1": 0}),
                                 ({"x": ["ab"]}, {"x": ["a", "b"]})])
def test_the_digest_tells_apart_what_a_rule_could_tell_apart(a, b):
    assert snapshot.digest(a) != snapshot.digest(b)


@pytest.mark.parametrize("bad", [{"x": 1.5}, {"x": {1, 2}}, {(1, 2): 0}, {"x": object()}])
def test_the_digest_refuses_what_is_not_state_data(bad):
    with pytest.raises(snapshot.StateTypeError):
        snapshot.digest(bad)


def _containers(x, out):
    """id -> every dict and list reachable in x."""
    if type(x) in (dict, list):
        out[id(x)] = x
    for v in (x.values() if type(x) is dict else x if type(x) in (list, tuple) else ()):
        _containers(v, out)
    return out


_atoms = (st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.binary(max_size=3)
          | st.fractions(max_denominator=5))
_data = st.recursive(_atoms, lambda kids: st.lists(kids, max_size=4) | st.lists(kids, max_size=3).map(tuple)
                     | st.dictionaries(st.text(max_size=3) | st.integers(0, 3), kids, max_size=4), max_leaves=24)
#: tables of records, as the units of a state (the copy's fast path), some records holding a container
_tables = st.dictionaries(st.text(max_size=3), st.dictionaries(st.text(max_size=3), _atoms | st.tuples(_atoms)
                                                               | st.lists(_atoms, max_size=2)
                                                               | st.lists(st.lists(_atoms, max_size=2) | _atoms, max_size=2)
                                                               | st.dictionaries(st.text(max_size=2), _atoms, max_size=2),
                                                               max_size=4), max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), _data | _tables, max_size=5))
def test_snapshot_copy_equals_and_shares_no_container(s):
    """Whatever path the copy takes (a table of records whose values hold no list or dict is copied
    record by record), the copy equals the state, digests the same and shares no dict or list."""
    c = snapshot.copy(s)
    assert c == s and list(c) == list(s)
    assert snapshot.digest(c) == snapshot.digest(s)
    assert not set(_containers(c, {})) & set(_containers(s, {}))
