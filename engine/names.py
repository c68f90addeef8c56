"""Commands and records in words: the presentation layer of every game.

A player reads "Place a VC cadre face down at Hue (1609)", not ``ntnd { place { ... } }``. Each
game's ``engine/games/<game>/names.py`` defines a ``Namer`` subclass that names

- each **legal command** of a pending decision: a ``Label`` with a short ``text`` (unique within
  the decision), a ``group`` (what a UI shows first: "Place a VC cadre face down: pick a place")
  and the ``refs`` (pieces and places, with their printed names and map positions) it refers to;
- each **event** of a record, so a move list reads like a game report, dice included.

Presentation only: nothing here is called by the referee, ``apply``, ``advance`` or the log; no
name changes a rule, an event or a replay. Names never reveal hidden information: a command is
named from the deciding seat's own view (``Ruleset.view(state, seat)``: what that seat may see)
and the game's static data, never from the state; a record is described from its public content
only (its public events and its command unless sealed), for any spectator.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message

from afteraction.v1 import envelope_pb2

from .registry import game_module


@dataclass(frozen=True)
class NameRef:
    """A piece or place a command refers to. ``kind``: "piece" or "place"; ``id``: as commands
    and views spell it; ``name``: its printed name; ``position``: for a piece, the place it is at
    as the seat sees it ("" off-map or unknown); for a place, its own id."""
    kind: str
    id: str
    name: str
    position: str = ""

    def as_dict(self) -> dict:
        return {"kind": self.kind, "id": self.id, "name": self.name, "position": self.position}


@dataclass(frozen=True)
class Label:
    """One legal command in words (see the module docstring)."""
    text: str
    group: str
    refs: tuple[NameRef, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:  # one space between words, whatever field a template left empty
        object.__setattr__(self, "text", " ".join(self.text.split()))
        object.__setattr__(self, "group", " ".join(self.group.split()))

    def as_dict(self) -> dict:
        return {"text": self.text, "group": self.group, "refs": [r.as_dict() for r in self.refs]}


def humanize(word: str) -> str:
    """``to_zone`` -> "to zone"; an enum constant's name -> its last word(s) in lower case."""
    return word.replace("_", " ").strip()


def value_words(field_desc, value) -> str:
    """One protobuf field value in words (enums by their value's short name, bools yes/no)."""
    if field_desc.enum_type is not None:
        ev = field_desc.enum_type.values_by_number.get(value)
        if ev is None:
            return str(value)
        prefix = _enum_prefix(field_desc.enum_type)
        return humanize(ev.name[len(prefix):] if ev.name.startswith(prefix) else ev.name).lower()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Message):
        return message_words(value) or "nothing"
    return str(value)


def _enum_prefix(enum_desc) -> str:
    out, name = [], enum_desc.name
    for i, ch in enumerate(name):  # SogInsertionMethod -> SOG_INSERTION_METHOD_
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.upper())
    return "".join(out) + "_"


def message_words(msg) -> str:
    """A message's set fields in words ("method foot, row 3"): the fallback of every namer."""
    parts = []
    for fd, value in msg.ListFields():
        if fd.is_repeated:
            items = [value_words(fd, v) for v in value]
            parts.append(f"{humanize(fd.name)} {', '.join(items)}" if items else "")
        else:
            parts.append(f"{humanize(fd.name)} {value_words(fd, value)}")
    return "; ".join(p for p in parts if p)


class Namer:
    """The default presentation of a game; each game's names.py subclasses it.

    ``view``: the deciding seat's view (``Ruleset.view``), or None when only public static data may
    be used (a record's description); ``seat``: the seat the names are for (None: a spectator)."""

    def __init__(self, view: dict | None, seat: str | None) -> None:
        self.view = view
        self.seat = seat

    # -- commands --------------------------------------------------------------------------------
    def command(self, action: str, msg, decision) -> Label:
        """Name one command (``action``: the oneof field set; ``msg``: that action's message)."""
        words = message_words(msg)
        text = humanize(action).capitalize() + (f": {words}" if words else "")
        return Label(text, humanize(action).capitalize())

    # -- records -----------------------------------------------------------------------------------
    def event(self, ev: dict) -> str | None:
        """One public event in words; None to leave it out of a report (bookkeeping)."""
        return generic_event(ev)

    def command_text(self, seat: str, action: str, msg) -> str:
        """A record's (public) command in words, for the report: the command's label text."""
        return self.command(action, msg, None).text


def generic_event(ev: dict) -> str | None:
    """The events every game shares (dice, hidden values, the handshake), then any other in words."""
    t = ev.get("t")
    if t == "roll":
        faces = ev.get("faces") or []
        shown = "+".join(str(f) for f in faces)
        res = ev.get("result")
        dice = f"{shown} = {res}" if len(faces) > 1 else f"{res}"
        return f"Rolled {ev.get('die')}: {dice} ({ev.get('rule')})"
    if t == "sealed":
        return f"A hidden value for {ev.get('to') or 'a seat'}"
    if t == "open":
        return f"Revealed: {_plain(ev.get('value'))}"
    if t == "start":
        return f"The game starts ({ev.get('scenario')})"
    if t in ("entropy-commit", "entropy-reveal"):
        return None
    parts = []
    for k, v in ev.items():
        if k == "t" or isinstance(v, (bytes, bytearray)):
            continue
        parts.append(f"{humanize(str(k))} {_plain(v)}")
    text = humanize(str(t).replace("-", " ")).capitalize() + (f": {'; '.join(parts)}" if parts else "")
    return text if len(text) <= MAX_EVENT_CHARS else text[:MAX_EVENT_CHARS - 3] + "..."


MAX_EVENT_CHARS = 240  # an event without its own words is cut here in a report (its record holds it whole)


def _plain(v: Any) -> str:
    if isinstance(v, (bytes, bytearray)):
        return f"{len(v)} bytes"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_plain(x) for x in v) if v else "none"
    if isinstance(v, dict):
        return ", ".join(f"{humanize(str(k))} {_plain(x)}" for k, x in v.items()) if v else "none"
    return str(v)


_NAMERS: dict[str, type] = {}


def namer_class(game: str) -> type:
    """The game's ``Namer`` (engine/games/<game>/names.py, or its presentation/names.py), the default
    one if it has none."""
    if game not in _NAMERS:
        try:
            mod = game_module(game, "names")
            _NAMERS[game] = getattr(mod, "Namer")
        except ImportError:
            _NAMERS[game] = Namer
    return _NAMERS[game]


def unique(labels: list[Label], commands: list) -> list[Label]:
    """Make the texts unique within a decision: texts two commands share get the details of each
    (their fields in words) when these tell them apart, else their order among them ("choice 2":
    an enumerator may list the same command twice)."""
    out = list(labels)
    seen: dict[str, list[int]] = {}
    for i, lab in enumerate(out):
        seen.setdefault(lab.text, []).append(i)
    for text, idx in seen.items():
        if len(idx) < 2:
            continue
        details = []
        for i in idx:
            inner = getattr(commands[i], commands[i].WhichOneof("game"))
            action = inner.WhichOneof("action")
            details.append(message_words(getattr(inner, action)) if action else "")
        distinct = len(set(details)) == len(details) and all(details)
        for n, i in enumerate(idx, 1):
            extra = details[n - 1] if distinct else f"choice {n}"
            out[i] = Label(f"{text} ({extra})", out[i].group, out[i].refs)
    return out


def label_commands(ruleset, state, seat: str, decision, commands: list) -> list[Label]:
    """The labels of ``seat``'s legal ``commands`` of ``decision`` (one per command, same order),
    named from ``seat``'s own view only."""
    if not commands:
        return []
    namer = namer_class(ruleset.game)(ruleset.view(state, seat), seat)
    field_ = ruleset.decisions.field
    labels = []
    for c in commands:
        inner = getattr(c, field_)
        action = inner.WhichOneof("action")
        lab = namer.command(action, getattr(inner, action), decision)
        if any(not r.id for r in lab.refs):  # a field left empty names nothing
            lab = Label(lab.text, lab.group, tuple(r for r in lab.refs if r.id))
        labels.append(lab)
    return unique(labels, commands)


def record_lines(game: str, kind: str, body: dict) -> list[str]:
    """A record in words for anyone, from its public content only: its command (a sealed command
    reads "a hidden command"; an ending's resignation or offer in words), then each public event."""
    namer = namer_class(game)(None, None)
    lines = []
    seat = body.get("seat")
    if kind == "command":
        if "sealed" in body:
            lines.append(f"{seat}: a hidden command")
        else:
            env = envelope_pb2.CommandEnvelope.FromString(body["env"])
            which = env.WhichOneof("action")
            if which == "command" and env.command.WhichOneof("game") is not None:
                inner = getattr(env.command, env.command.WhichOneof("game"))
                action = inner.WhichOneof("action")
                if action is not None:
                    lines.append(f"{seat}: {namer.command_text(seat, action, getattr(inner, action))}")
            elif which == "ending":
                end = env.ending.WhichOneof("kind")
                w = getattr(env.ending, end).winner if end in ("offer", "accept") else ""
                lines.append(f"{seat}: resigns" if end == "resign" else
                             f"{seat}: {'offers' if end == 'offer' else 'accepts'} "
                             f"{'a draw' if not w else 'the result: ' + w + ' wins'}")
    elif kind == "genesis":
        lines.append(f"New game: {game}, scenario {body.get('scenario')}, seats "
                     f"{', '.join(x.get('name', '') for x in body.get('seats') or [])}")
    elif kind in ("commit", "reveal"):
        lines.append(f"{seat}: {'commits to' if kind == 'commit' else 'reveals'} its share of the dice key")
    elif kind == "end":
        oc = body.get("outcome") or {}
        lines.append(f"The game ends: {oc.get('winner') or 'no winner'}" + (
            f" ({oc['reason']})" if isinstance(oc, dict) and oc.get("reason") else ""))
    for ev in body.get("events") or []:
        if isinstance(ev, dict):
            value = ev.get("value")
            if ev.get("t") == "open" and isinstance(value, dict) and "t" in value:  # a published event
                inner = namer.event(value)
                text = f"Revealed: {inner}" if inner else None
            else:
                text = namer.event(ev)
            if text:
                lines.append(text)
    return lines
