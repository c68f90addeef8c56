"""GMV "R- and C-Ratings", "Phase 1: Buy Units", "Phase 5: Place Units"."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.gmv import economy
from afteraction.engine.ruleset import Context

from .util import RS, add, cmd, empty, events, play


def test_gmv_phase1_us_flat_30_ipc_plus_r_ratings_for_sv():
    s = empty(phase=1)
    add(s, "inf", "us", "saigon")      # R3
    add(s, "sv", "us", "hue")          # R2
    add(s, "fighter", "us", "carrier")  # sea: no R
    ctx = Context.for_tests()
    economy.income(s, "us", ctx)
    assert s["money"]["us"] == {"ipc": 30, "rec": 5}


def test_gmv_r_and_c_ratings_nva_income_is_private():
    s = empty(phase=1, side="nva")
    add(s, "inf", "nva", "hanoi")
    add(s, "inf", "us", "vinh")                 # Vinh (C2) has American units: no income
    add(s, "vc", "nva", "kontum", hidden=True)  # R1, hidden units count
    ctx = Context.for_tests()
    economy.income(s, "nva", ctx)
    assert s["money"]["nva"] == {"ipc": 3 + 2 + 2 + 1, "rec": 1}
    pub = events(ctx, "income", private=False)
    assert pub == [{"t": "income", "seat": "nva"}]
    assert events(ctx, "income", private=True)[0]["rec"] == 1


def test_gmv_phase1_purchases_set_aside_native_units_need_r_ipc():
    s = empty(phase=1)
    s["money"]["us"] = {"ipc": 30, "rec": 2}
    s, _ = play(s, "us", cmd("buy", unit_type="fighter"))
    s, _ = play(s, "us", cmd("buy", unit_type="sv"))
    assert s["pool"]["us"] == ["fighter", "sv"] and s["money"]["us"] == {"ipc": 20, "rec": 0}
    with pytest.raises(Rejection, match="Phase 1"):
        play(s, "us", cmd("buy", unit_type="sv"))
    with pytest.raises(Rejection):
        play(s, "us", cmd("buy", unit_type="vc"))


def test_gmv_phase1_nva_buy_is_sealed():
    s = empty(phase=1, side="nva")
    assert RS.is_private(s, "nva", cmd("buy", unit_type="inf"))
    assert not RS.is_private(s, "us", cmd("buy", unit_type="inf"))


def test_gmv_phase5_placement_rules():
    s = empty(phase=5)
    add(s, "sv", "us", "hue")
    s["pool"]["us"] = ["inf", "sv", "heli", "bomber"]
    with pytest.raises(Rejection, match="airbase or in Saigon"):
        play(s, "us", cmd("place", unit_type="inf", zone="hue"))
    s, _ = play(s, "us", cmd("place", unit_type="inf", zone="saigon"))
    s, _ = play(s, "us", cmd("place", unit_type="sv", zone="hue"))
    with pytest.raises(Rejection):
        play(s, "us", cmd("place", unit_type="heli", zone="hue"))
    with pytest.raises(Rejection):
        play(s, "us", cmd("place", unit_type="inf", zone="carrier"))
    s, _ = play(s, "us", cmd("place", unit_type="heli", zone="da_nang"))
    with pytest.raises(Rejection, match="place your purchased"):
        play(s, "us", cmd("end_phase"))
    s, _ = play(s, "us", cmd("place", unit_type="bomber", zone="carrier"))
    s, _ = play(s, "us", cmd("end_phase"))
    assert s["side"] == "nva" and s["phase"] == 1


def test_gmv_phase5_nva_in_north_vc_with_friends_hidden_if_only_hidden_friends():
    s = empty(phase=5, side="nva")
    h = add(s, "inf", "nva", "kontum", hidden=True)
    s["pool"]["nva"] = ["inf", "vc"]
    with pytest.raises(Rejection):
        play(s, "nva", cmd("place", unit_type="inf", zone="hue"))
    s, _ = play(s, "nva", cmd("place", unit_type="inf", zone="vinh"))
    with pytest.raises(Rejection):
        play(s, "nva", cmd("place", unit_type="vc", zone="pleiku"))
    s, ctx = play(s, "nva", cmd("place", unit_type="vc", zone="kontum"))
    vc = [u for u in s["units"].values() if u["type"] == "vc"][0]
    assert vc["hidden"] and vc["zone"] == "kontum"
    pub = events(ctx, private=False)
    assert all("kontum" not in str(e) for e in pub)
    assert {e["id"] for e in events(ctx, "hidden", private=True)} == {h[0], vc["id"]}


def test_gmv_phase5_sv_only_where_friendly_units_are():
    s = empty(phase=5)
    s["pool"]["us"] = ["sv"]
    with pytest.raises(Rejection, match="friendly units"):
        play(s, "us", cmd("place", unit_type="sv", zone="hue"))
    add(s, "inf", "us", "hue")
    s2, _ = play(s, "us", cmd("place", unit_type="sv", zone="hue"))
    assert [u["zone"] for u in s2["units"].values() if u["type"] == "sv"] == ["hue"]


def test_gmv_phase1_purchases_set_aside_until_phase5_placement():
    s = empty(phase=1)
    s["money"]["us"] = {"ipc": 30, "rec": 0}
    before = sorted(s["units"])
    s, _ = play(s, "us", cmd("buy", unit_type="inf"))
    s, _ = play(s, "us", cmd("end_phase"))
    assert sorted(s["units"]) == before and s["pool"]["us"] == ["inf"]
    for p in (2, 3, 4):
        assert s["phase"] == p
        with pytest.raises(Rejection, match="ILLEGAL_COMMAND: GMV Phase .*answered by"):
            play(s, "us", cmd("place", unit_type="inf", zone="saigon"))
        s, _ = play(s, "us", cmd("end_phase"))
    s, _ = play(s, "us", cmd("place", unit_type="inf", zone="saigon"))
    assert len(s["units"]) == len(before) + 1 and not s["pool"]["us"]


def test_gmv_phase5_purchases_that_cannot_be_placed_are_lost():
    s = empty(phase=5)
    s["pool"]["us"] = ["sv"]  # no zone with US units but the carrier (sea): nowhere to place
    assert not economy.placeable(s, "us")
    s2, ctx = play(s, "us", cmd("end_phase"))
    assert s2["pool"]["us"] == [] and events(ctx, "forfeit") == [{"t": "forfeit", "seat": "us", "count": 1}]
