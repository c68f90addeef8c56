"""In the web client: the browser seat keeps every envelope before it sends it and
every receipt (SPEC.md 7.5, 8.2) in its storage, checks each receipt, and does not cosign a
time-out at a position it holds its answer for. Two browser seats of a duel through the real
service (`--web-listen`, port 0); the dishonest server is the real one with its clock or its
receipts patched (as tests/service/test_receipts.py does for the Python client): the page says
why it does not cosign, and the files it downloads make `aar evidence` exit as the Python client's
do; a bad receipt is shown as a server fault and kept. Skips without a browser (as test_web_browser)."""
from __future__ import annotations

import json

from afteraction.engine.errors import Rejection

from .test_web_browser import _create, _join, _open, _status
from .test_web_endings_browser import _started


def _evidence(page) -> dict:
    return page.evaluate("(() => { const b = document.getElementById('evidence-box'); if (!b) return null; "
                         "return {faults: b.dataset.faults, withheld: b.dataset.withheld, text: b.textContent, "
                         "files: [...b.querySelectorAll('button.evidence-file')].map((x) => x.dataset.name)}; })()")


def _download(page, name: str, path):
    with page.expect_download() as dl:
        page.click(f"button.evidence-file[data-name='{name}']")
    dl.value.save_as(path)
    return str(path)


def _aar(capsys, *args) -> tuple[int, str]:
    from afteraction.cli.main import main

    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


def _duel(browser, site, errors):
    ca, a = _open(browser, site.base, errors)
    cb, b = _open(browser, site.base, errors)
    a.fill("#clock-decision", "600")   # 10 minutes a decision
    gid = _create(a, b, "duel", "a")
    _join(b, gid)
    _started(a, b)
    a.wait_for_selector("button.choice", timeout=40000)
    return (ca, a), (cb, b), gid


def test_a_forged_time_out_is_not_cosigned_and_the_downloaded_receipt_proves_it(browser, site, tmp_path, capsys,
                                                                                monkeypatch):
    """Seat a answers at once; the server refuses it TIME_EXPIRED as if its clock had passed the
    deadline and writes a's time-out; its own receipt says it had the envelope in time. Before the
    change the page kept the refused envelope only, had no receipt, and cosigned the end."""
    from afteraction.client.client import Client

    errors: list = []
    (ca, a), (cb, b), gid = _duel(browser, site, errors)
    try:
        games = site.run.service.games
        orig, real = games._accept, games.now

        def lies_about_time(live, cmd):
            if cmd.env.seat != "a":
                return orig(live, cmd)
            true = real()
            games.now = lambda: real() + 700_000   # the server's clock "jumps" past a's deadline, and stays
            try:
                return orig(live, cmd)
            except Rejection as e:
                e.received_ms = true   # its receipt still says when it had the envelope
                raise
        monkeypatch.setattr(games, "_accept", lies_about_time)
        a.click("button.choice")
        a.wait_for_function("document.getElementById('game').dataset.ended === '1'", timeout=40000)
        assert a.get_attribute("#game", "data-cause") == "timeout"
        a.wait_for_function("document.getElementById('evidence-box')?.dataset.withheld === '1'", timeout=40000)
        ev = _evidence(a)
        assert "NOT COSIGNED" in ev["text"] and "timeout at record" in ev["text"], ev
        assert ev["faults"] == "0", ev   # the receipt itself is good: the server signed its own contradiction
        assert a.get_attribute("#game", "data-cosigned") == "0"
        env = [n for n in ev["files"] if n.endswith(".env")]
        rec = [n for n in ev["files"] if n.endswith(".receipt")]
        assert len(env) == 1 and len(rec) == 1, ev
        bundle = tmp_path / "game.aar"
        bundle.write_bytes(Client(site.target).export(gid))
        code, out = _aar(capsys, "evidence", _download(a, rec[0], tmp_path / rec[0]), str(bundle))
        assert code == 1 and "the timeout is forged" in out, out
        code, out = _aar(capsys, "evidence", _download(a, env[0], tmp_path / env[0]), str(bundle))
        assert code == 3 and "CONTESTED" in out and "a time-out of seat a" in out, out
        code, out = _aar(capsys, "verify", str(bundle), "--server-key", site.run.vkey, "--require-cosigned")
        assert code != 0, out   # the wronged seat withheld its cosignature
        # a reload keeps the evidence (this browser's storage) and still does not cosign
        a.reload()
        a.wait_for_function("document.getElementById('evidence-box')?.dataset.withheld === '1'", timeout=40000)
        assert _evidence(a)["files"] == ev["files"]
        assert _status(a)["cls"] == "ok", _status(a)
    finally:
        for c in (ca, cb):
            c.close()


def test_a_server_that_never_answers_leaves_the_page_its_envelope_and_no_cosignature(browser, site, tmp_path,
                                                                                     capsys, monkeypatch):
    """Found item 1 against the page: the server drops seat a's answer (no receipt) and
    its clock jumps past a's deadline; it writes a's time-out. The envelope was kept before it was
    sent (the old page kept nothing but an envelope refused GAME_OVER/TIME_EXPIRED, and cosigned
    the end): the reloaded page does not cosign and its envelope makes `aar evidence` exit 3."""
    from afteraction.client.client import Client
    from afteraction.service.store import StoreError

    errors: list = []
    (ca, a), (cb, b), gid = _duel(browser, site, errors)
    try:
        games = site.run.service.games
        orig, real = games._accept, games.now

        def never_answers(live, cmd):
            if cmd.env.seat != "a":
                return orig(live, cmd)
            games.now = lambda: real() + 700_000
            raise StoreError("dropped")
        monkeypatch.setattr(games, "_accept", never_answers)
        a.click("button.choice")
        a.wait_for_function("document.getElementById('status').className === 'bad'", timeout=40000)
        env = [n for n in _evidence(a)["files"] if n.endswith(".env")]
        assert len(env) == 1, _evidence(a)   # kept before it was sent, though no answer came
        monkeypatch.setattr(games, "_accept", orig)
        client = Client(site.target)
        assert json.loads(client.state(gid).cause_json)["kind"] == "timeout"   # written on the next use
        a.reload()
        a.wait_for_function("document.getElementById('game').dataset.ended === '1'", timeout=40000)
        a.wait_for_function("document.getElementById('evidence-box')?.dataset.withheld === '1'", timeout=40000)
        assert "without a receipt" in _evidence(a)["text"]
        assert a.get_attribute("#game", "data-cosigned") == "0"
        bundle = tmp_path / "game.aar"
        bundle.write_bytes(client.export(gid))
        code, out = _aar(capsys, "evidence", _download(a, env[0], tmp_path / env[0]), str(bundle))
        assert code == 3 and "CONTESTED" in out and "a time-out of seat a" in out, out
    finally:
        for c in (ca, cb):
            c.close()


def test_a_bad_receipt_is_shown_as_a_server_fault_and_kept(browser, site, tmp_path, monkeypatch):
    from afteraction.engine import receipt as R
    from afteraction.service import servicer as S

    errors: list = []
    (ca, a), (cb, b), gid = _duel(browser, site, errors)
    try:
        monkeypatch.setattr(S.GameServicer, "_receipt", lambda self, cmd, env, code, res=None, at=None:
                            R.make(lambda m: bytes(64), cmd.envelope, env, code,
                                   0 if res is None else res.records[0].seq, at or 0))
        a.click("button.choice")
        a.wait_for_function("document.getElementById('evidence-box')?.dataset.faults === '1'", timeout=40000)
        ev = _evidence(a)
        assert "SERVER FAULT" in ev["text"] and "signature does not verify with the server key" in ev["text"], ev
        assert ev["files"] and ev["files"][0] == "fault-1.txt", ev
        text = open(_download(a, "fault-1.txt", tmp_path / "fault-1.txt")).read()
        assert "signature does not verify" in text and "envelope: " in text and "receipt: " in text, text
        # the envelope the bad receipt was for: kept until its record is verified (it was: dropped)
        assert not [n for n in ev["files"] if n.endswith(".receipt")], ev
    finally:
        for c in (ca, cb):
            c.close()


def test_an_answer_in_flight_is_not_answered_again_after_the_other_seats_offer(browser, site, monkeypatch):
    """Item 4 of the brief, the bug the Python client's Play loop had (commit cd2fbff): seat a's
    answer is held on its way to the referee while seat b offers a draw; the server records the
    offer and prompts a again; the answer, bound before the offer, is accepted after it (format 3,
    SPEC.md 7.2), and the page signs nothing twice (no COUNTER_REUSED, no second envelope). The
    browser seat never had this bug (it answers one prompt at a time, and the next only after the
    submit's records are verified, which overtake the re-prompt): this test guards it."""
    import asyncio
    import time

    from afteraction.engine.protocol import parse_record

    from .test_web_browser import _unexpected

    errors: list = []
    (ca, a), (cb, b), gid = _duel(browser, site, errors)
    try:
        store = site.run.service.games.store
        games = site.run.service.games
        orig = games.submit_async
        held = []

        async def holds_a(cmd, deadline_ok, run):   # the servicer's command, parsed once (service/envelopes.py)
            env = cmd.env
            if env.seat == "a" and env.WhichOneof("action") == "command" and not held:
                size = store.size(gid)
                held.append(size)
                t = time.time()
                while store.size(gid) == size and time.time() - t < 20:   # until b's offer is recorded
                    await asyncio.sleep(0.05)
            return await orig(cmd, deadline_ok, run)
        monkeypatch.setattr(games, "submit_async", holds_a)
        a.click("button.choice")
        b.wait_for_function("document.getElementById('offer-draw') && !document.getElementById('offer-draw').hidden")
        b.click("#offer-draw")
        b.wait_for_selector("button.choice", timeout=40000)   # a's answer stood: b's decision now
        # a's page verified every record (its move declined the offer: format 3, SPEC.md 8.1)
        a.wait_for_function(f"document.getElementById('status').dataset.records === '{store.size(gid)}'", timeout=40000)
        time.sleep(1.0)
        recs = [parse_record(r.raw) for r in store.records(gid)]
        mine = [r for r in recs if r.body.get("seat") == "a" and r.kind == "command"]
        assert len(mine) == 1 and held, (held, [(r.seq, r.kind, r.body.get("seat")) for r in recs])
        off = recs[held[0]]
        assert off.body["seat"] == "b" and off.body["events"][0]["t"] == "offer"
        assert mine[0].seq == held[0] + 1   # signed for the position before the offer, made after it
        assert a.query_selector("button.choice") is None
        assert not _unexpected(errors) and not [e for e in errors if "COUNTER" in e], errors
        assert _status(a)["cls"] == "ok" and _status(b)["cls"] == "ok", (_status(a), _status(b))
    finally:
        for c in (ca, cb):
            c.close()
