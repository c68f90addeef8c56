"""Canonical encoding: the msgpack profile of SPEC.md section 1.

Values are: None, bool, int (-2**63 .. 2**64-1), str (UTF-8), bytes, list/tuple
(encoded as arrays) and dict with str keys (encoded as maps with keys sorted by
their UTF-8 bytes). Floats and extension types are refused. msgpack-python
already chooses the smallest encoding for ints, strings, binaries, arrays and
maps; this module adds key order, the type profile and the strict decoder.
"""
from __future__ import annotations

from typing import Any

import msgpack

from ..errors import EncodingError

_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1


def _normalize(v: Any, path: str) -> Any:
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
    if t is dict:
        out = {}
        for k in sorted(v):
            if type(k) is not str:
                raise EncodingError(f"map key is not a string at {path}: {k!r}")
            out[k] = _normalize(v[k], f"{path}.{k}")
        return out
    if t is list or t is tuple:
        return [_normalize(x, f"{path}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, bool):  # subclasses of bool do not exist, kept for clarity
        return bool(v)
    if isinstance(v, int):  # IntEnum and friends: encode their value
        return _normalize(int(v), path)
    if isinstance(v, str):
        return str(v)
    raise EncodingError(f"type {t.__name__} is not allowed in canonical data at {path}")


def encode(value: Any) -> bytes:
    """Encode ``value`` canonically (SPEC.md 1.1)."""
    return msgpack.packb(_normalize(value, "$"), use_bin_type=True)


def decode(data: bytes) -> Any:
    """Decode canonical bytes; refuse anything that is not the canonical form.

    Non-canonical input (a larger-than-needed integer, unsorted or duplicate keys,
    a float, an extension type, trailing bytes, str8 for bytes...) raises
    EncodingError: the decoded value is re-encoded and must give the same bytes.
    """
    try:
        value = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True,
            ext_hook=_no_ext,
        )
    except EncodingError:
        raise
    except Exception as e:  # msgpack raises a variety of exception types
        raise EncodingError(f"not valid msgpack: {e}") from None
    _check_types(value, "$")
    if encode(value) != bytes(data):
        raise EncodingError("not in canonical form (re-encoding differs)")
    return value


def _no_ext(code: int, data: bytes) -> Any:
    raise EncodingError(f"extension type {code} is not allowed")


def _check_types(v: Any, path: str) -> None:
    t = type(v)
    if t is float:
        raise EncodingError(f"float is not allowed at {path}")
    if t is dict:
        for k, x in v.items():
            _check_types(x, f"{path}.{k}")
    elif t is list:
        for i, x in enumerate(v):
            _check_types(x, f"{path}[{i}]")
