"""`aar league view` (clients/cli/league/view.py): the league page with its standings, crosstable,
rounds, ratings and chart, replay pages beside it; in the browser, "recompute in this browser" finds
the numbers the same, and finds a changed number, a changed ledger byte, a changed published
standing. Browser tests skip without chromium (tests/browsers.py)."""
from __future__ import annotations

import base64
import json
import re

import pytest

from afteraction.cli.main import main
from afteraction.engine.league.ledger import read_ledger
from browsers import launched
from conftest import REPO
from league.test_versions import _forged, _seq

FIX = REPO / "fixtures" / "league"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("page")
    assert main(["league", "view", str(FIX / "spring.aarl"), "--bundles", str(FIX / "bundles"),
                 "-o", str(out / "league.html"), "--replays"]) == 0
    return out


def test_the_page_and_its_replays(written):
    html = (written / "league.html").read_text()
    for part in ("<h2>Standings</h2>", "<h2>Crosstable</h2>", "<h2>Rounds</h2>", "<h2>Ratings</h2>", "<svg",
                 "void: ruled replay", "void: 0 decisions", 'href="spring-3-2-replay.html"'):
        assert part in html
    assert (written / "spring-3-2-replay.html").read_text().startswith("<!DOCTYPE html>")
    assert html.startswith("<!DOCTYPE html>") and "Content-Security-Policy\" content=\"default-src 'none'" in html


def test_a_forged_ledger_gets_no_page(tmp_path, capsys):
    assert main(["league", "view", str(FIX / "forged" / "round-2-pairing-swapped.aarl"), "--bundles",
                 str(FIX / "bundles"), "-o", str(tmp_path / "x.html")]) == 1
    assert "NOT VERIFIED: entry 13 (round)" in capsys.readouterr().out
    assert not (tmp_path / "x.html").exists()
    bad = tmp_path / "bad.aarl"
    bad.write_bytes(b"nope")
    assert main(["league", "view", str(bad), "--bundles", str(FIX / "bundles"), "-o", str(tmp_path / "x.html")]) == 2


@pytest.fixture(scope="module")
def browser():
    yield from launched(())


def _recompute(browser, path):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.click("#recompute")
    page.wait_for_function("document.getElementById('verdict').className !== ''", timeout=60000)
    out = page.inner_text("#verdict"), page.inner_text("#checks")
    page.close()
    assert errors == []
    return out


def _data(html: str) -> tuple[dict, re.Match]:
    m = re.search(r'<script id="league-data" type="application/json">(.*?)</script>', html)
    return json.loads(m.group(1)), m


def _with(html: str, data: dict, m) -> str:
    blob = json.dumps(data, separators=(",", ":"), sort_keys=True)
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return html[:m.start(1)] + blob + html[m.end(1):]


def test_recomputed_in_the_browser(browser, written):
    verdict, checks = _recompute(browser, written / "league.html")
    assert verdict == "recomputed in this browser: the same", checks
    assert "30 entries" in checks and "entry 29): the same" in checks


def test_a_changed_number_is_found(browser, written, tmp_path):
    html = (written / "league.html").read_text()
    data, m = _data(html)
    data["shown"]["ratings"]["duel"][0]["r"] = str(int(data["shown"]["ratings"]["duel"][0]["r"]) + 1)
    p = tmp_path / "changed.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and "not those recomputed" in checks


def test_a_changed_ledger_byte_is_found(browser, written, tmp_path):
    html = (written / "league.html").read_text()
    data, m = _data(html)
    raw = bytearray(base64.b64decode(data["ledger"]))
    i = raw.index(b"player3") + 6
    raw[i] ^= 0x07  # a registration's name: still canonical text, but no longer what was signed
    data["ledger"] = base64.b64encode(bytes(raw)).decode()
    p = tmp_path / "ledger.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and "checkpoint" in checks


def test_a_game_status_changed_in_the_file_is_found(browser, written, tmp_path):
    html = (written / "league.html").read_text()
    data, m = _data(html)
    g = next(g for g in data["games"] if g["status"] == "void: ruled replay")
    g["status"] = "counted"   # the file claims the replayed time-out counts: the numbers shown differ
    p = tmp_path / "status.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and "not those recomputed" in checks


def test_a_moved_cosignature_is_found(browser, written, tmp_path):
    html = (written / "league.html").read_text()
    data, m = _data(html)
    data["ledger"] = base64.b64encode((FIX / "forged" / "cosignature-forged.aarl").read_bytes()).decode()
    p = tmp_path / "cosig.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and "cosignature of the checkpoint does not verify" in checks


def test_a_round_the_organiser_did_not_ask_for_is_found(browser, written, tmp_path):
    html = (written / "league.html").read_text()
    data, m = _data(html)
    data["ledger"] = base64.b64encode((FIX / "forged" / "round-2-not-asked.aarl").read_bytes()).decode()
    p = tmp_path / "asked.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and "entry 13 (round): the organiser did not ask for this round" in checks


def test_a_v1_ledger_is_recomputed_under_its_own_rules(browser, tmp_path):
    """SPEC.md 15.2-15.3: the page of a league version 1 ledger (fixtures/league/v1, commit ac3f820)
    recomputes the same, its rounds not asked for by an organiser it does not name."""
    v1 = FIX / "v1"
    assert main(["league", "view", str(v1 / "spring.aarl"), "--bundles", str(v1 / "bundles"),
                 "-o", str(tmp_path / "v1.html")]) == 0
    verdict, checks = _recompute(browser, tmp_path / "v1.html")
    assert verdict == "recomputed in this browser: the same", checks
    assert "the ledger (league version 1): 30 entries" in checks and "names no organiser" in checks


def test_a_v2_ledger_with_a_v1_entry_is_found(browser, written, tmp_path):
    s = _seq(FIX, "player")
    html = (written / "league.html").read_text()
    data, m = _data(html)
    mixed = _forged(FIX, versions={s: 1})
    assert read_ledger(mixed)[0] == "spring"
    data["ledger"] = base64.b64encode(mixed).decode()
    p = tmp_path / "mixed.html"
    p.write_text(_with(html, data, m))
    verdict, checks = _recompute(browser, p)
    assert "NOT the same" in verdict and f"entry {s} (player): league version 1 in a ledger of version 2" in checks
