"""NTND unit ids and names: one spelling for every unit and a name for each.

Every unit a game can ever bring into play has its record in the initial state (setup.py: the
scenario's units, the Allied schedule and air units, the counter mix of 4.4); recruitment (4.1,
4.2.3), reinforcements (4.2.1), promotion and break-down (6.1) only change a record's status.
So the set-up is checked for every counter type, and whole bot games check that no other unit id
ever appears in a record (events, sealed identities once opened) and that each named unit is named
as its record is.
"""
from __future__ import annotations

import dataclasses
import re

import pytest

from afteraction.engine.games.ntnd.components import campaign_data
from afteraction.engine.games.ntnd.forces.operations import first_in_mix
from afteraction.engine.games.ntnd.components.scenarios import initial_state, load_scenario
from afteraction.engine.games.ntnd.components.pieces import (UNIT_ID, counter_id, counter_name, counter_order,
                                                 load_counters, unit_name)
from afteraction.engine.ruleset import Context

import corpus

from .test_ntnd_game import played_game

MARKER = re.compile(r"M[0-9]+")    # a marker moves as a piece (6.2)
OLD_MIX_ID = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+-[0-9]+")  # "kr_cadre-2", the spelling of ntnd/2


@pytest.fixture(scope="module")
def tet():
    return initial_state("tet", Context.for_tests())


def test_ntnd_4_4_every_unit_of_the_tet_set_up_has_an_id_of_the_one_spelling_and_a_name(tet):
    for uid, u in tet["units"].items():
        assert UNIT_ID.fullmatch(uid) and u["id"] == uid, uid
        assert u["name"].strip(), uid
        assert "_" not in uid


def test_ntnd_4_4_the_counter_mix_holds_every_counter_of_each_type_under_counter_ids(tet):
    counters = load_counters()
    by_type: dict[str, list[str]] = {}
    for uid, u in tet["units"].items():
        by_type.setdefault(u["type"], []).append(uid)
    written = {u["id"] for side in ("allied", "communist", "allied_air_available")
               for u in load_scenario("tet")["setup"].get(side, [])}
    written |= {u["id"] for b in load_scenario("tet")["reinforcements"]["allied"] for u in b["units"]}
    for tid, t in counters.types.items():
        uids = by_type.get(tid, [])
        if t.side == "communist" or (t.stacking_class in ("firebase", "militia")
                                     and t.nationality in ("US", "ARVN", "SEATO")):
            assert len(uids) >= t.counter_mix, tid       # the whole mix is there (4.4)
        mix = sorted((x for x in uids if x not in written), key=counter_order)
        k = len(uids) - len(mix)
        assert mix == [counter_id(tid, n) for n in range(k + 1, k + 1 + len(mix))], tid
        for uid in mix:
            assert tet["units"][uid]["name"] == counter_name(tid, int(uid.rsplit("-", 1)[1])), uid


def test_ntnd_4_4_numbered_scenario_counters_are_named_like_the_mix(tet):
    # the Tet cadres and dummies have no written name: the same function names them and the mix
    assert tet["units"]["kr-cadre-1"]["name"] == "Khmer Rouge cadre 1"
    assert tet["units"]["kr-cadre-2"]["name"] == "Khmer Rouge cadre 2"
    assert tet["units"]["communist-dummy-6"]["name"] == "Communist dummy 6"
    assert tet["units"]["communist-dummy-7"]["name"] == "Communist dummy 7"
    assert tet["units"]["vc-cadre-1"]["name"] == "Viet Cong cadre 1"


def test_ntnd_6_1_4_the_mix_hands_out_counters_lowest_number_first(tet):
    assert first_in_mix(tet, "vc_cadre") == "vc-cadre-7"                 # not vc-cadre-10
    assert first_in_mix(tet, "kr_cadre") == "kr-cadre-2"
    assert first_in_mix(tet, "kr_regiment") == "kr-regiment-1"
    s = {"units": {uid: dict(u) for uid, u in tet["units"].items()}}
    for n in (7, 8, 9):
        s["units"][f"vc-cadre-{n}"]["status"] = "map"
    assert first_in_mix(s, "vc_cadre") == "vc-cadre-10"


@pytest.mark.parametrize("uid,tid,name", [
    ("kr_cadre-2", "kr_cadre", "Khmer Rouge cadre 2"),  # the old mix spelling
    ("KR-cadre-2", "kr_cadre", "x"),
    ("kr-cadre-", "kr_cadre", "x"),
    ("kr-cadre-2", "kr_cadre", ""),                     # an empty name
    ("kr-cadre-2", "kr_cadre", "  "),
    ("nva-304", "nva_division", None),                  # no name and not a numbered counter
    ("kr-cadre-2", "vc_cadre", None),                   # numbered, but another type's number
])
def test_ntnd_unit_name_refuses_ids_off_the_spelling_and_empty_names(uid, tid, name):
    with pytest.raises(ValueError):
        unit_name(uid, tid, name)


def test_ntnd_unit_name_of_numbered_counters_and_written_names():
    assert unit_name("kr-cadre-2", "kr_cadre") == "Khmer Rouge cadre 2"
    assert unit_name("nva-304", "nva_division", "304th Division") == "304th Division"


def test_ntnd_campaign_data_units_have_ids_of_the_one_spelling_and_names():
    sc = campaign_data.load_campaign()
    units = [u for side in ("allied", "allied_air_available", "communist") for u in sc["setup"][side]]
    units += [u for w in sc["reinforcements"]["allied"] for u in w["units"]]
    units += list(sc["reinforcements"]["allied_purchasable"])
    assert units
    for u in units:
        assert unit_name(u["id"], u["type"], u.get("name")), u["id"]


def _walk(x, dicts, strings):
    if isinstance(x, dict):
        dicts.append(x)
        for v in x.values():
            _walk(v, dicts, strings)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _walk(v, dicts, strings)
    elif isinstance(x, str):
        strings.add(x)


#: ntnd/5 (4.4): a counter drawn inverted is named by its type and the marker it entered
HIDDEN_NAME = re.compile(r"([a-z0-9-]+)-m([0-9]+)(?:-([0-9]+))?")


def _mix_name(uid: str, type_id: str) -> str | None:
    """ntnd/5: the name a counter taken from the mix has under ``uid`` (a public or a hidden name), or
    None if ``uid`` is neither."""
    n = uid.rsplit("-", 1)[-1]
    if n.isdigit() and uid == counter_id(type_id, int(n)):
        return counter_name(type_id, int(n))
    m = HIDDEN_NAME.fullmatch(uid)
    if m and m.group(1) == type_id.replace("_", "-"):
        return load_counters().type(type_id).name
    return None


def _check_game(g, tet, renamed: bool = False):
    """No unit came into being during play and every unit an event names is one of the game's. ntnd/4
    keeps every id of the set-up; ntnd/5 (``renamed``) renames a counter when it leaves the mix, so
    there the ids are the set-up's or names of the mix (``_mix_name``) and the types are the same."""
    units = g.referee.state["units"]
    if renamed:
        assert sorted(u["type"] for u in units.values()) == sorted(u["type"] for u in tet["units"].values())
        for uid, u in units.items():
            assert uid == u["id"] and u["name"] in ((tet["units"][uid]["name"],) if uid in tet["units"] else ()) + (
                _mix_name(uid, u["type"]),), uid
    else:
        assert sorted(units) == sorted(tet["units"])
        assert {u: units[u]["name"] for u in units} == {u: tet["units"][u]["name"] for u in units}
    dicts, strings = [], set()
    for rec in g.records:
        _walk(rec.body.get("events", []), dicts, strings)
    assert not sorted(x for x in strings if OLD_MIX_ID.fullmatch(x))
    named = 0
    for d in dicts:
        if d.get("t") == "reinforcement":
            uid = d["unit"]
        elif set(d) == {"id", "type", "name"}:         # an identity of a marker (6.2), once opened
            uid = d["id"]
        else:
            uid = None
        if uid is not None:
            if renamed:   # the unit may have gone back to the mix and left it again under another name
                assert d["name"] in ((tet["units"][uid]["name"],) if uid in tet["units"] else ()) + (
                    _mix_name(uid, d["type"]),), d
            else:
                assert uid in units and d["name"] == units[uid]["name"] and d["name"], d
            named += 1
        for key in ("unit", "piece"):
            if isinstance(d.get(key), str) and d.get("t") != "scenario":
                assert d[key] in units or d[key] in tet["units"] or MARKER.fullmatch(d[key]) or (
                    renamed and UNIT_ID.fullmatch(d[key])), d
    return named


def test_ntnd_4_4_whole_random_bot_game_names_only_units_of_the_set_up(tet):
    g, _, _, _ = played_game()
    assert _check_game(g, tet, renamed=True) > 0


@pytest.mark.parametrize("version", ["4", None])
def test_ntnd_4_4_whole_tet_bot_game_names_only_units_of_the_set_up(tet, version):
    """ntnd/4's ids, and the newest version's (named when drawn: versions.MIX_NAMES)."""
    g = corpus.game(dataclasses.replace(corpus.NTND_TET_BOT, version=version))
    assert g.referee.ended
    assert _check_game(g, tet, renamed=version != "4") > 0


def test_ntnd_a_log_of_another_ruleset_version_verifies_but_says_replay_is_not_done(monkeypatch):
    """ntnd/2 was a development version (ntnd/3 renamed units): this build replays no ntnd/2 log, and
    says so plainly, naming the commit that last listed it (engine/games/ntnd/versions.py)."""
    import io
    import pathlib

    from afteraction.engine import registry
    from afteraction.engine.errors import Rejection
    from afteraction.engine.log.verify import verify_bundle
    with pytest.raises(Rejection) as e:
        registry.get("ntnd", "2")
    assert e.value.code == "UNKNOWN_RULESET" and "ntnd/2 was a development version" in str(e.value)
    assert "c712fa63feb1" in str(e.value)
    data = (pathlib.Path(__file__).resolve().parents[2] / "fixtures/golden/ntnd-tet.aar").read_bytes()
    # a build without this log's game (as this build is for an ntnd/2 log)
    monkeypatch.setattr(registry, "_GAMES", {k: v for k, v in registry._GAMES.items() if k != "ntnd"})
    rep = verify_bundle(io.BytesIO(data))
    assert rep.verified and not rep.replayed
    assert any(n.startswith("replay not done: ruleset ntnd/4 is not available here (no game 'ntnd'")
               for n in rep.notes), rep.notes
