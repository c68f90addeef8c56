"""The web client (`aar serve --web-listen`) runs only its own code, whatever
the server says. A game is created whose genesis carries hostile match data (a label and player
names the server stores as the creator sent them); a spectator's page (headless Chromium, the
page's Content-Security-Policy in force: no bypass) then talks to a hostile server: playwright
answers for it (``page.route``), with hostile ruleset and seat names (ListRulesets), a hostile
prompt (GetState) and a board picture, summary and words (``/ui/board``) that carry scripts,
handlers, links, a <style> that would hide the verdict, foreign content and a forged status. The
page must draw the board's shapes and text, show every hostile string as text, run none of it, hold
no element it did not make, and still show its own verdict, visible and once.

Without a browser these tests skip (AAR_REQUIRE_BROWSER=1 makes them fail)."""
from __future__ import annotations

import json
import urllib.request

import pytest

from afteraction.v1 import game_service_pb2 as gs

HOSTILE = [
    '<img src=x onerror="window.__pwned=\'img\';document.title=\'PWNED\'">',
    '</script><script>window.__pwned="script"</script>',
    '"\'><svg onload="window.__pwned=\'svg\'"><style>#status{display:none}</style>',
    "<!--<b>comment</b>-->&amp;&lt;",
]

#: the board picture of a hostile server: the render modules' kind of SVG (a rect, a text) with
#: everything a picture must not bring
EVIL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
            '<rect x="0" y="0" width="200" height="100" fill="#eee" onclick="window.__pwned=\'rect\'"/>'
            '<script>window.__pwned="svg-script"</script>'
            '<style>#status{display:none} #board::after{content:"verified"}</style>'
            '<foreignObject width="200" height="50"><div xmlns="http://www.w3.org/1999/xhtml" id="status" class="ok">'
            'checked in this browser: forged<img src="x" onerror="window.__pwned=\'fo\'"/></div></foreignObject>'
            '<image href="x" onerror="window.__pwned=\'image\'"/>'
            '<a href="javascript:window.__pwned=\'a\'"><text x="1" y="20">click</text></a>'
            '<animate onbegin="window.__pwned=\'animate\'" attributeName="x" dur="1s"/>'
            '<text x="5" y="60">hostile &lt;img src=x onerror=alert(1)&gt;</text></svg>')

WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));"""

AUDIT = """(() => {
  const bad = [];
  for (const el of document.body.querySelectorAll("*")) {
    for (const a of el.attributes) if (/^(on.*|href|src|srcdoc|action|formaction|style|xlink:href)$/i.test(a.name)) bad.push(el.localName + "[" + a.name + "]");
    if (["img", "iframe", "object", "embed", "foreignObject", "image", "a", "animate", "set", "use", "link", "meta", "base",
         "form", "script", "style"].includes(el.localName)) bad.push(el.localName);
  }
  const s = document.getElementById("status");
  return {bad, pwned: window.__pwned === undefined ? null : String(window.__pwned), title: document.title,
          violations: window.__violations, status: s.textContent, visible: s.checkVisibility(),
          statuses: document.querySelectorAll("[id=status]").length, scripts: document.scripts.length,
          styles: document.querySelectorAll("style").length, dropped: document.getElementById("board").dataset.dropped};
})()"""


def _rpc(route, message_type, change):
    """Answers a Connect unary call (binary protobuf) with the real answer, changed."""
    r = route.fetch()
    msg = message_type.FromString(r.body())
    change(msg)
    headers = {k: v for k, v in r.headers.items() if k.lower() not in ("content-length", "content-encoding")}
    route.fulfill(status=r.status, headers=headers, body=msg.SerializeToString())


def _hostile_rulesets(m: gs.ListRulesetsResponse) -> None:
    info = m.rulesets.add()
    info.CopyFrom(m.rulesets[0])
    info.game = HOSTILE[0]
    del info.seats[:]
    info.seats.extend(HOSTILE[1:3])
    info.options_json = HOSTILE[3]


def _hostile_state(m: gs.GetStateResponse) -> None:
    m.decision.seat = HOSTILE[1]
    m.decision.prompt = HOSTILE[0]


def test_a_hostile_server_shows_as_text_and_runs_nothing(browser, site):
    from afteraction.client.client import Client
    from afteraction.engine.seat import SeatSigner

    head = urllib.request.urlopen(site.base + "/", timeout=30)
    csp = head.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert "script-src 'self'" in head.read().decode()  # the page's own <meta> says the same
    keys = {s: SeatSigner(s, bytes([i + 7]) * 32).public for i, s in enumerate(("sog", "nva"))}
    with Client(site.target) as c:
        gid = c.create_game("sog", keys, match=gs.MatchInfo(label=HOSTILE[0], players={"sog": HOSTILE[1], "nva": HOSTILE[3]})).game_id
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})  # no bypass_csp: the policy is in force
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(WATCH)
    page.route("**/afteraction.v1.GameService/ListRulesets", lambda r: _rpc(r, gs.ListRulesetsResponse, _hostile_rulesets))
    page.route("**/afteraction.v1.GameService/GetState", lambda r: _rpc(r, gs.GetStateResponse, _hostile_state))
    page.route("**/ui/board", lambda r: r.fulfill(status=200, content_type="application/json",
                                                  body=json.dumps({"svg": EVIL_SVG, "summary": HOSTILE, "choices": HOSTILE})))
    try:
        page.goto(f"{site.base}/#watch={gid}")
        page.wait_for_selector("#board svg", timeout=30000)
        page.wait_for_selector("#status[data-records]", state="attached", timeout=30000)
        a = page.evaluate(AUDIT)
        assert a["pwned"] is None and "PWNED" not in a["title"], a
        assert a["bad"] == [] and a["scripts"] == 1 and a["styles"] == 0, a
        assert a["statuses"] == 1 and a["visible"] and a["status"].startswith("checked in this browser: 1 records"), a
        # what the picture brought is dropped (script, style, foreignObject, image, a, animate, the
        # rect's handler); the only violations are of the inert document it was parsed in (dom.ts)
        assert a["dropped"] == "7", a
        assert all(v.split()[0] in ("script-src-attr", "style-src-elem") for v in a["violations"]), a["violations"]
        assert page.locator("#board svg rect").count() == 1
        assert "hostile <img src=x onerror=alert(1)>" in page.text_content("#board svg")
        summary = page.inner_text("#summary")
        assert all(s in summary for s in HOSTILE), summary
        assert HOSTILE[0] in page.inner_text("#prompt") and HOSTILE[1] in page.inner_text("#prompt")
        options = page.eval_on_selector_all("#new-game option", "(os) => os.map((o) => [o.value, o.textContent])")
        assert [HOSTILE[0], HOSTILE[0]] in options
        assert errors == [], errors
    finally:
        ctx.close()
