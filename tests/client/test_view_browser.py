"""`aar view`: the replay page of a golden log of each game, loaded in a real headless Chromium
(Debian's `chromium`, driven by playwright on the system browser; nothing is downloaded).

The tests step to a dice roll and to a reveal, assert what the page shows (the die's face,
the "verified" marks, a hidden value sealed before and opened after), that the page logged no
console error and fetched nothing, and take a screenshot to build/ (with AAR_DOCS_SCREENSHOTS=1
also to docs/, where the README shows them). A log forged by the server, and a page whose
embedded data was edited, make the page show the failed check at the right record.

Without a browser these tests skip with the reason; `.ci/run` installs chromium and sets
AAR_REQUIRE_BROWSER=1 so that they cannot skip there.
"""
from __future__ import annotations

import base64
import io
import os
import pathlib
import re

import pytest

from browsers import launched
from afteraction.cli.main import main
from afteraction.cli.view import page
from afteraction.engine.crypto import canon
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.protocol import parse_record

from .forge import change_first_roll, reforge, reforge_records
from .golden_pages import golden_data

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "fixtures" / "golden"
BUILD = ROOT / "build"
@pytest.fixture(scope="module")
def browser():
    yield from launched(())


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The SOG page through the command line; the others from the session's cached builds."""
    d = tmp_path_factory.mktemp("pages")
    out = {"sog": d / "sog.html"}
    assert main(["view", str(GOLDEN / "sog.aar"), "-o", str(out["sog"])]) == 0
    for name, log, seat in (("gmv", "gmv.aar", None), ("ntnd", "ntnd-tet.aar", None),
                            ("ntnd-communist", "ntnd-tet.aar", "communist")):
        out[name] = d / f"{name}.html"
        out[name].write_text(page(golden_data(log, seat)), encoding="utf-8")
    return out


class Page:
    """One loaded page, with its console errors and every request it made."""

    def __init__(self, browser):
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.p = browser.new_page(viewport={"width": 1500, "height": 1000})  # a new tab costs ~0.5 s: reused
        self.p.on("console", lambda m: self.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
        self.p.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.p.on("request", lambda r: self.requests.append(r.url))

    def load(self, path: pathlib.Path):
        """(Re)load a page in this tab; the console and request lists start afresh."""
        self.errors.clear()
        self.requests.clear()
        self.url = path.resolve().as_uri()
        self.p.goto(self.url)
        # a selector, not wait_for_function: polling a string predicate is eval, which the policy refuses
        self.p.wait_for_selector('body[data-checked="done"]', state="attached", timeout=60000)

    def go(self, n: int):
        self.p.evaluate(f"aar.go({n})")

    def text(self, sel: str) -> str:
        return self.p.inner_text(sel)

    def shot(self, name: str):
        BUILD.mkdir(exist_ok=True)
        self.p.screenshot(path=str(BUILD / f"view-{name}.png"))
        if os.environ.get("AAR_DOCS_SCREENSHOTS") == "1":
            self.p.screenshot(path=str(ROOT / "docs" / f"view-{name}.png"), type="png")

    def close(self):
        """Every page of a test: no console error, no request but the page's own file."""
        assert self.errors == [], self.errors
        assert self.requests == [self.url], f"the page fetched something: {self.requests}"


@pytest.fixture(scope="module")
def tab(browser):
    t = Page(browser)
    yield t
    t.p.close()


def test_sog_page_shows_a_verified_die_and_its_derivation(tab, pages):
    pg = tab
    pg.load(pages["sog"])
    s = pg.text("#summary")
    assert s.startswith("\u2714 verified in this browser: 39 records chained, 39 checkpoints") and "54 dice re-derived" in s
    assert "the rules replayed byte for byte by sog/1 (the version genesis names" in pg.text("#what")  # SPEC.md 10.4
    pg.go(10)  # SOG 3.5 contact roll: a d10 showing 9 (roll index 8)
    assert pg.p.get_attribute("#rec-status", "data-ok") == "true"
    assert pg.p.get_attribute('#events .ev[data-t="roll"] .die', "data-face") == "9"
    assert "roll 8 (d10, SOG 3.5) re-derived here: faces [9]" in pg.text("#rec")
    pg.p.click('#events .ev[data-t="roll"] summary')
    deriv = pg.text('#events .ev[data-t="roll"] .deriv')
    assert "accepted, x mod 10 + 1 = 9" in deriv and "derived faces [9]; the log says [9]" in deriv
    assert "TEAM" in pg.text("#board") and "VC1" in pg.text("#board")
    pg.shot("sog")
    pg.p.keyboard.press("ArrowRight")  # the keyboard steps too
    assert pg.p.evaluate("document.body.dataset.record") == "11"
    pg.p.keyboard.press("ArrowLeft")
    pg.p.keyboard.press("ArrowLeft")
    assert pg.p.evaluate("document.body.dataset.record") == "9"
    pg.close()


def _first_ambush(log: pathlib.Path = GOLDEN / "ntnd-tet.aar") -> dict:
    """The first NTND record whose ambush flips a marker placed at setup (record 4) and rolls the
    combat dice, found in the log (a re-recorded golden log moves it): its seq, the marker's
    hidden-value ref and name, and the indices and faces of its roll events."""
    with open(log, "rb") as f:
        _, frames = read_bundle(f)
        for raw, _ in frames:
            r = parse_record(raw)
            evs = r.body.get("events", []) if r.kind == "command" else []
            if not any(e["t"] == "ambush" for e in evs):
                continue
            opens = [e for e in evs if e["t"] == "open" and e["ref"][0] == 4 and e["value"]["t"] == "marker-identity"]
            rolls = [(i, e["faces"]) for i, e in enumerate(evs) if e["t"] == "roll" and "19.2.6" in e["rule"]]
            if opens and len(rolls) == 2:
                return {"seq": r.seq, "ref": "%d:%d" % tuple(opens[0]["ref"]), "marker": opens[0]["value"]["marker"],
                        "rolls": rolls}
    raise AssertionError("no ambush that flips a setup marker in the log")


def test_ntnd_page_marker_sealed_before_and_opened_after(tab, pages):
    """NTND: a marker's identity (hidden value 4:k) is sealed in record 4, stays sealed for a
    spectator until the ambush that flips it (the first one of the log), where the opening is
    checked in the page."""
    amb = _first_ambush()
    ref, seq = amb["ref"], amb["seq"]
    with open(GOLDEN / "ntnd-tet.aar", "rb") as f:
        header, frames = read_bundle(f)
        opens = sum(e["t"] == "open" for raw, _ in frames for e in parse_record(raw).body.get("events", []))
    pg = tab
    pg.load(pages["ntnd"])
    s = pg.text("#summary")
    assert f"{header['records']} records chained" in s and f" {opens} public openings" in s
    pg.go(4)
    assert pg.p.locator(f'#events .sealed[data-ref="{ref}"]').count() == 1
    assert pg.p.locator(f'#events .opened[data-ref="{ref}"]').count() == 0
    pg.go(seq - 1)  # just before the ambush: still sealed
    assert pg.p.locator(f'#events .opened[data-ref="{ref}"]').count() == 0
    pg.go(seq)
    opened = pg.text(f'#events .opened[data-ref="{ref}"]')
    assert "marker-identity" in opened and amb["marker"] in opened
    assert f"opening of {ref} matches its commitment" in pg.text("#rec")
    # NTND 19.2.6 communist and allied combat dice; nth-of-type counts from 1, event indices from 0
    faces = [pg.p.get_attribute(f'#events .ev[data-t="roll"]:nth-of-type({i + 1}) .die', "data-face")
             for i, _ in amb["rolls"]]
    assert faces == [str(f[0]) for _, f in amb["rolls"]]
    assert pg.p.get_attribute("#rec-status", "data-ok") == "true"
    pg.shot("ntnd")
    pg.go(4)  # back before the reveal: sealed again
    assert pg.p.locator(f'#events .sealed[data-ref="{ref}"]').count() == 1
    pg.close()


def test_ntnd_page_as_the_communist_seat_shows_its_own_markers(tab, pages):
    pg = tab
    pg.load(pages["ntnd-communist"])
    pg.go(4)
    assert "marker-identity" in pg.text('#events .opened[data-ref="4:31"]')
    assert "yours" in pg.text("#events")
    pg.go(5)  # the communist seat's sealed recruit command: its own, so shown
    assert "recruit" in pg.text('#rec .opened[data-ref="5:0"]') or "place" in pg.text('#rec .opened[data-ref="5:0"]')
    pg.close()


def test_sealed_command_is_sealed_for_a_spectator_until_the_end(tab, pages):
    pg = tab
    pg.load(pages["ntnd"])
    pg.go(5)
    assert "SEALED command of communist" in pg.text('#rec .sealed[data-ref="5:0"]')
    assert pg.p.locator('#rec .opened[data-ref="5:0"]').count() == 0
    assert "answered" in pg.text("#rec")
    pg.p.keyboard.press("End")  # the end record publishes the secret: every hidden value is open
    assert pg.text("#pos").endswith("\u2014 end")
    m = re.match(r"(\d+) hidden values so far; (\d+) visible to a spectator", pg.text("#hidden"))
    assert m and m.group(1) == m.group(2) and "opened by the end record" in pg.p.inner_html("#hidden")
    pg.go(200)
    m = re.match(r"(\d+) hidden values so far; (\d+) visible to a spectator", pg.text("#hidden"))
    assert m and int(m.group(2)) < int(m.group(1))
    pg.close()


def _first_opened_nva_value(log: pathlib.Path = GOLDEN / "gmv.aar") -> tuple[int, int, int, dict, int, int]:
    """In the GMV log: the first value sealed to the NVA seat that a later record opens, as
    (sealed at, k, opened at, value), the first record with a public roll, and the record count
    (searched, so that a re-recorded golden log does not break the test)."""
    _, frames = read_bundle(io.BytesIO(log.read_bytes()))
    recs = [parse_record(raw) for raw, _ in frames]
    sealed, found, first_roll = set(), None, None
    for r in recs:
        for ev in r.body.get("events", []):
            if ev.get("t") == "sealed" and ev.get("to") == "nva":
                sealed.add((r.seq, ev["k"]))
            elif ev.get("t") == "open" and tuple(ev["ref"]) in sealed and found is None:
                found = (*ev["ref"], r.seq, ev["value"])
            elif ev.get("t") == "roll" and first_roll is None:
                first_roll = r.seq
    assert found is not None and first_roll is not None
    return (*found, first_roll, len(recs))


def test_gmv_page_hidden_unit_sealed_until_revealed(tab, pages):
    """GMV: the first hidden unit sealed to the NVA seat is shown sealed in its record and
    opened, with its zone, in the record that reveals it; a roll shows as a die."""
    seq, k, opened_at, value, first_roll, n = _first_opened_nva_value()
    pg = tab
    pg.load(pages["gmv"])
    s = pg.text("#summary")
    assert f"{n} records chained" in s and "dice re-derived" in s and "sealed values checked" in s
    pg.go(seq)
    assert pg.p.locator(f'#events .sealed[data-ref="{seq}:{k}"]').count() == 1
    pg.go(opened_at)
    assert value["zone"] in pg.text(f'#events .opened[data-ref="{seq}:{k}"]')
    pg.go(first_roll)  # the first GMV roll
    assert pg.p.locator('#events .ev[data-t="roll"] .die').count() >= 1
    assert pg.p.get_attribute("#rec-status", "data-ok") == "true"
    assert "IPC" in pg.text("#board")
    pg.shot("gmv")
    pg.close()


def test_forged_roll_shows_the_failed_check_at_its_record(tab, tmp_path):
    """The server changes SOG record 10's die and re-signs everything: the chain and the
    checkpoints verify, the page's own re-derivation of the die does not."""
    log = tmp_path / "forged.aar"
    log.write_bytes(reforge(GOLDEN / "sog.aar", b"golden/sog/5", 10, change_first_roll))
    out = tmp_path / "forged.html"
    assert main(["view", str(log), "-o", str(out)]) == 1  # written anyway, exit 1: not verified
    pg = tab
    pg.load(out)
    # the first failure is record 10's die; more follow (format v2): record 10's bytes, so its
    # hash, changed, and every later seat envelope names the original history in its prev
    assert re.match("\u2718 NOT VERIFIED by this page: \\d+ check\\(s\\) failed, the first at record 10$", pg.text("#summary"))
    pg.go(10)
    assert pg.p.get_attribute("#rec-status", "data-ok") == "false"
    assert "re-derived here: faces [9], but the log says [10]" in pg.text("#rec")
    assert pg.p.locator("#events .die.badface").count() == 1
    assert "1 check(s) FAILED at this record" in pg.text("#rec")  # only the die
    pg.go(11)
    assert "the envelope is bound to another history (SPEC.md 7.1): its prev is not the hash of record 10 but " \
        in pg.text("#rec")
    assert pg.p.locator("#events .die.badface").count() == 0
    pg.go(9)
    assert pg.p.get_attribute("#rec-status", "data-ok") == "true"
    pg.shot("forged-roll")
    pg.close()


def test_edited_page_is_caught_by_its_own_checks(tab, tmp_path):
    """Someone edits the page itself: a hidden value's opening (NTND marker 4:1 made another
    unit) and one record's bytes. Each fails the page's checks at its record."""
    data = golden_data("ntnd-tet.aar")
    salt, value = data["openings"]["4:1"]
    v = canon.decode(base64.b64decode(value))
    v["units"] = [{"id": "dummy", "name": "Dummy", "type": "dummy"}]
    data["openings"]["4:1"] = [salt, base64.b64encode(canon.encode(v)).decode()]
    raw = bytearray(base64.b64decode(data["records"][200][0]))
    at = raw.index(b"\xa4prev\xc4\x20") + 7
    raw[at] ^= 1  # a bit of record 200's prev: still canonical, the chain breaks there
    data["records"][200][0] = base64.b64encode(bytes(raw)).decode()
    out = tmp_path / "edited.html"
    out.write_text(page(data), encoding="utf-8")
    pg = tab
    pg.load(out)
    assert "NOT VERIFIED by this page" in pg.text("#summary") and "the first at record 4" in pg.text("#summary")
    pg.go(4)
    # the game has ended: the page opens the marker itself with the published secret, and the file's
    # edited opening is not what the ciphertext holds
    assert ("\u2718 sealed value 4:1 (to communist): opened in this browser with the published server secret "
            "(ChaCha20-Poly1305, SPEC.md 6.2), the same as the file's opening") in pg.text("#rec")
    assert pg.p.get_attribute("#rec-status", "data-ok") == "false"
    pg.go(200)
    assert pg.p.get_attribute("#rec-status", "data-ok") == "false" and "hash chain broken" in pg.text("#rec")
    assert "checkpoint does not match" in pg.text("#rec")
    pg.close()


def test_a_server_key_whose_id_is_not_its_keys_is_refused(tab, tmp_path):
    """The page reads the file's server key with the web library's parseVkey (crypto.ts): an id
    that is not the key's (SPEC.md 4.2) fails at record 0, and nothing is checked against it."""
    data = golden_data("sog.aar")
    name, kid, key = data["server_vkey"].split("+")
    data["server_vkey"] = "+".join([name, "00000000" if kid != "00000000" else "00000001", key])
    out = tmp_path / "key.html"
    out.write_text(page(data), encoding="utf-8")
    tab.load(out)
    assert "NOT VERIFIED by this page" in tab.text("#summary") and "the first at record 0" in tab.text("#summary")
    assert "the verifier key's id does not match its key: nothing can be checked against it" in tab.text("#rec")
    tab.close()


def _tampered_table() -> dict[str, tuple[int, int | None]]:
    """fixtures/logs/README.md's table of the tampered logs: name -> (aar verify exit, seq), so a
    variant added there is covered here without a change."""
    rows = {}
    for line in (ROOT / "fixtures" / "logs" / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `tampered/([\w.-]+)\.aar` \| (\d) \| [^|]+ \| (\d+|-) \|", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), None if m.group(3) == "-" else int(m.group(3)))
    return rows


# Where the page puts the first failure when it is not the README's record, and why:
PAGE_SEQ = {
    # the file holds records 0..10 (record 11 is cut off): the page finds the header's count of 12
    # wrong at the last record it has
    "truncated-tail": 10,
    # the bytes after the last complete frame (record 11) never reach the page: it shows aar view's
    # verdict (step 1 at 12) at its last record
    "trailing-partial-frame": 11,
    # the checkpoint frame of record 3 is not UTF-8: the reader stops there, the page holds
    # records 0..2 and shows aar view's verdict (step 1) at the last record it has
    "invalid-utf8-checkpoint-3": 2,
    # the header carries a secret the log never reveals: found at the last record the page has
    "secret-without-end-11": 10,
    # the page does not re-encode envelopes (SPEC.md 7.1's one-encoding rule, v2): record 6's
    # bytes changed, so record 7's envelope, bound to record 6's original hash, fails its prev
    "v2-non-deterministic-envelope-6": 7,
    # As trailing-partial-frame, the bytes after record 11's frame never reach the page
    "trailing-open-map": 11, "trailing-open-array": 11,
    # frame 6 holds raw twice: the reader stops there, the page holds records 0..5 and finds the
    # header's count of 12 wrong at the last record it has (as truncated-tail)
    "duplicate-raw-frame-6": 5,
}
# The checks the page cannot make itself (it cannot run the rules, nor see bytes outside the
# frames): it shows aar view's verifier's verdict at the record ("from the file"), summary
# "NOT VERIFIED: this page's own checks passed, but aar view's verifier ... refused the log".
FROM_THE_FILE = {
    "wrong-outcome-11",        # only re-executing the rules (step 11) catches it
    "genesis-option-bool-0",   # the ruleset's option check (SPEC.md 10 B.6)
    "trailing-partial-frame",  # the reader's (SPEC.md 9)
    "secret-without-end-11",   # the header's (SPEC.md 10 C), reported by aar view's verifier
    "end-without-secret-11",   # the header's (SPEC.md 10 C.15)
    # The reader's (SPEC.md 9)
    "trailing-open-map", "trailing-open-array",
}

# The page's own reason, where the README's step is one the page checks in its own words
WHY = {
    "deep-nesting-record-0": "nested deeper than 64 (SPEC.md 1.1 rule 6)",
    "seat-is-a-list-1": "the envelope names another game, seat, counter or action than its record",
    "end-after-handshake-5": "an end record follows the command record that ended the game, not a reveal record (SPEC.md 8)",
    "accept-without-offer-7": "an acceptance names the offer in the record before it, made by the other seat",
    "resign-signed-by-other-seat-8": "the resignation the cause names is the record before, signed by the resigning seat a",
    "timeout-before-deadline-7": "a timeout is recorded after its deadline 1764000066000 (SPEC.md 8.2)",
    "end-without-outcome-11": "the end record body has exactly the keys secret, outcome (SPEC.md 1.3)",
    "winner-not-a-seat-11": "\u2718 the outcome names a winner that is a seat of genesis",
    "v2-unpadded-sealed-event-5": "ciphertext length 85 but the declared event size for a 80 + 16",
    "v2-nonzero-padding-7": "the padding after the 190-byte plaintext is not all zero bytes (checked in this browser",
    "resealed-by-server-7": "the sealed command does not open with the published server secret: it does not decrypt",
    "truncated-tail": "the header announces 12 records, the file holds 11",
    "trailing-partial-frame": "the bundle ends inside a frame",
    "weak-seat-key-0": "seat b key is weak: it is the identity point (small order 1) (SPEC.md 7.4)",
    "bad-cosignature-11": "seat cosignature: seat a's cosignature of the checkpoint does not verify (SPEC.md 4.5)",
}


def test_every_tampered_fixture_log_fails_in_the_page_at_its_record(tab, tmp_path):
    table = _tampered_table()
    assert len(table) >= 24 and all(name in table for name in PAGE_SEQ.keys() | FROM_THE_FILE)
    pg = tab
    failed = {}
    for name, (exit_code, seq) in table.items():
        try:
            _page_fails_as_documented(pg, tmp_path, name, exit_code, seq)
        except AssertionError as e:  # every variant is tried; the failure lists them all
            failed[name] = str(e).splitlines()[0]
    pg.close()
    assert failed == {}, "\n".join(f"{k}: {v}" for k, v in sorted(failed.items()))


def _page_fails_as_documented(pg, tmp_path, name: str, exit_code: int, seq: int | None) -> None:
    out = tmp_path / f"{name}.html"
    # aar view exits as aar verify does (SPEC.md 10.2): 2 for an unreadable bundle, no page
    assert main(["view", str(ROOT / "fixtures" / "logs" / "tampered" / f"{name}.aar"), "-o", str(out)]) \
        == exit_code, name
    if exit_code == 2:
        assert not out.exists(), name
        return
    if exit_code == 0:  # in tampered/ for another flag (--require-cosigned): the page verifies it
        pg.load(out)
        assert pg.text("#summary").startswith("\u2714"), name
        return
    seq = PAGE_SEQ.get(name, seq)
    pg.load(out)
    assert pg.text("#summary").startswith("\u2718 NOT VERIFIED"), name
    assert pg.p.evaluate("aar.firstBad") == seq, (name, pg.p.evaluate("aar.firstBad"))
    pg.go(seq)
    assert pg.p.get_attribute("#rec-status", "data-ok") == "false", name
    by_page = "NOT VERIFIED by this page" in pg.text("#summary")
    assert by_page == (name not in FROM_THE_FILE), (name, "by page" if by_page else "from the file")
    if not by_page:
        assert "from the file: aar view's" in pg.text("#rec"), name
    assert WHY.get(name, "") in pg.text("#rec"), name
    assert pg.errors == [] and pg.requests == [pg.url], name


def test_a_bundle_without_a_complete_record_exits_as_aar_verify(tab, tmp_path):
    """SPEC.md 10.2 and 10 C: no record at all is unreadable (exit 2, no page), even when the
    header announces records and carries a secret; a first record frame cut off fails step 1 at
    record 0 (exit 1): the page is written and says so."""
    import io

    from afteraction.engine.log.bundle import write_bundle

    src = ROOT / "fixtures" / "logs" / "tampered" / "truncated-tail.aar"
    with open(src, "rb") as f:
        header, frames = read_bundle(f)
        first = next(frames)
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], [first], 12, header["secret"])
    whole = buf.getvalue()
    head = len(whole) - len(canon.encode({"t": "record", "raw": first[0], "checkpoint": first[1]}))
    cases = {"cut-first-frame": whole[:-30], "none-of-12": whole[:head]}
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], [], 0, None)
    cases["no-record"] = buf.getvalue()
    pg = tab
    for name, data in cases.items():
        log, out = tmp_path / f"{name}.aar", tmp_path / f"{name}.html"
        log.write_bytes(data)
        want = main(["verify", str(log)])
        assert main(["view", str(log), "-o", str(out)]) == want == (1 if name == "cut-first-frame" else 2), name
        if want == 2:
            assert not out.exists()
            continue
        pg.load(out)
        assert pg.text("#summary").startswith("\u2718 NOT VERIFIED: the file holds no complete record"), name
        assert "step 1 (bundle) failed at record 0" in pg.text("#summary"), name
    pg.close()


def test_v2_ciphertext_lengths_and_envelope_binding_are_checked_by_the_page(tab, tmp_path):
    """Format v2, checked in the browser without the secret: a sealed value's ciphertext has its
    kind's declared size + 16 (SPEC.md 6.5), and a seat's envelope carries the hash of the record
    before it (7.1), so a record the server rewrote breaks the next seat's envelope binding."""
    pg = tab
    out = tmp_path / "unpadded.html"
    main(["view", str(ROOT / "fixtures" / "logs" / "tampered" / "v2-unpadded-sealed-event-5.aar"), "-o", str(out)])
    pg.load(out)
    pg.go(5)
    assert "sealed value 5:1: ciphertext length 85 but the declared event size for a 80 + 16" in pg.text("#rec")
    out = tmp_path / "padding.html"
    main(["view", str(ROOT / "fixtures" / "logs" / "tampered" / "v2-nonzero-padding-7.aar"), "-o", str(out)])
    pg.load(out)
    pg.go(7)  # re-encrypted at the declared size: the length is right, only the secret shows the padding
    assert "sealed command: ciphertext length 272 = the declared command size for a 256 + 16" in pg.text("#rec")
    pg.go(8)  # record 7's bytes changed, so its hash: the next seat's envelope names the original one
    assert pg.p.get_attribute("#rec-status", "data-ok") == "false"
    assert "the envelope is bound to another history (SPEC.md 7.1): its prev is not the hash of record 7 but " \
        in pg.text("#rec")
    pg.close()


def test_game_in_progress_page_checks_what_it_can(tab, tmp_path):
    """The first 50 records of the NTND log, exported without the secret: chain, checkpoints and
    signatures are checked; dice and sealed values are marked as not checkable, not as failed."""
    import io

    from afteraction.engine.log.bundle import read_bundle, write_bundle

    with open(GOLDEN / "ntnd-tet.aar", "rb") as f:
        header, frames = read_bundle(f)
        frames = list(frames)[:50]
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], frames, len(frames), None)
    log, out = tmp_path / "progress.aar", tmp_path / "progress.html"
    log.write_bytes(buf.getvalue())
    assert main(["view", str(log), "-o", str(out)]) == 0
    pg = tab
    pg.load(out)
    s = pg.text("#summary")
    assert s.startswith("\u2714 verified in this browser: 50 records chained, 50 checkpoints") and "game in progress" in s
    amb = _first_ambush()
    assert amb["seq"] < 50, "the first ambush's combat dice must fall in the exported prefix"
    pg.go(amb["seq"])
    assert "cannot be re-derived without the server secret" in pg.text("#rec")
    assert pg.p.get_attribute("#rec-status", "data-ok") == "true"
    assert "game in progress" in pg.text("#board")
    pg.go(5)
    assert "SEALED command of communist" in pg.text("#rec") and "not yet: game in progress" in pg.text("#rec")
    # what a v2 log shows of a sealed value before the end, its length, is checked (SPEC.md 6.5, 10.1)
    assert re.search(r"sealed command: ciphertext length (\d+) = the declared command size for communist "
                     r"(\d+) \+ 16", pg.text("#rec"))
    pg.close()


def test_sealed_roll_stays_sealed_for_a_spectator_and_is_re_derived(tab, tmp_path):
    from .test_sealed_rolls import secret_die_log

    out = tmp_path / "p.html"
    assert main(["view", str(secret_die_log(tmp_path / "secret-die.aar")), "-o", str(out)]) == 0
    pg = tab
    pg.load(out)
    assert pg.text("#summary").startswith("\u2714 verified in this browser") and "dice re-derived" in pg.text("#summary")
    seq = next(int(k.split(":")[0]) for k, d in pg.p.evaluate("aar.rolls").items() if d["i"] == 0)
    pg.go(seq)
    assert pg.p.locator(f'#events .sealed[data-ref="{seq}:2"]').count() == 1
    assert "roll 0 (d6, TEST a's secret die) re-derived here" in pg.text("#rec")
    pg.go(11)  # the end record: its secret opens the die for everyone
    assert 'rule: "TEST a\'s secret die", t: "roll"}</span> (opened by the end record' in pg.p.inner_html("#hidden")
    pg.close()


def test_record_order_forged_by_the_server(tab, tmp_path):
    """Re-signed by the server, so chain and checkpoints hold: a record after the end record, and
    a game command moved before the last entropy reveal, each fail the page's order checks."""
    def after_end(recs):
        return recs + [recs[-1]]

    def command_first(recs):
        return recs[:3] + [recs[5], recs[3], recs[4]] + recs[6:]

    for change, seq, what in ((after_end, 39, "a record after the end record 38"),
                              (command_first, 3, "a game command before the dice handshake completed")):
        log, out = tmp_path / "f.aar", tmp_path / "f.html"
        log.write_bytes(reforge_records(GOLDEN / "sog.aar", b"golden/sog/5", change))
        assert main(["view", str(log), "-o", str(out)]) == 1
        pg = tab
        pg.load(out)
        assert pg.p.evaluate("aar.firstBad") == seq
        pg.go(seq)
        assert what in pg.text("#rec")
    pg.close()


def test_a_log_with_match_data_verifies_in_the_page(tab, server, tmp_path):
    """Genesis's optional match key (v2) is one of the keys the page accepts, its shape checked."""
    import threading

    from afteraction.client.client import Client

    from afteraction.client.seat import Seat
    from afteraction.engine.bots import random_bot
    from afteraction.engine.seat import SeatSigner
    from afteraction.v1 import game_service_pb2 as gs

    keys = {s: bytes([i + 3]) * 32 for i, s in enumerate("ab")}
    with Client(server.target) as c:
        res = c.create_game("duel", {s: SeatSigner(s, k).public for s, k in keys.items()},
                            match=gs.MatchInfo(label="Round 1", players={"a": "Ann", "b": "Bo"}, date="2026-12-01"))
        seats = [Seat(Client(server.target), res.game_id, s, keys[s]) for s in "ab"]
        threads = [threading.Thread(target=s.play, args=(random_bot(s.seat.encode()),), daemon=True) for s in seats]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        log = tmp_path / "match.aar"
        log.write_bytes(c.export(res.game_id))
    for s in seats:
        s.client.close()
    out = tmp_path / "match.html"
    assert main(["view", str(log), "-o", str(out)]) == 0
    pg = tab
    pg.load(out)
    assert pg.text("#summary").startswith("\u2714 verified in this browser"), pg.text("#summary")
    pg.close()
