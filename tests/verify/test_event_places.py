"""SPEC.md 1.4, "Where core events stand" (found item 5): one table
(engine/protocol.py EVENT_PLACES) that the referee follows when it writes and the verifier's
step 6 when it reads, so a verifier without the ruleset or the secret refuses a resignation, an
offer, a start or an entropy event that a dishonest server adds among setup's or a game command's
events (the fixtures tampered/v2-*-in-*.aar, fixtures/make_logs.py). Each of these failed before:
the fixtures verified (in progress, or with --no-replay), and the referee wrote what a ruleset
emitted under a core name."""
from __future__ import annotations

import io
import pathlib

import pytest

from afteraction.engine.errors import VerificationError
from afteraction.engine.games.duel.rules import DuelRuleset
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.protocol import EVENT_PLACES, misplaced_event

TAMPERED = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "logs" / "tampered"


def test_spec_1_4_every_core_event_has_its_places():
    # the nine core types of SPEC.md 1.4, each with where it may stand
    assert sorted(EVENT_PLACES) == sorted(["entropy-commit", "entropy-reveal", "start", "roll", "sealed", "open",
                                           "resign", "offer", "accept"])
    for t in ("entropy-commit", "entropy-reveal", "start", "resign", "offer", "accept"):
        assert misplaced_event({"t": t}, "play") == t
    for t in ("roll", "sealed", "open", "guess", "pick"):   # the core's play events and the ruleset's own
        assert misplaced_event({"t": t}, "play") is None
    assert misplaced_event({"t": "resign"}, "ending") is None and misplaced_event({"t": "start"}, "start") is None
    assert misplaced_event({"type": "resign"}, "play") is None and misplaced_event(["resign"], "play") is None


@pytest.mark.parametrize("name,seq", [("v2-resign-in-command-10", 10), ("v2-offer-in-command-6-in-progress", 6),
                                      ("v2-start-in-command-6-in-progress", 6),
                                      ("v2-entropy-reveal-in-command-6-in-progress", 6),
                                      ("v2-accept-in-sealed-command-5-in-progress", 5),
                                      ("v2-entropy-commit-in-setup-4-in-progress", 4)])
@pytest.mark.parametrize("replay", [True, False])
def test_spec_1_4_a_misplaced_core_event_fails_step_6_without_the_replay(name, seq, replay):
    data = (TAMPERED / f"{name}.aar").read_bytes()
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(data), replay=replay)
    assert (e.value.step, e.value.seq) == ("6 (seats)", seq)
    assert "stands only in" in e.value.check and "SPEC.md 1.4" in e.value.check


@pytest.mark.parametrize("name,step,seq", [("sealed-resign-5", "9 (sealed)", 5),
                                           ("open-resign-6-in-progress", "7 (openings)", 6)])
@pytest.mark.parametrize("replay", [True, False])
def test_spec_1_4_a_hidden_value_is_never_a_core_event_but_a_roll(name, step, seq, replay):
    data = (TAMPERED / f"{name}.aar").read_bytes()
    with pytest.raises(VerificationError) as e:
        verify_bundle(io.BytesIO(data), replay=replay)
    assert (e.value.step, e.value.seq, e.value.found) == (step, seq, "resign") and "SPEC.md 1.4" in e.value.check


class _Emits(DuelRuleset):
    """The duel, with a setup that emits a core event as if it were its own (to ``to``: hidden)."""

    def __init__(self, event: dict, to: str | None = None) -> None:
        self.event, self.to = event, to

    def setup(self, scenario, options, ctx):
        ctx.emit(dict(self.event), to=self.to)
        return super().setup(scenario, options, ctx)


@pytest.mark.parametrize("event", [{"t": "resign", "seat": "b"}, {"t": "start", "game": "duel", "scenario": "x"},
                                   {"t": "entropy-commit", "seat": "a", "commit": bytes(32)}])
def test_spec_1_4_the_referee_writes_no_core_event_a_ruleset_emits(event):
    g = LocalGame.create("duel", seed=b"places", ruleset=_Emits(event))
    with pytest.raises(ValueError, match=f"emitted a {event['t']} event"):
        g.handshake()
    assert len(g.records) == 4   # genesis, two commits and the first reveal: the last reveal was not written


def test_spec_1_4_the_referee_hides_no_core_event_but_a_roll():
    g = LocalGame.create("duel", seed=b"places", ruleset=_Emits({"t": "offer", "seat": "a", "winner": None}, to="a"))
    with pytest.raises(ValueError, match="emitted a offer event as a hidden value"):
        g.handshake()
    assert misplaced_event({"t": "roll"}, "hidden") is None and misplaced_event({"t": "open"}, "hidden") == "open"


def test_the_ruleset_s_own_events_and_rolls_still_stand_in_setup():
    g = LocalGame.create("duel", seed=b"places", ruleset=_Emits({"t": "setup-note", "n": 1}))
    g.handshake()
    assert [e["t"] for e in g.records[-1].body["events"]] == ["entropy-reveal", "start", "setup-note"]
