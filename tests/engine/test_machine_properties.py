"""Cross-ruleset properties of the decision machine, for every ruleset in the
registry (a ruleset registered later joins by itself), on whole bot games (hypothesis picks the
seed; the bots, the answers tried and the mutations come from it):

1. every enumerated legal answer is accepted (a sample of each decision's list, applied to a copy
   of the live state: the live state's digest does not move);
2. a mutated answer (a field changed, an element dropped, duplicated or added, another kind's
   action, an empty or another game's command, the answer sent by the other seat), submitted to
   the referee, is either accepted, and then, where the decision kind enumerates its answers
   completely (``DecisionKind.complete``), it was in the legal list (or does exactly what a
   listed answer does: the same state digest and events, as when it sets a field the rule
   ignores, e.g. a withdrawal zone with withdraw false); or rejected with a declared
   code, the state digest and the log unchanged. Described spaces (``complete=False``: SOG's
   organise and action_result, GMV's moves and casualties...) list a sample, so an accepted
   answer outside it is what they promise, not a failure;
3. replaying the log's envelopes into a fresh referee gives the same state digest after every
   record;
4. no seat's view, and no spectator's, holds another seat's sealed value that is not yet opened
   (a sealed event, or any dict or list of two or more entries inside it, found as a part of the
   view). This catches a hidden value copied into a view; a value *transformed* into a view is
   what each game's non-interference tests catch (tests/engine/test_view_hides.py,
   tests/gmv/leakcheck.py, tests/ntnd/leakcheck.py).

Default run time: a few games per ruleset (EXAMPLES); AAR_MACHINE_EXAMPLES=N runs N per ruleset.
"""
from __future__ import annotations

import os

import pytest
from google.protobuf.descriptor import FieldDescriptor
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from afteraction.engine import registry, snapshot
from afteraction.engine.bots import Prng, random_bot
from afteraction.engine.crypto import canon, dice as _dice
from afteraction.engine.decisions import DecisionTable
from afteraction.engine.errors import Rejection
from afteraction.engine.local import LocalGame
from afteraction.engine.referee import Referee
from afteraction.engine.ruleset import Context
from afteraction.v1 import command_pb2, envelope_pb2

RULESETS = registry.games()
#: games per ruleset by default (hypothesis examples); the whole file stays within a few seconds
EXAMPLES = {"duel": 6, "sog": 4, "gmv": 2, "ntnd": 1}
#: options that keep a whole game short (GMV: two turns)
OPTIONS = {"gmv": {"turns": 2}}
LEGAL_TRIES = {"ntnd": 2}      # legal answers tried per decision (default 4)
MUTATIONS = {"ntnd": 2}        # mutated answers per decision (default 4)
EVERY = {"ntnd": 3}            # answers tried at one decision in this many (default every one)
ALWAYS: dict[str, frozenset] = {}  # decision kinds (Decision.kind) tried at every decision, whatever EVERY says


def declared_codes() -> set[str]:
    """The declared rejection codes: engine/codes.py's enum (a Rejection takes only its members)."""
    from afteraction.engine.codes import Code
    return {c.value for c in Code}


CODES = declared_codes()


def _wire(c) -> bytes:
    return c.SerializeToString(deterministic=True)


def _kind(rs, d):
    t = getattr(type(rs), "decisions", None)
    return t.kind_of(d) if isinstance(t, DecisionTable) else None


# -- mutations -----------------------------------------------------------------------------------
_INTS = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT32,
         FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64}
_UINTS = {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED32,
          FieldDescriptor.TYPE_FIXED64}


def _strings(c, out: set) -> None:
    for f, v in c.ListFields():
        vs = v if f.is_repeated else [v]
        for x in vs:
            if f.type == FieldDescriptor.TYPE_MESSAGE:
                _strings(x, out)
            elif f.type == FieldDescriptor.TYPE_STRING:
                out.add(x)


def _scalar(f, v, prng: Prng, pool: list[str]):
    if f.type in _INTS:
        return prng.choice([v - 1, v + 1, 0, -1, 99, 2 ** 31 - 1])
    if f.type in _UINTS:
        return prng.choice([v + 1, max(v - 1, 0), 0, 99, 2 ** 32 - 1])
    if f.type == FieldDescriptor.TYPE_STRING:
        return prng.choice(["", v + "x", "Z9", *(pool[:1] if not pool else [prng.choice(pool)])])
    if f.type == FieldDescriptor.TYPE_BOOL:
        return not v
    if f.type == FieldDescriptor.TYPE_ENUM:
        return prng.choice([0, 1, 2, 3, 7])
    if f.type == FieldDescriptor.TYPE_BYTES:
        return prng.choice([b"", v + b"x"])
    return v


def _mutate_message(m, prng: Prng, pool: list[str]) -> None:
    """Change one field somewhere inside message ``m`` (set fields and unset ones alike)."""
    fields = list(m.DESCRIPTOR.fields)
    if not fields:
        return
    f = prng.choice(fields)
    if f.is_repeated:
        rep = getattr(m, f.name)
        op = prng.below(4)
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            if op == 0 and len(rep):
                del rep[prng.below(len(rep))]
            elif op == 1 and len(rep):
                rep.add().CopyFrom(rep[prng.below(len(rep))])
            elif len(rep):
                _mutate_message(rep[prng.below(len(rep))], prng, pool)
            else:
                _mutate_message(rep.add(), prng, pool)
            return
        vals = list(rep)
        if op == 0 and vals:
            del vals[prng.below(len(vals))]
        elif op == 1 and vals:
            vals.append(vals[prng.below(len(vals))])
        elif op == 2:
            vals.append(_scalar(f, vals[0] if vals else f.default_value if not isinstance(f.default_value, list)
                                else ("" if f.type == FieldDescriptor.TYPE_STRING else 0), prng, pool))
        elif vals:
            i = prng.below(len(vals))
            vals[i] = _scalar(f, vals[i], prng, pool)
        del rep[:]
        rep.extend(vals)
        return
    if f.type == FieldDescriptor.TYPE_MESSAGE:
        _mutate_message(getattr(m, f.name), prng, pool)
        return
    setattr(m, f.name, _scalar(f, getattr(m, f.name), prng, pool))


def mutations(c, seen: list, prng: Prng, pool: list[str], n: int) -> list:
    """``n`` mutated answers made from legal answer ``c`` (and answers seen earlier in the game)."""
    game = c.WhichOneof("game")
    out = []
    for _ in range(n):
        k = prng.below(8)
        m = command_pb2.Command()
        if k == 0 and seen:                 # another decision's answer (usually another action)
            m.CopyFrom(prng.choice(seen))
        elif k == 1:                        # the game's command with no action
            getattr(m, game).SetInParent()
        elif k == 2:                        # another game's command
            other = "sog" if game != "sog" else "duel"
            m.CopyFrom(command_pb2.Command(**{other: {}}))
            getattr(m, other).SetInParent()
        else:                               # a field changed somewhere in the action
            m.CopyFrom(c)
            g = getattr(m, game)
            _mutate_message(getattr(g, g.WhichOneof("action")), prng, pool)
        out.append(m)
    return out


# -- the game ------------------------------------------------------------------------------------
def trial_context(g: LocalGame) -> Context:
    """A context like the referee's for the next record (dice from a test key; openings of
    earlier records from the referee), to try an answer on a copy of the state."""
    ref = g.referee
    counter = {"i": 0}

    def roller(die: str, rule: str) -> _dice.Roll:
        counter["i"] += 1
        return _dice.roll(bytes(32), counter["i"], die, rule)

    def opener(r) -> dict:
        seq, k = r
        if seq == ref.seq:
            private = [ev for ev, to in ctx.events if to is not None]
            return {"salt": bytes(32), "value": private[k - 1]}
        op = ref.opening((seq, k))
        return {"salt": op.salt, "value": op.value}

    ctx = Context(ref.seq, roller, opener, ref.ruleset.max_events)
    return ctx


def _effect(rs, g: LocalGame, state, seat: str, c):
    """What answer ``c`` does on a copy of ``state`` (the new state's digest and the events, with
    the trial context's dice), or None if it is rejected. Two answers with the same effect are the
    same answer (one may set a field the rule ignores)."""
    ctx = trial_context(g)
    try:
        after = rs.apply(rs.copy_state(state), seat, c, ctx)
    except Rejection:
        return None
    return rs.digest(after), canon.encode([[ev, to] for ev, to in ctx.events])


def _nodes(x, out: list) -> None:
    """Every dict and list inside x (x included), as canonical bytes (dicts without their "t")."""
    if isinstance(x, dict):
        y = {k: v for k, v in x.items() if k != "t"}
        if len(y) >= 2:
            out.append(canon.encode(y))
        for v in x.values():
            _nodes(v, out)
    elif isinstance(x, list):
        if len(x) >= 2:
            out.append(canon.encode(x))
        for v in x:
            _nodes(v, out)


def _view_parts(v) -> set[bytes]:
    out: list[bytes] = []
    _nodes(v, out)
    return set(out)


def check_views(rs, state, sealed: dict, opened: set) -> int:
    """Property 4 at one moment; returns how many sealed parts were checked."""
    n = 0
    for viewer in (*rs.seats, None):
        hidden = [(ref, owner, secret_parts) for ref, (owner, secret_parts) in sealed.items()
                  if owner != viewer and ref not in opened and secret_parts]
        if not hidden:
            continue        # nothing sealed from this viewer now: no part of its view to look for
        parts = _view_parts(rs.view(state, viewer))
        for ref, owner, secret_parts in hidden:
            for p in secret_parts:
                n += 1
                assert p not in parts, f"{rs.game}: the view of {viewer or 'a spectator'} holds part of " \
                                       f"seat {owner}'s sealed value {ref}"
    return n


def play_checked(game: str, seed: int) -> dict:
    prng = Prng(f"machine/{game}/{seed}")
    g = LocalGame.create(game, seed=f"machine-{game}-{seed}".encode(), options=OPTIONS.get(game))
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(seed)
    digests = {g.referee.seq: rs.digest(g.referee.state)}
    seen: list = []          # legal answers of earlier decisions (other kinds' actions)
    sealed: dict = {}        # (seq, k) -> (owner seat, parts of the sealed value)
    opened: set = set()
    stats = {"legal_tried": 0, "mutated": 0, "rejected": 0, "accepted_mutants": 0, "sealed_parts": 0, "steps": 0}
    tries, muts = LEGAL_TRIES.get(game, 4), MUTATIONS.get(game, 4)

    def note(acc) -> None:
        for seat, ops in acc.openings.items():
            for op in ops:
                if op.k == 0:
                    continue  # a sealed command: a protobuf envelope, not a view-shaped value
                parts: list[bytes] = []
                _nodes(op.value, parts)
                sealed[(op.seq, op.k)] = (seat, parts)
        for rec in acc.records:
            for ev in rec.body.get("events", []) or []:
                if ev.get("t") == "open":
                    opened.add(tuple(ev["ref"]))
        digests[g.referee.seq] = rs.digest(g.referee.state) if g.referee.state is not None else None

    while not g.referee.ended:
        stats["steps"] += 1
        assert stats["steps"] < 20000, f"{game} did not end"
        state = g.referee.state
        d = g.referee.pending()
        before = digests[g.referee.seq]     # this state's digest, taken when it was made (note)
        legal = rs.legal_commands(state, d.seat)
        assert legal, f"{game}: seat {d.seat} has no legal answer to {d.kind}"
        kind = _kind(rs, d)
        if d.kind not in ALWAYS.get(game, ()) and prng.below(EVERY.get(game, 1)):  # views checked, answer played, no trials
            stats["sealed_parts"] += check_views(rs, state, sealed, opened)
            note(g.play(d.seat, bot(d.seat, legal)))
            continue
        wires = {_wire(c) for c in legal}
        # 1. enumerated legal answers are accepted (on a copy: the live state does not move)
        for c in (legal if len(legal) <= tries else [prng.choice(legal) for _ in range(tries)]):
            try:
                rs.apply(rs.copy_state(state), d.seat, c, trial_context(g))
            except Rejection as e:
                raise AssertionError(f"{game}: the listed legal answer {c} to {d.kind} is rejected: {e}") from None
            stats["legal_tried"] += 1
        assert rs.digest(state) == before, f"{game}: trying answers on a copy changed the live state ({d.kind})"
        stats["sealed_parts"] += check_views(rs, state, sealed, opened)
        # 2. mutated answers, submitted to the referee
        pool: set = set()
        for c in legal:
            _strings(c, pool)
        pool_l = sorted(pool)
        moved = False
        candidates = [(d.seat, m) for m in mutations(prng.choice(legal), seen, prng, pool_l, muts)]
        others = [s for s in rs.seats if s != d.seat]
        if others:
            candidates.append((prng.choice(others), prng.choice(legal)))
        legal_fx: dict = {}     # each listed answer's effect on this state, tried once for every mutant

        def legal_effect(i: int):
            if i not in legal_fx:
                legal_fx[i] = _effect(rs, g, state, d.seat, legal[i])
            return legal_fx[i]
        for seat, m in candidates:
            stats["mutated"] += 1
            if seat == d.seat and kind is not None and kind.complete and _wire(m) not in wires:
                effect = _effect(rs, g, state, seat, m)
                assert effect is None or any(legal_effect(i) == effect for i in range(len(legal))), \
                    f"{game}: {d.kind} lists its answers completely, yet accepts {m}, which does what no listed answer does"
            seq = g.referee.seq
            try:
                acc = g.play(seat, m)
            except Rejection as e:
                stats["rejected"] += 1
                assert e.code in CODES, f"{game}: undeclared rejection code {e.code} ({e.message})"
                assert g.referee.seq == seq and rs.digest(g.referee.state) == before, \
                    f"{game}: the rejection {e.code} at {d.kind} changed the state"
                continue
            stats["accepted_mutants"] += 1
            note(acc)
            moved = True
            break
        seen.extend(legal[:3])
        del seen[:-60]
        if not moved:
            note(g.play(d.seat, bot(d.seat, legal)))
    stats["sealed_parts"] += check_views(rs, g.referee.state, sealed, opened) if g.referee.state is not None else 0
    # 3. the log replays to the same digest after every record
    replay_digests(g, digests)
    return stats


def replay_digests(g: LocalGame, digests: dict) -> None:
    rs = registry.get(g.referee.ruleset.game, g.referee.ruleset.version)
    genesis = g.records[0]
    ref = Referee(genesis, rs, g.records[-1].body["secret"])  # the end record opens the secret
    checked = 0
    for rec in g.records[1:]:
        if rec.kind == "end":
            continue
        if "sealed" in rec.body:
            op = g.referee.opening((rec.seq, 0))
            env, sig = op.value["env"], op.value["sig"]
        else:
            env, sig = rec.body["env"], rec.body["sig"]
        ref.accept(envelope_pb2.SignedCommand(envelope=env, signature=sig).SerializeToString())
        if ref.state is not None:
            assert rs.digest(ref.state) == digests[ref.seq], f"replay differs after record {ref.seq - 1}"
            checked += 1
    assert checked and ref.ended


def _param(game: str):
    rs = registry.get(game)
    if game == "ntnd" and not isinstance(type(rs).__dict__.get("decisions"), DecisionTable):
        # only while NTND is not on the decision table in this branch (it is ported on wip/ntnd)
        return pytest.param(game, marks=pytest.mark.xfail(raises=KeyError, strict=False, reason=(
            "NTND before its port: an ambush answer naming one marker twice (a mutated answer) crashes with "
            "KeyError in operations.flip_marker (battles.start_ambush does not refuse duplicate markers) "
            "instead of a Rejection; with duplicates refused a whole Tet game passes every property")))
    return game


@pytest.mark.parametrize("game", [_param(g) for g in RULESETS])
def test_machine_properties_hold_on_whole_bot_games(game):
    n = int(os.environ.get("AAR_MACHINE_EXAMPLES", EXAMPLES.get(game, 2)))
    totals: dict = {}

    @settings(max_examples=n, deadline=None, derandomize=True, database=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))  # no shrinking: a seed is all there is to shrink
    @given(st.integers(min_value=0, max_value=2 ** 32 - 1))
    def run(seed):
        for k, v in play_checked(game, seed).items():
            totals[k] = totals.get(k, 0) + v

    run()
    # the checks ran (a test that cannot fail is no test): answers were tried, mutants refused
    assert totals["legal_tried"] and totals["rejected"], totals
    if game in ("duel", "gmv", "ntnd"):  # the games with hidden values
        assert totals["sealed_parts"], totals


def test_the_view_check_catches_a_view_that_copies_a_sealed_value():
    """Property 4 can fail: a duel whose view shows a's pick event to everyone."""
    from afteraction.engine.games.duel.rules import DuelRuleset

    class Leaky(DuelRuleset):
        def view(self, s, seat):
            v = super().view(s, seat)
            if s["pick"] is not None:
                v["last"] = {"round": s["round"], "number": s["pick"]}
            return v

    rs = Leaky()
    s = {"round": 1, "rounds": 3, "score": {"a": 0, "b": 0}, "pick": 3, "pick_ref": (2, 1)}
    parts: list[bytes] = []
    _nodes({"t": "pick", "round": 1, "number": 3}, parts)
    with pytest.raises(AssertionError, match="holds part of seat a's sealed value"):
        check_views(rs, s, {(2, 1): ("a", parts)}, set())
    assert check_views(DuelRuleset(), s, {(2, 1): ("a", parts)}, set())


def test_the_completeness_check_catches_an_enumerator_that_leaves_answers_out(monkeypatch):
    """Property 2 can fail: a duel whose pick enumerator forgets 6 is caught by a mutated answer."""
    from dataclasses import replace

    from afteraction.engine.games.duel import rules as duel

    short = replace(duel.DECISIONS.kinds[0], legal=lambda s, d: [duel._cmd("pick", n) for n in range(1, 6)])
    table = DecisionTable("duel", duel.DECISIONS.title, [short, duel.DECISIONS.kinds[1]])
    monkeypatch.setattr(duel.DuelRuleset, "decisions", table)
    with pytest.raises(AssertionError, match="lists its answers completely, yet accepts"):
        for seed in range(40):
            play_checked("duel", seed)
