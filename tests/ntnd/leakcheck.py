"""Leak checks for inverted Communist counters (issue 5 "Hidden information"), in the way
tests/gmv/leakcheck.py does it for GMV: *indistinguishability*, so a leak is caught however it is
encoded (an id, a type, a count of units, a differently worded rejection, a skipped decision).

- ``perturb(s)``: the same public facts (every marker keeps its id, hex and commitment ref), other
  hidden facts: the contents of the markers are rotated among them, so a dummy becomes a cadre, a
  regiment or a stack of several, and the reverse.
- ``check_views``: ``view(s, "allied")``, ``view(s, None)`` and the pending decision (its data is
  public: GetState, ListLegalCommands) are identical for ``s`` and ``perturb(s)``.
- ``check_allied_commands``: the Allied legal commands are identical; every probed Allied command
  (the legal ones and commands naming markers or their hexes) is accepted on both or refused on both
  with the same code and message; its public events up to the first opened commitment (a reveal
  publishes the identity by design, 17.2, 19.1.2) are identical, and so is the Allied view after it
  when nothing was revealed. No elimination is excepted: retreat destinations no longer depend on
  hidden stacks (19.3.2 offers over-stacking hexes), and the eliminations an over-stacking retreat
  costs are the Communist player's own (sealed) command, whose public decision before it carries
  neither the count nor the candidates (views.decision_view).
- ``check_owner_action`` / ``check_owner_sequence`` (issue 26): the owner's side. Two positions
  that differ only in what the markers hold (equal views, decision and Allied commands), the same
  Communist command(s) on both: the public events, the sealed events by recipient and count (their
  values are padded to one size per kind, SPEC.md 6.5), the views, the public decision and the
  Allied legal commands after it are equal (tests/ntnd/test_ntnd_owner_leaks.py,
  test_ntnd_owner_property.py).
"""
from __future__ import annotations

import json

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
from afteraction.engine.ruleset import Context

RS = NtndRuleset()
#: Eliminations whose public event may depend on hidden contents by the rules and so end the
#: comparison like a reveal. Empty since 19.3.2 is done: a retreat is offered every friendly hex, so a
#: 19.3.6 elimination no longer depends on hidden stacks next door; 19.3.2 eliminations follow only a
#: Communist command (never an Allied one probed here).
BY_DESIGN: tuple[str, ...] = ()
ALLIED = "allied"


def canon(x) -> str:
    return json.dumps(x, sort_keys=True, default=lambda b: b.hex() if isinstance(b, bytes) else repr(b))


def perturb(s: dict, shift: int = 1) -> dict | None:
    """Rotate the markers' contents among the markers, by the first rotation from ``shift`` on that
    keeps the state legal (no hex over-stacked that was not before, 8.10) and changes some marker's
    contents; None if there is none (fewer than two kinds of contents)."""
    from afteraction.engine.games.ntnd.movement import stacking_problem

    ids = sorted(s["markers"], key=lambda m: int(m[1:]))
    contents = [list(s["markers"][m]["units"]) for m in ids]
    kinds = [tuple(sorted(s["units"][u]["type"] for u in c)) for c in contents]
    if len(set(kinds)) < 2:
        return None
    locs = sorted({mk["loc"] for mk in s["markers"].values()})

    def problems(st):
        return [(loc, stacking_problem(st, "communist", loc, [])) for loc in locs]
    before = problems(s)
    for k in range(shift, shift + len(ids)):
        if k % len(ids) == 0 or all(kinds[i] == kinds[(i + k) % len(ids)] for i in range(len(ids))):
            continue
        p = RS.copy_state(s)
        for i, m in enumerate(ids):
            mk = p["markers"][m]
            mk["units"] = contents[(i + k) % len(ids)]
            for u in mk["units"]:
                p["units"][u]["loc"] = mk["loc"]
                p["units"][u]["mk"] = m
        if problems(p) == before:
            return p
    return None


def check_views(s: dict, p: dict) -> int:
    for seat in (ALLIED, None):
        a, b = canon(RS.view(s, seat)), canon(RS.view(p, seat))
        assert a == b, f"the view of {seat} depends on what the inverted markers hold:\n{a}\n{b}"
    a, b = RS.pending(s), RS.pending(p)  # the service shows the pending decision's data to everyone
    a, b = canon(a and a.as_dict()), canon(b and b.as_dict())
    assert a == b, f"the public decision depends on what the inverted markers hold:\n{a}\n{b}"
    return 1


def _effects(s: dict, c) -> tuple:
    ctx = Context.for_tests()
    try:
        n = RS.apply(RS.copy_state(s), ALLIED, c, ctx)
    except Rejection as e:
        return ("refused", e.code, e.message), [], ""
    public = []
    opened = False
    for ev, to in ctx.events:
        if to is not None:
            continue
        if ev["t"] == "open" or (ev["t"] == "eliminated" and ev.get("rule") in BY_DESIGN
                                 and n["units"][ev["unit"]]["side"] == "communist"):
            opened = True
            break
        public.append(ev)
    nd = RS.pending(n)
    return ("accepted",), public, None if opened else canon([RS.view(n, ALLIED), nd and nd.as_dict()])


def allied_probes(s: dict) -> list:
    """Allied commands that name inverted markers or enter/attack their hexes."""
    out = []
    allied = sorted(u for u, x in s["units"].items() if x["side"] == ALLIED and x["status"] == "map")[:3]
    for mid, mk in sorted(s["markers"].items())[:4]:
        out += [cmd("attack", target=mk["loc"], attackers=allied[:1]), cmd("attack", target=mid, attackers=allied[:1]),
                cmd("flip", marker=mid), cmd("losses", units=[mid]), cmd("advance", units=[mid])]
        out += [cmd("move", piece=a, path=[mk["loc"]]) for a in allied[:2]]
    return out


def check_allied_commands(s: dict, p: dict, limit: int = 40) -> int:
    a, b = RS.legal_commands(s, ALLIED), RS.legal_commands(p, ALLIED)
    assert [c.SerializeToString(deterministic=True) for c in a] == \
        [c.SerializeToString(deterministic=True) for c in b], "the Allied legal commands depend on the markers' contents"
    d = RS.pending(s)
    commands = (list(a)[:limit] + allied_probes(s)) if d is not None and d.seat == ALLIED else allied_probes(s)[:6]
    for c in commands:
        x, y = _effects(s, c), _effects(p, c)
        assert x[0] == y[0], f"an Allied command's fate depends on the markers' contents: {c} -> {x[0]} / {y[0]}"
        ex, ey = x[1], y[1]
        if x[2] is None or y[2] is None:  # a reveal on one side: the events before it, no further
            k = min(len(ex), len(ey))
            ex, ey = ex[:k], ey[:k]
        assert canon(ex) == canon(ey), \
            f"an Allied command's public events depend on the markers' contents: {c}\n{canon(ex)}\n{canon(ey)}"
        if x[2] is not None and y[2] is not None:
            assert x[2] == y[2], f"the Allied view or public decision after an Allied command depends on the markers' contents: {c}"
    return len(commands)


# ---------------------------------------------------------------------------
# The owner's side (issue 26): the public footprint of a Communist action
# ---------------------------------------------------------------------------

def owner_footprint(s: dict, c, seat: str = "communist", faces=None) -> tuple:
    """What the Allied seat and a spectator learn when ``seat`` (the owner of the hidden units) plays
    ``c`` on ``s``: accepted or not, the public events, the sealed events up to their sealed value
    (to whom, in order: SPEC.md 6.5 pads every sealed value of a kind to one size), and after it the
    Allied and spectator views, the public decision and the Allied legal commands."""
    ctx = Context.for_tests(faces=faces)
    try:
        n = RS.apply(RS.copy_state(s), seat, c, ctx)
    except Rejection as e:
        return ("refused", e.code)
    public = canon([ev for ev, to in ctx.events if to is None])
    sealed = [to for _, to in ctx.events if to is not None]
    d = RS.pending(n)
    after = canon([RS.view(n, ALLIED), RS.view(n, None), d and d.as_dict(),
                   [x.SerializeToString(deterministic=True).hex() for x in RS.legal_commands(n, ALLIED)]])
    return ("accepted", public, sealed, after)


def check_owner_action(s: dict, p: dict, c, seat: str = "communist") -> None:
    """``s`` and ``p`` differ only in hidden content (the same views, decision and Allied commands,
    checked first); the owner's command ``c`` leaves the same public footprint on both."""
    check_views(s, p)
    a, b = RS.legal_commands(s, ALLIED), RS.legal_commands(p, ALLIED)
    assert [x.SerializeToString(deterministic=True) for x in a] == [x.SerializeToString(deterministic=True) for x in b]
    x, y = owner_footprint(s, c, seat), owner_footprint(p, c, seat)
    assert x[0] == y[0] == "accepted", (x[:2], y[:2])
    assert x[1] == y[1], f"the public events of {c} depend on hidden content:\n{x[1]}\n{y[1]}"
    assert x[2] == y[2], f"the sealed events of {c} (kind/to/count) depend on hidden content: {x[2]} / {y[2]}"
    assert x[3] == y[3], f"the views, decision or Allied commands after {c} depend on hidden content"


def check_owner_sequence(s: dict, p: dict, steps: list, faces=None) -> None:
    """``steps``: (seat, command) played in turn on ``s`` and on ``p`` (differing only in hidden
    content) while each is the pending decision's seat; before each step the pending decision, the
    views and the Allied commands are equal, and each step's footprint is the same on both."""
    for i, (seat, c) in enumerate(steps):
        check_views(s, p)
        if RS.pending(s) is None or RS.pending(s).seat != seat:
            raise AssertionError(f"step {i}: the pending decision is not {seat}'s: {RS.pending(s)}")
        x, y = owner_footprint(s, c, seat, faces), owner_footprint(p, c, seat, faces)
        assert x[0] == y[0] == "accepted", (i, c, x[:2], y[:2])
        assert x[1:] == y[1:], f"step {i} ({seat} {c}): the public footprint depends on hidden content:\n{x[1]}\n{y[1]}"
        s, p = _applied(s, seat, c, faces), _applied(p, seat, c, faces)


def _applied(s: dict, seat: str, c, faces=None) -> dict:
    return RS.apply(RS.copy_state(s), seat, c, Context.for_tests(faces=faces))
