"""Modules other code finds by a game's name and their role (``registry.game_module``): the picture
(``render``: aar render, aar view, the web page) and the words (``names``: engine/names.py's namer) of
every game that has them, wherever its package keeps them (NTND: presentation/, by its rulebook's parts).
A lookup that misses falls back quietly (a text view, the default namer), so only a test sees it."""
from __future__ import annotations

import pytest

from afteraction.engine import names, registry


@pytest.mark.parametrize("game", ["sog", "gmv", "ntnd"])
def test_every_drawn_game_has_its_picture_and_its_own_namer(game):
    assert callable(registry.game_module(game, "render").render_svg)
    assert names.namer_class(game) is not names.Namer
    assert names.namer_class(game) is registry.game_module(game, "names").Namer


def test_a_game_without_the_module_is_told():
    with pytest.raises(ModuleNotFoundError):
        registry.game_module("duel", "render")
    with pytest.raises(ModuleNotFoundError):
        registry.game_module("no_such_game", "names")
