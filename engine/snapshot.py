"""The one copy and the one digest of a game state, for every ruleset.

A ruleset's state is *state data*: dicts, lists and tuples of ``None``, ``bool``, ``int``,
``str``, ``bytes`` and ``fractions.Fraction`` (dict keys: ``str`` or ``int``). Nothing else: no
floats, sets, objects or callables (a set's iteration order could reach output; an object
could hide state from the copy).

``copy(state)`` is how "a rejection changes nothing" holds for every ruleset: the referee (via
``Ruleset.copy_state``) applies each command to ``copy(state)`` and keeps the copy only if no
Rejection was raised, so a rejection raised half-way through a rule leaves the live state as it
was, whatever keys the rule touched. No ruleset has a copy of its own (no key lists, no pickle,
no JSON round trip). The atoms are immutable, so they are shared; only containers are rebuilt.
``copy`` does not check types (it is on every command's path): ``digest`` does.

``digest(state)`` is the canonical 32-byte SHA-256 of a state: a type-tagged, length-prefixed
encoding, dict entries in insertion order (iteration order reaches events, so two states that
iterate differently are different states). It raises ``StateTypeError`` on anything that is not
state data. Tests compare it (before/after a rejection, play against replay); checkpoints may.
"""
from __future__ import annotations

import hashlib
import itertools
from fractions import Fraction

from .errors import InternalTypeError

#: the immutable leaf types a state may hold (shared by a copy, not rebuilt)
ATOMS = frozenset({type(None), bool, int, str, bytes, Fraction})
_all_atoms = ATOMS.issuperset  # stops at the first non-atom, iterating in C
_all_dicts = frozenset({dict}).issuperset
_chain = itertools.chain.from_iterable


class StateTypeError(InternalTypeError):
    """A state holds something that is not state data (a ruleset bug)."""


def copy(x, _atoms=ATOMS, _all_atoms=_all_atoms, _type=type, _map=map, _dicts=_all_dicts, _values=dict.values,
         _chain=_chain):
    """An independent copy of state data: every dict and list rebuilt, atoms (and tuples of
    atoms, immutable too) shared."""
    t = _type(x)
    if t is dict:
        if _all_atoms(_map(_type, x.values())):  # the common leaf record (a unit...): one C-level copy
            return x.copy()
        if _dicts(_map(_type, x.values())):
            # a table of records (the units...): if no record holds a list or a dict (state data that
            # is hashable holds none: they are its only mutable types), one copy a record
            try:
                hash(tuple(_chain(_map(_values, x.values()))))
            except TypeError:
                pass
            else:
                return {k: v.copy() for k, v in x.items()}
            # some record holds a container (a marker: its units, its commitment's ref): each record is
            # copied here, its lists of atoms sliced, not through a call per record
            out = {}
            for k, v in x.items():
                r = out[k] = v.copy()
                for rk, rv in v.items():
                    trv = _type(rv)
                    if trv in _atoms:
                        continue
                    r[rk] = rv[:] if trv is list and _all_atoms(_map(_type, rv)) else copy(rv)
            return out
        out = x.copy()
        for k, v in x.items():
            tv = _type(v)
            if tv in _atoms:
                continue
            if tv is dict and _all_atoms(_map(_type, v.values())):
                out[k] = v.copy()   # a leaf record (a unit...) copied here: no call per record
            elif tv is list and _all_atoms(_map(_type, v)):
                out[k] = v[:]       # a list of atoms (a marker's units...), as copy would
            else:
                out[k] = copy(v)
        return out
    if t is list:
        if _all_atoms(_map(_type, x)):
            return x[:]
        return [v if _type(v) in _atoms else copy(v) for v in x]
    if t is tuple:
        if _all_atoms(_map(_type, x)):
            return x
        return tuple([v if _type(v) in _atoms else copy(v) for v in x])
    return x  # an atom (or, unchecked here, a foreign object: digest refuses those)


def digest(state) -> bytes:
    """The canonical SHA-256 of state data (see the module docstring)."""
    out: list[bytes] = []
    _encode(state, out, "state")
    return hashlib.sha256(b"aar1/state\x00" + b"".join(out)).digest()


def _encode(x, out: list[bytes], path: str) -> None:
    t = type(x)
    if x is None:
        out.append(b"n")
    elif t is bool:
        out.append(b"t" if x else b"f")
    elif t is int:
        out.append(b"i%d;" % x)
    elif t is str:
        b = x.encode("utf-8")
        out.append(b"s%d:" % len(b))
        out.append(b)
    elif t is bytes:
        out.append(b"b%d:" % len(x))
        out.append(x)
    elif t is Fraction:
        out.append(b"q%d/%d;" % (x.numerator, x.denominator))
    elif t is list or t is tuple:
        out.append(b"%s%d;" % (b"l" if t is list else b"u", len(x)))
        for i, v in enumerate(x):
            _encode(v, out, f"{path}[{i}]")
    elif t is dict:
        out.append(b"d%d;" % len(x))
        for k, v in x.items():
            if type(k) not in (str, int):
                raise StateTypeError(f"{path}: a dict key of type {type(k).__name__} (state keys are str or int)")
            _encode(k, out, path)
            _encode(v, out, f"{path}[{k!r}]")
    else:
        raise StateTypeError(f"{path}: a {t.__name__} is not state data (None, bool, int, str, bytes, "
                             "Fraction, and lists, tuples and dicts of them)")
