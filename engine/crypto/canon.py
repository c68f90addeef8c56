"""Canonical encoding: the msgpack profile of SPEC.md section 1.

Values are: None, bool, int (-2**63 .. 2**64-1), str (UTF-8), bytes, list/tuple
(encoded as arrays) and dict with str keys (encoded as maps with keys sorted by
their UTF-8 bytes). Floats and extension types are refused. msgpack-python
already chooses the smallest encoding for ints, strings, binaries, arrays and
maps; this module adds key order, the type profile and the strict decoder.

Bounds (SPEC.md 1.1, rule 6): arrays and maps nest at most ``MAX_DEPTH`` deep, on
encoding and on decoding; the decoder checks the depth without recursing past it,
so a hostile byte string of nested arrays is refused, never a RecursionError. Sizes
and counts are bounded by the input itself (every element takes at least one byte);
callers bound the input (a record: ``record.MAX_RECORD``).
"""
from __future__ import annotations

from typing import Any

import msgpack

from ..errors import AfteractionError, EncodingError

_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
MAX_DEPTH = 64  # arrays/maps inside arrays/maps; the deepest record written so far nests 8


def _normalize(v: Any, path: str, depth: int = 0) -> Any:
    if v is None or v is True or v is False:
        return v
    t = type(v)
    if t is int:
        if v < _INT_MIN or v > _INT_MAX:
            raise EncodingError(f"integer out of range at {path}: {v}")
        return v
    if t is str or t is bytes:
        return v
    if t is bytearray or t is memoryview:
        return bytes(v)
    if (t is dict or t is list or t is tuple) and depth >= MAX_DEPTH:
        raise EncodingError(f"nested deeper than {MAX_DEPTH} arrays/maps at {path}")
    if t is dict:
        out = {}
        for k in sorted(v):
            if type(k) is not str:
                raise EncodingError(f"map key is not a string at {path}: {k!r}")
            out[k] = _normalize(v[k], f"{path}.{k}", depth + 1)
        return out
    if t is list or t is tuple:
        return [_normalize(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v)]
    if isinstance(v, bool):  # subclasses of bool do not exist, kept for clarity
        return bool(v)
    if isinstance(v, int):  # IntEnum and friends: encode their value
        return _normalize(int(v), path, depth)
    if isinstance(v, str):
        return str(v)
    raise EncodingError(f"type {t.__name__} is not allowed in canonical data at {path}")


class _Refused(AfteractionError):
    """Internal: the fast paths found a problem; the slow path explains it with a location."""


#: the types ``_norm`` passes on as they are, with no check (ints are checked for their range)
_AS_IS = frozenset({str, bytes, bool, type(None)})


def _norm(v: Any, depth: int = 0, _as_is=_AS_IS) -> Any:
    """_normalize without building location strings (the common, valid case). The elements of a map
    or array that pass as they are (``_AS_IS``, ints in range) are taken there, without a call of
    their own: most of a record's values are such leaves."""
    t = type(v)
    if t in _as_is:
        return v
    if t is int:
        if v < _INT_MIN or v > _INT_MAX:
            raise _Refused
        return v
    if depth >= MAX_DEPTH:
        raise _Refused
    if t is dict:
        out = {}
        for k in sorted(v):
            if type(k) is not str:
                raise _Refused
            x = v[k]
            tx = type(x)
            out[k] = x if tx in _as_is or (tx is int and _INT_MIN <= x <= _INT_MAX) else _norm(x, depth + 1)
        return out
    if t is list or t is tuple:
        return [x if type(x) in _as_is else _norm(x, depth + 1) for x in v]
    raise _Refused  # bytearray, IntEnum, floats...: the slow path converts or explains


def encode(value: Any) -> bytes:
    """Encode ``value`` canonically (SPEC.md 1.1)."""
    try:
        norm = _norm(value)
    except (_Refused, TypeError):  # TypeError: unorderable mixed-type keys
        norm = _normalize(value, "$")
    return msgpack.packb(norm, use_bin_type=True)


def same(value: Any, decoded: Any) -> bool:
    """True only if ``encode(value)`` gives the bytes ``decoded`` was decoded from (``decoded``: a
    value ``decode`` returned, or ``decode_checked`` of bytes ``decode`` accepted), without encoding
    ``value`` (the replay compares the values the rules make with the logged ones). The
    same shape with the same types: dicts (not subclasses) with the same keys, each a str, arrays
    as lists or tuples of the same length, str, bytes and ints of exactly those types, equal, and
    the same bool or None. So ``value`` normalises to ``decoded`` itself: its encoding succeeds
    (``decoded`` holds only the profile's types, within the depth and the int range) and is the same
    bytes. False says nothing: the value may still encode to those bytes (an IntEnum, a bytearray:
    ``encode`` converts them) or not encode at all; callers then encode it and compare."""
    tv = type(value)
    t = type(decoded)
    if t is dict:
        if tv is not dict or len(value) != len(decoded):
            return False
        for k, x in value.items():
            if type(k) is not str or k not in decoded:
                return False
            y = decoded[k]
            ty = type(y)
            if ty is str or ty is int or ty is bytes:
                if type(x) is not ty or x != y:
                    return False
            elif ty is bool or y is None:
                if x is not y:
                    return False
            elif not same(x, y):
                return False
        return True
    if t is list:
        if (tv is not list and tv is not tuple) or len(value) != len(decoded):
            return False
        for x, y in zip(value, decoded):   # each element as a map's value above, written out again:
            ty = type(y)                      # this runs on every element of every replayed record
            if ty is str or ty is int or ty is bytes:
                if type(x) is not ty or x != y:
                    return False
            elif ty is bool or y is None:
                if x is not y:
                    return False
            elif not same(x, y):
                return False
        return True
    if t is str or t is int or t is bytes:
        return tv is t and value == decoded
    return (t is bool or decoded is None) and value is decoded


def decode(data: bytes) -> Any:
    """Decode canonical bytes; refuse anything that is not the canonical form.

    Non-canonical input (a larger-than-needed integer, unsorted or duplicate keys,
    a float, an extension type, trailing bytes, str8 for bytes, nesting deeper than
    MAX_DEPTH...) raises EncodingError: the decoded value is re-encoded and must give
    the same bytes. Nothing else is raised, whatever the bytes.
    """
    if type(data) is bytearray or type(data) is memoryview:
        data = bytes(data)
    elif type(data) is not bytes:
        raise EncodingError(f"canonical data is bytes, not {type(data).__name__}")
    try:
        value = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True,
            ext_hook=_no_ext,
        )
    except EncodingError:
        raise
    except msgpack.StackError:  # msgpack's decoder stops at about 1000 levels
        raise EncodingError(f"arrays/maps nested deeper than {MAX_DEPTH}") from None
    except Exception as e:  # msgpack raises a variety of exception types
        raise EncodingError(f"not valid msgpack: {type(e).__name__}: {e}") from None
    try:
        _check_decoded(value)
    except _Refused:
        _check_types(value, "$")  # raises with the location of the offending value
        encode(value)  # explains a type outside the profile
        raise EncodingError("map keys are not strings in canonical (UTF-8 byte) order") from None
    # Maps were checked to be in canonical key order, so packing the decoded value as it
    # stands re-encodes it canonically: any other spelling of the same value (a larger
    # integer or length encoding, a duplicate key) gives different bytes.
    if msgpack.packb(value, use_bin_type=True) != data:
        raise EncodingError("not in canonical form (re-encoding differs)")
    return value


def decode_checked(data: bytes) -> Any:
    """The value of bytes that ``decode`` already accepted (in another process: `aar verify --jobs
    2` sends records that passed step 2 to its replay process), without checking them again."""
    return msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True, ext_hook=_no_ext)


def _check_decoded(v: Any, depth: int = 1) -> None:
    """Decoded data holds only the profile's types (no floats, no msgpack Timestamp...) and
    map keys are str in strictly increasing order (code point order = UTF-8 byte order).
    Raises _Refused; EncodingError for nesting past MAX_DEPTH (checked first, so neither
    this recursion nor the slow path's goes deeper than MAX_DEPTH + 1 frames; msgpack's
    own decoder accepts about 1000 levels)."""
    t = type(v)
    if depth > MAX_DEPTH and (t is dict or t is list):
        raise EncodingError(f"arrays/maps nested deeper than {MAX_DEPTH}")
    if t is dict:
        prev = None
        for k, x in v.items():
            if type(k) is not str or (prev is not None and k <= prev):
                raise _Refused
            prev = k
            if type(x) not in _SCALARS:
                _check_decoded(x, depth + 1)
    elif t is list:
        for x in v:
            if type(x) not in _SCALARS:
                _check_decoded(x, depth + 1)
    elif t not in _SCALARS:
        raise _Refused


_SCALARS = frozenset({str, bytes, int, bool, type(None)})


def _no_ext(code: int, data: bytes) -> Any:
    raise EncodingError(f"extension type {code} is not allowed")


def _check_types(v: Any, path: str, depth: int = 1) -> None:
    t = type(v)
    if depth > MAX_DEPTH and (t is dict or t is list):
        raise EncodingError(f"arrays/maps nested deeper than {MAX_DEPTH} at {path}")
    if t is float:
        raise EncodingError(f"float is not allowed at {path}")
    if t is dict:
        for k, x in v.items():
            if type(k) is not str:
                raise EncodingError(f"map key is not a string at {path}: {k!r}")
            _check_types(x, f"{path}.{k}", depth + 1)
    elif t is list:
        for i, x in enumerate(v):
            _check_types(x, f"{path}[{i}]", depth + 1)
