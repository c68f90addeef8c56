"""Two browser pages play like people: on the map and in forms, never by the list of
choices. For each decision a bot says which legal command it wants (read from the page's own
list, `data-command`); the "person" then gives it the way a player would: clicks the piece or
stack the choice names (its destinations light up: `#board[data-lit]`), clicks the lit place (and,
where several choices go there, the one of the few the page offers), clicks a place for a choice
that names only a place, and writes any other answer in the form (`#write-answer`: started from a
listed answer, every field editable). In SOG the person writes a team of their own in the form
(a member added as a copy of another is refused: SOG 3.2.4, his letter used twice; then a
template with its last member armed with a pistol, which the log then holds) and an action result
the rules refuse (SOG 3.1.3): the page says each refusal in words with its rule and asks again;
nothing is signed into the log. The game's end is said in words and its log, downloaded from the end screen, verifies.

Headless Chromium and the real service with --web-listen, as tests/web/test_web_browser.py.
A whole SOG game; a whole two-turn GMV game (the `turns` option, the shortest game with a turn's
end and the next turn's purchases: about 120 decisions of random play; the scenario's eight turns
take several minutes of browser time); the first turn of an NTND Tet game (about 200 decisions).
With AAR_SCREENSHOTS set (`make screenshots`) each game's page is saved at three moments
(docs/screenshots/, shown in docs/playing.md)."""
from __future__ import annotations

import base64
import json
import os
import pathlib
import random
import re
import time

import pytest


from afteraction.v1 import command_pb2

from .pngsmall import smaller
from .test_web_browser import _create, _join, _open, _status, _unexpected

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
#: `make screenshots` sets it to docs/screenshots: each game's page at three moments, as a player
#: sees it (docs/playing.md shows them); unset, nothing is written
SHOTS = os.environ.get("AAR_SCREENSHOTS")
_shooting: dict = {}   # id(page) -> [game, answers given, moments taken]


def _shoot_as(page, game: str) -> None:
    _shooting[id(page)] = [game, 0, set()]


def _shot(page, moment: str, after: int = 0) -> None:
    """The page's window as ``docs/screenshots/<game>-<moment>.png``, once, after ``after`` answers."""
    g = _shooting.get(id(page))
    if not SHOTS or g is None or moment in g[2] or g[1] < after:
        return
    g[2].add(moment)
    out = pathlib.Path(SHOTS)
    out.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)   # the board drawn
    (out / f"{g[0]}-{moment}.png").write_bytes(smaller(page.screenshot()))


def _choices(page) -> list[dict]:
    """The pending choices as the page lists them (index, command, group, refs), in one call."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#choices button.choice')).map((b) => ({
        i: Number(b.dataset.i), command: b.dataset.command, group: b.dataset.group || '',
        refs: JSON.parse(b.dataset.refs || '[]'), text: b.textContent }))""")


def _seq(page) -> str:
    return page.get_attribute("#prompt", "data-seq") or ""


def _answered(page, seq: str, timeout: float = 3.0) -> bool:
    """The answer left the page: its choices are gone (sent) or a later decision's are there."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if not page.locator("#choices button.choice").count() or _seq(page) != seq:
            return True
        time.sleep(0.05)
    return False


FREE_POINT = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  for (const fy of [0.2, 0.5, 0.8, 0.1, 0.35, 0.65, 0.9]) for (const fx of [0.5, 0.3, 0.7, 0.2, 0.8]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (document.elementFromPoint(x, y) === el) return [x, y];
  }
  return null;
}"""


def _click_place(page, place: str) -> bool:
    """A mouse click on a point of the place that nothing drawn over it covers (a piece of it or of
    a neighbour)."""
    sel = f'#board .place[class~="p:{place}"]'
    loc = page.locator(sel)
    if not loc.count():
        return False
    loc.first.scroll_into_view_if_needed()
    at = page.evaluate(FREE_POINT, sel)
    if not at:
        return False
    page.mouse.click(at[0], at[1])
    return True


def _pick_if_offered(page, i: int) -> bool:
    b = page.locator(f'#picker button.pick[data-i="{i}"]')
    if b.count():
        b.first.click()
        return True
    return False


def _by_form(page, i: int, edit=None) -> None:
    """Writes choice ``i`` (edited by ``edit``) in the form: open already where the listed choices
    are a sample of the answers (Decision.sampled) and nothing is played on the map, a click away
    elsewhere."""
    if page.locator("#form-details").count() and not page.is_visible("#form-start"):
        page.click("#form-details > summary")   # folded under the map's play: built when unfolded
        page.wait_for_selector("#form-start", timeout=5000)
    elif not page.locator("#form-start").count():
        page.click("#write-answer")
    opts = page.evaluate("Array.from(document.querySelectorAll('#form-start option')).map((o) => o.value)")
    assert str(i) in opts, (i, opts, page.text_content("#prompt"), page.text_content("#choices")[:300])
    page.select_option("#form-start", str(i))
    if edit:
        edit(page)
    page.click("#send-answer")


def answer(page, choice: dict, how: dict) -> None:
    """Give the choice as a player would: on the map where it names a piece or a place, else the form."""
    seq = _seq(page)
    if id(page) in _shooting:
        _shooting[id(page)][1] += 1
    got = on_map(page, choice)
    if got and _answered(page, seq, 15):
        how[got] = how.get(got, 0) + 1
        return
    _by_form(page, choice["i"])
    how["form"] = how.get("form", 0) + 1


def on_map(page, choice: dict) -> str | None:
    """Clicks on the map for the choice: how it was given, or None if the map does not give it."""
    i, refs = choice["i"], choice["refs"]
    pieces = [r["id"] for r in refs if r["kind"] == "piece"]
    places = [r["id"] for r in refs if r["kind"] == "place"]
    drawn = [p for p in pieces if page.locator(f'#board [class~="u:{p}"]').count()]
    if drawn:
        loc = page.locator(f'#board [class~="u:{drawn[0]}"]').first
        loc.scroll_into_view_if_needed()
        loc.click()
        page.wait_for_function("(p) => document.getElementById('board').dataset.selected.split(' ').includes(p)",
                               arg=drawn[0], timeout=5000)
        lit = (page.get_attribute("#board", "data-lit") or "").split()
        if len(lit) > 1:
            _shot(page, "move", after=12)   # a piece selected, where it can go lit up
        if _pick_if_offered(page, i):
            return "piece+pick"
        dest = [p for p in reversed(places) if p in lit]
        if dest and _click_place(page, dest[0]):
            time.sleep(0.05)
            return "piece+place+pick" if _pick_if_offered(page, i) else "piece+place"
        loc.click()   # unselect: the form
        return None
    if places and _shooting.get(id(page), [""])[0] == "sog":
        _shot(page, "move", after=6)   # the team's moves: a square clicked
    if places and _click_place(page, places[-1]):
        time.sleep(0.05)
        return "place+pick" if _pick_if_offered(page, i) else "place"
    return None


def _play(site, pages: dict, gid: str, pick, how: dict, timeout: float, stop=None) -> None:
    """Until the game ends (or ``stop()``): the page whose decision is open answers ``pick``'s choice."""
    from afteraction.client.client import Client

    client = Client(site.target)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if client.state(gid).ended or (stop and stop(client)):
            return
        acted = False
        for name, page in pages.items():
            if not page.locator("#choices button.choice").count():
                continue
            cs = _choices(page)
            if not cs:
                continue
            seq0 = _seq(page)
            c = pick(name, page, cs)
            if c is None:   # given by pick itself
                how["form"] = how.get("form", 0) + 1
                page.wait_for_function("(s) => document.getElementById('prompt').dataset.seq !== s || "
                                       "!document.querySelector('#choices button.choice')", arg=seq0, timeout=20000)
            else:
                answer(page, c, how)
            acted = True
            for p in pages.values():
                assert _status(p)["cls"] != "bad", _status(p)
        if not acted:
            time.sleep(0.05)
    raise AssertionError(f"the game did not end in time ({how})")


def _finish(page, site, gid, tmp_path, name):
    """The end screen says who won and why; its download verifies."""
    from afteraction.cli.main import main

    page.wait_for_function("document.getElementById('game').dataset.ended === '1'", timeout=60000)
    page.wait_for_selector("#end:not([hidden]) .winner", timeout=30000)
    text = page.text_content("#end")
    assert "Game over" in text and ("wins" in text or "No winner" in text) and "How it ended:" in text, text
    assert "{" not in page.text_content("#end .winner")
    size = site.run.service.games.store.size(gid)
    page.wait_for_function(f"document.getElementById('status').dataset.records === '{size}'", timeout=60000)
    with page.expect_download() as dl:
        page.click("#end-export")
    path = tmp_path / f"{name}.aar"
    dl.value.save_as(path)
    assert main(["verify", str(path), "--server-key", site.run.vkey]) == 0


def test_sog_a_whole_game_on_the_map_and_in_forms(browser, site, tmp_path):
    from afteraction.client.client import Client
    from afteraction.engine.games.sog.bots import sensible_bot

    errors: list = []
    ca, sog = _open(browser, site.base, errors)
    cb, nva = _open(browser, site.base, errors)
    how: dict = {}
    refused = {"done": False}
    more: list = []   # the contexts of further games, if the first ends before an action's result
    try:
        gid = _create(sog, nva, "sog", "sog")
        _join(nva, gid)
        _shoot_as(sog, "sog")
        client = Client(site.target)
        view: dict = {}
        bot = sensible_bot(1, lambda seat: view["v"])

        def pick(name, page, cs):
            cmds = [command_pb2.Command.FromString(base64.b64decode(c["command"])) for c in cs]
            view["v"] = json.loads(client.state(gid).view_json)
            if cs[0]["group"] == "Organise the team" and not refused.get("team"):
                # the person's own team, in the form: first a member added as a copy of the last
                # (his letter used twice: refused with the rule), then the last member's weapon
                # changed to a pistol (accepted)
                seq = _seq(page)
                # the team is an answer no list holds (SOG 3.2): the form is open at once, said so
                assert page.get_attribute("#answer-form", "data-sampled") == "1"
                assert "The choices listed are only examples: the rules (SOG 3.2) allow " in page.text_content("#form-space")
                _shot(page, "team")
                _by_form(page, cs[0]["i"], lambda p: p.click('[data-list="members"] > button.add'))
                page.wait_for_selector("#refusal:not([hidden])", timeout=20000)
                r = page.text_content("#refusal")
                assert "ILLEGAL_TEAM" in r and "SOG 3.2.4" in r and "used twice" in r, r
                page.wait_for_selector("#choices button.choice", timeout=20000)
                team = command_pb2.Command.FromString(base64.b64decode(cs[0]["command"])).sog.organise
                refused["team"] = (len(team.members), team.members[-1].letter)
                _by_form(page, cs[0]["i"], lambda p: p.locator('[data-list="members"] > .item').last
                         .locator('input[data-field="weapon"]').first.fill("PST1"))
                page.wait_for_function("(s) => document.getElementById('prompt').dataset.seq !== s || "
                                       "!document.getElementById('refusal').hidden", arg=seq, timeout=20000)
                assert not page.is_visible("#refusal"), page.text_content("#refusal")
                return None
            if cs[0]["group"] == "Report the action's result" and not refused["done"]:
                # a result the rules refuse, written in the form: refused in words, with the rule
                refused["done"] = True
                _by_form(page, cs[0]["i"], lambda p: p.fill('#answer-form input[data-field="prisoners taken"]', "99"))
                page.wait_for_function("!document.getElementById('refusal').hidden || "
                                       "document.getElementById('status').className === 'bad' || "
                                       "document.getElementById('form-error')?.textContent", timeout=20000)
                assert page.is_visible("#refusal"), (_status(page), page.text_content("#answer-form"))
                r = page.text_content("#refusal")
                assert "ILLEGAL_RESULT" in r and "SOG 3.1.3" in r and "{" not in r, r
                page.wait_for_selector("#choices button.choice", timeout=20000)
                cs[:] = _choices(page)
            want = bot(name, cmds)
            return next((c for c, m in zip(cs, cmds) if m == want), cs[0])

        _play(site, {"sog": sog, "nva": nva}, gid, pick, how, timeout=240)
        first = gid
        for _ in range(3):   # the dice follow the game id: a game may end (the team lost) before an action's result
            if refused["done"]:
                break
            for p, name in ((sog, "sog"), (nva, "nva")):
                _finish(p, site, gid, tmp_path, name)
            (cx, sog), (cy, nva) = _open(browser, site.base, errors), _open(browser, site.base, errors)
            more += [cx, cy]
            gid = _create(sog, nva, "sog", "sog")
            _join(nva, gid)
            _play(site, {"sog": sog, "nva": nva}, gid, pick, how, timeout=240)
        print("SOG answers given:", how, "in", 1 + len(more) // 2, "games")
        assert refused["done"]
        # the team written in the form is the one in the log
        from afteraction.engine.protocol import parse_record
        from afteraction.v1 import envelope_pb2
        teams = [envelope_pb2.CommandEnvelope.FromString(parse_record(r.raw).body["env"]).command.sog.organise
                 for r in site.run.service.games.store.records(first, 0, 200)
                 if parse_record(r.raw).kind == "command" and "env" in parse_record(r.raw).body]
        teams = [t for t in teams if len(t.members)]
        assert len(teams) == 1, teams
        n, letter = refused["team"]
        assert len(teams[0].members) == n and teams[0].members[-1].letter == letter, (teams[0], refused)
        assert teams[0].members[-1].weapon == "PST1", teams[0]
        assert how.get("place", 0) + how.get("place+pick", 0) >= 1, how   # insertion, the LZ, moves: on the map
        assert how.get("form", 0) >= 2, how                               # the team, the results
        for p, name in ((sog, "sog"), (nva, "nva")):
            _finish(p, site, gid, tmp_path, name)
        _shot(sog, "end")
        BUILD.mkdir(exist_ok=True)
        sog.screenshot(path=str(BUILD / "web-map-sog-end.png"), full_page=True)
        assert not [e for e in _unexpected(errors) if "ILLEGAL_RESULT" not in e and "ILLEGAL_TEAM" not in e and " 400 " not in e
                    and not e.startswith("400 ")], errors
    finally:
        for c in [ca, cb] + more:
            c.close()


def test_gmv_a_whole_two_turn_game_on_the_map_and_in_forms(browser, site, tmp_path):
    errors: list = []
    ca, us = _open(browser, site.base, errors)
    cb, nva = _open(browser, site.base, errors)
    how: dict = {}
    rng = random.Random(46)
    more: list = []   # the contexts of further games, if the first has no casualties to choose
    try:
        gid = _new_gmv(us, nva)
        _shoot_as(us, "gmv")

        refused: dict = {}

        def pick(name, page, cs):
            if name == "us":
                _shot(page, "start")
            first = command_pb2.Command.FromString(base64.b64decode(cs[0]["command"])).gmv
            if not refused and first.WhichOneof("action") == "casualties" and first.casualties.unit_ids:
                # casualties are an answer space (GMV Combat): one too many, written in the form
                # (the last unit added again), is refused in words with the rule; then asked again
                refused[name] = True
                _by_form(page, cs[0]["i"], lambda p: p.click('#answer-form [data-list="unit ids"] > button.add'))
                page.wait_for_selector("#refusal:not([hidden])", timeout=20000)
                r = page.text_content("#refusal")
                # the rule in words: combat casualties (GMV Combat) or blind bombing's (GMV Phase 2),
                # whichever the game's dice bring first
                assert "BAD_CASUALTIES" in r and "{" not in r, r
                assert re.search(r"GMV (Combat: the owner chooses|Phase 2 blind bombing casualties: choose) exactly \d", r), r
                page.wait_for_selector("#choices button.choice", timeout=20000)
                cs = _choices(page)
            return rng.choice(cs)
        _play(site, {"us": us, "nva": nva}, gid, pick, how, timeout=900)
        for _ in range(2):   # the dice follow the game id: a game may bring no casualties to choose
            if refused:
                break
            (cx, us), (cy, nva) = _open(browser, site.base, errors), _open(browser, site.base, errors)
            more += [cx, cy]
            gid = _new_gmv(us, nva)
            _play(site, {"us": us, "nva": nva}, gid, pick, how, timeout=900)
        from afteraction.client.client import Client
        assert json.loads(Client(site.target).state(gid).outcome_json)["turn"] == 2   # both turns played
        print("GMV answers given:", how)
        assert refused, "no casualties were chosen in this game"
        assert how.get("piece+place", 0) + how.get("piece+place+pick", 0) + how.get("piece+pick", 0) >= 1, how
        assert sum(how.values()) >= 20, how
        # the zone cards carry their ids, the stacks their units' ids
        assert us.locator('#board .place[class~="p:laos_north"]').count() == 1
        assert "[laos_north]" in us.text_content("#board")
        for p, name in ((us, "us"), (nva, "nva")):
            _finish(p, site, gid, tmp_path, name)
        _shot(us, "end")
        BUILD.mkdir(exist_ok=True)
        us.screenshot(path=str(BUILD / "web-map-gmv-end.png"), full_page=True)
        assert not [e for e in _unexpected(errors) if "BAD_CASUALTIES" not in e and " 400 " not in e
                    and not e.startswith("400 ")], errors
    finally:
        for c in [ca, cb] + more:
            c.close()


def _new_gmv(us, nva) -> str:
    """A two-turn GMV game made by the US page, joined by the NVA page: its id."""
    us.select_option("#new-game", "gmv")
    us.fill("#new-options", '{"turns": 2}')
    gid = _create(us, nva, "gmv", "us")
    _join(nva, gid)
    return gid


def _map_moves(how: dict) -> int:
    """Answers given by a piece and a place clicked on the map."""
    return how.get("piece+place", 0) + how.get("piece+place+pick", 0)


def test_ntnd_a_tet_turn_on_the_map_and_in_forms(browser, site, tmp_path):
    from afteraction.cli.main import main
    from afteraction.client.client import Client

    errors: list = []
    ca, com = _open(browser, site.base, errors)
    cb, al = _open(browser, site.base, errors)
    how: dict = {}
    rng = random.Random(46)
    try:
        gid = _create(com, al, "ntnd", "communist")
        _join(al, gid)
        com.wait_for_selector("#choices button.choice", timeout=60000)
        _shoot_as(com, "ntnd")
        _shot(com, "recruit")
        # the hex numbers, as on the printed map
        assert "1609" in com.text_content("#board") and com.locator("#board .hexnum").count() > 100

        first = json.loads(Client(site.target).state(gid).view_json).get("turn")

        def turn_over(client):
            return json.loads(client.state(gid).view_json).get("turn") != first

        def pick(name, page, cs):
            # a person ends a phase after some moves: prefer choices that name something on the map
            # until the map has been played enough, then mostly the plain ones (done, pass), so the
            # turn ends in a few minutes on two cores
            named = [c for c in cs if c["refs"]]
            plain = [c for c in cs if not c["refs"]]
            if plain and _map_moves(how) >= 8 and rng.random() < 0.9:
                return rng.choice(plain)
            return rng.choice(named if named and rng.random() < 0.8 else cs)

        t0 = time.time()
        _play(site, {"communist": com, "allied": al}, gid, pick, how, timeout=1500, stop=turn_over)
        print(f"NTND Tet turn 1 answers given: {how} in {time.time() - t0:.0f} s")
        assert how.get("piece+place", 0) + how.get("piece+place+pick", 0) >= 5, how
        assert how.get("place", 0) + how.get("place+pick", 0) >= 1, how
        BUILD.mkdir(exist_ok=True)
        com.screenshot(path=str(BUILD / "web-map-ntnd-turn.png"), full_page=True)
        com.click("#resign")
        com.click("#resign")
        _finish(com, site, gid, tmp_path, "ntnd")
        _shot(com, "end")
        assert "a seat resigned" in com.text_content("#end")
        assert main(["verify", str(tmp_path / "ntnd.aar"), "--server-key", site.run.vkey]) == 0
        assert not [e for e in _unexpected(errors) if " 400 " not in e and not e.startswith("400 ")], errors
    finally:
        ca.close()
        cb.close()
