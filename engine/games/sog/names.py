"""SOG's commands and events in words (engine/names.py): squares as "8-A (jungle)", the team's
members by letter, weapons and equipment by their codes in the rules' tables (SOG 3.2)."""
from __future__ import annotations

import json
import pathlib

from ...names import Label, NameRef, Namer as _Base, generic_event

_MAP = json.loads((pathlib.Path(__file__).resolve().parent / "data" / "map.json").read_text(encoding="utf-8"))
_COLUMNS = "ABCDEFGHIJ"
_METHOD_IN = {1: "on foot", 2: "by helicopter"}
_METHOD_OUT = {1: "helicopter pick-up", 2: "walking out"}


def terrain(square: str) -> str:
    """The terrain of a square "row-column" ("8-A") on the Strategic Movement Map ("" if none)."""
    row, _, col = square.partition("-")
    try:
        code = _MAP["rows"][int(row) - 1][_COLUMNS.index(col)]
    except (ValueError, IndexError):
        return ""
    return _MAP["legend"].get(code, "").replace("_", " ")


def square_name(square: str) -> str:
    t = terrain(square)
    return f"{square} ({t})" if t else square


def square_ref(square: str) -> NameRef:
    return NameRef("place", square, square_name(square), square)


def _count(items) -> str:
    return ", ".join(f"{n} {code}" if n != 1 else code for code, n in items)


class Namer(_Base):
    def command(self, action, msg, decision) -> Label:
        f = getattr(self, "_" + action, None)
        return f(msg, decision) if f is not None else super().command(action, msg, decision)

    def _organise(self, msg, decision) -> Label:
        members = list(msg.members)
        us = sum(1 for m in members if m.american)
        weapons: dict[str, int] = {}
        items: dict[str, int] = {}
        for m in members:
            weapons[m.weapon] = weapons.get(m.weapon, 0) + 1
            for it in m.equipment:
                items[it.code] = items.get(it.code, 0) + it.count
        leaders = ", ".join(f"{m.letter} rank {m.rank}" for m in members if m.rank)
        text = (f"Organise a team of {len(members)} ({us} American{'s' if us != 1 else ''}"
                + (f"; {leaders}" if leaders else "") + f"): weapons {_count(sorted(weapons.items()))}; "
                f"equipment {_count(sorted(items.items())) or 'none'}")
        return Label(text, "Organise the team")

    def _insert(self, msg, decision) -> Label:
        if msg.method == 1:
            sq = f"{msg.row}-A"
            return Label(f"Insert on foot at {square_name(sq)}", "Insert on foot: pick a row", (square_ref(sq),))
        how = _METHOD_IN.get(msg.method, f"method {msg.method}")
        return Label(f"Insert {how}", f"Insert {how}")

    def _choose_lz(self, msg, decision) -> Label:
        lz = next((x for x in (self.view or {}).get("lzs") or [] if x.get("n") == msg.lz), None)
        if lz is not None:
            return Label(f"Land at LZ {msg.lz}, {square_name(lz['at'])}", "Land at an LZ", (square_ref(lz["at"]),))
        return Label(f"Land at LZ {msg.lz}", "Land at an LZ")

    def _move(self, msg, decision) -> Label:
        at = (decision.data or {}).get("at") if decision is not None else None
        if at == msg.square:
            return Label(f"Hold at {square_name(msg.square)}", "Move or hold", (square_ref(msg.square),))
        return Label(f"Move to {square_name(msg.square)}", "Move or hold", (square_ref(msg.square),))

    def _abort(self, msg, decision) -> Label:
        how = _METHOD_OUT.get(msg.method, f"method {msg.method}")
        return Label(f"Abort the mission ({how})", "Abort the mission")

    def _choose_extraction(self, msg, decision) -> Label:
        how = _METHOD_OUT.get(msg.method, f"method {msg.method}")
        return Label(f"Extraction by {how}", "Choose the extraction")

    def _choose_panel(self, msg, decision) -> Label:
        return Label(f"Map panel {msg.panel}", "Choose a map panel")

    def _add_leader(self, msg, decision) -> Label:
        if not msg.squad:
            return Label("No leader joins a squad", "Add the leader")
        return Label(f"The leader joins squad {msg.squad}", "Add the leader")

    def _action_result(self, msg, decision) -> Label:
        parts = []
        if msg.casualties:
            parts.append("casualties " + ", ".join(msg.casualties))
        if msg.lost_equipment:
            parts.append("lost " + ", ".join(f"{x.letter}'s {x.count} {x.code}" for x in msg.lost_equipment))
        if msg.recovered:
            parts.append("recovered " + ", ".join(f"{x.count} {x.code} from {x.from_letter} to {x.to_letter}"
                                                  for x in msg.recovered))
        if msg.prisoners_taken:
            parts.append(f"{msg.prisoners_taken} prisoner(s) taken")
        if msg.prisoners_lost:
            parts.append(f"{msg.prisoners_lost} prisoner(s) lost")
        if msg.squads_eliminated:
            parts.append("squads eliminated " + ", ".join(str(x) for x in msg.squads_eliminated))
        parts.append(f"VP: SOG {msg.sog_vp}, NVA {msg.nva_vp}")
        return Label("Action result: " + "; ".join(parts), "Report the action's result")

    def _confirm(self, msg, decision) -> Label:
        return Label("Confirm the result", "Confirm or dispute")

    def _dispute(self, msg, decision) -> Label:
        return Label("Dispute the result" + (f": {msg.reason}" if msg.reason else ""), "Confirm or dispute")

    def event(self, ev: dict) -> str | None:
        t, g = ev.get("t"), ev.get
        rule = f" ({g('rule')})" if g("rule") else ""
        if t == "team-moved":
            if g("from") == g("to"):
                return f"Turn {g('turn')}: the team holds at {square_name(str(g('to')))}{rule}"
            return f"Turn {g('turn')}: the team moves from {g('from')} to {square_name(str(g('to')))}{rule}"
        if t == "vc-moved":
            if g("to") is None:
                return f"VC counter {g('vc')} leaves the map{rule}"
            if g("direction") == "stay":
                return f"VC counter {g('vc')} stays at {g('to')}{rule}"
            return f"VC counter {g('vc')} moves {g('direction')} from {g('from')} to {g('to')}{rule}"
        if t == "vc-placed":
            return f"VC counter {g('vc')} placed at {square_name(str(g('square')))}{rule}"
        if t == "contact":
            return f"Contact roll at {g('square')}: {g('roll')} modified to {g('modified')}: {g('result')}{rule}"
        if t in ("action-called", "action"):
            return None if t == "action" else (f"Action {g('id')}: {g('scenario')} (page {g('page')}) at "
                                              f"{square_name(str(g('square')))}: {g('cause')}")
        if t == "action-result":
            return f"Action {g('id')}: result submitted"
        if t == "action-result-disputed":
            return f"Action {g('id')}: result disputed ({g('reason')})"
        if t == "action-resolved":
            vp = g("vp") or {}
            return (f"Action {g('id')} resolved: team {', '.join(g('team') or []) or 'gone'}; "
                    f"VP SOG {vp.get('sog')}, NVA {vp.get('nva')}{rule}")
        if t == "team-organised":
            return f"The team is organised: {len((g('team') or {}).get('members') or {})} men"
        if t == "team-inserted":
            return f"The team is inserted {'on foot' if g('method') == 'foot' else 'by helicopter'} at " \
                   f"{square_name(str(g('square')))}{rule}"
        if t == "target-placed":
            return f"Target at {square_name(str(g('square')))}{rule}"
        if t == "lz-placed":
            return f"LZ {ev.get('lz')} placed at {square_name(str(ev.get('square')))}"
        if t == "lz-reroll":
            return f"LZ {ev.get('lz')} rolled again: {ev.get('square')} is the Target"
        return generic_event(ev)
