"""Ruleset versions (engine/versions.py, SPEC.md 10.4): every released version of every game stays in
the registry, each game is played under the version its genesis names, and the documents list
exactly the versions the registry has. The golden logs (tests/verify/test_golden_logs.py) replay
each released version byte for byte."""
from __future__ import annotations

import io
import re

import pytest

from afteraction.engine import registry, versions
from afteraction.engine.errors import Rejection
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle

from conftest import REPO


def _released() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for game, version in registry.available():
        out.setdefault(game, []).append(version)
    return {g: tuple(v) for g, v in out.items()}


def test_the_first_stable_versions_are_released_and_new_games_play_the_newest():
    released = _released()
    for game, first in (("duel", "1"), ("sog", "1"), ("gmv", "2"), ("ntnd", "4")):
        assert released[game][0] == first              # never retired
        assert registry.get(game).version == released[game][-1]
        for v in released[game]:
            assert registry.get(game, v).version == v


@pytest.mark.parametrize("game,version", registry.available())
def test_setup_stamps_the_version_genesis_names(game, version):
    """The state of a game knows its version from setup on, so every Change asks the right one."""
    g = LocalGame.create(game, seed=f"versions/{game}/{version}".encode(), ruleset=registry.get(game, version))
    g.handshake()
    assert g.referee.genesis.body["ruleset"] == {"game": game, "version": version}
    assert g.referee.state[versions.KEY] == version


def test_a_change_is_asked_by_the_state_not_by_a_version_number():
    change = versions.Change("x", "1.2.3", since="5", what="a new reading")
    vs = versions.Versions("x", first_stable="4", development={"3": "abc"}, changes=(change,))
    assert vs.released == ("4", "5") and vs.newest == "5" and vs.changes_in("5") == (change,)
    assert not change.on(versions.stamp({}, "4"))
    assert change.on(versions.stamp({}, "5"))
    assert change.on({})                               # a test's hand-built state: the newest rules
    assert "development version" in vs.unavailable("3") and "abc" in vs.unavailable("3")
    assert "lists 4, 5" in vs.unavailable("9")
    with pytest.raises(ValueError):                    # a change never rewrites a released first version
        versions.Versions("x", first_stable="4", changes=(versions.Change("x", "1", since="4", what=""),))


def test_a_development_version_is_named_with_the_commit_that_replays_it():
    with pytest.raises(Rejection) as e:
        registry.get("gmv", "1")
    assert e.value.code == "UNKNOWN_RULESET" and "947a2124d9a1" in e.value.message
    rep = verify_bundle(io.BytesIO((REPO / "fixtures/logs/development/gmv-1.aar").read_bytes()))
    assert rep.verified and rep.ruleset == "gmv/1" and not rep.replayed and rep.replayed_with == ""
    assert any("gmv/1 was a development version" in n and "947a2124d9a1" in n for n in rep.notes), rep.notes


def test_an_unknown_game_lists_the_games():
    with pytest.raises(Rejection) as e:
        registry.get("chess")
    assert e.value.code == "UNKNOWN_RULESET" and "(games: duel, gmv, ntnd, sog)" in e.value.message


def test_list_rulesets_serves_every_released_version():
    from afteraction.service.servicer import rulesets_pb
    assert [(r.game, r.version) for r in rulesets_pb().rulesets] == registry.available()


def test_spec_and_the_rules_documents_list_every_released_version():
    """SPEC.md 10.4's table and each docs/rules/<game>.md version table say what the registry has."""
    spec = (REPO / "SPEC.md").read_text()
    table = spec[spec.index("### 10.4 Ruleset versions"):spec.index("## 11. Threat model")]
    rows = re.findall(r"^\| (\w+) \| (\d+) \| ([\d, ]+) \| ", table, re.M)
    assert {g: tuple(v.split(", ")) for g, _, v in rows} == _released()
    for game in ("ntnd", "gmv"):
        doc = (REPO / "docs" / "rules" / f"{game}.md").read_text()
        section = doc[doc.index("## Ruleset versions"):]
        stable = re.findall(r"^\| (\d+) \| \*\*stable\*\*", section, re.M)
        assert tuple(stable) == _released()[game], game
