"""GMV's commands and events in words (engine/names.py): zones by their printed names with their
ids ("Ho Chi Minh Trail (Laos, north) [laos_north]"), units by type and id ("infantry u17"), as the
deciding seat's view shows them (an NVA hidden unit only in the NVA's own names)."""
from __future__ import annotations

from ...names import Label, NameRef, Namer as _Base, generic_event
from .units import NATIVE, UNITS
from .zones import ZONES

TYPE_NAMES = {"inf": "infantry", "sv": "South Vietnamese infantry", "vc": "Viet Cong infantry",
              "art": "artillery", "apc": "APC", "armor": "armor", "heli": "helicopter", "fighter": "fighter",
              "bomber": "bomber", "aa": "anti-aircraft"}
IMPROVEMENTS = {1: "an LZ", 2: "positions", 3: "an airbase"}


def zone_name(z: str) -> str:
    info = ZONES.get(z)
    return f"{info['name']} [{z}]" if info else z


def zone_ref(z: str) -> NameRef:
    info = ZONES.get(z)
    return NameRef("place", z, info["name"] if info else z, z)


def type_name(t: str) -> str:
    return TYPE_NAMES.get(t, t)


class Namer(_Base):
    def __init__(self, view, seat) -> None:
        super().__init__(view, seat)
        self.units: dict[str, dict] = {}
        for u in (view or {}).get("units") or []:
            self.units[u["id"]] = u
        for u in (view or {}).get("hidden") or []:  # the NVA's own hidden units, in its own view only
            self.units.setdefault(u["id"], u)

    # -- pieces --------------------------------------------------------------------------------
    def unit_ref(self, uid: str) -> NameRef:
        u = self.units.get(uid)
        if u is None:
            return NameRef("piece", uid, f"unit {uid}", "")
        return NameRef("piece", uid, f"{type_name(u['type'])} {uid}", u.get("zone") or "")

    def units_text(self, ids) -> str:
        """"infantry u23, u24 and artillery u4": ids grouped by type in their order."""
        groups: dict[str, list[str]] = {}
        for uid in ids:
            u = self.units.get(uid)
            groups.setdefault(type_name(u["type"]) if u else "unit", []).append(uid)
        parts = [f"{t} {', '.join(v)}" for t, v in groups.items()]
        return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def from_zone(self, ids) -> str:
        for uid in ids:
            u = self.units.get(uid)
            if u and u.get("zone"):
                return u["zone"]
        return ""

    # -- commands ------------------------------------------------------------------------------
    def command(self, action, msg, decision) -> Label:
        f = getattr(self, "_" + action, None)
        return f(msg) if f is not None else super().command(action, msg, decision)

    def _end_phase(self, msg) -> Label:
        return Label("End the phase", "End the phase")

    def _buy(self, msg) -> Label:
        cost = UNITS.get(msg.unit_type, (0,))[0]
        native = msg.unit_type in NATIVE.values()  # GMV Phase 1: natives are bought with R-rating income only
        return Label(f"Buy {type_name(msg.unit_type)} for {cost} {'R-rating IPC' if native else 'IPC'}", "Buy a unit")

    def _place(self, msg) -> Label:
        t = type_name(msg.unit_type)
        return Label(f"Place {t} in {zone_name(msg.zone)}", f"Place {t}: pick a zone", (zone_ref(msg.zone),))

    def _bomb(self, msg) -> Label:
        b = self.unit_ref(msg.bomber_id)
        return Label(f"Bomb {zone_name(msg.zone)} with {b.name}", f"Bomb with {b.name}: pick a zone",
                     (b, zone_ref(msg.zone)))

    def _defoliate(self, msg) -> Label:
        b = self.unit_ref(msg.bomber_id)
        return Label(f"Defoliate {zone_name(msg.zone)} with {b.name}", f"Defoliate with {b.name}: pick a zone",
                     (b, zone_ref(msg.zone)))

    def _recruit(self, msg) -> Label:
        u = self.unit_ref(msg.unit_id)
        where = f" in {zone_name(u.position)}" if u.position else ""
        return Label(f"Recruit Viet Cong with {u.name}{where}", "Recruit", (u,))

    def _infiltrate(self, msg) -> Label:
        refs = tuple(self.unit_ref(i) for i in msg.unit_ids) + (zone_ref(msg.to_zone),)
        src = self.from_zone(msg.unit_ids)
        return Label(f"Infiltrate {self.units_text(msg.unit_ids)} to {zone_name(msg.to_zone)}",
                     f"Infiltrate from {zone_name(src)}" if src else "Infiltrate", refs)

    def _hidden_move(self, msg) -> Label:
        orders = [(list(msg.unit_ids), msg.to_zone)] if msg.unit_ids else []
        orders += [(list(g.unit_ids), g.to_zone) for g in msg.groups]
        refs = tuple(self.unit_ref(i) for ids, _ in orders for i in ids)
        text = "; ".join(f"{self.units_text(ids)} to {zone_name(z)}" for ids, z in orders)
        return Label("Hidden moves: " + (text or "none"), "Hidden moves", refs)

    def _attack(self, msg) -> Label:
        refs = tuple(self.unit_ref(i) for i in msg.unit_ids) + (zone_ref(msg.zone),)
        return Label(f"Attack {zone_name(msg.zone)} with {self.units_text(msg.unit_ids)}",
                     f"Attack {zone_name(msg.zone)}", refs)

    def _patrol(self, msg) -> Label:
        src = self.from_zone(msg.unit_ids)
        where = f" in {zone_name(src)}" if src else ""
        return Label(f"Patrol with {self.units_text(msg.unit_ids)}{where}", "Patrol",
                     tuple(self.unit_ref(i) for i in msg.unit_ids))

    def _build(self, msg) -> Label:
        u = self.unit_ref(msg.unit_id)
        what = IMPROVEMENTS.get(msg.improvement, f"improvement {msg.improvement}")
        where = f" in {zone_name(u.position)}" if u.position else ""
        return Label(f"{u.name} builds {what}{where}", f"Build with {u.name}", (u,))

    def _airlift(self, msg) -> Label:
        loads = "; ".join(f"{self.unit_ref(ld.helicopter_id).name} carries "
                          f"{self.units_text(ld.cargo_ids) if ld.cargo_ids else 'nothing'}" for ld in msg.loads)
        refs = tuple(self.unit_ref(ld.helicopter_id) for ld in msg.loads) + tuple(
            self.unit_ref(c) for ld in msg.loads for c in ld.cargo_ids) + (zone_ref(msg.drop_zone),)
        back = (" (the helicopters stay)" if msg.helicopters_stay else
                f", back to {zone_name(msg.base_zone)}" if msg.base_zone else "")
        return Label(f"Airlift to {zone_name(msg.drop_zone)}: {loads}{back}",
                     f"Airlift to {zone_name(msg.drop_zone)}", refs)

    def _move(self, msg) -> Label:
        src = self.from_zone(msg.unit_ids)
        path = list(msg.path)
        dest = path[-1] if path else src
        via = f" via {', '.join(zone_name(z) for z in path[:-1])}" if len(path) > 1 else ""
        refs = tuple(self.unit_ref(i) for i in msg.unit_ids) + tuple(zone_ref(z) for z in path)
        return Label(f"Move {self.units_text(msg.unit_ids)} to {zone_name(dest)}{via}",
                     f"Move from {zone_name(src)}" if src else "Move", refs)

    def _support(self, msg) -> Label:
        if not msg.unit_ids:
            return Label("No support", "Support")
        return Label(f"Support with {self.units_text(msg.unit_ids)}", "Support",
                     tuple(self.unit_ref(i) for i in msg.unit_ids))

    def _casualties(self, msg) -> Label:
        if not msg.unit_ids:
            return Label("No casualties", "Casualties")
        return Label(f"Lose {self.units_text(msg.unit_ids)}", "Casualties",
                     tuple(self.unit_ref(i) for i in msg.unit_ids))

    def _battle_choice(self, msg) -> Label:
        if not msg.withdraw:
            return Label("Fight on", "Fight on or withdraw")
        cover = f", covered by {self.units_text(msg.cover_ids)}" if msg.cover_ids else ""
        return Label(f"Withdraw to {zone_name(msg.to_zone)}{cover}", "Fight on or withdraw",
                     (zone_ref(msg.to_zone),) + tuple(self.unit_ref(i) for i in msg.cover_ids))

    def _hot_lz(self, msg) -> Label:
        if not msg.unit_ids:
            return Label("No hot LZ fire", "Hot LZ")
        return Label(f"Hot LZ: fire with {self.units_text(msg.unit_ids)}", "Hot LZ",
                     tuple(self.unit_ref(i) for i in msg.unit_ids))

    def _reveal(self, msg) -> Label:
        return Label(f"Reveal {self.units_text(msg.unit_ids) if msg.unit_ids else 'nothing'}", "Reveal",
                     tuple(self.unit_ref(i) for i in msg.unit_ids))

    # -- events ----------------------------------------------------------------------------------
    def event(self, ev: dict) -> str | None:
        t = ev.get("t")
        ids = ev.get("ids") or []
        if t == "move":
            return f"{ev.get('seat')} moves {', '.join(ids)} to " + " then ".join(
                zone_name(z) for z in ev.get("path") or [])
        if t == "revealed":
            return f"Revealed: {type_name(str(ev.get('type')))} {ev.get('id')} in {zone_name(str(ev.get('zone')))}"
        if t == "attack":
            return f"{ev.get('seat')} attacks {zone_name(str(ev.get('zone')))} with {', '.join(ids)}"
        if t == "battle":
            return (f"Battle in {zone_name(str(ev.get('zone')))}: US {', '.join(ev.get('us') or []) or 'none'} "
                    f"against NVA {', '.join(ev.get('nva') or []) or 'none'}")
        if t == "support":
            return f"{ev.get('seat')} support in {zone_name(str(ev.get('zone')))}: {', '.join(ids) or 'none'}"
        g = ev.get
        z = zone_name(str(g("zone"))) if g("zone") else ""
        if t == "phase":
            return f"Turn {g('turn')}: {g('side')} phase {g('phase')}"
        if t == "placed":
            return f"{g('seat')} places {type_name(str(g('type')))} {g('id')} in {z}"
        if t == "bought":
            return f"{g('seat')} buys {type_name(str(g('type')))}"
        if t == "destroyed":
            return f"{type_name(str(g('type')))} {g('id')} is destroyed in {z} ({g('why')})"
        if t == "round":
            hits = g("hits_on") or {}
            return f"Battle in {z}, round {g('round')}: " + ", ".join(f"{k} takes {v} hit(s)" for k, v in sorted(hits.items()))
        if t == "battle-end":
            return f"Battle in {z} ends after {g('rounds')} round(s): {g('winner') or 'no'} winner"
        if t == "income":
            return f"{g('seat')} income: {g('ipc')} IPC, {g('rec')} R-rating IPC"
        if t == "infiltrated":
            return f"NVA infiltrate {', '.join(ids)} from {zone_name(str(g('from')))}"
        if t == "withdraw":
            return f"{g('seat')} withdraws from {z} to {zone_name(str(g('to')))}"
        return generic_event(ev)
