"""NTND map rendering (SVG) and the `aar render` command."""
from __future__ import annotations

from afteraction.cli.main import main
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


def test_ntnd_aar_render_draws_a_live_game_on_a_server_as_spectator_and_as_the_communist_seat(tmp_path):
    """`aar render GAME`: the server's GetState view (seat-authenticated with the seat's key, or the
    public view) is drawn; the spectator's picture holds no inverted marker's identity."""
    from afteraction.client.client import Client, Seat, new_seat_key
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
