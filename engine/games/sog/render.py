"""MACV-SOG: draw the 10x10 mission map with the team, the enemy and the mission markers, as SVG.

Pure: ``render_svg(view)`` takes ``SogRuleset().view(state, seat)`` (SOG has no hidden
information between the seats, so every seat's picture is the same) and returns the SVG
document. Like the other games' render modules it is the static map (``base``) with
``layers(view)`` drawn over it in key order, so that the replay page (``aar view``) stores the
map once and, per record, only the layers that changed.
"""
from __future__ import annotations

from html import escape

from . import board

CELL = 56
LEFT = 28
TOP = 28
PANEL = 250  # the team panel on the right
WIDTH = LEFT + 10 * CELL + 12 + PANEL
HEIGHT = TOP + 10 * CELL + 70

TERRAIN = {"clear": "#e9e4c8", "elephant_grass": "#c9d67a", "jungle": "#5f9a4a", "mountain": "#a8896a",
           "broken": "#b9a98a"}


def _xy(square: str) -> tuple[int, int]:
    r, c = board.rc(square)
    return LEFT + (c - 1) * CELL, TOP + (r - 1) * CELL


def base() -> tuple[str, str]:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#f7f7f2"/>']
    for sq in board.ALL_SQUARES:
        x, y = _xy(sq)
        t = board.TERRAIN[sq]
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{TERRAIN.get(t, "#ccc")}" '
                   f'stroke="#ffffff" stroke-width="1" class="place p:{sq}"><title>{sq} {t.replace("_", " ")}</title></rect>')
        out.append(f'<text x="{x + 3}" y="{y + 10}" font-size="8" fill="#333">{sq}</text>')
    for i, col in enumerate(board.COLUMNS):
        out.append(f'<text x="{LEFT + i * CELL + CELL // 2}" y="{TOP - 8}" font-size="12" text-anchor="middle">{col}</text>')
    for r in board.ROWS:
        out.append(f'<text x="{LEFT - 8}" y="{TOP + (r - 1) * CELL + CELL // 2 + 4}" font-size="12" '
                   f'text-anchor="end">{r}</text>')
    for i, (t, colour) in enumerate(TERRAIN.items()):  # legend
        x = LEFT + i * 110
        out.append(f'<rect x="{x}" y="{HEIGHT - 22}" width="12" height="12" fill="{colour}" stroke="#666"/>'
                   f'<text x="{x + 16}" y="{HEIGHT - 12}" font-size="10">{t.replace("_", " ")}</text>')
    return "\n".join(out) + "\n", "</svg>\n"


def _marker(x: int, y: int, fill: str, label: str, tip: str, w: int = 22, h: int = 14) -> str:
    return (f'<g><title>{escape(tip)}</title><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" fill="{fill}" '
            f'stroke="#000" stroke-width="0.6"/><text x="{x + w // 2}" y="{y + h - 3}" font-size="9" '
            f'text-anchor="middle" fill="#fff">{escape(label)}</text></g>')


def layers(view: dict, title: str | None = None) -> dict[str, str]:
    """Keys: ``sq:<square>`` (the markers in a square), ``panel`` (team and action), ``~caption``."""
    by_sq: dict[str, list[tuple[str, str, str]]] = {}

    def put(sq, fill, label, tip):
        if isinstance(sq, str) and board.parse(sq) is not None:
            by_sq.setdefault(board.square(*board.parse(sq)), []).append((fill, label, tip))

    if view.get("target"):
        put(view["target"], "#7a1fa2", "TGT", f"mission target at {view['target']}")
    for lz in view.get("lzs") or []:
        put(lz.get("at"), "#1f7a3a", f"LZ{lz.get('n')}", f"landing zone {lz.get('n')}")
    if view.get("pz"):
        put(view["pz"], "#0d6f8f", "PZ", f"pick-up zone at {view['pz']}")
    for vc in view.get("vc") or []:
        put(vc.get("at"), "#c8342c", f"VC{vc.get('n')}", f"VC counter {vc.get('n')}")
    team = view.get("team") or {}
    if view.get("team_at") and not view.get("exited"):
        n = len(team.get("members") or {})
        put(view["team_at"], "#2f5fa8", "TEAM", f"SOG team ({n} men) at {view['team_at']}")
    out: dict[str, str] = {}
    for sq in sorted(by_sq):
        x, y = _xy(sq)
        frag = [_marker(x + 3 + (i % 2) * 26, y + 13 + (i // 2) * 16, *m) for i, m in enumerate(by_sq[sq][:6])]
        out[f"sq:{sq}"] = "\n".join(frag) + "\n"
    # the panel: team members, the action being fought, victory points
    px, py = LEFT + 10 * CELL + 12, TOP
    lines = [f"Turn {view.get('turn')}  phase {view.get('phase')}",
             f"VP  SOG {(view.get('vp') or {}).get('sog', 0)}  NVA {(view.get('vp') or {}).get('nva', 0)}",
             f"objective: {view.get('objective')}", f"insertion: {view.get('insertion')}",
             f"team at {view.get('team_at') or '-'}" + (" (exited)" if view.get("exited") else "")
             + (" (aborted)" if view.get("aborted") else ""), "team:"]
    for mid, mem in sorted((team.get("members") or {}).items()):
        tag = "US" if mem.get("american") else "ind."
        lines.append(f"  {mid} {tag} {mem.get('rank') or ''} {mem.get('weapon')}")
    act = view.get("action")
    if act:
        lines.append(f"action {act.get('id')}: {act.get('kind')} ({act.get('stage')})")
        lines.append(f"  {str(act.get('scenario'))[:34]}")
    frag = [f'<rect x="{px}" y="{py}" width="{PANEL - 8}" height="{10 * CELL}" fill="#ffffff" stroke="#999"/>']
    for i, line in enumerate(lines[:38]):
        frag.append(f'<text x="{px + 6}" y="{py + 16 + i * 14}" font-size="11">{escape(line)}</text>')
    out["panel"] = "\n".join(frag) + "\n"
    p = view.get("pending") or {}
    cap = title or ("MACV-SOG - " + (f"waiting for {p.get('seat')}: {p.get('prompt')}" if p else _ended(view)))
    out["~caption"] = f'<text x="{LEFT}" y="{HEIGHT - 30}" font-size="12">{escape(cap[:150])}</text>\n'
    return out


def _ended(view: dict) -> str:
    """The outcome in words: "sog wins: SOG 3.7.3: the SOG Team exited the map (VP SOG 10, NVA 0)"."""
    o = view.get("outcome")
    if not isinstance(o, dict):
        return f"game over: {o}" if o else "game over"
    vp = o.get("vp") if isinstance(o.get("vp"), dict) else {}
    score = f" (VP SOG {vp.get('sog', 0)}, NVA {vp.get('nva', 0)})" if vp else ""
    who = f"{o['winner']} wins" if o.get("winner") else "no winner"
    return f"{who}: {o.get('reason', 'game over')}{score}"


def render_svg(view: dict, title: str | None = None) -> str:
    head, tail = base()
    parts = layers(view, title)
    return head + "".join(parts[k] for k in sorted(parts)) + tail
