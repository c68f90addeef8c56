"""NTND 28.4.1 (mobilizing Phoenix units) and 28.11.5 (the Laotian Para-Commando) through the Allied
Reinforcement phase's "reinforce" decision (NtndRuleset.legal_commands / apply) on campaign states."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.components.campaign_data import load_campaign, turn_number
from afteraction.engine.games.ntnd.components.map import load_map
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

from .mapplay import RS, legal, play
from .test_ntnd_neutrality import at, cblank, past_policy

A = "allied"


def reinforce(s: dict, rp: dict | None = None) -> dict:
    """The Allied Reinforcement phase of ``s``'s turn, at its reinforce decision (policy, coup: none)."""
    s = past_policy(at(s, "a_reinforce"))
    while s["decision"]["kind"] != "reinforce":
        s, _ = play(s, s["decision"]["seat"], cmd("done"))
    if rp is not None:
        s["rp"] = dict(sorted(rp.items()))
    return s


def places(s: dict, unit_prefix: str) -> list[tuple[str, str]]:
    return [(c.ntnd.place.unit, c.ntnd.place.location) for c in legal(s, A)
            if c.ntnd.WhichOneof("action") == "place" and c.ntnd.place.unit.startswith(unit_prefix)]


def corps_of(h: str) -> str:
    return load_map().hex(h).corps


def test_ntnd_28_4_1_phoenix_units_from_four_turns_after_the_uprising_one_a_corps_in_south_vietnam():
    early = cblank(turn=20)
    early["uprising"] = {"turn": 17}                   # 20 < 17 + 4: not yet
    assert not places(reinforce(early, {"SV": 1, "US": 1}), "arvn-phoenix")
    s = cblank(turn=21)
    s["uprising"] = {"turn": 17}
    s = reinforce(s, {"INDOCHINESE": 1, "SEATO": 1, "SV": 1, "US": 1})
    opts = places(s, "arvn-phoenix")
    m = load_map()
    assert opts and {u for u, _ in opts} == {"arvn-phoenix-1"}
    assert all(m.hex(h).country == "SV" and not m.hex(h).town for _, h in opts)
    assert {corps_of(h) for _, h in opts} == {"I", "II", "III", "IV"}
    s, ev = play(s, A, cmd("place", unit="arvn-phoenix-1", location="1523"))    # III Corps jungle
    (p,) = [e for e in ev if e["t"] == "purchase"]
    assert (p["pool"], p["rule"], p["pp"]) == ("SV", "NTND 28.4.1", 0) and s["rp"]["SV"] == 0
    assert s["units"]["arvn-phoenix-1"]["status"] == "map" and s["units"]["arvn-phoenix-1"]["loc"] == "1523"
    opts = places(s, "arvn-phoenix")
    assert opts and {u for u, _ in opts} == {"arvn-phoenix-2"} and "III" not in {corps_of(h) for _, h in opts}
    with pytest.raises(Rejection) as e:                # a second one in III Corps
        RS.apply(s, A, cmd("place", unit="arvn-phoenix-2", location="1622"), Context.for_tests())
    assert e.value.code == "ILLEGAL_PURCHASE"
    s, ev = play(s, A, cmd("place", unit="arvn-phoenix-2", location="0825"))    # U.S. points pay too
    assert [e["pool"] for e in ev if e["t"] == "purchase"] == ["US"] and s["rp"]["US"] == 0
    assert not places(s, "arvn-phoenix")               # SEATO and Indochinese points do not pay


def test_ntnd_28_4_1_phoenix_in_scenarios_from_july_august_1968_and_back_to_the_mix_when_expended():
    s = cblank()
    assert not places(reinforce(cblank(), {"SV": 1}), "arvn-phoenix")        # 1965, no uprising
    s["scenario"]["turns"] = [dict(t, year=t["year"] + 4) for t in s["scenario"]["turns"]]   # begins 1969
    s = reinforce(s, {"SV": 1})
    s, _ = play(s, A, cmd("place", unit="arvn-phoenix-1", location="1523"))
    # 28.4.2: expended in the Hearts and Minds phase (hearts_phases.phoenix_expend), it goes back to the
    # mix and may be mobilized again
    s["units"]["arvn-phoenix-1"].update(status="mix", loc=None)
    s["turn"] += 1
    s = reinforce(s, {"SV": 1})
    assert ("arvn-phoenix-1", "1523") in places(s, "arvn-phoenix")


def test_ntnd_28_4_1_no_phoenix_in_tet():
    s = initial_state("tet", Context.for_tests())
    s["uprising"] = {"turn": -10}
    from afteraction.engine.games.ntnd.optional import allied_specials
    assert not allied_specials.phoenix_open(s) and not allied_specials.options(s)


def test_ntnd_28_11_5_the_para_commando_from_january_february_1967_for_an_indochinese_and_a_us_point():
    p = next(p for p in load_campaign()["reinforcements"]["allied_purchasable"] if p["rule"] == "28.11.5")
    assert p["from_turn"] == turn_number("January/February", 1967) and p["cost"] == {"INDOCHINESE": 1, "US": 1}
    rp = {"INDOCHINESE": 1, "SEATO": 1, "SV": 0, "US": 1}
    assert not places(reinforce(cblank(turn=p["from_turn"] - 1), rp), "lao-paracdo")   # November/December 1966
    assert not places(reinforce(cblank(turn=p["from_turn"]), dict(rp, US=0)), "lao-paracdo")
    s = reinforce(cblank(turn=p["from_turn"]), rp)
    assert places(s, "lao-paracdo") == [("lao-paracdo", "")]
    s, ev = play(s, A, cmd("place", unit="lao-paracdo", location=""))
    (e,) = [e for e in ev if e["t"] == "purchase"]
    assert e["rule"] == "NTND 28.11.5" and e["arrive"] == s["turn"] + 1
    assert s["rp"]["INDOCHINESE"] == 0 and s["rp"]["US"] == 0 and s["rp"]["SEATO"] == 1
    assert not places(s, "lao-paracdo")                 # one unit
    s["turn"] += 1                                      # 4.2.7: it comes next Reinforcement phase
    s = reinforce(s, {})
    assert sorted(places(s, "lao-paracdo")) == [("lao-paracdo", "LUANG_PRABANG"), ("lao-paracdo", "VIENTIANE")]
    s, _ = play(s, A, cmd("place", unit="lao-paracdo", location="VIENTIANE"))
    assert s["units"]["lao-paracdo"]["status"] == "map" and s["units"]["lao-paracdo"]["loc"] == "VIENTIANE"
    # eliminated: bought again the same way (two points), never as a one-point 4.2.3 replacement
    s["units"]["lao-paracdo"].update(status="dead", loc=None)
    s["rp"] = {"INDOCHINESE": 1, "SEATO": 0, "SV": 0, "US": 0}
    assert not places(s, "lao-paracdo")
    s["rp"]["US"] = 1
    assert places(s, "lao-paracdo") == [("lao-paracdo", "")]
