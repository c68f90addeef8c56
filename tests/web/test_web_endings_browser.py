"""The endings every game has (SPEC.md 8.1-8.3) in the web client, two browser seats of a duel
through the real service (`--web-listen`, port 0): an offer declined, which in format 3 stands
until the declining seat's next move answers it (SPEC.md 8.1), a draw offered by one page out of turn and accepted by the other; a resignation; each seat's time left shown from GetState and Watch clocks. Each page
checks the ending records itself (clients/web/src/lib/endings.ts); the exported log verifies with
`aar verify --json`, whose report gives the cause. Skips without a browser (as test_web_browser)."""
from __future__ import annotations

import json

from .test_web_browser import BUILD, _create, _join, _open, _status, _unexpected


def _started(*pages):
    for p in pages:   # the handshake is done: the page offers a draw
        p.wait_for_function("!document.getElementById('endings').hidden && "
                            "!document.getElementById('offer-draw').hidden", timeout=40000)


def _verify_json(site, tmp_path, page, name, capsys) -> dict:
    from afteraction.cli.main import main

    with page.expect_download() as dl:
        page.click("#export")
    path = tmp_path / name
    dl.value.save_as(path)
    capsys.readouterr()
    assert main(["verify", str(path), "--server-key", site.run.vkey, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _ended(pages, cause: str):
    for p in pages:
        p.wait_for_function("document.getElementById('game').dataset.ended === '1'", timeout=40000)
        p.wait_for_function(f"document.getElementById('game').dataset.cause === '{cause}'", timeout=40000)
        assert _status(p)["cls"] == "ok", _status(p)


def test_a_draw_offered_in_one_browser_and_accepted_in_the_other(browser, site, tmp_path, capsys):
    errors: list = []
    ca, a = _open(browser, site.base, errors)
    cb, b = _open(browser, site.base, errors)
    try:
        a.fill("#clock-decision", "600")   # 10 minutes a decision, 30 in all
        a.fill("#clock-total", "30")
        gid = _create(a, b, "duel", "a")
        _join(b, gid)
        _started(a, b)
        # each seat's time left, from GetState and Watch clocks: a's decision runs, b's does not
        a.wait_for_function("document.querySelector('#clocks div.running')?.dataset.seat === 'a'", timeout=40000)
        left = int(b.get_attribute("#clocks div[data-seat='a']", "data-left-ms"))
        assert 0 < left <= 600_000, left
        assert "30:00 in all" in b.text_content("#clocks div[data-seat='b']")
        # b offers a draw; a declines (nothing is signed) and moves: in format 3 the offer stands until
        # that move answers it (SPEC.md 8.1), and the page says so (not "lapses at the next record")
        b.click("#offer-draw")
        a.wait_for_selector("#decline-offer", timeout=40000)
        assert "b offers a draw" in a.text_content("#offer-box")
        a.click("#decline-offer")
        assert "b's offer stands until your next move, which declines it" in a.text_content("#offer-box")
        assert "stands until the other seat answers it" in b.text_content("#offer-box")
        a.wait_for_selector("button.choice", timeout=40000)
        a.click("button.choice")
        b.wait_for_function("!document.getElementById('offer-box').textContent.includes('you offered')", timeout=40000)
        assert a.query_selector("#accept-offer") is None
        # now b's decision runs; a offers out of turn, b accepts: b's prompt is overtaken by the end
        b.wait_for_selector("button.choice", timeout=40000)
        a.click("#offer-draw")
        a.wait_for_function("document.getElementById('offer-box').textContent.includes('you offered a draw')", timeout=40000)
        b.wait_for_selector("#accept-offer", timeout=40000)
        assert "a offers a draw" in b.text_content("#offer-box")
        b.click("#accept-offer")
        _ended([a, b], "agree")
        assert "agreed draw" in a.text_content("#outcome")
        for p in (a, b):   # every envelope was carried by a verified record (or refused with a good receipt): nothing kept
            p.wait_for_function("document.getElementById('evidence-box')?.textContent.includes('nothing kept')", timeout=40000)
            assert p.evaluate("document.getElementById('evidence-box').dataset.faults") == "0"
        rep = _verify_json(site, tmp_path, a, "draw.aar", capsys)
        assert rep["cause"]["kind"] == "agree" and rep["cause"]["winner"] is None, rep["cause"]
        assert rep["outcome"] == {"winner": None, "reason": "agreed draw"}, rep["outcome"]
        BUILD.mkdir(exist_ok=True)
        b.screenshot(path=str(BUILD / "web-duel-draw.png"), full_page=True)
        assert not _unexpected(errors), errors
    finally:
        for c in (ca, cb):
            c.close()


def test_a_browser_seat_resigns_and_the_other_wins(browser, site, tmp_path, capsys):
    errors: list = []
    ca, a = _open(browser, site.base, errors)
    cb, b = _open(browser, site.base, errors)
    try:
        gid = _create(a, b, "duel", "a")
        _join(b, gid)
        _started(a, b)
        b.click("#resign")   # the page asks once more
        assert "Click again" in b.text_content("#resign")
        b.click("#resign")
        _ended([a, b], "resign")
        assert "seat b resigned" in a.text_content("#outcome")
        assert a.locator("#moves li", has_text=": b resigned").count() == 1
        rep = _verify_json(site, tmp_path, b, "resign.aar", capsys)
        assert rep["cause"] == {"kind": "resign", "seat": "b"}, rep["cause"]
        assert rep["outcome"]["winner"] == "a", rep["outcome"]
        assert not _unexpected(errors), errors
    finally:
        for c in (ca, cb):
            c.close()
