"""The checks the replay page of `aar view` takes from the web library (view_lib.js), on logs forged
in the ways no tampered fixture is: the endings every game has (SPEC.md 8.1-8.3, endings.ts through
PageEndings) and the entropy handshake (5.2, handshake.ts). The four honest ending logs of
fixtures/logs/ (resign, agree, timeout, abandon), each forged by their server (re-chained,
checkpoints re-signed: only the checks that do not trust the server catch it): `aar verify`
refuses each at a record, the page fails at the same record with the library's reason. The
tampered fixtures are in test_view_browser.py's table. Skips without a browser (as test_view_browser)."""
from __future__ import annotations

import io
import pathlib

import pytest

from afteraction.cli.main import main
from afteraction.engine.log.verify import verify_bundle
from afteraction.engine.errors import VerificationError

from .forge import reforge_records
from .test_view_browser import Page, browser  # noqa: F401  (the module's browser fixture)

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOGS = ROOT / "fixtures" / "logs" / "tampered"
SEED = b"fixtures/endings"  # fixtures/endings_logs.py: the seed of their server key


def _at(recs, first: int, by: int):
    for _, b in recs[first:]:
        b["at"] += by
    return recs


def _end(edit):
    def change(recs):
        edit(recs[-1][1])
        return recs
    return change


def _cause(**kw):
    return _end(lambda b: b["cause"].update(kw))


# name: (honest log, the server's edit of [kind, body] per record, the record, endings.ts's reason)
CASES = {
    "time-before-the-previous": ("ending-resign", lambda r: _at(r, 6, -1_001), 6,
                                 "times never decrease (SPEC.md 8.2): 1764000004999 after 1764000005000"),
    "command-past-its-deadline": ("ending-resign", lambda r: _at(r, 6, 61_000), 6,
                                  "seat b's command after its deadline 1764000065000 (decision limit, SPEC.md 8.2)"),
    "record-past-the-abandonment-deadline": ("ending-resign", lambda r: _at(r, 7, 1_209_600_000), 7,
                                             "a seat record after the abandonment deadline 1765209606000"),
    "resignation-event-not-the-envelopes": ("ending-resign", lambda r: (r[7][1].update(events=[{"t": "resign", "seat": "a"}]), r)[1], 7,
                                            "the event of an ending command is its signed envelope's (SPEC.md 8.1)"),
    "a-record-after-a-resignation": ("ending-resign", lambda r: r[:8] + [r[7]] + r[8:], 8,
                                     "a resign ends the game: the end record follows it, not a command record"),
    "end-after-a-resignation-without-cause": ("ending-resign", _end(lambda b: b.pop("cause")), 8,
                                              "the end after a resign gives its cause"),
    "abandon-after-a-resignation": ("ending-resign", _end(lambda b: b.update(cause={"kind": "abandon", "since": 7, "deadline": 0})), 8,
                                    "the end after a resign gives its cause, not abandon"),
    "cause-of-no-shape": ("ending-resign", _cause(why="gave up"), 8,
                          "the cause is a map of one of the shapes of SPEC.md 8.3"),
    "outcome-not-the-engines": ("ending-resign", _end(lambda b: b["outcome"].update(reason="seat b gave up")), 8,
                                "the outcome of a resign is the engine's (SPEC.md 8.3)"),
    "agreed-result-not-the-acceptance": ("ending-agree", _end(lambda b: b.update(cause={"kind": "agree", "offer": 7, "winner": "a"},
                                                                                  outcome={"winner": "a", "reason": "agreed result: seat a wins"})), 9,
                                         "the agreed result is the acceptance in the record before, of the offer 7"),
    "timeout-deadline-not-the-clocks": ("ending-timeout", _cause(deadline=1764000065000), 7,
                                        "the time-out's control, since and deadline are the ones the declared control"),
    "end-without-its-time": ("ending-timeout", _end(lambda b: b.pop("at")), 7,
                             "the end record body has exactly the keys secret, outcome, at, cause (SPEC.md 1.3)"),
    "abandonment-since-not-the-last-seat-record": ("ending-abandon", _cause(since=0), 2,
                                                   "the abandonment's since and deadline are the last seat record's"),
    # the entropy handshake (SPEC.md 5.2): records 1-2 commit, 3-4 reveal
    "reveal-before-every-commitment": ("ending-resign", lambda r: [r[0], r[1], r[3], r[2]] + r[4:], 2,
                                       "entropy reveal by a out of order (SPEC.md 5.2)"),
    "commit-event-not-the-envelopes": ("ending-resign", lambda r: (r[1][1]["events"][0].update(commit=bytes(32)), r)[1], 1,
                                       "the entropy-commit event differs from the signed envelope"),
    "reveal-without-the-start-event": ("ending-resign", lambda r: (r[4][1].update(events=r[4][1]["events"][:1]), r)[1], 4,
                                       "the entropy-reveal/start events differ from the signed envelope (SPEC.md 5.2)"),
    "genesis-clock-out-of-bounds": ("ending-resign", lambda r: (r[0][1]["clock"].update(decision=500), r)[1], 0,
                                    "genesis clock and at (SPEC.md 8.2): clock.decision is 0 (none) or 1000..2592000000 ms, not 500"),
}


@pytest.fixture(scope="module")
def tab(browser):  # noqa: F811
    t = Page(browser)
    yield t
    t.p.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_forged_log_fails_in_the_page_at_the_record_aar_verify_names(tab, tmp_path, name):
    log_name, change, seq, why = CASES[name]
    data = reforge_records(LOGS / f"{log_name}.aar", SEED, change)
    with pytest.raises(VerificationError) as e:   # the reference refuses it, at this record
        verify_bundle(io.BytesIO(data), replay=False)
    assert e.value.seq == seq, (e.value.step, e.value.seq, str(e.value))
    log, out = tmp_path / f"{name}.aar", tmp_path / f"{name}.html"
    log.write_bytes(data)
    assert main(["view", str(log), "-o", str(out)]) == 1
    tab.load(out)
    assert tab.text("#summary").startswith("\u2718 NOT VERIFIED by this page"), tab.text("#summary")
    assert tab.p.evaluate("aar.firstBad") == seq
    tab.go(seq)
    assert why in tab.text("#rec"), tab.text("#rec")
    tab.close()


@pytest.mark.parametrize("log_name", ["ending-resign", "ending-agree", "ending-timeout", "ending-abandon"])
def test_an_honest_ending_shows_its_checks_passed(tab, tmp_path, log_name):
    out = tmp_path / f"{log_name}.html"
    assert main(["view", str(LOGS / f"{log_name}.aar"), "-o", str(out)]) == 0
    tab.load(out)
    assert tab.text("#summary").startswith("\u2714 verified in this browser")
    tab.go(0)
    assert "its time control and start time (SPEC.md 8.2)" in tab.text("#rec")
    end = tab.p.evaluate("aar.checks.length") - 1
    tab.go(end)
    kind = log_name.split("-")[1]
    assert f"the end record's keys, its place and its cause ({kind}) and outcome (SPEC.md 8, 8.3)" in tab.text("#rec")
    tab.close()
