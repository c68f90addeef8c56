"""Leak checks for inverted Communist counters ("Hidden information"), in the way
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
- ``check_owner_action`` / ``check_owner_sequence``: the owner's side. Two positions
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
    from afteraction.engine.games.ntnd.movement.stacking import stacking_problem

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


def perturbations(s: dict, shifts=(1, 2)) -> list:
    """``perturb(s, shift)`` for each shift, each distinct rotation once (two shifts may land on the
    same first legal rotation: checking it twice proves nothing more)."""
    out, seen = [], set()
    for shift in shifts:
        p = perturb(s, shift)
        if p is None:
            continue
        key = tuple(tuple(mk["units"]) for mk in p["markers"].values())
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _each(p) -> list:
    return [p] if isinstance(p, dict) else list(p)


def check_views(s: dict, p) -> int:
    """``p``: a perturbed state or a list of them (``s``'s side computed once). Returns how many."""
    ps = _each(p)
    for seat in (ALLIED, None):
        a = canon(RS.view(s, seat))
        for q in ps:
            b = canon(RS.view(q, seat))
            assert a == b, f"the view of {seat} depends on what the inverted markers hold:\n{a}\n{b}"
    a = RS.pending(s)  # the service shows the pending decision's data to everyone
    a = canon(a and a.as_dict())
    for q in ps:
        b = RS.pending(q)
        b = canon(b and b.as_dict())
        assert a == b, f"the public decision depends on what the inverted markers hold:\n{a}\n{b}"
    return len(ps)


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


def check_allied_commands(s: dict, p, limit: int = 40) -> int:
    """``p``: a perturbed state or a list of them; each probed command's effects on ``s`` are
    computed once and compared with each. Returns the number of comparisons."""
    ps = _each(p)
    legal = RS.legal_commands(s, ALLIED)
    a = [c.SerializeToString(deterministic=True) for c in legal]
    for q in ps:
        b = [c.SerializeToString(deterministic=True) for c in RS.legal_commands(q, ALLIED)]
        assert a == b, "the Allied legal commands depend on the markers' contents"
    d = RS.pending(s)
    commands = (list(legal)[:limit] + allied_probes(s)) if d is not None and d.seat == ALLIED else allied_probes(s)[:6]
    # each distinct command once (two markers in one hex make the same attack and move probes)
    commands = list({c.SerializeToString(deterministic=True): c for c in commands}.values())
    for c in commands:
        x = _effects(s, c)
        for q in ps:
            y = _effects(q, c)
            assert x[0] == y[0], f"an Allied command's fate depends on the markers' contents: {c} -> {x[0]} / {y[0]}"
            ex, ey = x[1], y[1]
            if x[2] is None or y[2] is None:  # a reveal on one side: the events before it, no further
                k = min(len(ex), len(ey))
                ex, ey = ex[:k], ey[:k]
            assert canon(ex) == canon(ey), \
                f"an Allied command's public events depend on the markers' contents: {c}\n{canon(ex)}\n{canon(ey)}"
            if x[2] is not None and y[2] is not None:
                assert x[2] == y[2], f"the Allied view or public decision after an Allied command depends on the markers' contents: {c}"
    return len(commands) * len(ps)


# ---------------------------------------------------------------------------
# The owner's side: the public footprint of a Communist action
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


applied = _applied


# ---------------------------------------------------------------------------
# What later public actions say about an earlier hidden action
# ---------------------------------------------------------------------------

def _wire(c) -> bytes:
    return c.SerializeToString(deterministic=True)


def _observed(s: dict, seat: str, c, faces=None):
    """What the Allied seat and a spectator observe when ``seat`` plays ``c`` on ``s``: (state after or
    None, observation, opened). The observation is accepted/refused (an Allied refusal with its code
    and message, the Allied seat sees them; a Communist refusal is the Communist seat's alone), the
    public events, the sealed events' recipients in order (their values are padded to one size per
    kind, SPEC.md 6.5), and after it the Allied and spectator views, the public decision and the
    Allied legal commands. ``opened``: a commitment was opened (a reveal publishes hidden content by
    design, 17.2, 19.1.2), after which the positions may differ in public."""
    ctx = Context.for_tests(faces=faces)
    try:
        n = RS.apply(RS.copy_state(s), seat, c, ctx)
    except Rejection as e:
        return None, ("refused", e.code, e.message) if seat == ALLIED else ("refused",), False
    public = [ev for ev, to in ctx.events if to is None]
    sealed = [to for _, to in ctx.events if to is not None]
    d = RS.pending(n)
    after = canon([RS.view(n, ALLIED), RS.view(n, None), d and d.as_dict(),
                   [_wire(x).hex() for x in RS.legal_commands(n, ALLIED)]])
    return n, ("accepted", canon(public), sealed, after), any(ev["t"] == "open" for ev in public)


def _inverted(s: dict) -> set:
    return {uid for uid, u in s["units"].items() if u["status"] == "map" and u["inv"]}


def _strings(c) -> set:
    from google.protobuf.json_format import MessageToDict

    out: set = set()

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.add(x)
    walk(MessageToDict(c, preserving_proto_field_name=True))
    return out


def _pick(rng, commands: list):
    """One command, the kind first (so a walk places, promotes, moves and ends phases rather than
    only placing), then one of that kind."""
    by_kind: dict[str, list] = {}
    for c in commands:
        k = c.WhichOneof("game")
        inner = getattr(c, k)
        by_kind.setdefault(inner.WhichOneof("action") or "", []).append(c)
    by_kind.pop("flip", None)   # turning a marker face up publishes it by design: the walk goes on without
    if not by_kind:
        return None
    kinds = sorted(by_kind)
    group = by_kind[kinds[rng.randrange(len(kinds))]]
    return group[rng.randrange(len(group))]


def check_later(base: dict, seat: str, a, b, then: list, walk: int = 20, seed: int = 0, faces=None) -> int:
    """The class: ``a`` and ``b``, two hidden actions of ``seat`` on ``base`` (a different
    hidden draw or a different hidden choice), leave the same public footprint, and so does every
    later action played the same on both: first ``then`` ((seat, command) steps, e.g. a face-up draw
    of the type), then ``walk`` steps of a seeded walk through the commands the pending seat is
    offered in both positions (the Allied seat's offer must be equal). The comparison stops at the
    first reveal (an opened commitment). Returns the number of actions compared."""
    x, y = _observed(base, seat, a, faces), _observed(base, seat, b, faces)
    assert x[1][0] == y[1][0] == "accepted", (a, b, x[1][:1], y[1][:1])
    assert x[1] == y[1], f"the hidden action's public footprint differs:\n{x[1]}\n{y[1]}"
    return 1 + check_walk(x[0], y[0], then, walk, seed, faces)


def check_walk(s: dict, p: dict, then: list = (), walk: int = 20, seed: int = 0, faces=None) -> int:
    """``s`` and ``p`` differ only in hidden content: ``then`` and a seeded walk of ``walk`` steps
    (``check_later``) leave the same public footprint on both. Returns the number of actions compared."""
    import random

    rng = random.Random(seed)
    steps = list(then)
    done = 0
    for i in range(len(then) + walk):
        check_views(s, p)
        d = RS.pending(s)
        if d is None:
            break
        if i < len(then):
            who, c = steps[i]
            assert who == d.seat, f"step {i}: the pending decision is {d.seat}'s, not {who}'s"
        else:
            who = d.seat
            ls, lp = RS.legal_commands(s, who), RS.legal_commands(p, who)
            if who == ALLIED:
                assert [_wire(c) for c in ls] == [_wire(c) for c in lp], f"step {i}: the Allied legal commands differ"
            wp = {_wire(c) for c in lp}
            hidden = _inverted(s) | _inverted(p)
            # a command naming an inverted unit is not one action in both positions when the markers'
            # contents differ (the unit stands elsewhere): the walk plays those it names by marker only
            common = [c for c in ls if _wire(c) in wp and not (_strings(c) & hidden)]
            if not common:
                break
            c = _pick(rng, common)
            if c is None:
                break
        xs, ys = _observed(s, who, c, faces), _observed(p, who, c, faces)
        if xs[2] or ys[2]:
            break                               # a reveal: hidden content is public from here on
        assert xs[1] == ys[1], f"step {i} ({who} {c}) after the hidden action tells it:\n{xs[1]}\n{ys[1]}"
        done += 1
        if xs[0] is None:                       # refused on both (a Communist refusal is private)
            if i < len(then):
                raise AssertionError(f"step {i} ({who} {c}) was refused")
            continue
        s, p = xs[0], ys[0]
    check_views(s, p)
    return done
