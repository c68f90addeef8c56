"""Canonical encoding (engine/crypto/canon.py): round trips over every allowed value type,
and rejection of every non-canonical spelling."""
from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine.crypto import canon
from afteraction.engine.errors import EncodingError

scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.text(max_size=40) | st.binary(max_size=300))
values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=6) | st.dictionaries(st.text(max_size=10), kids, max_size=6),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_round_trip(v):
    b = canon.encode(v)
    assert canon.decode(b) == v
    assert canon.encode(canon.decode(b)) == b


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.integers(0, 9), min_size=2, max_size=8))
def test_map_keys_sorted_by_utf8_bytes_whatever_the_insertion_order(d):
    rev = dict(reversed(list(d.items())))
    assert canon.encode(d) == canon.encode(rev)
    keys = list(msgpack.unpackb(canon.encode(d), raw=True))
    assert keys == sorted(keys)


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2**63), 2**64 - 1))
def test_integers_use_the_smallest_encoding(n):
    b = canon.encode(n)
    if -32 <= n <= 127:
        assert len(b) == 1
    elif -128 <= n <= 255:
        assert len(b) == 2
    elif -(2**15) <= n <= 2**16 - 1:
        assert len(b) == 3
    elif -(2**31) <= n <= 2**32 - 1:
        assert len(b) == 5
    else:
        assert len(b) == 9


def test_tuples_encode_as_arrays():
    assert canon.encode((1, 2)) == canon.encode([1, 2])


@pytest.mark.parametrize("v", [1.5, float("nan"), {"a": 0.0}, [1, 2.0], {1: "a"}, {b"k": 1}, {None: 1},
                               2**64, -(2**63) - 1, {1, 2}, object(), complex(1, 1)],
                         ids=lambda v: type(v).__name__ + repr(v)[:20])
def test_encode_refuses_values_outside_the_profile(v):
    with pytest.raises(EncodingError):
        canon.encode(v)


NON_CANONICAL = {
    "uint8 for a fixint": b"\xcc\x05",
    "uint16 for a uint8": b"\xcd\x00\xff",
    "uint32 for a uint16": b"\xce\x00\x00\xff\xff",
    "uint64 for a uint32": b"\xcf" + struct.pack(">Q", 2**32 - 1),
    "int8 for a negative fixint": b"\xd0\xff",
    "int16 for an int8": b"\xd1\xff\x80",
    "int64 for a positive": b"\xd3" + struct.pack(">q", 5),
    "str8 for a fixstr": b"\xd9\x01a",
    "str16 for a str8": b"\xda\x00\x01a",
    "bin16 for a bin8": b"\xc5\x00\x01a",
    "array16 for a fixarray": b"\xdc\x00\x01\x01",
    "map16 for a fixmap": b"\xde\x00\x01\xa1a\x01",
    "unsorted keys": b"\x82\xa1b\x01\xa1a\x02",
    "duplicate keys": b"\x82\xa1a\x01\xa1a\x02",
    "float32": b"\xca" + struct.pack(">f", 1.5),
    "float64": b"\xcb" + struct.pack(">d", 1.5),
    "float inside a map": b"\x81\xa1a\xcb" + struct.pack(">d", 0.0),
    "fixext": b"\xd4\x01\x00",
    "ext8": b"\xc7\x01\x05\x00",
    "timestamp ext": b"\xd6\xff\x00\x00\x00\x00",
    "trailing bytes": b"\x01\x02",
    "truncated": b"\x92\x01",
    "str for bin (raw str in place of bytes is a different value, but bin as str is refused)": b"\xa2\xff\xfe",
    "invalid UTF-8 str": b"\xa1\xff",
    "integer map key": b"\x81\x01\x01",
    "bin map key": b"\x81\xc4\x01a\x01",
    "reserved byte 0xc1": b"\xc1",
    "empty input": b"",
}


@pytest.mark.parametrize("raw", list(NON_CANONICAL.values()), ids=list(NON_CANONICAL))
def test_decode_refuses_non_canonical_bytes(raw):
    with pytest.raises(EncodingError):
        canon.decode(raw)


def test_str_and_bin_are_distinct_values():
    """A str where bytes were written decodes to a different value: the hash changes."""
    assert canon.decode(canon.encode(b"ab")) == b"ab"
    assert canon.decode(canon.encode("ab")) == "ab"
    assert canon.encode(b"ab") != canon.encode("ab")


@settings(max_examples=200, deadline=None)
@given(values, st.binary(min_size=1, max_size=4))
def test_trailing_bytes_always_refused(v, extra):
    with pytest.raises(EncodingError):
        canon.decode(canon.encode(v) + extra)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=6), st.integers(0, 9), min_size=2, max_size=6))
def test_any_other_key_order_refused(d):
    items = sorted(d.items(), key=lambda kv: kv[0].encode())
    shuffled = items[1:] + items[:1]
    raw = msgpack.packb(dict(shuffled), use_bin_type=True)  # msgpack keeps insertion order
    with pytest.raises(EncodingError):
        canon.decode(raw)


wide = st.recursive(
    scalars | st.integers() | st.floats(allow_nan=False) | st.binary(max_size=4).map(bytearray),
    lambda kids: (st.lists(kids, max_size=5) | st.lists(kids, max_size=3).map(tuple)
                  | st.dictionaries(st.text(max_size=4) | st.integers(0, 3), kids, max_size=5)),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(wide)
def test_the_fast_normalization_is_the_checked_one(v):
    """canon._norm (the fast path, leaves of maps and arrays taken without a call) gives
    _normalize's value wherever it answers, and refuses (for the slow path to explain) only what
    _normalize converts or refuses."""
    try:
        slow = canon._normalize(v, "$")
    except (EncodingError, TypeError):   # TypeError: map keys of mixed types (sorted fails), as before
        slow = None
    try:
        fast = canon._norm(v)
    except (canon._Refused, TypeError):
        fast = None
    if fast is not None or v is None:
        assert fast == slow and msgpack.packb(fast, use_bin_type=True) == msgpack.packb(slow, use_bin_type=True)
    if slow is None and v is not None:
        with pytest.raises((EncodingError, TypeError)):
            canon.encode(v)
