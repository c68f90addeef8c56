"""canon.same(value, decoded): True only if ``encode(value)`` is the bytes ``decoded`` was
decoded from, for any value, including those Python's == cannot tell apart from the decoded one
(True and 1, 1.0 and 1, a str subclass, a dict subclass); and True for the values the rules make
(tuples for arrays, keys in any order) that encode to those bytes, so the replay's shortcut is taken."""
from __future__ import annotations

import collections
import enum

from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import canon
from afteraction.engine.errors import EncodingError

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | st.binary(max_size=16)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=4), kids, max_size=4),
                      max_leaves=16)


class _Str(str):
    pass


class _Int(enum.IntEnum):
    ONE = 1


def _variants(v, draw):
    """``v`` rebuilt with changes Python's == does not see (or tuples, reordered keys: the same bytes)."""
    t = type(v)
    if t is dict:
        items = [(k, _variants(x, draw)) for k, x in v.items()]
        if draw(st.booleans()):
            items.reverse()
        if items and draw(st.integers(0, 5)) == 0:
            k, x = items[0]
            items[0] = (_Str(k), x)
        kind = draw(st.sampled_from([dict, dict, dict, collections.OrderedDict]))
        return kind(items)
    if t is list:
        out = [_variants(x, draw) for x in v]
        return tuple(out) if draw(st.booleans()) else out
    swap = draw(st.integers(0, 6))
    if swap == 0 and t is int and v in (0, 1):
        return bool(v)
    if swap == 1 and t is bool:
        return int(v)
    if swap == 2 and t is int and abs(v) < 2**52:
        return float(v)
    if swap == 3 and t is int and v == 1:
        return _Int.ONE
    if swap == 4 and t is bytes:
        return bytearray(v)
    if swap == 5 and t is str:
        return _Str(v)
    return v


def _encoding(v):
    try:
        return canon.encode(v)
    except EncodingError:
        return None


@settings(max_examples=400, deadline=None)
@given(values, st.data())
def test_same_only_when_the_encoding_is_the_decoded_bytes(v, data):
    raw = canon.encode(v)
    decoded = canon.decode(raw)
    variant = _variants(v, data.draw)
    if canon.same(variant, decoded):
        assert _encoding(variant) == raw


@settings(max_examples=200, deadline=None)
@given(values, values)
def test_same_of_two_values_is_their_bytes_being_equal_or_false(a, b):
    decoded = canon.decode(canon.encode(b))
    assert canon.same(a, decoded) == (canon.encode(a) == canon.encode(b))   # profile types, lists: exact


@settings(max_examples=300, deadline=None)
@given(values, st.booleans())
def test_same_holds_for_the_values_the_rules_make(v, tuples):
    """Keys in another order and tuples for arrays, with the profile's exact types: the same bytes, True."""
    def rebuild(x):
        if type(x) is dict:
            return {k: rebuild(y) for k, y in reversed(list(x.items()))}
        if type(x) is list:
            out = [rebuild(y) for y in x]
            return tuple(out) if tuples else out
        return x
    assert canon.same(rebuild(v), canon.decode(canon.encode(v)))


def test_what_equality_cannot_see():
    d = canon.decode(canon.encode({"a": [1, 0, "x", b"y"], "b": True}))
    assert canon.same({"b": True, "a": (1, 0, "x", b"y")}, d)
    for other in ({"a": [True, 0, "x", b"y"], "b": True}, {"a": [1, 0, "x", b"y"], "b": 1},
                  {"a": [1.0, 0, "x", b"y"], "b": True}, {"a": [1, 0, _Str("x"), b"y"], "b": True},
                  {"a": [1, 0, "x", bytearray(b"y")], "b": True}, {_Str("a"): [1, 0, "x", b"y"], "b": True},
                  collections.OrderedDict([("a", [1, 0, "x", b"y"]), ("b", True)]), {"a": [1, 0, "x", "y"], "b": True},
                  {"a": [1, 0, "x", b"y"], "b": True, "c": None}, {"a": [1, 0, "x"], "b": True}):
        assert not canon.same(other, d), other
