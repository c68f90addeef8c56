"""The replay page of `aar view` runs only its own code, whatever the log
says. A dishonest server re-signs logs (tests/client/forge.py: re-chained, every checkpoint signed
again with the server's key) with hostile strings (a handler in an <img>, a closing </script>,
the page's own template markers, quotes, a <style> that would hide the verdict) in every string
field and every roll face; each log is opened in Chromium (tests/browsers.py) and stepped through
record by record with every derivation open, and the page must show its verdict, run no injected
script (each payload would set window.__pwned or the title), see no violation of its policy (no
injected element even tried to run or load), and hold no element that the page did not make.

A game in progress has no secret, so no step checks a public command's roll events against the
dice: the hostile last record of such a log verifies (`aar verify` and `aar view` exit 0), and the
page says so. Without a browser these tests skip (AAR_REQUIRE_BROWSER=1 makes them fail)."""
from __future__ import annotations

import io
import itertools
import json
import pathlib
import re

import pytest

from browsers import launched
from afteraction.cli.main import main
from afteraction.cli.view import page
from afteraction.engine.log.bundle import read_bundle, write_bundle

from .forge import reforge_records
from .golden_pages import golden_data

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOG = ROOT / "fixtures" / "golden" / "sog.aar"
SEED = b"golden/sog/5"

#: each would run code, load something, hide the verdict or break the page if it reached the page
#: as markup or as part of its template
HOSTILE = [
    '<img src=x onerror="window.__pwned=\'img\';document.title=\'PWNED\'">',
    '</script><script>window.__pwned="script"</script>',
    "/*%%DATA%%*/", "/*%%SCRIPT%%*/", "%%CSP%%", "%%TITLE%%",  # the page's template markers, now and before
    '"\'><svg onload="window.__pwned=\'svg\'"><style>#summary{display:none}</style>',
    '<!--<script>window.__pwned="comment"</script>-->',
    "\u2028\u2029&amp;&lt;<b>bold</b>",
    "javascript:window.__pwned='url'",
]

#: run before the page's own script (playwright's init script, not subject to the page's policy):
#: records every violation of the page's Content-Security-Policy
WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));"""

#: what the page may hold: its two <script> elements (the data, its own code), its <style>, and no
#: element of the kinds a payload brings nor any attribute that is a handler, a link, a source or a style
AUDIT = """(() => {
  const bad = [];
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) if (/^(on.*|href|src|srcdoc|action|formaction|style|xlink:href)$/i.test(a.name)) bad.push(el.localName + "[" + a.name + "]");
    if (["img", "iframe", "object", "embed", "foreignObject", "image", "a", "animate", "set", "use", "link", "meta", "base", "form"].includes(el.localName)
        && !(el.localName === "meta" && el.parentElement === document.head)) bad.push(el.localName);
  }
  const summary = document.getElementById("summary");
  return {bad, scripts: document.scripts.length, styles: document.querySelectorAll("style").length,
          pwned: window.__pwned === undefined ? null : String(window.__pwned), title: document.title,
          violations: window.__violations, summary: summary.textContent, visible: summary.checkVisibility(),
          summaries: document.querySelectorAll("#summary").length};
})()"""


def _hostile(v, cyc, keep=("t",)):
    """Every string in ``v`` (not the keys named in ``keep``) one of HOSTILE, in turn."""
    if isinstance(v, str):
        return next(cyc)
    if isinstance(v, list):
        return [_hostile(x, cyc, keep) for x in v]
    if isinstance(v, dict):
        return {k: (x if k in keep else _hostile(x, cyc, keep)) for k, x in v.items()}
    return v


def _prefix(tmp_path, n: int) -> pathlib.Path:
    """The first ``n`` records of the SOG golden log, exported without the secret (a game in progress)."""
    with open(SOG, "rb") as f:
        header, frames = read_bundle(f)
        frames = list(frames)[:n]
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], frames, n, None)
    p = tmp_path / f"prefix-{n}.aar"
    p.write_bytes(buf.getvalue())
    return p


def last_record_hostile(recs):
    """The server writes the events of the last record (a contact roll, SOG 3.5) with hostile
    strings in every string field and every roll face, and one more field with a hostile name:
    nobody has signed after it, and in a game in progress no step checks public roll events."""
    cyc = itertools.cycle(HOSTILE)
    body = recs[-1][1]
    body["events"] = [_hostile(e, cyc) for e in body["events"]]
    for e in body["events"]:
        if e["t"] == "roll":
            e["faces"] = HOSTILE[:2]
            e["result"] = HOSTILE[2]
        else:
            e[HOSTILE[0]] = HOSTILE[1]
    return recs


def every_record_hostile(recs):
    """Every string of every record body hostile (the seat envelopes and signatures the server
    cannot make are kept), every roll face, one more event whose type is hostile in each record,
    and genesis given hostile match data (SPEC.md 1.3)."""
    cyc = itertools.cycle(HOSTILE)
    out = []
    for i, (kind, body) in enumerate(recs):
        if i == 0:
            body = {**body, "scenario": HOSTILE[0],
                    "match": {"label": HOSTILE[1], "players": {"sog": HOSTILE[3], "nva": HOSTILE[4]}}}
        else:
            body = {k: (v if k in ("env", "sig") else _hostile(v, cyc, ("t",) if k == "events" else ()))
                    for k, v in body.items()}
            for e in body["events"]:
                if e["t"] == "roll":
                    e["faces"] = HOSTILE
            body["events"].append({"t": next(cyc), next(cyc): next(cyc)})
        out.append([kind, body])
    return out


def ended_roll_hostile(recs):
    """An ended game (the secret is published): record 10's roll faces and rule hostile, so the page
    re-derives the die, fails it and shows the derivation beside what the log says; aar view's
    verifier names the faces in its verdict, which the page carries as data."""
    body = recs[10][1]
    roll = next(e for e in body["events"] if e["t"] == "roll")
    roll["faces"] = [HOSTILE[0], HOSTILE[3], HOSTILE[1]]  # a handler, the script marker, </script>
    roll["rule"] = HOSTILE[5]
    return recs


@pytest.fixture(scope="module")
def browser():
    yield from launched(())


@pytest.fixture(scope="module")
def tab(browser):
    p = browser.new_page(viewport={"width": 1400, "height": 900})
    p.add_init_script(WATCH)
    yield p
    p.close()


def _open_and_step(p, path: pathlib.Path) -> list[dict]:
    """Loads the page, steps to every record with every <details> open; the audit after each step."""
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(path.resolve().as_uri())
    p.wait_for_selector('body[data-checked="done"]', state="attached", timeout=20000)
    audits = []
    for n in range(int(p.evaluate("document.getElementById('slider').max")) + 1):
        p.evaluate(f"aar.go({n}); document.querySelectorAll('details').forEach((d) => {{ d.open = true; }})")
        audits.append(p.evaluate(AUDIT))
    assert errors == [], errors
    return audits


def _no_injection(audits: list[dict], inert: bool = False) -> None:
    """No payload ran or reached the page; ``inert``: a picture carrying handlers and a style was
    parsed (dom.ts's picture, in an inert document of its own, which the page's policy also
    covers: its handlers and style are refused there, reported as violations, and never copied)."""
    for n, a in enumerate(audits):
        assert a["pwned"] is None and "PWNED" not in a["title"], (n, a)
        if inert:
            # (style-src-attr: the styled <parsererror> Chromium makes of a picture that does not parse)
            kinds = {v.split()[0] for v in a["violations"]}
            assert kinds <= {"script-src-attr", "style-src-elem", "style-src-attr"}, (n, a["violations"])
        else:
            assert a["violations"] == [], (n, a["violations"])  # nothing injected even tried to run or load
        assert a["bad"] == [] and a["scripts"] == 2 and a["styles"] == 1, (n, a)
        assert a["visible"] and a["summaries"] == 1, (n, a)  # the verdict is on the page, once, visible


def test_a_hostile_last_record_verifies_and_the_page_runs_none_of_it(tab, tmp_path):
    log, out = tmp_path / "last.aar", tmp_path / "last.html"
    log.write_bytes(reforge_records(_prefix(tmp_path, 11), SEED, last_record_hostile))
    assert main(["verify", str(log)]) == 0  # the point: such a log verifies
    assert main(["view", str(log), "-o", str(out)]) == 0
    audits = _open_and_step(tab, out)
    _no_injection(audits)
    assert audits[-1]["summary"].startswith("\u2714 verified in this browser: 11 records chained, 11 checkpoints")
    assert audits[-1]["title"].startswith("afteraction replay: sog/1 game ")
    tab.evaluate("aar.go(10)")
    ev = tab.inner_text("#events")
    for s in HOSTILE[:3]:  # shown as what it is: text
        assert s in ev, s
    assert tab.get_attribute('#events .ev[data-t="roll"] .die', "data-face") == HOSTILE[0]


def test_hostile_strings_in_every_record_show_the_verdict_and_run_nothing(tab, tmp_path):
    log, out = tmp_path / "every.aar", tmp_path / "every.html"
    log.write_bytes(reforge_records(_prefix(tmp_path, 11), SEED, every_record_hostile))
    assert main(["view", str(log), "-o", str(out)]) == 1
    audits = _open_and_step(tab, out)
    _no_injection(audits)
    assert audits[-1]["summary"].startswith("\u2718 NOT VERIFIED by this page")


def test_a_hostile_roll_in_an_ended_game_fails_its_derivation_as_text(tab, tmp_path):
    log, out = tmp_path / "ended.aar", tmp_path / "ended.html"
    log.write_bytes(reforge_records(SOG, SEED, ended_roll_hostile))
    assert main(["view", str(log), "-o", str(out)]) == 1
    audits = _open_and_step(tab, out)
    _no_injection(audits)
    assert re.match("\u2718 NOT VERIFIED by this page: \\d+ check\\(s\\) failed, the first at record 10$",
                    audits[-1]["summary"])
    tab.evaluate("aar.go(10); document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    deriv = tab.inner_text('#events .ev[data-t="roll"] .deriv')
    logged = json.dumps([HOSTILE[0], HOSTILE[3], HOSTILE[1]], separators=(",", ":"))
    assert "derived faces [9]; the log says " + logged in deriv
    assert tab.locator("#events .die.badface").count() == 3


def test_a_board_picture_is_drawn_through_its_list_of_shapes(tab, tmp_path):
    """The board pictures come from the file (aar view's rules replay): a page whose pictures were
    edited to carry scripts, handlers, links, styles and foreign content draws the board's shapes
    and text and drops the rest, and says how much it dropped; a golden page drops nothing."""
    data = golden_data("sog.aar")
    frames = data["board"]["frames"]
    at = next(i for i, f in enumerate(frames) if f)
    evil = ('<script>window.__pwned="svg-script"</script>'
            '<foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="window.__pwned=\'fo\'"/></foreignObject>'
            '<image href="x" onerror="window.__pwned=\'image\'"/>'
            '<a href="javascript:window.__pwned=\'a\'"><text x="1" y="1">click</text></a>'
            '<style>#summary{display:none}</style>'
            '<rect x="1" y="1" width="5" height="5" onclick="window.__pwned=\'rect\'" fill="url(http://example.invalid/x)"/>'
            '<animate onbegin="window.__pwned=\'animate\'" attributeName="x" dur="1s"/>'
            '<text x="2" y="2">hostile &lt;img src=x onerror=alert(1)&gt;</text>')
    frames[at] = {**frames[at], "~evil": evil, "~escape": '</svg><svg onload="window.__pwned=\'escape\'">'}
    out = tmp_path / "board.html"
    out.write_text(page(data), encoding="utf-8")
    audits = _open_and_step(tab, out)
    _no_injection(audits, inert=True)
    assert audits[-1]["summary"].startswith("\u2714 verified in this browser")
    tab.evaluate(f"aar.go({at})")
    # dropped: script, foreignObject, image, a, style, animate, the rect's onclick and its url() fill
    assert tab.get_attribute("#board", "data-dropped") == "8"
    assert "not part of a board picture" in tab.inner_text("#board")
    # a layer that closes the <svg> it is parsed in is not well-formed: not drawn, and said
    assert "layer ~escape: the picture is not well-formed XML" in tab.inner_text("#board")
    assert "hostile <img src=x onerror=alert(1)>" in tab.text_content("#board svg")
    assert tab.locator("#board svg rect").count() > 100  # the map is drawn
    good = tmp_path / "good.html"
    good.write_text(page(golden_data("sog.aar")), encoding="utf-8")
    tab.goto(good.resolve().as_uri())
    tab.wait_for_selector('body[data-checked="done"]', state="attached", timeout=20000)
    for n in range(at, len(frames), 5):
        tab.evaluate(f"aar.go({n})")
        assert tab.get_attribute("#board", "data-dropped") == "0", n


@pytest.mark.parametrize("log,seat", [("gmv.aar", "nva"), ("ntnd-tet.aar", "communist"), ("duel.aar", "a")])
def test_golden_pictures_lose_nothing(tab, tmp_path, log, seat):
    """Every element and attribute the render modules draw is on the picture list (dom.ts); the
    duel, which has no picture, shows its view as text."""
    data = golden_data(log, seat)
    out = tmp_path / "g.html"
    out.write_text(page(data), encoding="utf-8")
    tab.goto(out.resolve().as_uri())
    tab.wait_for_selector('body[data-checked="done"]', state="attached", timeout=60000)
    frames = data["board"]["frames"]
    first = next(i for i, f in enumerate(frames) if f)  # the first record with a board (after the handshake)
    for n in range(first, len(frames), max(1, len(frames) // 12)):
        tab.evaluate(f"aar.go({n})")
        assert tab.get_attribute("#board", "data-dropped") == "0", n
        assert tab.locator("#board svg rect" if log != "duel.aar" else "#board pre.view").count() > 0, n
