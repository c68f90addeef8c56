"""What `aar play` shows a person: a compact board summary per game, what changed since the
last prompt, and each legal choice in words with its cost or odds where the rules give them.
(`aar play --json` prints the machine forms instead: the view as JSON, the commands as protobuf
text.) Pure functions of a seat's view and the commands; nothing here sees more than the view.
"""
from __future__ import annotations

from typing import Any


def summary(game: str, view: dict) -> list[str]:
    """A few lines: money, units by zone/location, the position of the game."""
    if not isinstance(view, dict):
        return [str(view)]
    fn = {"gmv": _gmv, "sog": _sog, "ntnd": _ntnd}.get(game)
    return fn(view) if fn else [f"{k}: {_short(v)}" for k, v in sorted(view.items()) if not isinstance(v, (dict, list))]


def changes(before: list[str], after: list[str]) -> list[str]:
    """Lines of the summary that are new or different since the last prompt."""
    old = set(before)
    return [line for line in after if line not in old]


def _short(v: Any, n: int = 70) -> str:
    s = str(v)
    return s if len(s) <= n else s[:n] + "..."


def _count(units, key="type") -> str:
    c: dict[str, int] = {}
    for u in units:
        c[u[key]] = c.get(u[key], 0) + 1
    return ", ".join(f"{t} x{n}" if n > 1 else t for t, n in sorted(c.items()))


def _gmv(v: dict) -> list[str]:
    out = [f"turn {v.get('turn')}/{v.get('turns')}, {str(v.get('side')).upper()} phase {v.get('phase')}"]
    money = v.get("money") or {}
    pool = v.get("pool") or {}
    for side in ("us", "nva"):
        if side in money:
            m = money[side]
            out.append(f"money {side.upper()}: {m.get('ipc')} IPC, {m.get('rec')} R-rating IPC; "
                       f"bought, not placed: {', '.join(pool.get(side) or []) or 'none'}")
    zones: dict[str, dict[str, list]] = {}
    for u in v.get("units", []):
        zones.setdefault(u["zone"], {}).setdefault(u["side"], []).append(u)
    for u in v.get("hidden") or []:
        zones.setdefault(u["zone"], {}).setdefault("hidden", []).append(u)
    from afteraction.engine.games.gmv.names import type_name, zone_name

    def ids(units) -> str:  # "infantry u9, u10; APC u8": the ids the choices name
        by: dict[str, list[str]] = {}
        for u in units:
            by.setdefault(type_name(u["type"]), []).append(u["id"])
        return "; ".join(f"{t} {', '.join(i)}" for t, i in sorted(by.items()))
    for z in sorted(zones):
        parts = [f"{label} {ids(zones[z][side])}" for side, label in (("us", "US"), ("nva", "NVA"),
                                                                      ("hidden", "NVA hidden"))
                 if zones[z].get(side)]
        out.append(f"  {zone_name(z)}: " + " | ".join(parts))
    out.append(f"hidden NVA units: {v.get('hidden_count', 0)}")
    b = v.get("battle")
    if isinstance(b, dict):
        sides = b.get("in") or {}
        out.append(f"battle in {zone_name(str(b.get('zone')))}, round {b.get('round')}: {str(b.get('att')).upper()} "
                   f"attacks; US {', '.join(sides.get('us') or []) or 'none'} against NVA "
                   f"{', '.join(sides.get('nva') or []) or 'none'}")
    elif b:
        out.append(f"battle: {_short(b, 120)}")
    return out


def _sog(v: dict) -> list[str]:
    vp = v.get("vp") or {}
    out = [f"turn {v.get('turn')}, phase {v.get('phase')}; VP SOG {vp.get('sog', 0)}, NVA {vp.get('nva', 0)}",
           f"team at {v.get('team_at') or '-'} ({len((v.get('team') or {}).get('members') or {})} men), "
           f"target {v.get('target') or '-'}" + (", searching" if v.get("searching") else "")
           + (", target reached" if v.get("reached_target") else ""),
           "LZs: " + (", ".join(f"LZ{x['n']} {x['at']}" for x in v.get("lzs") or []) or "none")
           + (f"; PZ {v['pz']}" if v.get("pz") else ""),
           "VC: " + (", ".join(f"VC{x['n']} {x['at']}" for x in v.get("vc") or []) or "none")]
    a = v.get("action")
    if a:
        out.append(f"action {a.get('id')}: {a.get('kind')} at {a.get('square')} ({a.get('stage')})")
    return out


def _ntnd(v: dict) -> list[str]:
    out = [f"{v.get('turn_label', '')} - {v.get('phase_title', '')}; political points {v.get('pp')}"]
    by: dict[str, dict[str, int]] = {}
    for u in v.get("units", []):
        if u.get("status", "map") == "map":
            by.setdefault(u["loc"], {}).setdefault(u["side"], 0)
            by[u["loc"]][u["side"]] += 1
    for mk in v.get("markers", []):
        by.setdefault(mk["loc"], {}).setdefault("inverted", 0)
        by[mk["loc"]]["inverted"] += 1
    sides = {}
    for loc in by.values():
        for s, n in loc.items():
            sides[s] = sides.get(s, 0) + n
    out.append("pieces: " + ", ".join(f"{s} {n}" for s, n in sorted(sides.items())))
    zones = [loc for loc in sorted(by) if not loc[:1].isdigit()]
    for z in zones:
        out.append(f"  {z}: " + ", ".join(f"{s} {n}" for s, n in sorted(by[z].items())))
    out.append(f"  on the map: {sum(1 for loc in by if loc[:1].isdigit())} hexes hold pieces")
    b = v.get("battle")
    if isinstance(b, dict):
        out.append(f"battle: the {b.get('side')} side attacks hex {b.get('target')}")
    elif b:
        out.append(f"battle: {_short(b, 120)}")
    return out


# -- choices ---------------------------------------------------------------------------
def in_words(cmd) -> str:
    """A Command as words: 'buy: unit type inf', 'move: piece M2, path 0926'."""
    game = cmd.WhichOneof("game") if cmd.DESCRIPTOR.oneofs_by_name.get("game") else None
    msg = getattr(cmd, game) if game else cmd
    action = None
    for oneof in msg.DESCRIPTOR.oneofs:
        action = msg.WhichOneof(oneof.name)
        if action:
            break
    inner = getattr(msg, action) if action else msg
    fields = []
    for fd, value in inner.ListFields():
        if fd.type == fd.TYPE_MESSAGE:
            value = "; ".join(_field_words(x) for x in value) if _repeated(fd) else _field_words(value)
        elif _repeated(fd):
            value = " ".join(str(x) for x in value)
        fields.append(f"{fd.name.replace('_', ' ')} {value}")
    name = (action or "command").replace("_", " ")
    return name + (": " + ", ".join(fields) if fields else "")


def _repeated(fd) -> bool:
    rep = getattr(fd, "is_repeated", None)
    return bool(rep) if rep is not None else fd.label == fd.LABEL_REPEATED


def _field_words(m) -> str:
    return " ".join(f"{fd.name.replace('_', ' ')} {v}" for fd, v in m.ListFields())


def cost_or_odds(game: str, cmd, view: dict) -> str:
    """What the rules say a choice risks, where they give it; '' otherwise (a cost is in the
    choice's name: engine/games/gmv/names.py)."""
    try:
        if game == "sog" and cmd.sog.WhichOneof("action") == "move":
            from afteraction.engine.games.sog import board

            sq = cmd.sog.move.square
            if sq and sq == view.get("team_at"):
                return "hold: the team stays where it is"
            if board.parse(sq):
                from afteraction.engine.games.sog import movement

                sq = board.square(*board.parse(sq))
                t = board.TERRAIN[sq]
                drm = movement.contact_drm(view, sq)["total"]  # the view holds the VC counters and the team
                odds: dict[str, int] = {}
                for face in range(1, 11):
                    r = movement.contact_result(face + drm)
                    odds[r] = odds.get(r, 0) + 10
                shown = ", ".join(f"{r} {odds[r]}%" for r in ("none", "evaded", "contacted", "ambush") if r in odds)
                return (f"into {t.replace('_', ' ')}; if the contact roll is made (SOG 3.5: not into the target, "
                        f"an LZ or the PZ), d10 {drm:+d}: {shown}")
    except (AttributeError, KeyError, ValueError, ImportError):
        return ""
    return ""


# -- any answer the rules allow ----------------------------------------------------------
MAX_ANSWER_CHARS = 8192  # a typed command (the envelope that carries it is at most 8 KiB)


def answer_space(data_json: str, pretty: bool = False) -> str:
    """The decision's described data (what the rules allow), as JSON text; '' when it has none."""
    import json

    if not data_json:
        return ""
    try:
        data = json.loads(data_json)
    except ValueError:
        return data_json
    if data in ({}, None, []):
        return ""
    return json.dumps(data, indent=2 if pretty else None, sort_keys=True)


def outcome_words(outcome) -> str:
    """The end in words, before `aar play`'s machine line: "The game is over: sog wins. Why: SOG
    3.7.3: the SOG Team exited the map. vp: nva 0, sog 10"."""
    if not isinstance(outcome, dict):
        return f"The game is over: {outcome}."
    w = outcome.get("winner")
    rest = "; ".join(f"{k.replace('_', ' ')}: {_plain(v)}" for k, v in sorted(outcome.items())
                     if k not in ("winner", "reason"))
    return (f"The game is over: {f'{w} wins' if w else 'no winner'}."
            + (f" Why: {outcome['reason']}." if outcome.get("reason") else "") + (f" {rest}" if rest else ""))


def _plain(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_plain(x)}" for k, x in sorted(v.items())) or "none"
    if isinstance(v, list):
        return ", ".join(_plain(x) for x in v) or "none"
    return "none" if v is None else str(v)


def sampled_note(decision) -> str:
    """What `aar play` says before the choices of a decision whose answers no list holds
    (``Decision.sampled``): the choices are examples, and what the rules allow, in words."""
    rule = f" ({decision.rule})" if decision.rule else ""
    return (f"the choices below are examples: the rules{rule} allow {decision.space or 'other answers too'}. "
            f"Type ? to see what this decision allows and how to write your own answer.")


def what_the_rules_allow(decision, example: str) -> str:
    """The answer to ``?``: the decision's answers in words, its data, and how to type any answer."""
    rule = f" ({decision.rule})" if decision.rule else ""
    lines = [f"the answers{rule}: {decision.space}" if decision.space else "the answers: the choices listed"]
    data = answer_space(decision.data_json, pretty=True)
    if data:
        lines.append(f"this decision's data (what the rules allow here):\n{data}")
    if example:
        lines.append(f"any answer may be typed as a command in protobuf text, e.g. {example}; "
                     f"the referee refuses one the rules do not allow and says which rule")
    return "\n".join(lines)


def parse_answer(raw: str, game: str, cls=None):
    """(Command, '') for a typed command in protobuf text, with or without the game's wrapper
    (``duel { pick { number: 6 } }`` or ``pick { number: 6 }``), or (None, why)."""
    from google.protobuf import text_format

    if cls is None:
        from afteraction.v1 import command_pb2

        cls = command_pb2.Command
    if not raw:
        return None, "nothing typed"
    if len(raw) > MAX_ANSWER_CHARS:
        return None, f"longer than {MAX_ANSWER_CHARS} characters"
    errors = []
    wrapped = raw.split("{", 1)[0].strip() == game  # typed with the game's wrapper
    for text in ((raw,) if wrapped else (f"{game} {{ {raw} }}", raw)):
        try:
            cmd = cls()
            text_format.Parse(text, cmd)
        except (text_format.ParseError, ValueError) as e:
            errors.append(str(e))
            continue
        if cmd.ByteSize():
            return cmd, ""
    return None, errors[0] if errors else "an empty command"


# -- choices by name: the ruleset's names, grouped --------------------------------
MAX_LISTED = 40  # more choices than this: the groups are listed, and a group's choices on request


class Menu:
    """The legal choices of a decision in words: ``texts[i]`` and ``groups[i]`` name ``legal[i]``
    (the server's ``YourDecision.names``, or each command in words when a server sends none).
    Choices are numbered in the order shown: grouped, each group where its first choice is."""

    def __init__(self, texts: list[str], groups: list[str], extras: list[str] | None = None) -> None:
        self.texts, self.extras = texts, extras or [""] * len(texts)
        self.groups: list[tuple[str, list[int]]] = []  # (group name, indices into legal) in order shown
        where: dict[str, int] = {}
        for i, g in enumerate(groups):
            if g not in where:
                where[g] = len(self.groups)
                self.groups.append((g, []))
            self.groups[where[g]][1].append(i)
        self.order = [i for _, idx in self.groups for i in idx]  # choice n is legal[order[n - 1]]
        self.number = {i: n for n, i in enumerate(self.order, 1)}

    @classmethod
    def of(cls, names, legal: list, extras: list[str] | None = None) -> "Menu":
        if names is not None and len(names) == len(legal) and all(x.text for x in names):
            return cls([x.text for x in names], [x.group or x.text for x in names], extras)
        texts = [in_words(c) for c in legal]
        return cls(texts, [t.split(":", 1)[0] for t in texts], extras)

    def line(self, i: int) -> str:
        extra = self.extras[i]
        return f"  {self.number[i]:4d}. {self.texts[i]}" + (f"  ({extra})" if extra else "")

    def group_lines(self, k: int) -> list[str]:
        name, idx = self.groups[k]
        return [f"  {name}:"] + ["  " + self.line(i) for i in idx]

    def lines(self) -> list[str]:
        n = len(self.texts)
        if n <= MAX_LISTED:
            if len(self.groups) in (1, n):  # one group, or one choice each: a plain list
                return [self.line(i) for i in self.order]
            out = []
            for k, (name, idx) in enumerate(self.groups):
                out += self.group_lines(k) if len(idx) > 1 else [self.line(idx[0])]
            return out
        out = [f"  {n} choices in {len(self.groups)} groups (type g and a group's number to see its choices):"]
        for k, (name, idx) in enumerate(self.groups, 1):
            span = f"choice {self.number[idx[0]]}" if len(idx) == 1 else \
                f"choices {self.number[idx[0]]}-{self.number[idx[-1]]}"
            out.append(f"  g{k}. {name} ({span})")
        return out

    def hint(self) -> str:
        g = f", g1-g{len(self.groups)} for a group's choices" if len(self.texts) > MAX_LISTED and \
            len(self.groups) > 1 else ""
        return (f"type a choice's number (1-{len(self.texts)}){g}, its name or part of it, "
                f"r (resign), d (offer a draw), ? for what the rules allow, Enter to look again, "
                f"or a command as protobuf text")

    def pick(self, raw: str) -> tuple[int | None, list[str]]:
        """What ``raw`` (a number, g<n>, a name or part of one) chooses: (index into legal, lines
        to show) or (None, lines saying in words why nothing was chosen)."""
        n = len(self.texts)
        if raw.isdigit():
            k = int(raw)
            if 1 <= k <= n:
                return self.order[k - 1], []
            return None, [f"{raw} is not a choice: the choices are numbered 1 to {n}. " + self.hint()]
        low = raw.lower()
        if len(low) > 1 and low[0] == "g" and low[1:].isdigit():
            k = int(low[1:])
            if 1 <= k <= len(self.groups):
                return None, self.group_lines(k - 1)
            return None, [f"there is no group {raw}: the groups are g1 to g{len(self.groups)}. " + self.hint()]
        exact = [i for i, t in enumerate(self.texts) if t.lower() == low]
        if len(exact) == 1:
            return exact[0], []
        words = low.split()
        found = [i for i in self.order if all(w in self.texts[i].lower() for w in words)]
        if len(found) == 1:
            return found[0], [f"-> {self.texts[found[0]]}"]
        if found:
            shown = [self.line(i) for i in found[:MAX_LISTED]]
            more = [f"  ... and {len(found) - MAX_LISTED} more: type more of the name"] \
                if len(found) > MAX_LISTED else []
            return None, [f"{len(found)} choices match {raw!r}; type one's number:"] + shown + more
        return None, [f"no choice is named {raw!r}. " + self.hint()]


def looks_like_protobuf(raw: str) -> bool:
    """Typed protobuf text (``pick { number: 3 }``) rather than a choice's name (no name has a brace)."""
    return "{" in raw
