"""GMV "Combat actions: AMERICANS": patrol, build, airlift (AA, hot LZ), combat move."""
import pytest

from afteraction.engine.errors import Rejection
from afteraction.v1 import command_pb2

from .util import RS, add, cmd, empty, events, play


def airlift(loads, drop, base, stay=True):
    c = command_pb2.Command()
    for h, cargo in loads:
        x = c.gmv.airlift.loads.add()
        x.helicopter_id = h
        x.cargo_ids.extend(cargo)
    c.gmv.airlift.drop_zone = drop
    c.gmv.airlift.base_zone = base
    c.gmv.airlift.helicopters_stay = stay
    return c


def test_gmv_patrol_reveals_on_d6_le_5_minus_f():
    s = empty()
    i1, i2 = add(s, "inf", "us", "pleiku", 2)  # Pleiku F2: reveals on <= 3
    h = add(s, "vc", "nva", "pleiku", 3, hidden=True)
    s2, ctx = play(s, "us", cmd("patrol", unit_ids=[i1, i2]), faces=[4, 3, 2])  # one success, d3 = 2
    assert events(ctx, "patrol") == [{"t": "patrol", "zone": "pleiku", "result": "contact", "n": 2}]
    d = RS.pending(s2)
    assert (d.seat, d.kind) == ("nva", "reveal")
    assert RS.is_private(s2, "nva", cmd("reveal", unit_ids=h[:2]))
    with pytest.raises(Rejection, match="exactly 2"):
        play(s2, "nva", cmd("reveal", unit_ids=h[:1]))
    s3, ctx = play(s2, "nva", cmd("reveal", unit_ids=h[:2]))
    shown = [e["id"] for e in events(ctx, "revealed")]   # gmv/5: under fresh ids (KEPT_REVEALS)
    assert [x in s3["units"] for x in h] == [False, False, True] and s3["units"][h[2]]["hidden"]
    assert [(s3["units"][x]["hidden"], s3["units"][x]["zone"]) for x in shown] == [(False, "pleiku")] * 2
    assert s3["battle"]["zone"] == "pleiku" and s3["battle"]["att"] == "us"
    s4, ctx = play(s, "us", cmd("patrol", unit_ids=[i1, i2]), faces=[4, 5])
    assert events(ctx, "patrol")[0]["result"] == "no contact" and not s4["stack"]


def test_gmv_patrol_none_here_is_decided_by_the_engine():
    s = empty()
    (i,) = add(s, "inf", "us", "hue")
    add(s, "vc", "nva", "da_nang", hidden=True)
    s2, ctx = play(s, "us", cmd("patrol", unit_ids=[i]), faces=[6])
    assert events(ctx, "patrol")[0]["result"] == "none here" and not s2["stack"]


def test_gmv_us_actions_are_exclusive_and_go_north_to_south():
    s = empty()
    (a,) = add(s, "inf", "us", "saigon")
    (b,) = add(s, "inf", "us", "hue")
    s, _ = play(s, "us", cmd("patrol", unit_ids=[a]), faces=[6])
    with pytest.raises(Rejection, match="north to south"):
        play(s, "us", cmd("patrol", unit_ids=[b]))
    with pytest.raises(Rejection, match="already acted"):
        play(s, "us", cmd("build", unit_id=a, improvement=1))


def test_gmv_build_airbase_takes_two_turns_and_infantry_to_finish():
    s = empty(turn=2)
    a, b = add(s, "inf", "us", "hue", 2)
    s, _ = play(s, "us", cmd("build", unit_id=a, improvement=3))
    assert s["zones"]["hue"]["started"] == 2 and not s["zones"]["hue"]["airbase"]
    with pytest.raises(Rejection, match="two turns"):
        play(s, "us", cmd("build", unit_id=b, improvement=3))
    s["turn"] = 3
    s["cursor"] = 0
    for u in s["units"].values():
        u["acted"] = False
    s, _ = play(s, "us", cmd("build", unit_id=b, improvement=3))
    assert s["zones"]["hue"]["airbase"]


def test_gmv_build_lz_and_positions():
    s = empty()
    a, b = add(s, "inf", "us", "pleiku", 2)
    s, _ = play(s, "us", cmd("build", unit_id=a, improvement=1))
    s, _ = play(s, "us", cmd("build", unit_id=b, improvement=2))
    assert s["zones"]["pleiku"]["lz"] and s["zones"]["pleiku"]["positions"]


def test_gmv_airlift_four_moves_land_on_airbase_capacity():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 3)
    with pytest.raises(Rejection, match="capacity|2 infantry"):
        play(s, "us", airlift([(h, inf)], "tay_ninh", "saigon"))
    with pytest.raises(Rejection, match="airbase"):
        play(s, "us", airlift([(h, inf[:2])], "tay_ninh", "bien_hoa"))
    with pytest.raises(Rejection, match="4 times"):
        play(s, "us", airlift([(h, inf[:2])], "kontum", "saigon"))
    s2, _ = play(s, "us", airlift([(h, inf[:2])], "tay_ninh", "saigon"))
    assert RS.pending(s2).kind == "hot_lz"  # always asked
    s3, ctx = play(s2, "nva", cmd("hot_lz"))
    assert [s3["units"][x]["zone"] for x in inf] == ["tay_ninh", "tay_ninh", "saigon"]
    assert s3["units"][h]["zone"] == "saigon"
    s["zones"]["tay_ninh"]["lz"] = True  # LZ: +1
    play(s, "us", airlift([(h, inf)], "tay_ninh", "saigon"))


def test_gmv_airlift_aa_fires_at_helicopters_on_1():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    add(s, "aa", "nva", "iron_triangle")
    s2, _ = play(s, "us", airlift([(h, inf)], "iron_triangle", "saigon"), faces=[1])
    assert h not in s2["units"] and not any(i in s2["units"] for i in inf) and not s2["stack"]


def test_gmv_hot_lz_hit_on_1_destroys_helicopter_and_cargo_then_reinfiltrate():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    vc = add(s, "vc", "nva", "bien_hoa", 2, hidden=True)
    s, _ = play(s, "us", airlift([(h, inf)], "bien_hoa", "saigon"))
    assert RS.is_private(s, "nva", cmd("hot_lz", unit_ids=vc))
    s2, ctx = play(s, "nva", cmd("hot_lz", unit_ids=vc), faces=[1, 6])
    assert h not in s2["units"] and not any(i in s2["units"] for i in inf)
    (back,) = events(ctx, "reinfiltrated")
    vc = back["ids"]   # gmv/5: revealed under fresh ids, hidden again under them (KEPT_REVEALS)
    assert len(vc) == 2 and all(s2["units"][v]["hidden"] for v in vc)
    assert s2["units"][vc[0]]["revealed"] is None and s2["battle"] is None


def test_gmv_hot_lz_survivors_unload_firing_units_revealed_combat_with_us_attacking():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    vc = add(s, "vc", "nva", "bien_hoa", 2, hidden=True)
    s, _ = play(s, "us", airlift([(h, inf)], "bien_hoa", "saigon", stay=True))
    s2, ctx = play(s, "nva", cmd("hot_lz", unit_ids=vc[:1]), faces=[2])
    (fired,) = [e["id"] for e in events(ctx, "revealed")]   # gmv/5: a fresh id (KEPT_REVEALS)
    assert not s2["units"][fired]["hidden"] and s2["units"][vc[1]]["hidden"]
    b = s2["battle"]
    assert b["att"] == "us" and sorted(b["in"]["us"]) == sorted([h] + inf) and b["in"]["nva"] == [fired]


def test_gmv_combat_move_respects_f_ratings():
    s = empty()
    (t,) = add(s, "armor", "us", "saigon")
    (i,) = add(s, "inf", "us", "saigon")
    with pytest.raises(Rejection, match="cannot move"):
        play(s, "us", cmd("move", unit_ids=[t], path=["iron_triangle"]))  # F2: no tanks
    with pytest.raises(Rejection, match="cannot move"):
        play(s, "us", cmd("move", unit_ids=[i], path=["bien_hoa", "war_zone_d"]))
    s2, _ = play(s, "us", cmd("move", unit_ids=[t], path=["bien_hoa", "vung_tau"]))  # 2 moves in F0
    assert s2["units"][t]["zone"] == "vung_tau"
    add(s, "vc", "nva", "iron_triangle")
    s3, _ = play(s, "us", cmd("move", unit_ids=[i], path=["iron_triangle"]))  # F2 as combat
    assert s3["battle"]["zone"] == "iron_triangle"
    s["phase"] = 4
    with pytest.raises(Rejection, match="combat action"):
        play(s, "us", cmd("move", unit_ids=[i], path=["iron_triangle"]))


def test_gmv_patrol_d3_per_success_says_how_many_reveal():
    s = empty()
    (i1, i2) = add(s, "inf", "us", "da_nang", 2)  # F0: reveals on <= 5
    add(s, "vc", "nva", "da_nang", 6, hidden=True)
    s2, ctx = play(s, "us", cmd("patrol", unit_ids=[i1, i2]), faces=[1, 5, 3, 2])
    assert [e["die"] for e in events(ctx, "roll")] == ["d6", "d6", "d3", "d3"]
    assert s2["stack"][0]["n"] == 5


def test_gmv_patrol_nva_cannot_answer_none_here_when_units_are_there():
    s = empty()
    (i,) = add(s, "inf", "us", "da_nang")
    h = add(s, "vc", "nva", "da_nang", 2, hidden=True)
    s2, _ = play(s, "us", cmd("patrol", unit_ids=[i]), faces=[1, 1])
    with pytest.raises(Rejection, match="reveal exactly 1"):
        play(s2, "nva", cmd("reveal"))
    with pytest.raises(Rejection, match="reveal exactly 1"):
        play(s2, "nva", cmd("reveal", unit_ids=["u99999"]))
    s3, ctx = play(s2, "nva", cmd("reveal", unit_ids=h[:1]))
    (r,) = events(ctx, "revealed")   # gmv/5: a fresh id, the commitment kept for the end (KEPT_REVEALS)
    assert not s3["units"][r["id"]]["hidden"] and s3["kept"] and h[0] not in s3["units"]


def test_gmv_airlift_helicopters_move_4_times_in_total_including_the_way_back():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    # Saigon -> Dalat is 3 moves, Dalat -> the carrier 2: 5 in total
    with pytest.raises(Rejection, match="4 times"):
        play(s, "us", airlift([(h, inf)], "dalat", "carrier"))
    # loading elsewhere counts the flight to the cargo: Saigon -> Bien Hoa (1) -> Tay Ninh (2) -> Saigon (2)
    (j,) = add(s, "inf", "us", "bien_hoa")
    with pytest.raises(Rejection, match="4 times"):
        play(s, "us", airlift([(h, [j])], "tay_ninh", "saigon"))
    s2, _ = play(s, "us", airlift([(h, [j])], "iron_triangle", "saigon"))
    assert s2["units"][j]["zone"] == "iron_triangle"


def test_gmv_hot_lz_only_hidden_infantry_fire():
    s = empty()
    (h,) = add(s, "heli", "us", "saigon")
    inf = add(s, "inf", "us", "saigon", 2)
    (art,) = add(s, "art", "nva", "bien_hoa", hidden=True)
    s, _ = play(s, "us", airlift([(h, inf)], "bien_hoa", "saigon"))
    with pytest.raises(Rejection, match="hidden infantry"):
        play(s, "nva", cmd("hot_lz", unit_ids=[art]))


def test_gmv_patrol_and_build_are_done_by_infantry_only():
    s = empty()
    (t,) = add(s, "armor", "us", "saigon")
    with pytest.raises(Rejection, match="infantry"):
        play(s, "us", cmd("patrol", unit_ids=[t]))
    with pytest.raises(Rejection, match="infantry build"):
        play(s, "us", cmd("build", unit_id=t, improvement=1))
    (sv,) = add(s, "sv", "us", "saigon")  # SV are infantry too (docs/rules/gmv.md)
    play(s, "us", cmd("patrol", unit_ids=[sv]), faces=[6])
