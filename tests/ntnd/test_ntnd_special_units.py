"""NTND 28.2 (5SFM), 28.3 (USMC III, 28.3.2), 28.5 (ARVN Ranger groups), 28.6 (Thai 333): the
``special_units`` feature switched on in the test's campaign state (every scenario but Tet lists it; the
tests switch it on explicitly), played through the Allied Reaction and Reinforcement phases
(NtndRuleset.legal_commands / apply)."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import reinforcing, ALLIED, RS, at, campaign, of, only_families
from .campaign_states import clear_communists
from .mapplay import legal, play


def _camp(turn=2, features=("special_units",)) -> dict:
    s = campaign(turn)
    only_families(s, features)
    clear_communists(s)
    return s


def _reinforce(s, rp_us=3) -> dict:
    return reinforcing(s, rp_us)


def _actions(s, action) -> list:
    return [getattr(c.ntnd, action) for c in legal(s, ALLIED) if c.ntnd.WhichOneof("action") == action]


def _reactions(s) -> set[tuple[str, str]]:
    s["attacks"] = [{"target": "1819", "attackers": []}, {"target": "1717", "attackers": []}]
    s["flags"]["allied_moved"] = []
    s, _ = at(s, "a_reaction")
    if s["decision"] is None or s["decision"]["kind"] != "reaction":
        return set()
    return {(m.piece, m.path[0]) for m in _actions(s, "move")}


def test_ntnd_28_2_1_the_5sfm_reacts_only_into_a_green_beret_zone_of_influence():
    from afteraction.engine.games.ntnd.combat.battles import gb_zoi
    for features, want in ((("special_units",), {"1717"}), ((), {"1717", "1819"})):
        s = _camp(features=features)
        s["units"]["us-5sfm"].update(status="map", loc="1818")
        assert "1717" in gb_zoi(s) and "1819" not in gb_zoi(s)      # 1717: us-gb-3's hex; 1819: outside
        got = {t for p, t in _reactions(s) if p == "us-5sfm"}
        assert got == want, features
    # other airmobile units are not limited
    s = _camp()
    cav = next(uid for uid in sorted(s["units"]) if s["units"][uid]["type"] == "us_airmobile_brigade")
    s["units"]["us-5sfm"].update(status="map", loc="1818")
    s["units"][cav].update(status="map", loc="1818")
    assert {t for p, t in _reactions(s) if p == cav} == {"1717", "1819"}


def test_ntnd_28_3_1_the_usmc_iii_is_recruited_for_two_us_points_and_arrives_next_turn():
    s = _reinforce(_camp(turn=2))
    assert [m.unit for m in _actions(s, "place") if m.unit == "us-usmc-iii"] == ["us-usmc-iii"]
    pp = s["pp"]
    s, ev = play(s, ALLIED, cmd("place", unit="us-usmc-iii", location=""))
    u = s["units"]["us-usmc-iii"]
    assert s["rp"]["US"] == 1 and (u["status"], u["arrive"]) == ("sched", 3) and s["pp"] == pp
    (p,) = of(ev, "purchase")
    assert (p["points"], p["pool"], p["pp"], p["rule"]) == (2, "US", 0, "NTND 28.3.1")
    s, _ = play(s, ALLIED, cmd("done"))
    s["turn"] = 3
    s = _reinforce(s)
    hq = load_map().corps_hq_of("I").location
    assert {m.location for m in _actions(s, "place") if m.unit == "us-usmc-iii"} == {hq}
    s, _ = play(s, ALLIED, cmd("place", unit="us-usmc-iii", location=hq))
    assert s["units"]["us-usmc-iii"]["status"] == "map"


def test_ntnd_28_3_1_not_without_two_us_points_and_eliminated_it_returns_for_two_more():
    s = _reinforce(_camp(turn=2), rp_us=1)
    assert "us-usmc-iii" not in [m.unit for m in _actions(s, "place")]
    before = snapshot.copy(s)
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("place", unit="us-usmc-iii", location=""), Context.for_tests())
    assert e.value.code == "ILLEGAL_PURCHASE" and s == before
    s["rp"]["US"] = 2
    s["units"]["us-usmc-iii"]["status"] = "dead"                       # eliminated earlier
    pp = s["pp"]
    s, ev = play(s, ALLIED, cmd("place", unit="us-usmc-iii", location=""))
    assert s["rp"]["US"] == 0 and s["units"]["us-usmc-iii"]["status"] == "sched"
    assert of(ev, "purchase")[0]["pp"] == -2 and s["pp"] == pp - 2    # a U.S. unit replaced (4.2.3)


def test_ntnd_28_3_1_without_the_feature_there_is_no_usmc_iii():
    s = _reinforce(_camp(turn=2, features=()))
    assert "us-usmc-iii" not in s["units"]


def test_ntnd_28_3_2_optionally_the_3_82_and_1_5_mech_are_bought_not_scheduled():
    s = _camp(turn=2)
    s["scenario"]["optional_rules_in_force"] = ["28.3.2"]
    s = _reinforce(s, rp_us=4)
    bought = sorted(m.unit for m in _actions(s, "place") if m.unit in ("us-3-82", "us-1-5mech"))
    assert bought == ["us-1-5mech", "us-3-82"] and s["units"]["us-3-82"]["status"] == "mix"
    s, _ = play(s, ALLIED, cmd("place", unit="us-3-82", location=""))
    assert s["units"]["us-3-82"]["status"] == "sched" and s["units"]["us-3-82"]["arrive"] == 3
    assert s["rp"]["US"] == 2
    plain = _reinforce(_camp(turn=2))                                   # the campaign: 28.3.2 not in force
    assert plain["units"]["us-3-82"]["status"] == "sched" and plain["units"]["us-3-82"]["arrive"] == 18


def test_ntnd_28_5_rangers_keep_their_corps_in_1965_then_one_a_turn_then_two_from_1969():
    s = _reinforce(_camp(turn=2))
    assert not _actions(s, "reassign_ranger")                           # 1965
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("reassign_ranger", unit="arvn-rgr-1", corps="II"),
                 Context.for_tests())
    assert e.value.code == "ILLEGAL_REASSIGN"
    s = _reinforce(_camp(turn=6))                                       # January/February 1966
    opts = {(m.unit, m.corps) for m in _actions(s, "reassign_ranger")}
    assert ("arvn-rgr-1", "II") in opts and ("arvn-rgr-1", "I") not in opts
    s, ev = play(s, ALLIED, cmd("reassign_ranger", unit="arvn-rgr-1", corps="II"))
    assert s["units"]["arvn-rgr-1"]["corps"] == "II" and of(ev, "ranger-reassign")[0]["from"] == "I"
    assert not _actions(s, "reassign_ranger")                           # one a turn
    s = _reinforce(_camp(turn=24))                                      # January/February 1969
    s, _ = play(s, ALLIED, cmd("reassign_ranger", unit="arvn-rgr-1", corps="II"))
    assert _actions(s, "reassign_ranger")
    s, _ = play(s, ALLIED, cmd("reassign_ranger", unit="arvn-rgr-2", corps="III"))
    assert not _actions(s, "reassign_ranger") and s["units"]["arvn-rgr-2"]["corps"] == "III"
    off = _reinforce(_camp(turn=24, features=()))
    assert not _actions(off, "reassign_ranger")


def test_ntnd_28_6_2_an_eliminated_333_is_replaced_and_placed_at_luang_prabang_or_vientiane():
    s = _camp(turn=33)
    s["units"]["thai-333"].update(status="dead", loc=None)
    s = _reinforce(s)
    s["rp"]["SEATO"] = 1
    assert ("thai-333", "") in {(m.unit, m.location) for m in _actions(s, "place")}
    s, ev = play(s, ALLIED, cmd("place", unit="thai-333", location=""))
    assert s["units"]["thai-333"]["status"] == "sched" and s["rp"]["SEATO"] == 0
    s, _ = play(s, ALLIED, cmd("done"))
    s["turn"] = 34
    s = _reinforce(s)
    assert {m.location for m in _actions(s, "place") if m.unit == "thai-333"} == {"LUANG_PRABANG", "VIENTIANE"}


def test_ntnd_28_6_2_the_333_is_withdrawn_for_good_when_laos_is_conquered():
    for features, status in ((("special_units",), "out"), ((), "map")):
        s = _camp(turn=33, features=features)
        s["units"]["thai-333"].update(status="map", loc="0804")
        s.setdefault("neutrality", {"charged": {}, "joined": {}, "conquered": {}, "nva_attack": 0, "nv_entered": 0})
        s["neutrality"]["conquered"]["LA"] = 33
        s, _ = at(s, "c_politics")                                        # a phase that ends by itself
        assert s["units"]["thai-333"]["status"] == status, features


def test_ntnd_28_6_1_the_333_fights_across_the_border_from_laos_and_pays_no_points_there():
    """28.6.1: the 333 moves and fights only in Laos, it may attack across the border per the normal rules,
    and it costs no political points for operating in Laos (10.2: it is one of 28.11.1's secret-war units)."""
    from .airplay import air_camp, answer, at_phase, commie, put
    s = air_camp(33)
    put(s, "thai-333", "1308")                                          # Laos, next to 1408 in I Corps
    commie(s, "vc_regiment", "1408")
    at_phase(s, "a_combat")
    attacks = {(c.ntnd.attack.target, tuple(c.ntnd.attack.attackers)) for c in legal(s, ALLIED)
               if c.ntnd.WhichOneof("action") == "attack"}
    assert any(t == "1408" and "thai-333" in a for t, a in attacks)    # across the border into South Vietnam
    m = air_camp(33)                                                    # neutrality (10) in force: Laos neutral
    put(m, "thai-333", "1308")
    put(m, "arvn-acr-1", "1408")
    at_phase(m, "a_move")
    pp = m["pp"]
    ev = answer(m, ALLIED, cmd("move", piece="thai-333", path=["1309"]))          # within Laos: no penalty
    assert m["units"]["thai-333"]["loc"] == "1309" and m["pp"] == pp and not of(ev, "neutrality")
    ev = answer(m, ALLIED, cmd("move", piece="arvn-acr-1", path=["1308"]))         # an ARVN unit pays (10.2)
    assert of(ev, "neutrality") and m["pp"] < pp
