"""GMV "Phase 2: Bombing Missions": blind bombing, AA, defoliation."""
import pytest

from afteraction.engine.errors import Rejection

from .util import RS, add, cmd, empty, events, play


def _to_phase2(s):
    s["phase"] = 1
    s, _ = play(s, "us", cmd("end_phase"))
    return s


def test_gmv_blind_bombing_marks_now_resolves_next_turn_with_4_dice():
    s = empty(phase=2, turn=1)
    (b,) = add(s, "bomber", "us", "carrier")
    add(s, "inf", "nva", "hue")
    h = add(s, "vc", "nva", "hue", hidden=True)
    s, ctx = play(s, "us", cmd("bomb", bomber_id=b, zone="hue"))
    assert s["marks"] == [{"bomber": b, "zone": "hue", "turn": 1}] and not events(ctx, "bombing")
    s["turn"] = 2
    s["units"][b]["acted"] = False
    # no AA on the way; 4 dice, hit on <= 4: two hits
    s = _to_phase2_with(s, faces=[1, 5, 4, 6])
    assert s["stack"][0] == {"seat": "nva", "kind": "bomb_casualties", "zone": "hue", "hits": 2}
    assert RS.is_private(s, "nva", cmd("casualties", unit_ids=h))
    with pytest.raises(Rejection, match="exactly 2"):
        play(s, "nva", cmd("casualties", unit_ids=h))
    ids = sorted(u["id"] for u in s["units"].values() if u["zone"] == "hue")
    s, ctx = play(s, "nva", cmd("casualties", unit_ids=ids))
    assert not [u for u in s["units"].values() if u["zone"] == "hue"]
    # gmv/5 (KEPT_REVEALS): the hidden VC is revealed in Hue under a fresh id and lost; its commitment,
    # which names the id it hid under, is kept for the end of the game
    (r,) = events(ctx, "revealed")
    assert (r["type"], r["zone"]) == ("vc", "hue") and r["id"] not in h and not events(ctx, "open") and len(s["kept"]) == 1


def _to_phase2_with(s, faces):
    s["phase"] = 1
    s, _ = play(s, "us", cmd("end_phase"), faces=faces)
    return s


def test_gmv_blind_bombing_aa_rolls_one_d6_per_bomber_hits_on_1():
    s = empty(phase=2, turn=1)
    (b,) = add(s, "bomber", "us", "carrier")
    add(s, "aa", "nva", "haiphong")
    s, _ = play(s, "us", cmd("bomb", bomber_id=b, zone="haiphong"))
    s["turn"] = 2
    s = _to_phase2_with(s, faces=[1])
    assert b not in s["units"] and not s["stack"]


def test_gmv_defoliation_d12_lower_than_d6_lowers_f():
    s = empty(phase=2)
    (b,) = add(s, "bomber", "us", "carrier")
    f = s["zones"]["a_shau"]["f"]
    s2, ctx = play(s, "us", cmd("defoliate", bomber_id=b, zone="a_shau"), faces=[3, 4])
    assert s2["zones"]["a_shau"]["f"] == f - 1
    s3, _ = play(s, "us", cmd("defoliate", bomber_id=b, zone="a_shau"), faces=[4, 4])
    assert s3["zones"]["a_shau"]["f"] == f
    with pytest.raises(Rejection, match="already"):
        play(s2, "us", cmd("defoliate", bomber_id=b, zone="kontum"))


def test_gmv_defoliation_option_2d6_and_d6():
    s = empty(phase=2)
    s["opts"]["defoliation_2d6"] = True
    (b,) = add(s, "bomber", "us", "carrier")
    s2, ctx = play(s, "us", cmd("defoliate", bomber_id=b, zone="kontum"), faces=[1, 2, 4])
    assert s2["zones"]["kontum"]["f"] == 3
    assert [e["die"] for e in events(ctx, "roll")] == ["2d6", "d6"]


def test_gmv_blind_bombing_bomber_rolls_exactly_4_dice_each_hits_on_4_or_less():
    s = empty(phase=2, turn=1)
    (b,) = add(s, "bomber", "us", "carrier")
    add(s, "inf", "nva", "hue", 4)
    s, _ = play(s, "us", cmd("bomb", bomber_id=b, zone="hue"))
    s["turn"] = 2
    s["phase"] = 1
    s, ctx = play(s, "us", cmd("end_phase"), faces=[4, 4, 4, 4])
    assert [e["die"] for e in events(ctx, "roll")] == ["d6"] * 4
    assert s["stack"][0]["hits"] == 4


def test_gmv_blind_bombing_aa_each_aa_flown_over_rolls_one_d6_hits_only_on_1():
    s = empty(phase=2, turn=1)
    (b,) = add(s, "bomber", "us", "carrier")
    add(s, "aa", "nva", "hanoi", 2)  # two AA at the target: two dice for the one bomber
    add(s, "aa", "nva", "quang_tri")  # not on the way
    s, _ = play(s, "us", cmd("bomb", bomber_id=b, zone="hanoi"))
    s["turn"] = 2
    s["phase"] = 1
    s2, ctx = play(s, "us", cmd("end_phase"), faces=[2, 2, 6, 6, 6, 6])
    rolls = [e["rule"] for e in events(ctx, "roll")]
    assert sum("AA in" in r for r in rolls) == 2 and all("quang_tri" not in r for r in rolls)
    assert b in s2["units"]  # a 2 misses
