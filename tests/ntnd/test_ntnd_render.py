"""NTND map rendering (SVG) and the `aar render` command."""
from __future__ import annotations

from afteraction.client.cli import main
from afteraction.engine.games.ntnd.render import render_svg
from afteraction.engine.games.ntnd.rules import NtndRuleset
from afteraction.engine.local import LocalGame


def _start():
    g = LocalGame.create("ntnd", seed=b"tests/ntnd/render")
    g.handshake()
    return g


def test_ntnd_render_draws_terrain_towns_and_units_without_hidden_identities():
    g = _start()
    s = g.referee.state
    rs = NtndRuleset()
    svg = render_svg(rs.view(s, "allied"))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "Saigon" in svg and "Khe Sanh" in svg and "#77a35a" in svg  # a city, a town, jungle colour
    hidden = {u for mk in s["markers"].values() for u in mk["units"]}
    assert hidden and not any(f">{u} " in svg or f"{u} " in svg for u in hidden)
    assert all(f"{mid}?" in svg for mid in s["markers"])
    com = render_svg(rs.view(s, "communist"))
    assert any(u in com for u in hidden)


def test_ntnd_aar_render_writes_an_svg_of_a_bundle(tmp_path):
    from .test_ntnd_game import played_game
    g = played_game()[0]
    f = tmp_path / "g.aar"
    f.write_bytes(g.bundle())
    out = tmp_path / "m.svg"
    assert main(["render", str(f), "--at", "10", "--seat", "allied", "-o", str(out)]) == 0
    assert out.read_text().startswith("<svg")
    assert main(["render", str(f), "--at", "99999", "-o", str(out)]) == 2
