"""No Trumpets No Drums: building commands and declaring decision kinds (engine/decisions.py), shared
by the answers of answers.py and the modules that declare their own kinds (hearts_phases,
neutrality, aid, random_events, uprising, ...), so that none of them imports the table (decisions.py).

Every Communist command is sealed (SPEC.md 6): a kind either seat may decide is declared once per
seat by ``_per_seat``, the Communist declaration sealed.
"""
from __future__ import annotations

from afteraction.v1 import command_pb2, ntnd_pb2

from ....decisions import DecisionKind
from ..components.state import ALLIED, COMMUNIST

# (action, field) pairs of NtndCommand's actions whose field is repeated (extended, not set)
_REPEATED = {(f.name, g.name) for f in ntnd_pb2.NtndCommand.DESCRIPTOR.oneofs_by_name["action"].fields
             for g in f.message_type.fields if g.is_repeated}


def cmd(action: str, **fields) -> command_pb2.Command:
    """Build a Command carrying one NtndCommand action (fields set in place: 2.5x faster than nested
    constructors, which matters for the thousands of moves of a movement phase)."""
    c = command_pb2.Command()
    m = getattr(c.ntnd, action)
    m.SetInParent()
    for k, v in fields.items():
        if (action, k) in _REPEATED:
            getattr(m, k).extend(v)
        else:
            setattr(m, k, v)
    return c


DONE = cmd("done")


def _done() -> list:
    c = command_pb2.Command()
    c.CopyFrom(DONE)
    return [c]


def _per_seat(name, rule, answers, legal, space, complete=True) -> list[DecisionKind]:
    """One kind either seat may decide: the Communist declaration sealed, the Allied one public."""
    return [DecisionKind(name, rule, answers, legal, space, seat=COMMUNIST, complete=complete, sealed=True),
            DecisionKind(name, rule, answers, legal, space, seat=ALLIED, complete=complete)]


def _communist(name, rule, answers, legal, space, complete=True) -> DecisionKind:
    return DecisionKind(name, rule, answers, legal, space, seat=COMMUNIST, complete=complete, sealed=True)


def _allied(name, rule, answers, legal, space, complete=True) -> DecisionKind:
    return DecisionKind(name, rule, answers, legal, space, seat=ALLIED, complete=complete)
