"""NTND map rendering (SVG) and the `aar render` command."""
from __future__ import annotations

from html import escape

from afteraction.cli.main import main
from afteraction.engine.games.ntnd.presentation.render import render_svg
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


def test_ntnd_aar_render_draws_a_live_game_on_a_server_as_spectator_and_as_the_communist_seat(tmp_path):
    """`aar render GAME`: the server's GetState view (seat-authenticated with the seat's key, or the
    public view) is drawn; the spectator's picture holds no inverted marker's identity."""
    from afteraction.client.client import Client, new_seat_key
    from afteraction.client.seat import Seat
    from afteraction.engine.bots import random_bot
    from afteraction.engine.seat import SeatSigner
    from afteraction.service.server import start

    run = start("127.0.0.1:0", f"sqlite:{tmp_path / 's.sqlite'}", None, str(tmp_path))
    target = f"127.0.0.1:{run.port}"
    try:
        with Client(target) as c:
            keys = {s: new_seat_key() for s in ("communist", "allied")}
            gid = c.create_game("ntnd", {s: SeatSigner(s, k).public for s, k in keys.items()}).game_id
            seats = {s: Seat(Client(target), gid, s, keys[s]) for s in keys}
            choose = random_bot("tests/ntnd/live-render")
            for seat in seats.values():  # the entropy handshake: every seat commits, then every seat reveals
                seat.submit(seat.sign_commit())
            for seat in seats.values():
                seat.submit(seat.sign_reveal())
            for _ in range(8):  # a few NTND commands, by whichever seat is to play
                st = seats["communist"].state()
                seat = seats[st.decision.seat]
                prompt = seat.legal()
                seat.submit(seat.sign_command(prompt.state_seq, choose(seat.seat, list(prompt.commands))))
            (tmp_path / "c.key").write_text(keys["communist"].hex())
            spec, com = tmp_path / "spec.svg", tmp_path / "com.svg"
            assert main(["render", gid, "--server", target, "-o", str(spec)]) == 0
            assert main(["render", gid, "--server", target, "--seat", "communist", "--key",
                         str(tmp_path / "c.key"), "-o", str(com)]) == 0
            assert main(["render", gid, "--server", target, "--seat", "communist", "-o", str(com)]) == 2
            assert main(["render", gid, "--server", target, "--at", "3", "-o", str(spec)]) == 2
            assert main(["render", "no-such-game", "--server", target, "-o", str(spec)]) == 2
            from afteraction.engine.crypto import canon
            view = canon.decode(seats["communist"].state().view)
            for seat in seats.values():
                seat.client.close()
    finally:
        run.stop(2)
    spec_svg, com_svg = spec.read_text(), com.read_text()
    assert spec_svg.startswith("<svg") and "Saigon" in spec_svg and "as seen by a spectator" in spec_svg
    markers = [m["id"] for m in view["markers"]]
    hidden = sorted({u["id"] for units in view["hidden"].values() for u in units})  # the Communist seat's view
    assert markers and hidden
    assert all(f"{mid}?" in spec_svg for mid in markers)
    import re
    assert [u for u in hidden if re.search(rf"(?<![\w-]){re.escape(u)}(?![\w-])", spec_svg)] == []
    assert all(re.search(rf"(?<![\w-]){re.escape(u)}(?![\w-])", com_svg) for u in hidden)
    assert "as seen by communist" in com_svg


# --------------------------------------------------------------------------- "Seeing it"

import re  # noqa: E402

import pytest  # noqa: E402

from afteraction.engine.games.ntnd.presentation import render as ntnd_render  # noqa: E402

from .campaign_states import camp, free, put  # noqa: E402

RS = NtndRuleset()


def _named(uid: str, svg: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", svg) is not None


def _hidden_ids(s) -> list[str]:
    return sorted({u for mk in s["markers"].values() for u in mk["units"]})


def test_ntnd_render_campaign_draws_the_political_track_and_the_hearts_and_minds_markers():
    s = camp()
    s["hm"]["II"] = "pro_communist"
    s["hm"]["LA"] = "allied_control"
    for seat in ("allied", "communist", None):
        svg = render_svg(RS.view(s, seat))
        assert f"Political track (22.4): {s['pp']} points" in svg
        assert "Hearts and Minds (7)" in svg
        assert "<title>II: pro_communist</title>" in svg and "<title>LA: allied_control</title>" in svg
        assert all(f"<title>{a}: {b}</title>" in svg for a, b in s["hm"].items())
    tet = render_svg(RS.view(_start().referee.state, "allied"))
    assert "Political track (22.4)" in tet and "Hearts and Minds (7)" not in tet and "Air units (11.2)" not in tet


def test_ntnd_render_draws_vc_bases_the_fleet_and_the_haiphong_mine():
    s = camp()
    base = put(s, free(s, "vc_base"), "1523")
    put(s, "us-fleet", "1709") if "us-fleet" in s["units"] else None
    svg = render_svg(RS.view(s, "allied"))
    assert f"<title>{base} vc_base</title>" in svg and ntnd_render.SIDE["base"][0] in svg
    if "us-fleet" in s["units"]:
        assert "<title>us-fleet us_fleet</title>" in svg and ntnd_render.SIDE["fleet"][0] in svg
    assert "MINED" not in svg and "haiphong_mined" not in RS.view(s, "allied")
    s["haiphong_mined"] = True
    view = RS.view(s, None)
    assert view["haiphong_mined"] is True
    assert "Haiphong Harbor Mined (14.2.2)" in render_svg(view)


def test_ntnd_render_aa_badge_only_where_the_view_shows_the_unit():
    """12: an AA-capable unit face up carries the badge in every view; inside an inverted marker only
    the Communist seat's picture shows it (or anything of it)."""
    from .test_ntnd_rules import blank, hide
    s = blank()
    put(s, "nva-sam-3", "1309")                            # face up
    mk = hide(s, ["nva-sam-1", "nva-304"], "1409")         # inverted, a SAM inside
    for seat in ("allied", None):
        svg = render_svg(RS.view(s, seat))
        assert svg.count('class="aa"') == 1 and "nva-sam-3 nva_sam (AA, 12)" in svg
        assert not _named("nva-sam-1", svg) and not _named("nva-304", svg) and f"{mk}?" in svg
    com = render_svg(RS.view(s, "communist"))
    assert com.count('class="aa"') == 2 and _named("nva-sam-1", com)


def test_ntnd_render_draws_air_units_from_the_views_air_key_defensively():
    """The view's ``air`` key of a campaign whose Air Operations phase flew a bombing, a ground support, an
    air supply and a helicopter transport mission (11.1.1-11.1.4, through the game's ``fly``): the
    Available and Unavailable boxes (11.2) listed, the attached helicopter on its ground unit's hex,
    ground support on its hex, this turn's bombed and air-supplied hexes marked; a missing or
    malformed key draws nothing and breaks nothing."""
    from .airplay import air_camp, at_phase, commie, fly, put, ready
    s = air_camp(1)
    put(s, "arvn-21div", "0825")
    commie(s, "vc_regiment", "0702")
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    fly(s, "bomb", "0702", [ready(s, "us-sac-1")], faces=[1])
    fly(s, "support", "1913", ["us-ftr-1", "us-ftr-2"])
    fly(s, "transport", "us-9mar", ["us-heli-1"])
    fly(s, "supply", "0825", ["us-soa"], faces=[1, 1, 1])
    view = RS.view(s, "allied")
    marines = next(u["loc"] for u in view["units"] if u["id"] == "us-9mar")
    parts = ntnd_render.layers(view)
    panel = parts["panel:3-air"]
    n_avail, n_unavail = len(view["air"]["available"]), len(view["air"]["unavailable"])
    assert n_unavail == 4 and f"Available ({n_avail})" in panel and "Unavailable (4)" in panel
    sac = next(u["name"] for u in view["air"]["units"] if u["id"] == "us-sac-1")
    assert escape(sac)[:24] in panel and "attached 1" in panel
    assert "us-heli-1 us_helicopter attached to us-9mar (11.1.4)" in parts[f"loc:{marines}"]
    assert "ground support: 2 hits for the battle here (11.1.2)" in parts["loc:1913"]
    assert "0702: strategically bombed this turn (11.4)" in parts["mark:air"]
    assert "0825: air supply this turn (11.1.3)" in parts["mark:air"]
    for bad in (None, 3, {"units": "x"}, {"units": [{"no": "id"}, {"id": 7}], "attached": {"x": 5}},
                {"bombed": 5, "supplied": {"turn": view["turn"], "hexes": [None, "nowhere"]}, "support": [7]}):
        view["air"] = bad
        assert render_svg(view).startswith("<svg")


def test_ntnd_render_montagnards_and_militia_in_their_own_style():
    view = RS.view(camp(), "allied")
    view["units"] = view["units"] + [{"id": "montagnard-1", "type": "montagnard", "name": "Montagnard",
                                      "nat": "MTG", "side": "allied", "loc": "1716", "corps": None, "status": "map"}]
    svg = render_svg(view)
    assert "<title>montagnard-1 montagnard</title>" in svg and ntnd_render.SIDE["montagnard"][0] in svg


@pytest.mark.parametrize("golden,at", [("ntnd-campaign-short.aar", 60), ("ntnd-campaign-short.aar", 200),
                                       ("ntnd-campaign-short.aar", 400), ("ntnd-campaign-short.aar", 486),
                                       ("ntnd-tet.aar", 60), ("ntnd-tet.aar", 300)])
def test_ntnd_render_golden_any_record_any_seat_never_draws_hidden_identities(golden, at):
    """Every seat's picture at records of the golden logs (Tet, short campaign): the Allied seat's and a
    spectator's never name a unit inside a marker (nor draw its AA badge: the two pictures are the
    same for a position whose markers hold other units, leakcheck.perturb); the Communist seat's
    names them all."""
    from client.test_render_games import _state_at  # tests/client (tests/ is on sys.path: conftest.py)

    from .leakcheck import perturb
    rs, s = _state_at(golden, at)
    hidden = _hidden_ids(s)
    com = render_svg(rs.view(s, "communist"))
    assert all(_named(u, com) for u in hidden)
    other = perturb(s)
    for seat in ("allied", None):
        svg = render_svg(rs.view(s, seat))
        assert ("Hearts and Minds (7)" in svg) is golden.startswith("ntnd-campaign")
        assert [u for u in hidden if _named(u, svg)] == []
        if other is not None:
            assert render_svg(rs.view(other, seat)) == svg
