"""`aar render`: an unknown seat is refused in one line; after the end every view,
the spectator's too, shows what was hidden (the secret is public then); before it, not."""
from __future__ import annotations

from conftest import REPO

from afteraction.cli.main import main
from afteraction.cli.render_cmd import revealed_seat
from afteraction.engine.log.bundle import read_bundle

NTND = REPO / "fixtures" / "golden" / "ntnd-tet.aar"
GMV = REPO / "fixtures" / "golden" / "gmv.aar"


def test_render_refuses_a_seat_the_game_does_not_have(tmp_path, capsys):
    assert main(["render", str(NTND), "--seat", "nva", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "aar render: ntnd has seats communist, allied (or spectator), not 'nva'"
    assert not (tmp_path / "x.svg").exists()


def test_the_seat_that_held_hidden_values_is_found_from_the_log():
    with open(NTND, "rb") as f:
        assert revealed_seat(list(read_bundle(f)[1]), ("communist", "allied")) == "communist"
    with open(GMV, "rb") as f:
        assert revealed_seat(list(read_bundle(f)[1]), ("us", "nva")) == "nva"


def test_after_the_end_the_spectator_picture_shows_what_was_hidden(tmp_path, capsys):
    with open(NTND, "rb") as f:
        n = len(list(read_bundle(f)[1]))
    pics = {}
    for name, argv in (("spectator-end", []), ("communist-end", ["--seat", "communist"]),
                       ("allied-end", ["--seat", "allied"]),
                       ("spectator-before", ["--at", str(n - 40)]), ("communist-before", ["--at", str(n - 40), "--seat", "communist"])):
        out = tmp_path / f"{name}.svg"
        assert main(["render", str(NTND), *argv, "-o", str(out)]) == 0
        pics[name] = out.read_text()
    capsys.readouterr()
    import re

    body = lambda s: re.sub(r"as seen by [^<]*", "", s)  # noqa: E731 - the drawing, without whose it is
    assert "what was hidden is shown" in pics["spectator-end"]
    assert body(pics["spectator-end"]) == body(pics["communist-end"]) == body(pics["allied-end"])
    assert body(pics["spectator-before"]) != body(pics["communist-before"])  # before the end it stays hidden
