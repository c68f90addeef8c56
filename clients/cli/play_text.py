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
    for z in sorted(zones):
        parts = [f"{label} {_count(zones[z][side])}" for side, label in (("us", "US"), ("nva", "NVA"),
                                                                         ("hidden", "NVA hidden"))
                 if zones[z].get(side)]
        out.append(f"  {z}: " + "; ".join(parts))
    out.append(f"hidden NVA units: {v.get('hidden_count', 0)}")
    if v.get("battle"):
        out.append(f"battle: {_short(v['battle'], 120)}")
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
    if v.get("battle"):
        out.append(f"battle: {_short(v['battle'], 120)}")
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
    """What the rules say a choice costs or risks, where they give it; '' otherwise."""
    try:
        if game == "gmv" and cmd.gmv.WhichOneof("action") == "buy":
            from afteraction.engine.games.gmv import economy, units

            t = cmd.gmv.buy.unit_type
            side = (view.get("pending") or {}).get("seat") or view.get("side")
            pool = "R-rating IPC" if economy.NATIVE.get(side) == t else "IPC"
            return f"costs {units.cost(t)} {pool} (GMV Phase 1)"
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


def choice_line(game: str, i: int, cmd, view: dict) -> str:
    extra = cost_or_odds(game, cmd, view)
    return f"  {i:3d}. {in_words(cmd)}" + (f"  ({extra})" if extra else "")
