"""engine/protocol.py is the one model of records, bodies, core events and openings: what the referee wrote in every golden log has exactly the keys the verifier checks,
and the opening a ruleset's ``ctx.reveal`` publishes is protocol's ``open_event``."""
from __future__ import annotations

import io

import pytest
from conftest import REPO

from afteraction.engine import protocol as P
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.ruleset import Context

GOLDEN = sorted((REPO / "fixtures" / "golden").glob("*.aar"))


def test_there_are_golden_logs():
    assert {p.stem for p in GOLDEN} >= {"duel", "gmv", "ntnd-tet", "sog"}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_spec_1_3_every_golden_record_has_the_protocols_keys(path):
    _, frames = read_bundle(io.BytesIO(path.read_bytes()))
    kinds, events = set(), {}
    for raw, _ in frames:
        r = P.parse_record(raw)
        kinds.add(r.kind)
        if r.kind == "genesis":
            assert set(r.body) == P.GENESIS_KEYS | ({"sealed_sizes"} if r.v >= 2 else set())
            continue
        if r.kind == "end":
            assert set(r.body) == P.END_BODY_KEYS
            continue
        assert set(r.body) in (P.SEAT_BODY_KEYS, P.SEALED_BODY_KEYS), r.seq
        for ev in r.body["events"]:
            events[ev["t"]] = events.get(ev["t"], 0) + 1
            if ev["t"] in P.EVENT_KEYS:
                assert set(ev) == P.EVENT_KEYS[ev["t"]], (r.seq, ev["t"])
            if ev["t"] == "entropy-commit":
                assert ev == P.entropy_commit_event(ev["seat"], ev["commit"])
            if ev["t"] == "entropy-reveal":
                assert ev == P.entropy_reveal_event(ev["seat"], ev["entropy"])
            if ev["t"] == "start":
                assert ev == P.start_event(ev["game"], ev["scenario"])
    assert kinds == set(P.KINDS)
    assert events["entropy-commit"] == events["entropy-reveal"] and events["start"] == 1


def test_spec_6_4_a_reveal_publishes_the_protocols_open_event():
    ctx = Context.for_tests()
    ref = ctx.emit({"t": "hidden", "x": 1}, to="a")
    ctx.reveal(ref)
    ev, to = ctx.events[-1]
    assert to is None and ev == P.open_event(ref, bytes(32), None)
    assert set(ev) == P.EVENT_KEYS["open"]
