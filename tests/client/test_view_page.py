"""`aar view` without a browser: the page is one self-contained file (no external reference,
no network), embeds the log byte for byte, states as per-record layer diffs, and works for a
game in progress (no pictures, says why)."""
from __future__ import annotations

import base64
import io
import json
import pathlib
import re

from afteraction.cli.main import main
from afteraction.cli.logwalk import load
from .golden_pages import golden_data
from afteraction.engine.log.bundle import read_bundle, write_bundle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "golden"


def _data(html: str) -> dict:
    m = re.search(r'<script id="aar-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_page_is_self_contained_and_embeds_the_log_verbatim(tmp_path):
    out = tmp_path / "sog.html"
    assert main(["view", str(GOLDEN / "sog.aar"), "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "default-src 'none'" in html  # the CSP forbids every fetch
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html, re.I)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", html)  # only the SVG namespace name
    assert "@import" not in html and "url(" not in html
    header, frames, _ = load(str(GOLDEN / "sog.aar"))
    d = _data(html)
    assert [(base64.b64decode(r), cp) for r, cp in d["records"]] == frames
    assert base64.b64decode(d["secret"]) == header["secret"] and d["server_vkey"] == header["server_vkey"]
    assert d["cli"]["verified"] and d["seat"] is None
    assert d["cli"]["replayed_with"] == "sog/1"   # SPEC.md 10.4: the version genesis names, replayed


def test_a_development_version_page_says_it_was_not_replayed_and_why(tmp_path):
    out = tmp_path / "gmv-1.html"
    dev = GOLDEN.parent / "logs" / "development" / "gmv-1.aar"
    assert main(["view", str(dev), "-o", str(out)]) == 0
    d = _data(out.read_text(encoding="utf-8"))
    assert d["cli"]["verified"] and d["cli"]["replayed_with"] == "" and d["ruleset"] == "gmv/1"
    assert any("gmv/1 was a development version" in n and "947a2124d9a1" in n for n in d["cli"]["notes"])


def test_boards_are_layer_diffs_not_one_picture_per_record():
    d = golden_data("ntnd-tet.aar")
    b = d["board"]
    _, frames, _ = load(str(GOLDEN / "ntnd-tet.aar"))
    assert b["base"].startswith("<svg") and len(b["frames"]) == len(d["records"]) == len(frames)
    assert b["frames"][0] is None and b["frames"][4]  # genesis and handshake: no state; record 4 starts
    full = len(b["base"]) * len(b["frames"])
    diffs = sum(len(json.dumps(f)) for f in b["frames"] if f)
    assert diffs < full / 20, (diffs, full)
    # replaying the diffs gives every record's picture
    from afteraction.engine.games.ntnd.presentation import render
    layers: dict = {}
    for f in b["frames"][:60]:
        for k, v in (f or {}).items():
            if v is None:
                layers.pop(k, None)
            else:
                layers[k] = v
    assert b["base"] + "".join(layers[k] for k in sorted(layers)) + b["tail"] == \
        render.base()[0] + "".join(layers[k] for k in sorted(layers)) + render.base()[1]


def test_seat_views_differ_only_by_what_the_seat_may_see():
    spec = golden_data("gmv.aar")
    nva = golden_data("gmv.aar", "nva")
    s = json.dumps(spec["board"]["frames"])
    n = json.dumps(nva["board"]["frames"])
    assert "NVA hidden" in n and "NVA hidden" not in s


def test_game_in_progress_page(tmp_path):
    with open(GOLDEN / "ntnd-tet.aar", "rb") as f:
        header, frames = read_bundle(f)
        frames = list(frames)[:50]
    buf = io.BytesIO()
    write_bundle(buf, header["game"], header["server_vkey"], frames, len(frames), None)
    log = tmp_path / "progress.aar"
    log.write_bytes(buf.getvalue())
    out = tmp_path / "p.html"
    assert main(["view", str(log), "-o", str(out)]) == 0
    d = _data(out.read_text(encoding="utf-8"))
    assert d["secret"] is None and d["openings"] == {} and "game in progress" in d["board"]["error"]


def test_view_refusals(tmp_path, capsys):
    assert main(["view", str(GOLDEN / "sog.aar"), "--seat", "allied", "-o", str(tmp_path / "x.html")]) == 2
    assert "sog has seats sog, nva (or spectator)" in capsys.readouterr().err
    assert main(["view", str(tmp_path / "none.aar"), "-o", str(tmp_path / "x.html")]) == 2


#: strings a log may carry that would change the page if it were assembled by string replacement
#: or its data read as markup: the template's markers (today's and the title's of before), the end
#: of a script element, a comment opening, the line separators JavaScript once refused
TEMPLATE_BREAKERS = ["/*%%SCRIPT%%*/", "/*%%DATA%%*/", "%%CSP%%", "%%TITLE%%", "</script><script>x=1</script>",
                     "</SCRIPT >", "<!--<script>", "\u2028\u2029", "&amp;<>\"'"]


def test_data_cannot_change_the_template():
    """View.py put the data in before it replaced its script marker, so a log string
    equal to the marker broke the page. Every string here, anywhere in the data, comes back from
    the page's JSON block as it went in, and the page outside that block is the same as for the
    clean data (the same template, policy and script)."""
    from afteraction.cli.view import page

    data = golden_data("sog.aar")
    clean = page(data)
    data["game"] = TEMPLATE_BREAKERS[0]
    data["ruleset"] = TEMPLATE_BREAKERS[3]
    data["cli"]["failure"] = " ".join(TEMPLATE_BREAKERS)
    data["decisions"]["5"] = {s: s for s in TEMPLATE_BREAKERS}
    data["board"]["frames"][5] = {s: s for s in TEMPLATE_BREAKERS}
    html = page(data)
    assert _data(html) == data
    assert html.count('<script id="aar-data" type="application/json">') == 1
    outside = re.sub(r'(<script id="aar-data" type="application/json">).*?(</script>)', r"\1\2", html, flags=re.S)
    assert outside == re.sub(r'(<script id="aar-data" type="application/json">).*?(</script>)', r"\1\2", clean, flags=re.S)
    block = re.search(r'<script id="aar-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    assert not re.search(r"[<>&\u2028\u2029]", block)  # the JSON's escapes: nothing in it HTML reads as markup
    from afteraction.cli.view import MARKERS

    assert set(MARKERS) <= set(TEMPLATE_BREAKERS)  # every marker the template has is among the strings tried


def test_the_policy_runs_only_the_pages_own_script():
    """The page's Content-Security-Policy names its one inline script and its one style element by
    their SHA-256: no 'unsafe-inline', so no handler attribute or injected script runs; no network."""
    import hashlib

    from afteraction.cli.view import page

    html = page(golden_data("duel.aar"))
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1)
    rules = dict((d.split()[0], d.split()[1:]) for d in csp.split("; "))
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    styles = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert len(scripts) == 1 and len(styles) == 1
    sha = lambda s: "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"  # noqa: E731
    assert rules["default-src"] == ["'none'"] and rules["script-src"] == [sha(scripts[0])]
    assert rules["style-src"] == [sha(styles[0])] and "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert rules["base-uri"] == ["'none'"] and rules["form-action"] == ["'none'"]


def test_no_page_code_builds_markup_from_strings():
    """Both pages put what a log or a server says in as text: no innerHTML, outerHTML,
    insertAdjacentHTML or document.write in the replay page's script, the web client's sources
    or either built bundle, and no inline script or handler attribute in either template."""
    root = GOLDEN.parents[1]
    web = root / "clients" / "web"
    code = [root / "clients" / "cli" / "view_page.js", root / "clients" / "cli" / "view_lib.js",
            web / "static" / "app.js", *sorted((web / "src").rglob("*.ts"))]
    sinks = re.compile(r"\.(innerHTML|outerHTML|insertAdjacentHTML)\b|document\.write")
    found = [f"{p.relative_to(root)}: {m.group(0)}" for p in code for m in sinks.finditer(p.read_text(encoding="utf-8"))]
    assert found == []
    for tpl in (root / "clients" / "cli" / "view_page.html", web / "static" / "index.html"):
        html = tpl.read_text(encoding="utf-8")
        assert not re.search(r"<[^>]+\son\w+\s*=", html), tpl
        assert "unsafe-inline" not in html and "unsafe-eval" not in html, tpl
    assert re.findall(r"<script[^>]*>", (web / "static" / "index.html").read_text()) == \
        ['<script type="module" src="app.js">']
