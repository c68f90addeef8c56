"""No Trumpets No Drums: draw the map and the units as one seat sees them, as SVG text.

Pure: ``render_svg(view)`` takes a view (``NtndRuleset().view(state, seat)``:
the Allied seat's or a spectator's view never holds an inverted unit's identity,
so neither does the picture) and returns the SVG document as a string. Integer
coordinates only (flat-top hexes 40 units wide, rows 34 apart: the hexes are a
hair flattened so that no float enters the engine).

    from afteraction.engine.games.ntnd.render import render_svg
    svg = render_svg(NtndRuleset().view(state, "allied"))

The picture is the static map (``base``) with ``layers(view)`` drawn over it: one SVG fragment
per location holding pieces, the panels under the map (render_panels.py: the political track,
Hearts and Minds, the air boxes) and the caption, each under a key, drawn in key order. The replay
page (``aar view``) stores the map once and, per record, only the layers that changed.

Pieces are styled by what they are: VC bases (28.9), the fleet (14.2), Montagnards and the
Laotian/Cambodian militia (16), air units on a mission or attached (11), and a badge on AA-capable
units (12: a type with AA die faces). Only what the view holds is drawn: an inverted marker's
contents, and so its badge, only in the Communist seat's view (``view["hidden"]``); the Haiphong mine
(14.2.2) where the view says so; absent keys draw nothing.
"""
from __future__ import annotations

from html import escape

from . import render_panels as panels
from ..components.map import load_map
from ..components.pieces import load_counters

R = 20          # centre to left/right corner
H = 17          # centre to top/bottom edge
DX = 30         # column spacing
DY = 2 * H      # row spacing
TOP = 90        # room for the off-board zones
LEFT = 10

TERRAIN = {"clear": "#e9e4c8", "jungle": "#77a35a", "mountain": "#a8896a", "swamp": "#8fb5a6",
           "sea": "#a9cbe8", "lake": "#a9cbe8"}
SIDE = {"communist": ("#c8342c", "#ffffff"), "allied": ("#2f5fa8", "#ffffff"),
        "base": ("#5a1010", "#ffd700"), "fleet": ("#0b2a5a", "#ffffff"), "montagnard": ("#2f7a3a", "#ffffff"),
        "air": ("#6a8fd0", "#111111"), "mine": ("#333333", "#ffcc00")}
#: counter types drawn in their own style (the rest by side)
STYLE_OF_TYPE = {"vc_base": "base", "us_fleet": "fleet", "montagnard": "montagnard", "lao_militia": "montagnard",
                 "khmer_militia": "montagnard"}
PANEL_H = 130   # room under the map for render_panels
ZONE_ORDER = ("CHINA", "HANOI", "HAIPHONG", "LUANG_PRABANG", "PLAIN_OF_JARS", "VIENTIANE")


def centre(hid: str) -> tuple[int, int]:
    col, row = int(hid[:2]), int(hid[2:])
    return LEFT + R + (col - 1) * DX, TOP + H + (row - 1) * DY + (H if col % 2 == 0 else 0)


def corners(hid: str) -> list[tuple[int, int]]:
    x, y = centre(hid)
    return [(x - R, y), (x - R // 2, y - H), (x + R // 2, y - H), (x + R, y), (x + R // 2, y + H), (x - R // 2, y + H)]


def _side(a: str, b: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    common = [c for c in corners(a) if c in set(corners(b))]
    return (common[0], common[1]) if len(common) == 2 else None


def _zone_box(i: int, width: int) -> tuple[int, int, int, int]:
    w = (width - 2 * LEFT) // len(ZONE_ORDER) - 6
    return LEFT + i * (w + 6), 6, w, TOP - 16


def _abbrev(u: dict) -> str:
    name = u.get("name") or u["id"]
    words = [w for w in name.replace(",", " ").split() if w]
    return (" ".join(words[:2]))[:14]


def _size() -> tuple[int, int]:
    m = load_map()
    return LEFT * 2 + R * 2 + (m.columns - 1) * DX, TOP + DY * m.rows + H + 40 + PANEL_H


def _panel_top() -> int:
    return TOP + DY * load_map().rows + H + 10


def _aa(type_id: str) -> bool:
    """12: a counter type with AA die faces (an unknown type: no badge)."""
    try:
        return bool(load_counters().type(type_id).aa)
    except KeyError:
        return False


def _style(u: dict) -> str:
    return STYLE_OF_TYPE.get(u.get("type", ""), u.get("side", ""))


def base() -> tuple[str, str]:
    """The map without pieces: (SVG opening and static drawing, closing tag)."""
    m = load_map()
    width, height = _size()
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f7f7f2"/>']
    # hexes
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        pts = " ".join(f"{x},{y}" for x, y in corners(hid))
        out.append(f'<polygon points="{pts}" fill="{TERRAIN[h.terrain]}" stroke="#ffffff" stroke-width="1" '
                   f'class="place p:{hid}"><title>{hid} {h.terrain} {h.country or ""} {h.corps or ""}</title></polygon>')
        x, y = centre(hid)   # the hex number, as on the printed map
        out.append(f'<text x="{x}" y="{y - H + 5}" font-size="4" text-anchor="middle" fill="#333" '
                   f'class="hexnum">{hid}</text>')
    # borders (country or corps changes) and rivers on hexsides
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        for n in m.hex_neighbours(hid):
            if n < hid:
                continue
            o = m.hexes[n]
            seg = _side(hid, n)
            if seg is None:
                continue
            (x1, y1), (x2, y2) = seg
            river = m.river_between(hid, n)
            if river:
                w = 4 if river == "major" else 2
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#2a6fc9" stroke-width="{w}"/>')
            if h.is_land and o.is_land and h.country != o.country:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#3b2a4a" stroke-width="3" '
                           f'stroke-dasharray="6,3"/>')
            elif h.is_land and o.is_land and h.corps != o.corps:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#7a5a9a" stroke-width="2" '
                           f'stroke-dasharray="2,3"/>')
    # roads and trails
    for route, colour, dash in ((m.roads, "#8a3b12", ""), (m.trails, "#5a4a2a", ' stroke-dasharray="3,3"')):
        for r in route:
            pts = " ".join(f"{centre(h)[0]},{centre(h)[1]}" for h in r.hexes)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"{dash}>'
                       f'<title>{escape(r.name)}</title></polyline>')
    # towns and cities
    for t in m.towns():
        x, y = centre(t.hex)
        rad = 5 if t.is_city else 3
        out.append(f'<circle cx="{x}" cy="{y - 6}" r="{rad}" fill="#222" stroke="#fff"/>')
        out.append(f'<text x="{x}" y="{y - 12}" font-size="{8 if t.is_city else 6}" text-anchor="middle" '
                   f'fill="#111">{escape(t.name)}</text>')
    # off-board zones
    for i, z in enumerate(ZONE_ORDER):
        x, y, w, hh = _zone_box(i, width)
        out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{hh}" fill="#e5e0f0" stroke="#554" rx="4" '
                   f'class="place p:{z}"><title>{escape(m.zones[z].name)} [{z}]</title></rect>')
        out.append(f'<text x="{x + 4}" y="{y + 11}" font-size="9" font-weight="bold">{escape(m.zones[z].name)}</text>')
    return "\n".join(out) + "\n", "</svg>\n"


def layers(view: dict, title: str | None = None) -> dict[str, str]:
    """The pieces, one fragment per location (key ``loc:<id>``), the panels under the map (keys
    ``panel:<n>-<name>``, those whose view keys are present) and the caption (key ``~caption``)."""
    m = load_map()
    width, height = _size()
    zone_pos = {z: _zone_box(i, width) for i, z in enumerate(ZONE_ORDER)}
    # pieces, grouped by location: (style, label, tooltip, AA badge)
    by_loc: dict[str, list[tuple[str, str, str, bool, tuple[str, ...]]]] = {}
    hidden = view.get("hidden", {})
    for u in view.get("units", []):
        aa = _aa(u["type"])
        tip = f'{u["id"]} {u["type"]}' + (" (AA, 12)" if aa else "")
        by_loc.setdefault(u["loc"], []).append((_style(u), _abbrev(u), tip, aa, (u["id"],)))
    for mk in view.get("markers", []):
        inside = hidden.get(mk["id"])
        label = f'{mk["id"]}?' if inside is None else f'{mk["id"]}:' + "+".join(_abbrev(x)[:6] for x in inside)
        tip = "inverted (identity hidden)" if inside is None else ", ".join(f'{x["id"]} {x["type"]}' for x in inside)
        aa = inside is not None and any(_aa(x["type"]) for x in inside)
        ids = (mk["id"],) + (() if inside is None else tuple(x["id"] for x in inside))
        by_loc.setdefault(mk["loc"], []).append(("marker", label[:14], f'{mk["id"]}: {tip}', aa, ids))
    for loc, style, label, tip in panels.air_items(view):
        by_loc.setdefault(loc, []).append((style, label, tip, False, () if " attached to " not in tip else (tip.split(" ")[0],)))
    if view.get("haiphong_mined") is True:
        by_loc.setdefault("HAIPHONG", []).insert(0, ("mine", "MINED", "Haiphong Harbor Mined (14.2.2)", False, ()))
    out: dict[str, str] = {}
    for loc in sorted(by_loc):
        items = by_loc[loc]
        frag = []
        if loc in zone_pos:
            x, y, w, hh = zone_pos[loc]
            for i, (side, label, tip, aa, ids) in enumerate(items[:4]):
                frag.append(_chip(x + 4, y + 16 + i * 11, w - 8, 10, side, label, tip, aa, ids))
            if len(items) > 4:
                frag.append(f'<text x="{x + 4}" y="{y + hh - 2}" font-size="7">{_more(items[4:])} more</text>')
        elif loc in m.hexes:
            cx, cy = centre(loc)
            for i, (side, label, tip, aa, ids) in enumerate(items[:3]):
                frag.append(_chip(cx - 17, cy - 4 + i * 7, 34, 7, side, label, tip, aa, ids))
            if len(items) > 3:
                frag.append(f'<text x="{cx + 12}" y="{cy + 16}" font-size="6">{_more(items[3:])}</text>')
        if frag:
            out[f"loc:{loc}"] = "\n".join(frag) + "\n"
    marks = panels.air_marks(view, centre, m.hexes)
    if marks:
        out["mark:air"] = marks
    # panels under the map
    y0 = _panel_top()
    out["panel:1-track"] = panels.track(view, LEFT, y0, 200)
    hm = panels.hearts(view, LEFT + 230, y0)
    if hm:
        out["panel:2-hearts"] = hm
    air = panels.air(view, LEFT + 510, y0, width - LEFT - 520)
    if air:
        out["panel:3-air"] = air
    # caption
    cap = title or (f"No Trumpets No Drums - {view.get('turn_label', '')} - {view.get('phase_title', '')} - "
                    f"political points {view.get('pp', '')}")
    out["~caption"] = f'<text x="{LEFT}" y="{height - 14}" font-size="12">{escape(cap)}</text>\n'
    return out


def render_svg(view: dict, title: str | None = None) -> str:
    head, tail = base()
    parts = layers(view, title)
    return head + "".join(parts[k] for k in sorted(parts)) + tail


def _more(items: list) -> str:
    """"+N" for the pieces a location has no room for, their tooltips in its title."""
    return f'<title>{escape("; ".join(tip for _, _, tip, _, _ in items))}</title>+{len(items)}'


def pieces_class(ids) -> str:
    """The class of a drawn piece or stack: "piece" and ``u:<id>`` per unit or marker it shows (the
    web page finds the pieces a choice names by it); only ids the picture already shows."""
    ids = [i for i in ids if i and " " not in i and '"' not in i]
    return f' class="{escape(" ".join(["piece"] + [f"u:{i}" for i in ids]))}"' if ids else ""


def _chip(x: int, y: int, w: int, h: int, side: str, label: str, tip: str, aa: bool = False, ids=()) -> str:
    fill, ink = SIDE.get(side, ("#222222", "#ffffff"))
    fs = max(5, h - 2)
    badge = (f'<circle cx="{x + w - h // 2}" cy="{y + h // 2}" r="{max(2, h // 2 - 1)}" fill="#ff9900" '
             f'stroke="#000" stroke-width="0.3" class="aa"/>') if aa else ""
    return (f'<g{pieces_class(ids)}><title>{escape(tip)}</title><rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
            f'stroke="#000" stroke-width="0.5"/><text x="{x + 1}" y="{y + h - 1}" font-size="{fs}" '
            f'fill="{ink}">{escape(label)}</text>{badge}</g>')
