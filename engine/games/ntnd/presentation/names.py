"""NTND's commands and events in words (engine/names.py): hexes as on the printed map ("Da Nang
(1810)", "hex 0216"), zones by name, units by their printed names ("304th Division"), inverted
markers as "marker M13 (face down)"; every name from the deciding seat's own view (its inverted
units only in its own names) and the game's static data (data/map.json, data/counters.json)."""
from __future__ import annotations

import functools
import json
import pathlib

from ....names import Label, NameRef, Namer as _Base, generic_event

_DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
_MAP = json.loads((_DATA / "map.json").read_text(encoding="utf-8"))
_COUNTERS = json.loads((_DATA / "counters.json").read_text(encoding="utf-8"))
HEXES: dict = _MAP["hexes"]
ZONES: dict = _MAP["zones"]
TYPES: dict = _COUNTERS["unit_types"]
NATS = {k: v["name"] for k, v in _COUNTERS["nationalities"].items()}
COUNTRIES = {"SV": "South Vietnam", "NV": "North Vietnam", "LA": "Laos", "CA": "Cambodia", "TH": "Thailand",
             "CN": "China"}
AREAS = {"I": "I Corps", "II": "II Corps", "III": "III Corps", "IV": "IV Corps", "CA": "Cambodia", "LA": "Laos"}
MISSIONS = {"bomb": "strategic bombing", "support": "ground support", "supply": "supply interdiction",
            "transport": "helicopter transport"}
DONE = {"recruit": "Done placing recruits", "operations": "Done with operations", "move": "Done moving",
        "announce": "Done announcing attacks", "combat": "Done attacking", "reaction": "Done reacting",
        "reinforce": "Done with reinforcements", "ambush": "No ambush", "interdict": "No search",
        "occupy": "Do not occupy", "continue": "Stop here", "retreat": "Stay (no retreat)",
        "advance": "Do not advance", "uprising": "No uprising this turn", "coup": "No coup this turn",
        "aid": "Take no more aid", "hearts": "Done with Hearts and Minds", "policy": "Done with policy",
        "mine": "Do not mine Haiphong", "fly": "Done flying missions"}


def _static_names() -> dict[str, str]:
    """Unit id -> printed name from every scenario's set-up and schedule (public data)."""
    out: dict[str, str] = {}
    for path in sorted(_DATA.glob("scenario_*.json")):
        _collect(json.loads(path.read_text(encoding="utf-8")), out, 0, 8)
    return {k: v["name"] if isinstance(v, dict) else v for k, v in out.items()}


_UNIT_NAMES: dict[str, str] | None = None


def unit_name(uid: str) -> str:
    """A unit's printed name from the scenarios' public data (its id if none names it)."""
    global _UNIT_NAMES
    if _UNIT_NAMES is None:
        _UNIT_NAMES = _static_names()
    return _UNIT_NAMES.get(uid, uid)


@functools.lru_cache(maxsize=4096)
def place_name(loc: str) -> str:
    """A hex as the printed map shows it ("Da Nang (1810)", "hex 0216"), a zone by name."""
    h = HEXES.get(loc)
    if h is not None:
        return f"{h['town']['name']} ({loc})" if h.get("town") else f"hex {loc}"
    z = ZONES.get(loc)
    if z is not None:
        return f"{z['name']} zone"
    return AREAS.get(loc, loc)


@functools.lru_cache(maxsize=4096)
def place_ref(loc: str) -> NameRef:
    h = HEXES.get(loc)
    name = (h["town"]["name"] if h.get("town") else f"hex {loc}") if h is not None else (
        ZONES[loc]["name"] if loc in ZONES else loc)
    return NameRef("place", loc, name, loc)


def kind_name(kind: str, nat: str = "") -> str:
    """A recruit or aid kind ("cadre" + "VC", "nva_division", "communist_supply") in words."""
    if kind in TYPES:
        return TYPES[kind]["name"]
    if kind == "dummy":
        return "dummy"
    if kind == "supply":
        return "supply unit"
    return f"{nat} {kind}".strip() if nat else kind


def _collect(x, out: dict, depth: int, limit: int = 4) -> None:
    """Index the unit records ({"id", "name", ...}) anywhere in a view (first seen wins)."""
    if depth > limit:
        return
    if isinstance(x, dict):
        if isinstance(x.get("id"), str) and isinstance(x.get("name"), str):
            out.setdefault(x["id"], x)
        for k in sorted(x):
            _collect(x[k], out, depth + 1, limit)
    elif isinstance(x, list):
        for y in x:
            _collect(y, out, depth + 1, limit)


def article(what: str) -> str:
    """"a" or "an" as the word is said: an NVA division, a KR cadre, an ARVN unit, a dummy."""
    word = what.split(" ", 1)[0]
    if word.isupper() and len(word) > 1:  # an initialism, said letter by letter
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    return "an" if word[:1].lower() in "aeiou" else "a"


class Namer(_Base):
    def __init__(self, view, seat) -> None:
        super().__init__(view, seat)
        v = view or {}
        self.units: dict[str, dict] = {}
        _collect(v, self.units, 0)  # every unit the seat's view shows (map, pending, air, its own markers' units)
        self.markers: dict[str, str] = {m["id"]: m.get("loc") or "" for m in v.get("markers") or []
                                        if isinstance(m, dict)}

    def piece_ref(self, pid: str) -> NameRef:
        if pid in self.markers:
            return NameRef("piece", pid, f"marker {pid}", self.markers[pid])
        u = self.units.get(pid)
        if u is None:
            return NameRef("piece", pid, pid, "")
        return NameRef("piece", pid, u.get("name") or pid, u.get("loc") or "")

    def pieces(self, ids) -> str:
        names = [self.piece_ref(i).name for i in ids]
        return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "none")

    def at(self, ref: NameRef) -> str:
        return f" at {place_name(ref.position)}" if ref.position else ""

    # -- commands ------------------------------------------------------------------------------
    def command(self, action, msg, decision) -> Label:
        f = getattr(self, "_" + action, None)
        if f is None:
            return super().command(action, msg, decision)
        return f(msg, decision)

    def _done(self, msg, decision) -> Label:
        text = DONE.get(decision.kind, "Done") if decision is not None else "Done"
        return Label(text, "Done")

    def _place(self, msg, decision) -> Label:
        where = place_ref(msg.location)
        if msg.unit:
            u = self.piece_ref(msg.unit)
            corps = f", attached to {AREAS.get(msg.corps, msg.corps)}" if msg.corps else ""
            return Label(f"Place {u.name} at {place_name(msg.location)}{corps}", f"Place {u.name}: pick a place",
                         (u, where))
        what = kind_name(msg.kind, msg.nationality)
        face = " face down" if msg.inverted else " face up"
        art = article(what)
        return Label(f"Place {art} {what}{face} at {place_name(msg.location)}",
                     f"Place {art} {what}{face}: pick a place", (where,))

    def _move(self, msg, decision) -> Label:
        p = self.piece_ref(msg.piece)
        path = list(msg.path)
        if not path:
            return Label(f"{p.name} stays{self.at(p)}", f"Move {p.name}", (p,))
        via = f" via {', '.join(path[:-1])}" if len(path) > 1 else ""
        return Label(f"Move {p.name} to {place_name(path[-1])}{via}", f"Move {p.name}{self.at(p)}: pick a place",
                     (p, place_ref(path[-1])))  # the destination: the hexes passed are named in the text

    def _promote(self, msg, decision) -> Label:
        c, s = self.piece_ref(msg.unit or msg.piece), self.piece_ref(msg.supply_unit or msg.supply)
        return Label(f"Promote {c.name}{self.at(self.piece_ref(msg.piece))} to a {msg.to}, spending {s.name}",
                     "Promote a cadre", (c, s))

    def _break_down(self, msg, decision) -> Label:
        p = self.piece_ref(msg.piece)
        return Label(f"Break down {p.name}{self.at(p)}", "Break down a division", (p,))

    def _invert(self, msg, decision) -> Label:
        return Label(f"Invert {self.pieces(msg.units)} at {place_name(msg.location)}", "Invert units",
                     (place_ref(msg.location),) + tuple(self.piece_ref(u) for u in msg.units))

    def _flip(self, msg, decision) -> Label:
        p = self.piece_ref(msg.marker)
        return Label(f"Flip {p.name}{self.at(p)} face up", "Flip a marker", (p,))

    def _attack(self, msg, decision) -> Label:
        t = place_ref(msg.target)
        if decision is not None and decision.kind == "interdict":
            return Label(f"Search {place_name(msg.target)} for supply units", "Search a hex", (t,))
        return Label(f"Attack {place_name(msg.target)} with {self.pieces(msg.attackers)}",
                     f"Attack {place_name(msg.target)}", (t,) + tuple(self.piece_ref(a) for a in msg.attackers))

    def _ambush(self, msg, decision) -> Label:
        return Label(f"Ambush with {self.pieces(msg.markers)}", "Ambush",
                     tuple(self.piece_ref(m) for m in msg.markers))

    def _losses(self, msg, decision) -> Label:
        if not msg.units:
            return Label("No losses to name", "Losses")
        verb = "Name as supply used" if decision is not None and decision.kind == "supply" else "Eliminate"
        return Label(f"{verb} {self.pieces(msg.units)}", "Losses", tuple(self.piece_ref(u) for u in msg.units))

    def _retreat(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Retreat {u.name} to {place_name(msg.to)}", f"Retreat {u.name}: pick a place",
                     (u, place_ref(msg.to)))

    def _advance(self, msg, decision) -> Label:
        return Label(f"Advance {self.pieces(msg.units)}", "Advance", tuple(self.piece_ref(u) for u in msg.units))

    def _reassign(self, msg, decision) -> Label:
        g = self.piece_ref(msg.group)
        return Label(f"Reassign {g.name} to {AREAS.get(msg.corps, msg.corps or 'no corps')}", "Reassign", (g,))

    def _relocate(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Relocate {u.name} to {place_name(msg.to)}", f"Relocate {u.name}: pick a place",
                     (u, place_ref(msg.to)))

    def _expend(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Expend {u.name}{self.at(u)}", "Expend a unit", (u,))

    def _allocate(self, msg, decision) -> Label:
        area = AREAS.get(msg.area, msg.area)
        return Label(f"Allocate {msg.points} {msg.pool} point{'s' if msg.points != 1 else ''} to {area}",
                     f"Allocate {msg.pool} points")

    def _build_base(self, msg, decision) -> Label:
        return Label(f"Build a VC base at {place_name(msg.location)} with {self.pieces(msg.supplies)}",
                     "Build a VC base", (place_ref(msg.location),) + tuple(self.piece_ref(s) for s in msg.supplies))

    def _upgrade(self, msg, decision) -> Label:
        r, c, s = self.piece_ref(msg.regiment), self.piece_ref(msg.cadre), self.piece_ref(msg.supply)
        spend = f", spending {s.name}" if msg.supply else ""
        return Label(f"Upgrade {r.name} and {c.name} to an NVA division{spend}",
                     "Upgrade to a division", (r, c) + ((s,) if msg.supply else ()))

    def _declare(self, msg, decision) -> Label:
        text = {"full": "Declare Full Vietnamization", "partial": "Declare Partial Vietnamization",
                "reverse": "Reverse Vietnamization"}.get(msg.kind, f"Declare {msg.kind}")
        return Label(text, "Vietnamization")

    def _draft(self, msg, decision) -> Label:
        return Label("Declare a South Vietnamese draft", "Draft")

    def _withdraw(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Withdraw {u.name}{self.at(u)} permanently", "Withdraw a unit", (u,))

    def _coup(self, msg, decision) -> Label:
        return Label(f"Coup in {COUNTRIES.get(msg.country, msg.country)}", "Coup")

    def _aid(self, msg, decision) -> Label:
        what = kind_name(msg.kind)
        face = " face down" if msg.inverted else " face up"
        src = {"china": "Chinese", "soviet": "Soviet"}.get(msg.source, msg.source)
        return Label(f"{src} aid: {what}{face} at {place_name(msg.location)}", f"{src} aid: {what}{face}",
                     (place_ref(msg.location),))

    def _choose(self, msg, decision) -> Label:
        if msg.choice in self.markers:
            p = self.piece_ref(msg.choice)
            return Label(f"Choose {p.name}{self.at(p)}", "Random event", (p,))
        return Label(f"Choose {AREAS.get(msg.choice, msg.choice)}", "Random event")

    def _declare_uprising(self, msg, decision) -> Label:
        return Label("Declare the National Uprising", "Uprising")

    def _mine_haiphong(self, msg, decision) -> Label:
        return Label("Mine Haiphong", "Mine Haiphong")

    def _recall_green_beret(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Recall {u.name}{self.at(u)}", "Recall a Green Beret", (u,))

    def _reassign_ranger(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Reassign {u.name} to {AREAS.get(msg.corps, msg.corps)}", "Reassign a Ranger", (u,))

    def _transfer(self, msg, decision) -> Label:
        u = self.piece_ref(msg.unit)
        return Label(f"Transfer {u.name}{self.at(u)}", "Transfer a unit", (u,))

    def _announce_zoc(self, msg, decision) -> Label:
        c = COUNTRIES.get(msg.country, msg.country)
        return Label(f"{'Extend' if msg.extend else 'Do not extend'} zones of control into {c}", "Zones of control")

    def _fly(self, msg, decision) -> Label:
        m = MISSIONS.get(msg.mission, msg.mission)
        t = self.piece_ref(msg.target) if msg.mission == "transport" else place_ref(msg.target)
        tgt = t.name if msg.mission == "transport" else place_name(msg.target)
        return Label(f"Fly {m} at {tgt} with {self.pieces(msg.air)}", f"Fly {m}",
                     (t,) + tuple(self.piece_ref(a) for a in msg.air))

    def _aa_fire(self, msg, decision) -> Label:
        if not msg.units:
            return Label("No anti-aircraft fire", "Anti-aircraft fire")
        return Label(f"Anti-aircraft fire with {self.pieces(msg.units)}", "Anti-aircraft fire",
                     tuple(self.piece_ref(u) for u in msg.units))

    # -- events (public content only: the record's own ids, the scenarios' printed names) -----------
    def event(self, ev: dict) -> str | None:
        t, g = ev.get("t"), ev.get

        def who(key: str = "unit") -> str:
            v = g(key)
            if isinstance(v, str) and v.startswith("M") and v[1:].isdigit():
                return f"marker {v}"
            if not isinstance(v, str):
                return str(v)
            name = unit_name(v)
            typ = g("type") if key == "unit" else None
            return f"{TYPES[typ]['name']} {v}" if name == v and typ in TYPES else name

        def loc(key: str) -> str:
            v = g(key)
            return place_name(v) if isinstance(v, str) else "off the map"

        rule = f" ({g('rule')})" if g("rule") else ""
        if t == "move":
            path = g("path") or []
            return f"{who('piece')} moves from {loc('from')} to {place_name(path[-1]) if path else loc('from')}" + (
                f" ({len(path)} hexes)" if len(path) > 1 else "")
        if t == "phase":
            return f"Turn {g('turn')} ({g('label')}): {g('title')}{rule}"
        if t == "marker":
            return f"Marker {g('marker')} at {loc('loc')}{rule}"
        if t == "marker-identity":  # a seat's own opening, or public once the game has ended
            inside = [u.get("name") or u.get("id") for u in g("units") or [] if isinstance(u, dict)]
            return f"Marker {g('marker')} at {loc('loc')} holds {', '.join(map(str, inside)) or 'nothing'}"
        if t == "flip":
            return f"Marker {g('marker')} at {loc('loc')} is flipped face up{rule}"
        if t == "eliminated":
            return f"{who()} is eliminated{rule}"
        if t in ("attack", "announce"):
            att = ", ".join(unit_name(x) for x in g("attackers") or [])
            verb = "announces an attack on" if t == "announce" else "attacks"
            return f"{g('side') or 'Communist'}: {att} {verb} {loc('target')}{rule}"
        if t == "battle":
            return f"Battle at {loc('target')}{rule}"
        if t == "retreat":
            return f"{who()} retreats from {loc('from')} to {loc('to')}{rule}"
        if t == "advance":
            return f"{who()} advances from {loc('from')} to {loc('to')}{rule}"
        if t in ("recruit", "purchase", "reinforcement"):
            verb = {"recruit": "is recruited", "purchase": "is bought", "reinforcement": "arrives"}[t]
            return f"{g('name') or who()} {verb} at {loc('loc')}{rule}"
        if t == "relocate":
            return f"{who()} relocates from {loc('from')} to {loc('to')}{rule}"
        if t == "ambush":
            return f"Ambush at {loc('target')} by {', '.join(f'marker {m}' for m in g('markers') or [])}{rule}"
        if t == "infiltration-failed":
            w = who("piece")
            return f"{w[:1].upper() + w[1:]} fails to infiltrate into {loc('hex')}{rule}"
        if t == "dummy-removed":
            return f"A dummy is removed{rule}"
        if t == "search":
            return f"{who()} searches {loc('target')}: {'supply found' if g('found') else 'nothing found'}{rule}"
        if t == "game-over":
            return f"Game over: {g('winner') or 'no winner'} ({g('reason')})"
        return generic_event(ev)
