"""GMV "Combat actions: VIETNAMESE": extra recruitment, infiltration, hidden combat moves."""
import pytest

from afteraction.engine.errors import Rejection

from .util import RS, add, cmd, empty, events, play


def test_gmv_nva_1_extra_recruitment_d3_le_r_adds_vc():
    s = empty(side="nva")
    (u,) = add(s, "inf", "nva", "hue")  # R2
    s2, _ = play(s, "nva", cmd("recruit", unit_id=u), faces=[2])
    assert [x["zone"] for x in s2["units"].values() if x["type"] == "vc"] == ["hue"]
    s3, _ = play(s, "nva", cmd("recruit", unit_id=u), faces=[3])
    assert not [x for x in s3["units"].values() if x["type"] == "vc"]
    with pytest.raises(Rejection, match="already acted"):
        play(s3, "nva", cmd("recruit", unit_id=u), faces=[1])


def test_gmv_nva_2_infiltration_hides_then_one_move_then_no_action():
    s = empty(side="nva")
    a, b = add(s, "inf", "nva", "pleiku", 2)
    (t,) = add(s, "armor", "nva", "pleiku")
    with pytest.raises(Rejection, match="only infantry and artillery"):
        play(s, "nva", cmd("infiltrate", unit_ids=[t], to_zone="pleiku"))
    with pytest.raises(Rejection, match="adjacent"):
        play(s, "nva", cmd("infiltrate", unit_ids=[a, b], to_zone="saigon"))
    c = cmd("infiltrate", unit_ids=[a, b], to_zone="kontum")
    assert RS.is_private(s, "nva", c)
    s, ctx = play(s, "nva", c)
    assert s["units"][a]["hidden"] and s["units"][a]["zone"] == "kontum"
    pub = events(ctx, private=False)
    assert pub == [{"t": "infiltrated", "ids": [a, b], "from": "pleiku"}]
    hid = events(ctx, "hidden", private=True)
    assert {(e["id"], e["zone"]) for e in hid} == {(a, "kontum"), (b, "kontum")}
    assert s["units"][a]["ref"] is not None
    s["phase"] = 4  # the hidden moves of the turn are phase 4's order
    with pytest.raises(Rejection, match="already"):
        play(s, "nva", cmd("hidden_move", unit_ids=[a], to_zone="pleiku"))
    assert RS.view(s, "us")["hidden_count"] == 2
    assert all(u["id"] not in (a, b) for u in RS.view(s, "us")["units"])


def test_gmv_nva_2_revealed_unit_waits_one_turn_to_reinfiltrate():
    s = empty(side="nva", turn=3)
    (a,) = add(s, "inf", "nva", "pleiku")
    s["units"][a]["revealed"] = 3
    with pytest.raises(Rejection, match="wait 1 turn"):
        play(s, "nva", cmd("infiltrate", unit_ids=[a], to_zone="pleiku"))
    s["units"][a]["revealed"] = 2
    play(s, "nva", cmd("infiltrate", unit_ids=[a], to_zone="pleiku"))


def test_gmv_nva_3_hidden_move_is_sealed_one_move_any_jungle():
    s = empty(side="nva", phase=4)
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)  # F4: NVA are not hampered
    c = cmd("hidden_move", unit_ids=[a], to_zone="laos_south")
    assert RS.is_private(s, "nva", c)
    s2, ctx = play(s, "nva", c)
    assert s2["units"][a]["zone"] == "laos_south"
    assert events(ctx, private=False)[0] == {"t": "hidden-move", "n": 1}
    # the new zone is committed (a later reveal opens it, not the old zone)
    assert events(ctx, "hidden", private=True) == [{"t": "hidden", "id": a, "type": "inf", "zone": "laos_south"}]
    assert s2["phase"] == 5  # the order ends the NVA's phase 4
    s2["phase"] = 4
    with pytest.raises(Rejection, match="already"):
        play(s2, "nva", cmd("hidden_move", unit_ids=[a], to_zone="kontum"))
    with pytest.raises(Rejection, match="adjacent"):
        play(s, "nva", cmd("hidden_move", unit_ids=[a], to_zone="saigon"))


def test_gmv_nva_3_one_hidden_move_order_moves_several_groups_or_none():
    """The turn's hidden moves are one sealed order (groups), possibly empty."""
    from afteraction.engine.games.gmv.legal import _c
    from afteraction.v1 import gmv_pb2
    s = empty(side="nva", phase=4)
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)
    (b,) = add(s, "art", "nva", "hue", hidden=True)
    c = _c("hidden_move", unit_ids=[a], to_zone="pleiku")
    c.gmv.hidden_move.groups.append(gmv_pb2.GmvHiddenGroup(unit_ids=[b], to_zone="quang_tri"))
    s2, ctx = play(s, "nva", c)
    assert (s2["units"][a]["zone"], s2["units"][b]["zone"]) == ("pleiku", "quang_tri")
    s3, ctx3 = play(s, "nva", cmd("hidden_move"))
    assert (s3["units"][a]["zone"], s3["units"][b]["zone"]) == ("kontum", "hue")
    assert events(ctx, private=False) == events(ctx3, private=False) == [{"t": "hidden-move", "n": 1}] + \
        [{"t": "phase", "turn": 2, "side": "nva", "phase": 5}]
    c.gmv.hidden_move.groups.append(gmv_pb2.GmvHiddenGroup(unit_ids=[a], to_zone="kontum"))
    with pytest.raises(Rejection, match="already"):
        play(s, "nva", c)  # a unit moves once
    with pytest.raises(Rejection, match="ILLEGAL_COMMAND: GMV Phase 4.*answered by move or hidden_move"):
        play(s, "nva", cmd("end_phase"))


def test_gmv_nva_3_attack_reveals_attacking_hidden_units_and_starts_combat():
    s = empty(side="nva")
    (a,) = add(s, "inf", "nva", "pleiku", hidden=True)
    (k,) = add(s, "vc", "nva", "pleiku", hidden=True)  # stays hidden
    add(s, "sv", "us", "binh_dinh")
    s, ctx = play(s, "nva", cmd("attack", unit_ids=[a], zone="binh_dinh"))
    # from gmv/4 the attacker leaves the hidden board under the next free id (FRESH_IDS)
    (b,) = [e["id"] for e in events(ctx, "revealed")]
    assert int(b[1:]) > int(k[1:]) and a not in s["units"] and [e["ids"] for e in events(ctx, "attack")] == [[b]]
    assert not s["units"][b]["hidden"] and s["units"][b]["zone"] == "binh_dinh" and s["units"][b]["revealed"] == 2
    assert s["units"][k]["hidden"]
    # revealed in the zone attacked; where it stood on the hidden board stays sealed
    assert not events(ctx, "open") and s["kept"] and s["battle"]["att"] == "nva"
    assert [(e["id"], e["zone"]) for e in events(ctx, "revealed")] == [(b, "binh_dinh")]


def test_gmv_nva_3_gmv_3_games_keep_the_id_a_unit_infiltrated_with():
    """gmv/2-3 play as they always did (their golden logs replay byte for byte): the attacker keeps
    its id."""
    from afteraction.engine.versions import KEY
    s = empty(side="nva")
    s[KEY] = "3"
    (a,) = add(s, "inf", "nva", "pleiku", hidden=True)
    add(s, "sv", "us", "binh_dinh")
    s, ctx = play(s, "nva", cmd("attack", unit_ids=[a], zone="binh_dinh"))
    assert [(e["id"], e["zone"]) for e in events(ctx, "revealed")] == [(a, "binh_dinh")]
    assert not s["units"][a]["hidden"]
    assert RS.pending(s).kind == "support" and RS.pending(s).seat == "nva"


def test_gmv_nva_3_no_attack_on_the_carrier_group():
    s = empty(side="nva")
    (a,) = add(s, "inf", "nva", "hue")
    with pytest.raises(Rejection, match="on land"):
        play(s, "nva", cmd("attack", unit_ids=[a], zone="carrier"))


def test_gmv_nva_2_unit_revealed_by_a_us_patrol_cannot_reinfiltrate_in_the_same_turn():
    s = empty()
    (i,) = add(s, "inf", "us", "da_nang")
    (h,) = add(s, "vc", "nva", "da_nang", hidden=True)
    s, _ = play(s, "us", cmd("patrol", unit_ids=[i]), faces=[1, 1])
    s, ctx = play(s, "nva", cmd("reveal", unit_ids=[h]))
    h = events(ctx, "revealed")[0]["id"]   # gmv/5: a fresh id (KEPT_REVEALS)
    assert s["units"][h]["revealed"] == s["turn"]
    s["battle"] = None
    s["side"] = "nva"
    with pytest.raises(Rejection, match="wait 1 turn"):
        play(s, "nva", cmd("infiltrate", unit_ids=[h], to_zone="da_nang"))


def test_gmv_nva_1_extra_recruitment_by_an_exposed_unit_only():
    s = empty(side="nva")
    (u,) = add(s, "inf", "nva", "hue", hidden=True)
    with pytest.raises(Rejection, match="exposed"):
        play(s, "nva", cmd("recruit", unit_id=u), faces=[1])
