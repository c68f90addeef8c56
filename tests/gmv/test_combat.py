"""GMV "COMBAT": Axis & Allies combat (the project's reading) with calls for
support and withdrawal/evac."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.gmv import combat

from .util import RS, add, cmd, empty, events, play


def _battle(s, seat_att="us"):
    """Answer both calls for support with none."""
    s, _ = play(s, seat_att, cmd("support"))
    return s


def test_gmv_combat_each_unit_rolls_d6_hits_on_le_value_owner_chooses_casualties():
    s = empty()
    i1, i2 = add(s, "inf", "us", "da_nang", 2)
    (n,) = add(s, "inf", "nva", "hue")
    s, _ = play(s, "us", cmd("move", unit_ids=[i1, i2], path=["hue"]))
    assert RS.pending(s).kind == "support"
    s, _ = play(s, "us", cmd("support"))
    # attack 1 for US infantry, defend 2 for NVA infantry: faces 1 (hit), 2 (miss), 2 (hit)
    s, ctx = play(s, "nva", cmd("support"), faces=[1, 2, 2])
    assert events(ctx, "round")[0]["hits_on"] == {"us": 1, "nva": 1}
    d = RS.pending(s)
    assert (d.seat, d.kind) == ("us", "casualties")
    with pytest.raises(Rejection, match="exactly 1"):
        play(s, "us", cmd("casualties", unit_ids=[i1, i2]))
    s, ctx = play(s, "us", cmd("casualties", unit_ids=[i2]))
    assert i2 not in s["units"] and n not in s["units"] and s["battle"] is None
    assert events(ctx, "battle-end")[0]["winner"] == "us"


def test_gmv_combat_rounds_continue_until_a_side_withdraws():
    s = empty()
    (i,) = add(s, "inf", "us", "da_nang")
    (n,) = add(s, "inf", "nva", "hue")
    s, _ = play(s, "us", cmd("move", unit_ids=[i], path=["hue"]))
    s, _ = play(s, "us", cmd("support"))
    s, _ = play(s, "nva", cmd("support"), faces=[6, 6])
    assert RS.pending(s).kind == "withdraw" and s["battle"]["round"] == 2
    s, _ = play(s, "us", cmd("battle_choice", withdraw=False))
    assert RS.pending(s).seat == "nva"
    s, ctx = play(s, "nva", cmd("battle_choice", withdraw=True, to_zone="a_shau"), faces=[6, 6])
    # the NVA infantry is the one covering unit of its level: it fights round 2 and then leaves
    assert s["units"][n]["zone"] == "a_shau" and s["battle"] is None


def test_gmv_withdrawal_one_cover_per_level_others_leave_at_once():
    s = empty()
    us_ = add(s, "inf", "us", "hue", 3)
    (a,) = add(s, "art", "us", "hue")
    add(s, "inf", "nva", "hue")
    s = {**s}
    combat.start(s, "hue", "us", _ctx(), "test")
    s["battle"]["step"] = "withdraw"
    s["battle"]["round"] = 2
    with pytest.raises(Rejection, match="one unit from every"):
        play(s, "us", cmd("battle_choice", withdraw=True, to_zone="quang_tri", cover_ids=us_[:1]))
    s2, _ = play(s, "us", cmd("battle_choice", withdraw=True, to_zone="quang_tri", cover_ids=[us_[1], a]),
                 faces=[6, 6, 6])
    assert [s2["units"][x]["zone"] for x in us_] == ["quang_tri", "quang_tri", "quang_tri"]
    assert s2["units"][a]["zone"] == "quang_tri" and s2["battle"] is None


def test_gmv_withdrawal_needs_legal_moves_helicopters_for_airlift_zones():
    s = empty()
    us_ = add(s, "inf", "us", "khe_sanh", 2)  # F3: infantry leave only by helicopter
    add(s, "inf", "nva", "khe_sanh")
    combat.start(s, "khe_sanh", "us", _ctx(), "test")
    b = s["battle"]
    assert not combat.withdraw_ok(s, b, "us", "a_shau", us_[1:])
    assert combat.withdraw_ok(s, b, "us", "quang_tri", us_[1:])  # F2: a combat-action walk
    add(s, "heli", "us", "khe_sanh")
    assert combat.withdraw_ok(s, b, "nva", "a_shau", [])


def _ctx():
    from afteraction.engine.ruleset import Context
    return Context.for_tests()


def test_gmv_support_waits_one_round_and_artillery_stops_when_in_zone_units_die():
    s = empty(side="nva")
    (i,) = add(s, "inf", "us", "hue")
    (n,) = add(s, "inf", "nva", "quang_tri")
    (art,) = add(s, "art", "nva", "a_shau")
    (h,) = add(s, "vc", "nva", "a_shau", hidden=True)
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="hue"))
    s, ctx = play(s, "nva", cmd("support", unit_ids=[art, h]))
    # revealed entering Hue, its commitment (A Shau) kept for the end of the game; from
    # gmv/4 under the next free id, not the one it hid with (FRESH_IDS)
    (h2,) = [e["id"] for e in events(ctx, "revealed")]
    assert h2 != h and h not in s["units"] and [e["zone"] for e in events(ctx, "revealed")] == ["hue"]
    h = h2
    assert not s["units"][h]["hidden"] and not events(ctx, "open") and s["kept"]
    assert [e["ids"] for e in events(ctx, "support")] == [sorted([art, h], key=lambda x: int(x[1:]))]
    s, _ = play(s, "us", cmd("support"), faces=[6, 6])  # round 1: only n and i fire
    b = s["battle"]
    assert b["round"] == 2 and {e["id"]: e["entry"] for e in b["sup"]} == {art: 2}
    assert h in b["in"]["nva"] and s["units"][h]["zone"] == "hue"  # inbound infantry entered
    f = dict(combat.firers(s, b, "nva"))
    assert f == {n: 1, h: 1, art: 2}
    b["in"]["nva"] = []
    assert art not in dict(combat.firers(s, b, "nva"))  # artillery support stops


def test_gmv_supporting_artillery_hit_only_if_artillery_or_air_in_zone():
    s = empty(side="nva")
    (i,) = add(s, "inf", "us", "hue")
    (n,) = add(s, "inf", "nva", "hue")
    (art,) = add(s, "art", "nva", "a_shau")
    combat.start(s, "hue", "nva", _ctx(), "test")
    b = s["battle"]
    b["sup"].append({"id": art, "side": "nva", "role": "art", "entry": 2})
    b["round"] = 2
    assert combat.pool(s, b, "nva") == [n]
    (ua,) = add(s, "art", "us", "hue")
    b["in"]["us"].append(ua)
    assert combat.pool(s, b, "nva") == [n, art]


def test_gmv_swamp_attacking_tanks_and_artillery_do_not_fire():
    s = empty()
    (t,) = add(s, "armor", "us", "my_tho")
    (i,) = add(s, "inf", "us", "my_tho")
    (n,) = add(s, "vc", "nva", "my_tho")
    combat.start(s, "my_tho", "us", _ctx(), "test")
    assert dict(combat.firers(s, s["battle"], "us")) == {i: 1}
    combat.start(s, "my_tho", "nva", _ctx(), "test")  # directly attacked: they fight
    assert dict(combat.firers(s, s["battle"], "us")) == {t: 2, i: 2}


def test_gmv_support_inbound_air_fires_round_2_after_wipeout_then_withdraws():
    s = empty(side="nva")
    (i,) = add(s, "inf", "us", "bien_hoa")
    (f,) = add(s, "fighter", "us", "saigon")
    (n,) = add(s, "inf", "nva", "war_zone_d")
    (m,) = add(s, "inf", "nva", "war_zone_d")
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n, m], zone="bien_hoa"))
    s, _ = play(s, "nva", cmd("support"))
    # fighter support; round 1: both NVA infantry hit (1, 1), US infantry misses (6): US wiped out
    # round 2: the attackers fire at the fighter (6, 6), it fires back (defend 3: 6), and leaves
    s, ctx = play(s, "us", cmd("support", unit_ids=[f]), faces=[1, 1, 6, 6, 6, 6])
    rounds = [e["rule"] for e in events(ctx, "roll")]
    assert rounds[5] == f"GMV Combat round 2: {f} (fighter) hits on <= 3" and len(rounds) == 6
    assert s["battle"] is None and s["units"][f]["zone"] == "saigon" and i not in s["units"]


def test_gmv_support_infantry_carried_in_by_helicopter():
    s = empty(side="nva")
    add(s, "inf", "us", "khe_sanh")
    (h,) = add(s, "heli", "us", "quang_tri")
    (i,) = add(s, "inf", "us", "quang_tri")  # Khe Sanh is F3: infantry arrive only by air
    (n,) = add(s, "inf", "nva", "dmz")
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="khe_sanh"))
    s, _ = play(s, "nva", cmd("support"))
    with pytest.raises(Rejection, match="cannot reach"):
        play(s, "us", cmd("support", unit_ids=[i]))
    s2, _ = play(s, "us", cmd("support", unit_ids=[i, h]), faces=[6, 6])
    roles = {e["id"]: e["role"] for e in s2["battle"]["sup"]} if s2["battle"] else {}
    assert s2["battle"] is None or roles.get(h) == "air"
    assert s2["units"][i]["zone"] == "khe_sanh"  # entered after one round


def test_gmv_evac_helicopters_within_range_count_for_withdrawal():
    s = empty(side="nva")
    us_ = add(s, "inf", "us", "khe_sanh", 2)
    add(s, "inf", "nva", "khe_sanh")
    combat.start(s, "khe_sanh", "nva", _ctx(), "test")
    b = s["battle"]
    assert not combat.withdraw_ok(s, b, "us", "a_shau", us_[1:])
    add(s, "heli", "us", "quang_tri")
    assert combat.evac_helis(s, b) and combat.withdraw_ok(s, b, "us", "a_shau", us_[1:])


def test_gmv_withdrawal_tanks_must_be_able_to_move_normally_even_to_stay():
    s = empty()
    (t,) = add(s, "armor", "us", "dmz")   # DMZ F1; every land neighbour is F2 or denser
    (i,) = add(s, "inf", "us", "dmz")
    add(s, "inf", "nva", "dmz")
    combat.start(s, "dmz", "us", _ctx(), "test")
    b = s["battle"]
    assert not combat.withdraw_ok(s, b, "us", "dmz", [t])        # staying needs a legal move too
    assert not combat.withdraw_ok(s, b, "us", "quang_tri", [t])  # F2: no tanks
    assert combat.withdraw_ok(s, b, "us", "quang_tri", [i])      # F2 infantry: as combat


def test_gmv_withdrawal_not_into_a_zone_with_exposed_enemy_units():
    s = empty()
    (i, j) = add(s, "inf", "us", "hue", 2)
    add(s, "inf", "nva", "hue")
    add(s, "vc", "nva", "da_nang")
    add(s, "vc", "nva", "quang_tri", hidden=True)  # hidden units do not stop it (nor show)
    combat.start(s, "hue", "us", _ctx(), "test")
    b = s["battle"]
    assert not combat.withdraw_ok(s, b, "us", "da_nang", [j])
    assert combat.withdraw_ok(s, b, "us", "quang_tri", [j])
    assert "da_nang" not in combat.withdraw_targets(s, "us")


def test_gmv_support_aircraft_need_range_to_the_battle_and_back_to_an_airbase():
    s = empty(side="nva")
    add(s, "inf", "us", "khe_sanh")
    (h,) = add(s, "heli", "us", "tay_ninh")   # 5 flights from Khe Sanh: out of range
    s["zones"]["quang_tri"]["airbase"] = True
    (h2,) = add(s, "heli", "us", "quang_tri")  # 1 there, 1 back
    (n,) = add(s, "inf", "nva", "dmz")
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="khe_sanh"))
    s, _ = play(s, "nva", cmd("support"))
    with pytest.raises(Rejection, match="cannot reach"):
        play(s, "us", cmd("support", unit_ids=[h]))
    s2, _ = play(s, "us", cmd("support", unit_ids=[h2]), faces=[6, 6])
    assert s2["battle"] is None or any(e["id"] == h2 for e in s2["battle"]["sup"])


def test_gmv_support_vietnamese_infantry_and_artillery_only_from_adjacent_zones():
    s = empty(side="nva")
    add(s, "inf", "us", "hue")
    (n,) = add(s, "inf", "nva", "quang_tri")
    (far_inf,) = add(s, "inf", "nva", "dmz")        # two zones from Hue
    (far_art,) = add(s, "art", "nva", "khe_sanh")   # two zones from Hue
    (near_art,) = add(s, "art", "nva", "a_shau")
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="hue"))
    for u in (far_inf, far_art):
        with pytest.raises(Rejection, match="adjacent"):
            play(s, "nva", cmd("support", unit_ids=[u]))
    s2, _ = play(s, "nva", cmd("support", unit_ids=[near_art]))
    assert s2["battle"]["sup"] == [{"id": near_art, "side": "nva", "role": "art", "entry": 2}]
    assert s2["units"][near_art]["zone"] == "a_shau"  # fires from its zone, never enters


def test_gmv_support_american_artillery_only_from_adjacent_zones():
    s = empty(side="nva")
    add(s, "inf", "us", "hue")
    (far,) = add(s, "art", "us", "saigon")
    (near,) = add(s, "art", "us", "da_nang")
    (n,) = add(s, "inf", "nva", "quang_tri")
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="hue"))
    s, _ = play(s, "nva", cmd("support"))
    with pytest.raises(Rejection, match="cannot reach"):
        play(s, "us", cmd("support", unit_ids=[far]))
    s2, _ = play(s, "us", cmd("support", unit_ids=[near]), faces=[6, 6])
    assert any(e["id"] == near and e["role"] == "art" for e in s2["battle"]["sup"])


def test_gmv_support_aircraft_aa_fires_when_flying_over():
    s = empty(side="nva")
    add(s, "inf", "us", "quang_tri")
    (f,) = add(s, "fighter", "us", "carrier")
    (n,) = add(s, "inf", "nva", "dmz")
    add(s, "aa", "nva", "quang_tri")  # AA in the battle zone, flown over
    s, _ = play(s, "nva", cmd("attack", unit_ids=[n], zone="quang_tri"))
    s, _ = play(s, "nva", cmd("support"))
    s2, ctx = play(s, "us", cmd("support", unit_ids=[f]), faces=[1, 6, 6])
    assert f not in s2["units"] and "AA in quang_tri fires" in events(ctx, "roll")[0]["rule"]
