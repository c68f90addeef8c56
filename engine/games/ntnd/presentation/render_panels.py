"""No Trumpets No Drums: the panels under the map in ``render.py``'s picture, drawn from a view only.

- ``track``: the political points track (22.4) with its marker, 24.2.10's bounds where the view
  carries them (``track_bounds``) and the Vietnamization status (24) where declared;
- ``hearts``: the Hearts and Minds track (7): one row per area of ``view["hm"]`` (present only where
  the rule is in force), its marker in the box it stands in;
- ``air``: the Air Units boxes (11.2) of ``view["air"]`` (present only where the air war is in
  force: views.py's shape, read defensively): available and unavailable units listed; attached
  helicopters and surviving ground support are drawn on the map by ``render.layers`` (air_items), and
  the turn's strategically bombed hexes (11.4, a crater) and air supply sources (11.1.3) by ``air_marks``.

Every panel reads public keys of the view; a key that is absent draws nothing (the Tet scenario:
the track panel only). Integer coordinates, as in render.py.
"""
from __future__ import annotations

from html import escape

from ..components.campaign_data import AREAS, H_AND_M_BOXES

TRACK_MAX = 250          # the track's printed range (22.4; 24.2.10's bounds 1 and 249 lie inside it)
BOX_ABBREV = {"communist_control": "Com. ctrl", "pro_communist": "Pro-Com.", "neutral": "Neutral",
              "pro_allied": "Pro-All.", "allied_control": "All. ctrl"}


def track(view: dict, x: int, y: int, w: int) -> str:
    pp = view.get("pp")
    out = [f'<text x="{x}" y="{y + 10}" font-size="10" font-weight="bold">Political track (22.4): '
           f'{escape(str(pp))} points</text>',
           f'<rect x="{x}" y="{y + 18}" width="{w}" height="10" fill="#ffffff" stroke="#333"/>']
    for v in range(0, TRACK_MAX + 1, 50):
        tx = x + v * w // TRACK_MAX
        out.append(f'<line x1="{tx}" y1="{y + 18}" x2="{tx}" y2="{y + 31}" stroke="#333"/>'
                   f'<text x="{tx}" y="{y + 40}" font-size="7" text-anchor="middle">{v}</text>')
    b = view.get("track_bounds")
    if isinstance(b, (list, tuple)) and len(b) == 2:
        for v in b:
            tx = x + max(0, min(TRACK_MAX, int(v))) * w // TRACK_MAX
            out.append(f'<line x1="{tx}" y1="{y + 14}" x2="{tx}" y2="{y + 32}" stroke="#c07000" stroke-width="2">'
                       f'<title>24.2.10 bound {int(v)}</title></line>')
    if isinstance(pp, int):
        px = x + max(0, min(TRACK_MAX, pp)) * w // TRACK_MAX
        out.append(f'<g><title>political points {pp}</title><polygon points="{px - 5},{y + 12} {px + 5},{y + 12} '
                   f'{px},{y + 22}" fill="#111"/></g>')
    notes = []
    if view.get("vietnamization"):
        notes.append(f"Vietnamization: {view['vietnamization']}")
    if view.get("vietnamization_reversed"):
        notes.append(f"Vietnamization reversed ({view['vietnamization_reversed']})")
    if view.get("arvn_demoralized"):
        notes.append("ARVN demoralized (25)")
    uprising = view.get("uprising")
    if isinstance(uprising, dict):
        notes.append(f"National Uprising declared turn {uprising.get('declared')}")
    for i, n in enumerate(notes[:4]):
        out.append(f'<text x="{x}" y="{y + 54 + i * 11}" font-size="8">{escape(str(n))}</text>')
    return "\n".join(out) + "\n"


def hearts(view: dict, x: int, y: int) -> str:
    hm = view.get("hm")
    if not isinstance(hm, dict) or not hm:
        return ""
    cw, rh, lw = 44, 12, 26
    out = [f'<text x="{x}" y="{y + 10}" font-size="10" font-weight="bold">Hearts and Minds (7)</text>']
    for j, box in enumerate(H_AND_M_BOXES):
        out.append(f'<text x="{x + lw + j * cw + cw // 2}" y="{y + 24}" font-size="7" text-anchor="middle">'
                   f'{BOX_ABBREV[box]}</text>')
    areas = [a for a in AREAS if a in hm] + sorted(a for a in hm if a not in AREAS)
    for i, area in enumerate(areas):
        ry = y + 28 + i * rh
        out.append(f'<text x="{x}" y="{ry + 9}" font-size="8">{escape(str(area))}</text>')
        for j, box in enumerate(H_AND_M_BOXES):
            fill = "#f3dcdc" if j < 2 else "#dde6f3" if j > 2 else "#eeeeee"
            out.append(f'<rect x="{x + lw + j * cw}" y="{ry}" width="{cw}" height="{rh}" fill="{fill}" '
                       f'stroke="#999" stroke-width="0.5"/>')
        box = hm[area]
        if box in H_AND_M_BOXES:
            j = H_AND_M_BOXES.index(box)
            out.append(f'<g><title>{escape(str(area))}: {escape(box)}</title><circle cx="{x + lw + j * cw + cw // 2}" '
                       f'cy="{ry + rh // 2}" r="4" fill="#333"/></g>')
    return "\n".join(out) + "\n"


def _air(view: dict) -> dict | None:
    air = view.get("air")
    return air if isinstance(air, dict) else None


def _ids(x) -> set:
    return {i for i in x if isinstance(i, str)} if isinstance(x, (list, tuple)) else set()


def air_units(view: dict) -> list[dict]:
    """The air units of the view's ``air`` key (views.py: ``units``, with the ``available`` and
    ``unavailable`` lists of 11.2 and ``attached`` {ground unit: {"heli"}} of 11.1.4), each a dict with
    its ``box``: "available", "unavailable" or "attached" (then ``with``: the ground unit); [] when
    absent or malformed."""
    air = _air(view)
    if air is None or not isinstance(air.get("units"), (list, tuple)):
        return []
    avail, unavail = _ids(air.get("available")), _ids(air.get("unavailable"))
    att = air.get("attached") if isinstance(air.get("attached"), dict) else {}
    held = {v.get("heli"): g for g, v in sorted(att.items()) if isinstance(v, dict) and isinstance(g, str)}
    out = []
    for a in air["units"]:
        if not isinstance(a, dict) or not isinstance(a.get("id"), str):
            continue
        box = ("attached" if a["id"] in held else "unavailable" if a["id"] in unavail
               else "available" if a["id"] in avail else None)
        out.append(a | {"box": box, "with": held.get(a["id"])})
    return out


def air(view: dict, x: int, y: int, w: int) -> str:
    if _air(view) is None:
        return ""
    units = air_units(view)
    out = [f'<text x="{x}" y="{y + 10}" font-size="10" font-weight="bold">Air units (11.2)</text>']
    col = w // 2
    for k, (box, title) in enumerate((("available", "Available"), ("unavailable", "Unavailable"))):
        here = [a for a in units if a.get("box") == box]
        cx = x + k * col
        out.append(f'<text x="{cx}" y="{y + 24}" font-size="8" font-weight="bold">{title} ({len(here)})</text>')
        for i, a in enumerate(here[:7]):
            out.append(f'<g><title>{escape(str(a["id"]))} {escape(str(a.get("type", "")))}</title>'
                       f'<text x="{cx}" y="{y + 35 + i * 10}" font-size="7">'
                       f'{escape(str(a.get("name") or a["id"]))[:24]}</text></g>')
        if len(here) > 7:
            out.append(f'<text x="{cx}" y="{y + 35 + 7 * 10}" font-size="7">+{len(here) - 7} more</text>')
    out.append(f'<text x="{x}" y="{y + 118}" font-size="7">attached '
               f'{sum(a.get("box") == "attached" for a in units)} (drawn on the map)</text>')
    return "\n".join(out) + "\n"


def air_items(view: dict) -> list[tuple[str, str, str, str]]:
    """(loc, style, label, tip) drawn on the map: a helicopter attached to a ground unit of the view
    (11.1.4, at that unit's hex) and this player-turn's surviving ground support (11.1.2, ``support``:
    [{"hex", "hits"}], waiting for the battle in that hex)."""
    out = []
    where = {u.get("id"): u.get("loc") for u in view.get("units", ()) if isinstance(u, dict)}
    for a in air_units(view):
        loc = where.get(a.get("with"))
        if a.get("box") == "attached" and isinstance(loc, str):
            name = str(a.get("name") or a["id"])
            out.append((loc, "air", f"H+{name}"[:14], f'{a["id"]} {a.get("type", "")} attached to '
                        f'{a["with"]} (11.1.4)'))
    air = _air(view) or {}
    for m in air.get("support", ()) if isinstance(air.get("support"), (list, tuple)) else ():
        if isinstance(m, dict) and isinstance(m.get("hex"), str) and isinstance(m.get("hits"), int):
            out.append((m["hex"], "air", f'G>{m["hits"]} hits'[:14],
                        f'ground support: {m["hits"]} hits for the battle here (11.1.2)'))
    return out


def air_marks(view: dict, centre, hexes) -> str:
    """This turn's bombed hexes (a crater, 11.4) and air-supplied hexes (11.1.3) of ``view["air"]``;
    ``centre(hex)`` places them, ``hexes`` the map's hexes (anything else is skipped)."""
    air = view.get("air")
    if not isinstance(air, dict):
        return ""
    out = []
    for key, colour, tip in (("bombed", "#5a3a1a", "strategically bombed this turn (11.4)"),
                             ("supplied", "#1a7a3a", "air supply this turn (11.1.3)")):
        got = air.get(key)
        if not isinstance(got, dict) or got.get("turn") != view.get("turn"):
            continue
        marks = got.get("hexes")
        for h in sorted(x for x in (marks if isinstance(marks, (list, tuple)) else ()) if isinstance(x, str)):
            if h not in hexes:
                continue
            x, y = centre(h)
            dx = -12 if key == "bombed" else 12
            out.append(f'<g><title>{escape(h)}: {tip}</title><circle cx="{x + dx}" cy="{y - 10}" r="3" '
                       f'fill="none" stroke="{colour}" stroke-width="1.5"/></g>')
    return "\n".join(out) + "\n" if out else ""
