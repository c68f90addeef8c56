"""Over the real service (port 0, SQLite) with the reference client: a seat
that offers results as fast as it can makes the other seat lose no time, refuses none of its
commands, and the log stays bounded (format 3, SPEC.md 8.1: an offer stands until another seat
answers it, one per seat, and no other seat's envelope is made stale by it). Before format 3 each
offer was a record that made the pending command STALE_STATE: the victim, re-signing after each
refusal while the offers went on, lost on time. The service's clock is injected: nothing sleeps."""
from __future__ import annotations

import io
import json

from afteraction.client.client import ClientError
from afteraction.engine.bots import random_bot
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.protocol import FORMAT_VERSION, parse_record

from .conftest import handshake
from .test_receipts import duel

SPAM = 20  # offers tried while the victim thinks, and again before each of its retries


def test_a_seat_offering_as_fast_as_it_can_costs_the_other_seat_nothing(server, tmp_path):
    c, gid, seats, fake, faults = duel(server, tmp_path, clock={"decision_ms": 30_000})
    handshake(seats)
    bot = random_bot(b"offer-spam")
    refused: list[str] = []       # the answering seat's refusals
    offers = {"made": 0, "refused": 0}

    def spam(seat) -> None:
        for _ in range(SPAM):
            fake.t += 10
            try:
                seats[seat].offer(None)
                offers["made"] += 1
            except ClientError as e:
                assert e.reason == "OFFER_STANDING", e
                offers["refused"] += 1

    moves = 0
    while not c.state(gid).ended and moves < 40:
        st = c.state(gid)
        victim = st.decision.seat
        spammer = "b" if victim == "a" else "a"
        lg = seats[victim].legal()
        cmd = bot(victim, list(lg.commands))
        signed = seats[victim].sign_command(lg.state_seq, cmd)
        spam(spammer)                     # while the victim thinks
        fake.t += 1_000                   # it answers a second later
        while True:
            try:
                seats[victim].submit(signed)
                moves += 1
                break
            except ClientError as e:      # what the old rules forced: sign again at the new end, and lose time
                refused.append(e.reason)
                if e.reason != "STALE_STATE":
                    break
                fake.t += 1_000
                spam(spammer)
                seats[victim].catch_up()
                signed = seats[victim].sign_command(seats[victim].next_seq, cmd)
    st = c.state(gid)
    cause = json.loads(st.cause_json) if st.cause_json else {"kind": "rules"}
    assert refused == [], f"the answering seat was refused {len(refused)} times: {refused[:3]}..."
    assert st.ended and cause["kind"] != "timeout", cause
    assert offers["made"] >= moves - 1 and offers["refused"] > 0
    # the log: at most one offer per seat between two other records, and it verifies
    bundle = c.export(gid)
    rep = verify_bundle(io.BytesIO(bundle), pinned_vkey=c.server_vkey())
    recs = [parse_record(raw) for raw, _ in read_bundle(io.BytesIO(bundle))[1]]
    assert recs[0].v == FORMAT_VERSION == 3 and rep.replayed
    run = 0
    for r in recs:
        is_offer = r.kind == "command" and "env" in r.body and r.body["events"][:1] and \
            r.body["events"][0].get("t") == "offer"
        run = run + 1 if is_offer else 0
        assert run <= 2, f"{run} offers in a row at record {r.seq}"
    assert sum(1 for r in recs if r.kind == "command" and r.body.get("events", [{}])[:1] and
               r.body["events"][0].get("t") == "offer") <= moves + 1
    assert faults == {"a": [], "b": []}


def test_over_play_an_answer_in_flight_is_not_answered_again_after_the_other_seats_offer(server, tmp_path):
    """Format 3 in the reference client's Play loop: the other seat offers while this seat's answer
    is on its way; the server prompts again after the offer record, and the client knows its answer
    still stands there (the rule of SPEC.md 7.2), so it signs nothing twice (a second answer with
    the same counter would be COUNTER_REUSED and stop the loop)."""
    import threading

    from afteraction.client.seat import Seat
    from afteraction.engine.local import derive_bytes

    c, gid, seats, fake, faults = duel(server, tmp_path, clock={"decision_ms": 600_000})
    handshake(seats)
    spam = {s: Seat(c, gid, s, derive_bytes(b"receipts", f"key/{s}")) for s in seats}  # a second client per seat
    bot = random_bot(b"play-offers")
    rejected = []

    def choose(seat):
        def pick(name, legal):
            other = "b" if name == "a" else "a"
            try:
                spam[other].offer(None)   # the other seat offers while this one answers
            except ClientError as e:
                assert e.reason == "OFFER_STANDING", e
            return bot(name, legal)
        return pick

    def note(s, m):
        if m.WhichOneof("kind") == "rejected":
            rejected.append((s.seat, m.rejected.reason))
    outs, errs = {}, []

    def run(s):
        try:
            outs[s] = seats[s].play(choose(s), note)
        except Exception as e:  # noqa: BLE001 -- reported below
            errs.append((s, e))
    ts = [threading.Thread(target=run, args=(s,)) for s in ("a", "b")]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errs and outs.get("a") is not None, (errs, rejected)
    assert [r for r in rejected if r[1] != "COUNTER_GAP"] == [], rejected
