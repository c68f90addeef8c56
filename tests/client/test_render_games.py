"""`aar render` for SOG and GMV (and the layer structure every game's render module shares, which
the replay page relies on), from the golden logs, for every seat at any record."""
from __future__ import annotations

import pathlib

import pytest

from afteraction.cli.main import main
from afteraction.cli.logwalk import load
from afteraction.engine import registry
from afteraction.engine.games.gmv import render as gmv_render
from afteraction.engine.games.ntnd.presentation import render as ntnd_render
from afteraction.engine.games.sog import render as sog_render
from afteraction.engine.log.verify import Verifier

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "golden"


def _state_at(name: str, at: int):
    header, frames, _ = load(str(GOLDEN / name))
    v = Verifier(header["server_vkey"], None, header["secret"], True, registry.get, header["game"])
    for raw, cp in frames[:at + 1]:
        v.add(raw, cp)
    return v.referee.ruleset, v.referee.state


def test_sog_render_draws_team_target_lzs_and_vc():
    rs, s = _state_at("sog.aar", 20)
    view = rs.view(s, None)
    svg = sog_render.render_svg(view)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert f"SOG team ({len(view['team']['members'])} men) at {view['team_at']}" in svg and f"mission target at {view['target']}" in svg
    assert all(f"VC counter {vc['n']}" in svg for vc in view["vc"]) and view["vc"]
    assert all(f">LZ{lz['n']}<" in svg for lz in view["lzs"])


def test_gmv_render_hides_hidden_nva_units_from_us_and_spectators():
    """GMV: the NVA seat's picture draws its hidden units (dashed); the US seat's and a spectator's
    never do, nor name them."""
    rs, s = _state_at("gmv.aar", 100)
    nva = gmv_render.render_svg(rs.view(s, "nva"))
    hidden = [u for u in rs.view(s, "nva")["hidden"]]
    assert hidden and "NVA hidden" in nva and all(f"{u['id']} {u['type']}" in nva for u in hidden)
    for seat in ("us", None):
        svg = gmv_render.render_svg(rs.view(s, seat))
        assert "NVA hidden" not in svg and not any(f">{u['id']} " in svg or f"{u['id']} {u['type']}" in svg
                                                   for u in hidden)
        assert "IPC" in svg and "Saigon" in svg
    assert "NVA: IPC" in nva and "NVA: IPC" not in gmv_render.render_svg(rs.view(s, "us"))


@pytest.mark.parametrize("mod,name,at", [(sog_render, "sog.aar", 12), (gmv_render, "gmv.aar", 60),
                                         (ntnd_render, "ntnd-tet.aar", 60)])
def test_render_svg_is_base_plus_layers_in_key_order(mod, name, at):
    """The page (aar view) draws base() once and the layers per record: the same picture."""
    rs, s = _state_at(name, at)
    view = rs.view(s, None)
    head, tail = mod.base()
    parts = mod.layers(view)
    assert parts and all(isinstance(v, str) for v in parts.values())
    assert mod.render_svg(view) == head + "".join(parts[k] for k in sorted(parts)) + tail


@pytest.mark.parametrize("name,seat", [("sog.aar", "sog"), ("sog.aar", "nva"), ("gmv.aar", "us"),
                                       ("gmv.aar", "nva"), ("gmv.aar", "spectator")])
def test_aar_render_sog_and_gmv_any_seat_any_record(tmp_path, name, seat):
    out = tmp_path / "b.svg"
    assert main(["render", str(GOLDEN / name), "--at", "12", "--seat", seat, "-o", str(out)]) == 0
    assert out.read_text().startswith("<svg") and f"after record 12 as seen by {seat if seat != 'spectator' else 'a spectator'}" in out.read_text()


def test_aar_render_refusals(tmp_path, capsys):
    out = tmp_path / "b.svg"
    assert main(["render", str(GOLDEN / "gmv.aar"), "--seat", "allied", "-o", str(out)]) == 2
    assert "gmv has seats us, nva (or spectator)" in capsys.readouterr().err
    assert main(["render", str(GOLDEN / "duel.aar"), "-o", str(out)]) == 2
    assert "not duel" in capsys.readouterr().err
    assert main(["render", str(GOLDEN / "sog.aar"), "--at", "2", "-o", str(out)]) == 2
    assert "no game state yet" in capsys.readouterr().err
