"""What a player of No Trumpets No Drums wants to know after a game, built from the PUBLIC log only
(the exported .aar: a record's public events; sealed values are never opened here): who won, on
which turn and why; the political track at the end of each turn and its points summed per item (what
moved it: towns held, Hearts and Minds boxes, ...); the Hearts and Minds markers' last boxes; elections,
Vietnamization, the uprising, aid received (the units, per source), random events (those that occurred),
neutrality, withdrawals (the event types of the political war, docs/rules/ntnd.md); a kind that never
happened prints "none".

    summary_lines(bundle_bytes) -> list of lines      (aar demo --game ntnd prints them)
    summary_of([(turn, event), ...])                  (the same from public events)
"""
from __future__ import annotations

import io

# (heading, public event type): printed in this order, one line per event, "none" when absent
SECTIONS = (("elections", "election"), ("vietnamization", "vietnamization"), ("uprising", "uprising"),
            ("aid received", "aid"), ("random events", "random-event"), ("neutrality", "neutrality"),
            ("draft", "draft"), ("withdrawals", "withdrawn"))
SKIP = ("t", "rule", "turn")


def public_events(bundle: bytes):
    """(turn, event) for every public event of the log, in order (turn from the "phase" events)."""
    from afteraction.engine.log.bundle import read_bundle
    from afteraction.engine.protocol import parse_record

    _, frames = read_bundle(io.BytesIO(bundle))
    turn = 0
    for raw, _ in frames:
        body = parse_record(raw).body
        for e in body.get("events", []) if isinstance(body, dict) else []:
            if not isinstance(e, dict) or "t" not in e:
                continue
            if e["t"] == "phase":
                turn = e["turn"]
            yield turn, e


def _fmt(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} {_fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _line(turn: int, e: dict) -> str:
    rule = f" ({e['rule']})" if e.get("rule") else ""
    facts = ", ".join(f"{k} {_fmt(v)}" for k, v in e.items() if k not in SKIP and not isinstance(v, bytes))
    return f"turn {e.get('turn', turn)}: {facts}{rule}"


def track(events: list[tuple[int, dict]]) -> list[tuple[int, int]]:
    """(turn, political points at the end of that turn): from the scenario's start and every event that
    states the track's new total ("politics" phases, "pp" moves) or moves it by "pp" (eliminations,
    purchases)."""
    pp = None
    out: dict[int, int] = {}
    for turn, e in events:
        t = e["t"]
        if t == "scenario":
            pp = e.get("pp")
        elif pp is not None and isinstance(e.get("total"), int) and t in ("politics", "pp"):
            pp = e["total"]
        elif pp is not None and t in ("eliminated", "purchase") and isinstance(e.get("pp"), int):
            pp += e["pp"]
        elif t == "game-over" and isinstance(e.get("pp"), int):
            pp = e["pp"]
        if pp is not None and turn:
            out[turn] = pp
    return sorted(out.items())


def by_item(events: list[tuple[int, dict]]) -> list[tuple[str, int]]:
    """The political points of the whole game per item, largest moves first: the political phases' items
    (22.4), the immediate "pp" items (Hearts and Minds boxes 7.3.2/7.4.2, neutrality, draft, elections,
    events...), eliminations and purchases; items that summed to zero are left out."""
    out: dict[str, int] = {}
    for _, e in events:
        t = e["t"]
        if t == "politics" and isinstance(e.get("items"), list):
            for it in e["items"]:
                if isinstance(it, dict) and isinstance(it.get("pp"), int):
                    out[it.get("item", "?")] = out.get(it.get("item", "?"), 0) + it["pp"]
        elif t == "pp" and isinstance(e.get("pp"), int):
            out[e.get("item", "?")] = out.get(e.get("item", "?"), 0) + e["pp"]
        elif t in ("eliminated", "purchase") and isinstance(e.get("pp"), int) and e["pp"]:
            k = "eliminations" if t == "eliminated" else "purchases"
            out[k] = out.get(k, 0) + e["pp"]
    return sorted(((k, v) for k, v in out.items() if v), key=lambda kv: (-abs(kv[1]), kv[0]))


def summary_lines(bundle: bytes) -> list[str]:
    return summary_of(list(public_events(bundle)))


def summary_of(events: list[tuple[int, dict]]) -> list[str]:
    """The summary of (turn, public event) pairs (``public_events``)."""
    over = next((e for _, e in reversed(events) if e["t"] == "game-over"), None)
    scen = next((e for _, e in events if e["t"] == "scenario"), {})
    last_turn = max((t for t, _ in events), default=0)
    lines = [f"scenario:       {scen.get('name', '?')} ({scen.get('turns', '?')} turns)"]
    if over is None:
        lines.append("winner:         the game did not end")
    else:
        lines.append(f"winner:         {over.get('winner') or 'nobody (a draw)'} on turn {last_turn} of "
                     f"{scen.get('turns', '?')}: {over.get('reason', '')}")
    tr = track(events)
    start = f"start {scen['pp']}; " if "pp" in scen else ""
    lines.append("political track (end of each turn): " + start + " ".join(f"{t}:{p}" for t, p in tr))
    hearts = [(t, e) for t, e in events if e["t"] == "hearts"]
    end: dict[str, str] = {}
    for _, e in hearts:
        end[e["area"]] = e["to"]
    lines.append(f"hearts and minds: {len(hearts)} marker moves; last boxes: "
                 + ", ".join(f"{a} {b}" for a, b in sorted(end.items())) if hearts else "hearts and minds: none")
    lines.append("political points by item (the game's sum; 22.4, rules 7, 10, 21, 23, 24): " + ", ".join(
        f"{k} {v:+d}" for k, v in by_item(events)) if by_item(events) else "political points by item: none")
    for head, kind in SECTIONS:
        got = [_line(t, e) for t, e in events if e["t"] == kind]
        if kind == "aid":
            got, head = _aid(events, got)
        if kind == "random-event":
            rolled = len(got)
            got = [_line(t, e) for t, e in events if e["t"] == kind and e.get("status") != "none"]
            if rolled:
                head = f"random events: {rolled} rolled, {len(got)} occurred"
        if not got:
            lines.append(f"{head}: none")
        elif len(got) <= 12:
            lines.append(f"{head}:")
            lines += [f"  {g}" for g in got]
        else:
            lines.append(f"{head}: {len(got)}, the first and last 5:")
            lines += [f"  {g}" for g in got[:5]] + ["  ..."] + [f"  {g}" for g in got[-5:]]
    return lines


def _aid(events: list[tuple[int, dict]], got: list[str]) -> tuple[list[str], str]:
    """27: the units received (face up by type, inverted by marker) under a heading that counts them per
    source and counts the aid rolls; the rolls' lines only when no unit came."""
    units = [(t, e) for t, e in events if e["t"] == "aid" and e.get("event") == "unit"]
    if not units:
        return got, "aid received: no unit, its events" if got else "aid received"
    per: dict[str, int] = {}
    for _, e in units:
        per[e.get("source", "?")] = per.get(e.get("source", "?"), 0) + 1
    rolls = sum(1 for _, e in events if e["t"] == "aid" and e.get("event") == "roll")
    plural = "s" if len(units) != 1 else ""
    head = (f"aid received: {len(units)} unit{plural} (" + ", ".join(f"{k} {v}" for k, v in sorted(per.items()))
            + f"), {rolls} aid rolls")
    return [_line(t, e) for t, e in units], head
