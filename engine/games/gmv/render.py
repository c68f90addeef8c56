"""Good Morning, Vietnam!: draw the zone board with units and money, as one seat sees it (SVG).

Pure: ``render_svg(view)`` takes ``GmvRuleset().view(state, seat)``. The US seat's and a
spectator's view hold no hidden NVA unit (only their count), so neither does the picture; the
NVA seat's view adds its hidden units, drawn dashed. The zones are laid out schematically in the
map's north-to-south order (data/map.json has no geometry). Like the other games' render
modules it is the static board (``base``) with ``layers(view)`` over it, in key order.
"""
from __future__ import annotations

from html import escape

from .zones import ORDER, ZONES

COLS = 5
BW, BH = 176, 96       # zone box
GAP = 6
LEFT, TOP = 10, 64
WIDTH = LEFT * 2 + COLS * (BW + GAP)
ROWS = (len(ORDER) + COLS - 1) // COLS
HEIGHT = TOP + ROWS * (BH + GAP) + 40
KIND = {"north": "#f1d9d5", "trail": "#e6d8bd", "dmz": "#dddddd", "south": "#d9ead0", "sea": "#cfe2f3"}
SIDE = {"us": "#2f5fa8", "nva": "#c8342c"}


def _box(z: str) -> tuple[int, int]:
    i = ORDER.index(z)
    return LEFT + (i % COLS) * (BW + GAP), TOP + (i // COLS) * (BH + GAP)


def base() -> tuple[str, str]:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f7f7f2"/>']
    for z in ORDER:
        x, y = _box(z)
        d = ZONES[z]
        out.append(f'<rect x="{x}" y="{y}" width="{BW}" height="{BH}" rx="5" fill="{KIND.get(d["kind"], "#eee")}" '
                   f'stroke="#665" stroke-width="1" class="place p:{z}"><title>{escape(d["name"])} [{z}] ({d["kind"]}); adjacent: '
                   f'{escape(", ".join(d["adj"]))}</title></rect>')
        name = d["name"] if len(d["name"]) <= 24 else d["name"][:23] + "\u2026"
        out.append(f'<text x="{x + 5}" y="{y + 13}" font-size="11" font-weight="bold">{escape(name)}</text>')
        out.append(f'<text x="{x + 5}" y="{y + BH - 5}" font-size="8" fill="#555" class="zoneid">[{escape(z)}]</text>')
        tags = [f"R{d['r']}"] + (["coast"] if d.get("coastal") else []) + (["swamp"] if d.get("swamp") else [])
        out.append(f'<text x="{x + BW - 5}" y="{y + BH - 5}" font-size="8" text-anchor="end" fill="#555">'
                   f'{" ".join(tags)}</text>')
    return "\n".join(out) + "\n", "</svg>\n"


def _units_line(units: list[dict]) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u["type"]] = counts.get(u["type"], 0) + 1
    return " ".join(f"{t}x{n}" if n > 1 else t for t, n in sorted(counts.items()))


def layers(view: dict, title: str | None = None) -> dict[str, str]:
    """Keys: ``z:<zone>`` (a zone's ratings, works and units), ``money`` (the top bar), ``~caption``."""
    by_zone: dict[str, dict[str, list[dict]]] = {}
    for u in view.get("units", []):
        by_zone.setdefault(u["zone"], {}).setdefault(u["side"], []).append(u)
    for u in view.get("hidden") or []:
        by_zone.setdefault(u["zone"], {}).setdefault("hidden", []).append(u)
    marks: dict[str, int] = {}
    for m in view.get("marks") or []:
        marks[m.get("zone")] = marks.get(m.get("zone"), 0) + 1
    out: dict[str, str] = {}
    zones = view.get("zones") or {}
    for z in ORDER:
        if z not in zones:
            continue
        zs = zones[z]
        x, y = _box(z)
        flags = [f"F{zs.get('f')}"] + (["airbase"] if zs.get("airbase") else []) + \
                (["LZ"] if zs.get("lz") else []) + (["positions"] if zs.get("positions") else []) + \
                ([f"building {zs['started']}"] if zs.get("started") else []) + \
                ([f"bomb mark x{marks[z]}"] if marks.get(z) else [])
        frag = [f'<text x="{x + 5}" y="{y + 26}" font-size="9" fill="#333">{escape(" ".join(flags))}</text>']
        row = 0
        for side, colour, label in (("us", SIDE["us"], "US"), ("nva", SIDE["nva"], "NVA"),
                                    ("hidden", SIDE["nva"], "NVA hidden")):
            us = by_zone.get(z, {}).get(side)
            if not us:
                continue
            yy = y + 32 + row * 15
            dash = ' stroke-dasharray="3,2"' if side == "hidden" else ""
            fill = "#ffffff" if side == "hidden" else colour
            ink = colour if side == "hidden" else "#ffffff"
            tip = ", ".join(f"{u['id']} {u['type']}" for u in us)
            ids = " ".join(f"u:{u['id']}" for u in us if " " not in str(u["id"]))
            frag.append(f'<g class="piece {escape(ids)}"><title>{escape(tip)}</title><rect x="{x + 4}" y="{yy}" width="{BW - 8}" height="13" '
                        f'rx="2" fill="{fill}" stroke="{colour}"{dash}/><text x="{x + 7}" y="{yy + 10}" '
                        f'font-size="9" fill="{ink}">{escape(f"{label} {len(us)}: {_units_line(us)}"[:38])}</text></g>')
            row += 1
        out[f"z:{z}"] = "\n".join(frag) + "\n"
    money = view.get("money") or {}
    pool = view.get("pool") or {}
    parts = [f"Turn {view.get('turn')}/{view.get('turns')}  {str(view.get('side')).upper()} phase {view.get('phase')}"]
    for side in ("us", "nva"):
        if side in money:
            m = money[side]
            parts.append(f"{side.upper()}: IPC {m.get('ipc')}, rec {m.get('rec')}"
                         + (f", pool {len(pool.get(side) or [])}" if side in pool else ""))
    parts.append(f"hidden NVA units: {view.get('hidden_count', 0)}")
    out["money"] = (f'<text x="{LEFT}" y="22" font-size="14" font-weight="bold">{escape(parts[0])}</text>\n'
                    f'<text x="{LEFT}" y="44" font-size="12">{escape("   ".join(parts[1:]))}</text>\n')
    p = view.get("pending") or {}
    cap = title or ("Good Morning, Vietnam! - " + (f"waiting for {p.get('seat')}: {p.get('prompt')}" if p else
                                                  f"over: {view.get('over')}"))
    out["~caption"] = f'<text x="{LEFT}" y="{HEIGHT - 14}" font-size="12">{escape(str(cap)[:160])}</text>\n'
    return out


def render_svg(view: dict, title: str | None = None) -> str:
    head, tail = base()
    parts = layers(view, title)
    return head + "".join(parts[k] for k in sorted(parts)) + tail
