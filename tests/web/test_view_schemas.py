"""Each game's view is documented as a JSON schema (docs/views/<game>.schema.json): the
views of seeded bot games, for every seat and a spectator, as a web page gets them (the JSON of
GetStateResponse.view_json), all validate; a key the schema does not list at the top level, or a
value of another type, does not."""
from __future__ import annotations

import json
import pathlib

import jsonschema
import pytest

from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = {"sog": (("mission", None),), "gmv": (("1965", {"turns": 2}),), "ntnd": (("tet", None), ("campaign_short", None))}


def _schema(game: str) -> dict:
    s = json.loads((ROOT / "docs" / "views" / f"{game}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(s)
    return s


def _views(game: str, scenario: str, options, seed: bytes, n: int = 250):
    g = LocalGame.create(game, scenario=scenario, seed=seed, options=options)
    g.handshake()
    rs, bot = g.referee.ruleset, random_bot(7)
    for i in range(n):
        d = rs.pending(g.referee.state)
        if i % 5 == 0 or d is None:
            for seat in (None, *rs.seats):
                yield seat, i, json.loads(json.dumps(rs.view(g.referee.state, seat)))
        if d is None:
            return
        g.play(d.seat, bot(d.seat, list(rs.legal_commands(g.referee.state, d.seat))))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_view_of_a_bot_game_matches_its_documented_schema(game):
    v = jsonschema.Draft202012Validator(_schema(game))
    seen = 0
    for scenario, options in GAMES[game]:
        for seat, i, view in _views(game, scenario, options, b"view-schema-check"):
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in v.iter_errors(view)]
            assert not errors, (game, scenario, seat, i, errors[:5])
            seen += 1
    assert seen >= 20


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_view_with_an_unlisted_key_or_a_wrong_type_does_not(game):
    v = jsonschema.Draft202012Validator(_schema(game))
    scenario, options = GAMES[game][0]
    _, _, view = next(iter(_views(game, scenario, options, b"view-schema-check", 1)))
    assert not list(v.iter_errors(view))
    assert list(v.iter_errors({**view, "not_a_view_key": 1}))
    assert list(v.iter_errors({**view, "turn": "one"}))
