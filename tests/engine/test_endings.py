"""The endings every game has (SPEC.md 8.1-8.3, engine/endings.py), in process: what the referee
accepts and refuses, the clock arithmetic, and the verifier on honest and forged logs."""
from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afteraction.engine import endings as E
from afteraction.engine.bots import random_bot
from afteraction.engine.errors import Rejection, VerificationError
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle

from conftest import REPO

T0 = 1_700_000_000_000


def duel(control=None, moves=0, handshake=True, version=None) -> LocalGame:
    g = LocalGame.create("duel", seed=b"endings", clock=control, now=T0 if control else None,
                         **({} if version is None else {"version": version}))
    if handshake:
        g.handshake()
    bot = random_bot(b"endings")
    for _ in range(moves):
        d = g.referee.pending()
        if g.now is not None:
            g.now += 1000
        g.play(d.seat, bot(d.seat, g.referee.ruleset.legal_commands(g.referee.state, d.seat)))
    return g


def verified(g: LocalGame):
    return verify_bundle(io.BytesIO(g.bundle()))


def code(fn) -> str:
    with pytest.raises(Rejection) as e:
        fn()
    return e.value.code


def test_spec_8_1_resignation_out_of_turn_ends_the_game_for_the_other_seat():
    g = duel(moves=1)
    assert g.referee.pending().seat == "b"
    g.submit(g.seats["a"].resign(g.referee.game_id, g.head()))  # a resigns while b is to decide
    assert g.referee.ended and g.records[-1].body["cause"] == {"kind": "resign", "seat": "a"}
    rep = verified(g)
    assert rep.replayed and rep.outcome == {"winner": "b", "reason": "seat a resigned"}
    assert code(lambda: g.submit(g.seats["b"].resign(g.referee.game_id, g.head()))) == "GAME_OVER"


def test_spec_8_1_resignation_during_the_handshake_is_a_real_end():
    g = duel(handshake=False)
    gid = g.referee.game_id
    g.submit(g.seats["a"].entropy_commit(gid, g.entropy["a"], g.head()))
    g.submit(g.seats["b"].resign(gid, g.head()))
    rep = verified(g)
    assert rep.cause == {"kind": "resign", "seat": "b"} and rep.outcome["winner"] == "a" and rep.replayed


def test_spec_8_1_an_offer_lapses_at_the_next_record():
    g = duel(moves=1, version=2)  # format 2 (format 3: the next test)
    gid = g.referee.game_id
    g.submit(g.seats["b"].offer(gid, g.head(), "b"))
    offer_seq = g.referee.seq - 1
    d = g.referee.pending()
    g.play(d.seat, g.referee.ruleset.legal_commands(g.referee.state, d.seat)[0])  # b plays: the offer lapses
    assert code(lambda: g.submit(g.seats["a"].accept(gid, g.head(), offer_seq, "b"))) == "NO_OFFER"
    g.seats["a"].counter -= 1


def test_spec_8_1_v3_an_offer_stands_until_another_seat_answers_it():
    """Format 3: the offer outlives its seat's own next record and lapses at the other
    seat's; while it stands its seat may not offer again (OFFER_STANDING)."""
    g = duel(moves=1)
    assert g.referee.version == 3
    gid = g.referee.game_id
    g.submit(g.seats["b"].offer(gid, g.head(), "b"))
    offer_seq = g.referee.seq - 1
    assert code(lambda: g.submit(g.seats["b"].offer(gid, g.head(), None))) == "OFFER_STANDING"
    g.seats["b"].counter -= 1
    d = g.referee.pending()
    assert d.seat == "b"
    g.play("b", g.referee.ruleset.legal_commands(g.referee.state, "b")[0])  # b's own move: its offer stands
    assert g.referee.offers.latest("a") == (offer_seq, "b", "b")
    d = g.referee.pending()
    g.play(d.seat, g.referee.ruleset.legal_commands(g.referee.state, d.seat)[0])  # a answers: it lapses
    assert d.seat == "a" and g.referee.offers.latest("a") is None
    assert code(lambda: g.submit(g.seats["a"].accept(gid, g.head(), offer_seq, "b"))) == "NO_OFFER"
    g.seats["a"].counter -= 1
    assert verified(g).records == g.referee.seq


def test_spec_8_1_acceptance_must_match_the_offer_and_be_another_seats():
    g = duel(moves=1)
    gid = g.referee.game_id
    assert code(lambda: g.submit(g.seats["a"].offer(gid, g.head(), "nobody"))) == "BAD_RESULT"
    g.seats["a"].counter -= 1
    g.submit(g.seats["a"].offer(gid, g.head(), "a"))
    n = g.referee.seq - 1
    for seat, winner in (("a", "a"), ("b", None), ("b", "b")):  # own offer, other results
        assert code(lambda: g.submit(g.seats[seat].accept(gid, g.head(), n, winner))) == "NO_OFFER"
        g.seats[seat].counter -= 1
    g.submit(g.seats["b"].accept(gid, g.head(), n, "a"))
    rep = verified(g)
    assert rep.cause == {"kind": "agree", "offer": n, "winner": "a"}
    assert rep.outcome == {"winner": "a", "reason": "agreed result: seat a wins"}


def test_spec_8_1_no_offer_before_the_game_starts_and_no_endings_in_v1():
    g = duel(handshake=False)
    assert code(lambda: g.submit(g.seats["a"].offer(g.referee.game_id, g.head(), None))) == "HANDSHAKE_INCOMPLETE"
    v1 = duel(version=1, moves=1)
    from afteraction.engine.seat import Head

    head = Head(v1.referee.seq, v1.referee.prev, v1.referee.genesis.hash)
    assert code(lambda: v1.submit(v1.seats["a"].resign(v1.referee.game_id, head))) == "MALFORMED"


def test_spec_8_2_bad_clocks_are_refused_at_creation():
    for kw in ({"decision_ms": 999}, {"total_ms": E.MAX_TOTAL_MS + 1}, {"abandon_ms": E.MAX_ABANDON_MS + 1}):
        assert code(lambda: E.control(**kw)) == "BAD_CLOCK"
    assert code(lambda: duel(E.control(60_000), version=1, handshake=False)) == "BAD_CLOCK"
    assert E.control(decision_ms=30 * E.DAY_MS)["abandon"] == 30 * E.DAY_MS  # raised to the longest limit


def test_spec_8_2_a_late_command_is_refused_and_expire_ends_the_game_after_the_deadline_only():
    g = duel(E.control(decision_ms=5_000), moves=2)
    d = g.referee.pending()
    cmd = g.referee.ruleset.legal_commands(g.referee.state, d.seat)[0]
    g.now += 5_000
    assert g.expire() is None  # at the deadline: not passed yet
    g.now += 1
    assert code(lambda: g.play(d.seat, cmd)) == "TIME_EXPIRED"
    acc = g.expire()
    cause = acc.records[0].body["cause"]
    assert cause == {"kind": "timeout", "seat": d.seat, "control": "decision", "since": 6, "deadline": T0 + 2000 + 5000}
    assert verified(g).replayed


def test_spec_8_2_the_total_clock_adds_up_each_seats_decisions():
    g = duel(E.control(decision_ms=10_000, total_ms=2_500))
    bot = random_bot(b"total")
    rs = g.referee.ruleset
    while True:  # every decision takes 1 s: a seat's 2.5 s run out on its third
        d = g.referee.pending()
        g.now += 1000
        try:
            g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
        except Rejection as e:
            assert e.code == "TIME_EXPIRED"
            break
    cause = g.expire().records[0].body["cause"]
    assert cause["control"] == "total" and g.referee.clock.used[cause["seat"]] == 2000
    assert verified(g).cause == cause


def test_spec_8_2_abandonment_and_times_never_decrease():
    g = duel(E.control(abandon_ms=60_000), handshake=False)
    g.now = T0 - 5_000  # the service's clock went back: the record keeps the last time
    g.submit(g.seats["a"].entropy_commit(g.referee.game_id, g.entropy["a"], g.head()))
    assert g.records[-1].body["at"] == T0
    g.now = T0 + 60_001
    assert g.expire().records[0].body["cause"] == {"kind": "abandon", "since": 1, "deadline": T0 + 60_000}
    rep = verified(g)
    assert rep.outcome["winner"] is None and rep.replayed


def _rewrite(g: LocalGame, edit) -> bytes:
    from afteraction.engine.crypto.merkle import CompactTree
    from afteraction.engine.local import checkpoint_note
    from afteraction.engine.log.bundle import write_bundle
    from afteraction.engine.protocol import ZERO_HASH, make_record

    items = [(r.kind, dict(r.body)) for r in g.records]
    edit(items)
    origin = g.records[0].body["server"]["origin"]
    tree, prev, out = CompactTree(), ZERO_HASH, []
    for seq, (kind, body) in enumerate(items):
        r = make_record(g.referee.game_id, seq, prev, kind, body, g.referee.version)
        tree.append(r.leaf)
        out.append((r.raw, checkpoint_note(g.server, origin, tree.size, tree.root())))
        prev = r.hash
    buf = io.BytesIO()
    write_bundle(buf, g.referee.game_id, g.server.verifier.vkey, iter(out), len(out),
                 g.records[-1].body.get("secret") if g.referee.ended else None)
    return buf.getvalue()


def _fails(data: bytes, replay: bool = True):
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(data), replay=replay)
    return e.value.step, e.value.seq


def test_spec_8_2_forged_times_fail_at_step_6_without_the_replay():
    g = duel(E.control(decision_ms=5_000), moves=3)

    def earlier(items):
        items[6][1]["at"] = items[5][1]["at"] - 1  # a time before the previous record's
    assert _fails(_rewrite(g, earlier), replay=False) == ("6 (seats)", 6)

    def late(items):
        for k, b in items[7:]:
            b["at"] += 10_000  # record 7 stamped after its seat's deadline
    assert _fails(_rewrite(g, late), replay=False) == ("6 (seats)", 7)


def test_spec_8_3_an_end_by_time_without_a_clock_or_with_a_wrong_deadline_fails_step_8():
    g = duel(E.control(decision_ms=5_000), moves=2)
    g.now += 5_001
    g.expire()

    def deadline(items):
        items[-1][1]["cause"]["deadline"] -= 1
    assert _fails(_rewrite(g, deadline), replay=False) == ("8 (end)", 7)

    def abandon(items):
        items[-1][1]["cause"] = {"kind": "abandon", "since": 6, "deadline": items[6][1]["at"] + 1}
        items[-1][1]["outcome"] = E.outcome(items[-1][1]["cause"], ["a", "b"])
    assert _fails(_rewrite(g, abandon), replay=False) == ("8 (end)", 7)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7_000), st.sampled_from(["play", "offer", "accept", "resign", "tick"])),
                max_size=12))
def test_spec_8_any_sequence_of_moves_endings_and_time_verifies_and_replays(steps):
    """Whatever seats do and however time passes, the log verifies, replays byte for byte, and a
    time ending happens exactly when a deadline had passed."""
    g = duel(E.control(decision_ms=5_000, total_ms=12_000, abandon_ms=6_000), moves=0)
    bot = random_bot(b"prop")
    gid = g.referee.game_id
    for dt, what in steps:
        if g.referee.ended:
            break
        g.now += dt
        c = g.referee.clock
        due = c.expired(max(g.now, c.last_at), E.pending_seat(g.referee))
        acc = g.expire()
        assert (acc is not None) == (due is not None)
        if acc is not None:
            break
        d = g.referee.pending()
        other = "b" if d.seat == "a" else "a"
        try:
            if what == "play":
                g.play(d.seat, bot(d.seat, g.referee.ruleset.legal_commands(g.referee.state, d.seat)))
            elif what == "offer" and g.referee.offers.offer_problem(d.seat) is None:  # format 3: one standing
                g.submit(g.seats[d.seat].offer(gid, g.head(), None))
            elif what == "accept" and g.referee.offers.latest(other) is not None:
                g.submit(g.seats[other].accept(gid, g.head(), g.referee.offers.latest(other)[0], None))
            elif what == "resign":
                g.submit(g.seats[other].resign(gid, g.head()))
        except Rejection as e:
            pytest.fail(f"refused in time: {e}")
    rep = verified(g)
    assert rep.ended == g.referee.ended and (rep.replayed or not rep.ended)


def test_docs_service_md_gives_the_time_control_bounds_of_engine_endings():
    text = (REPO / "docs" / "service.md").read_text()
    row = {m.group(1): m.group(2) for m in re.finditer(r"\| `(\w+_ms)` \| [^|]+ \| ([^|]+) \|", text)}
    nums = {k: [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*\d|\d", v)] for k, v in row.items()}
    assert nums["decision_ms"][:3] == [0, E.MIN_LIMIT_MS, E.MAX_DECISION_MS]
    assert nums["total_ms"][:3] == [0, E.MIN_LIMIT_MS, E.MAX_TOTAL_MS]
    assert nums["abandon_ms"][:2] == [E.MIN_LIMIT_MS, E.MAX_ABANDON_MS]
    assert str(f"{E.DEFAULT_ABANDON_MS:,}") in text


@pytest.mark.parametrize("game", ["sog", "gmv", "ntnd"])
def test_docs_rules_give_each_game_the_engines_outcome_of_each_ending(game):
    from afteraction.engine import registry

    text = (REPO / "docs" / "rules" / f"{game}.md").read_text()
    seats = list(registry.get(game).seats)
    assert "## Endings every game has" in text
    for s in seats:
        for cause in ({"kind": "resign", "seat": s}, {"kind": "timeout", "seat": s, "control": "decision"}):
            o = E.outcome(cause, seats)
            assert f"`{o['winner']}`, `{o['reason']}`" in text, (game, cause)
    for cause in ({"kind": "agree", "winner": None}, {"kind": "agree", "winner": seats[0]}, {"kind": "abandon"}):
        o = E.outcome(cause, seats)
        assert f"{'nil' if o['winner'] is None else '`' + o['winner'] + '`'}, `{o['reason']}`" in text, cause
