"""The league pages of ``aar serve --web-listen`` (clients/cli/league/web.py, docs/league.md "The
league's pages"): a league run on a real server (port 0), its page served at /league/<id> by the
same code as ``aar league view``, with the standings, crosstable, rounds and rating chart, each game
linked to its replay page (served too), and "recompute in this browser" agreeing in headless
Chromium; the page's policy is sent as a header; unknown leagues and games are 404. Browser tests
skip without chromium (tests/browsers.py)."""
from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from afteraction.cli.webpage import WebPage
from afteraction.client.league import LeagueClient
from service.test_league_service import ORG, new_league, play

from .conftest import WebServer


@pytest.fixture(scope="module")
def league_site(tmp_path_factory):
    """A server with the web page app attached, and a Swiss league of four over two rounds played."""
    page = WebPage()
    s = WebServer(tmp_path_factory.mktemp("league-site"), page=page)
    page.attach(s.run.service)
    try:
        with LeagueClient(s.target) as c:
            new_league(c, rounds=2)
            for _ in range(2):
                play(s.target, c.open_round("spring", ORG).games)
            games = c.games("spring").games
        yield s, games
    finally:
        s.stop()


def get(url: str):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode()


def test_the_league_page_is_served_with_its_own_policy(league_site):
    s, games = league_site
    status, headers, html = get(f"{s.base}/league/spring")
    assert status == 200 and headers["content-type"].startswith("text/html")
    csp = headers["content-security-policy"]
    assert "script-src 'sha256-" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert csp.startswith(html.split('Content-Security-Policy" content="')[1].split('"')[0])
    for part in ('id="standings"', 'id="crosstable"', "Round 2", 'class="chart"', 'id="recompute"'):
        assert part in html
    for g in games:   # every game linked to its replay page
        assert f'href="/league/spring/game/{g.game_id}"' in html
    status, headers, index = get(f"{s.base}/league/")
    assert status == 200 and 'href="/league/spring"' in index
    assert headers["content-security-policy"].count("frame-ancestors 'none'") == 1
    assert get(f"{s.base}/league/nothere")[0] == 404
    assert get(f"{s.base}/league/spring/game/nothere")[0] == 404


@pytest.fixture(scope="module")
def browser():
    from browsers import launched

    yield from launched()


def test_recompute_in_the_browser_on_the_served_page_and_a_replay_link(browser, league_site):
    s, games = league_site
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{s.base}/league/spring")
    page.click("#recompute")
    page.wait_for_function("document.getElementById('verdict').className !== ''", timeout=120000)
    assert page.inner_text("#verdict") == "recomputed in this browser: the same", page.inner_text("#checks")
    assert not errors
    page.click(f'a[href="/league/spring/game/{games[0].game_id}"]')
    page.wait_for_load_state()
    assert page.url.endswith(f"/league/spring/game/{games[0].game_id}")
    assert games[0].game_id in page.content() and not errors
    page.close()
