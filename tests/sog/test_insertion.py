"""SOG 3.4-3.4.4: insertion."""
import pytest

from afteraction.engine.errors import Rejection

from .util import RS, choose_lz, do, insert, new, of, organise


def _organised(target=(2, 6), **options):
    s, _ = do(new([1], **options), "sog", organise(), faces=list(target))
    return s


def test_sog_3_4_1_foot_insertion_column_A():
    s = _organised()
    legal = RS.legal_commands(s, "sog")
    rows = [c.sog.insert.row for c in legal if c.sog.insert.method == 1]
    assert rows == list(range(1, 11))
    s2, ev = do(s, "sog", insert(1, 4))
    assert s2["team_at"] == "4-A" and s2["phase"] == "play"
    assert RS.pending(s2).kind == "abort_or_move"


def test_sog_3_4_1_not_on_or_adjacent_to_target():
    s = _organised(target=(5, 2))  # target 5-B: 4-A, 5-A, 6-A are adjacent
    rows = [c.sog.insert.row for c in RS.legal_commands(s, "sog") if c.sog.insert.method == 1]
    assert rows == [1, 2, 3, 7, 8, 9, 10]
    with pytest.raises(Rejection) as e:
        do(s, "sog", insert(1, 5))
    assert e.value.code == "ILLEGAL_INSERTION" and "SOG 3.4.1" in e.value.message
    s = _organised(target=(3, 1))  # target on 3-A itself
    with pytest.raises(Rejection):
        do(s, "sog", insert(1, 3))


def test_sog_3_4_2_three_lzs_rerolled_on_target():
    s = _organised(target=(2, 6))
    # LZ1 rolls the target square 2-F and is re-rolled to 4-D; LZ2 7-C; LZ3 9-J
    s2, ev = do(s, "sog", insert(2), faces=[2, 6, 4, 4, 7, 3, 9, 10])
    assert [x["at"] for x in s2["lzs"]] == ["4-D", "7-C", "9-J"]
    assert of(ev, "lz-reroll")[0]["square"] == "2-F"
    assert RS.pending(s2).kind == "lz_choice"
    assert [c.sog.choose_lz.lz for c in RS.legal_commands(s2, "sog")] == [1, 2, 3]
    # once committed to the helicopter there is no foot insertion any more
    with pytest.raises(Rejection):
        do(s2, "sog", insert(1, 9))


def test_sog_3_4_3_landing_roll_1_3_lands():
    s, _ = do(_organised(), "sog", insert(2), faces=[4, 4, 7, 3, 9, 10])
    s2, ev = do(s, "sog", choose_lz(2), faces=[3])
    assert s2["team_at"] == "7-C" and s2["phase"] == "play"
    with pytest.raises(Rejection) as e:
        do(s, "sog", choose_lz(4))
    assert e.value.code == "ILLEGAL_LZ"


def test_sog_3_4_3_two_failures_force_the_remaining_lz():
    s, _ = do(_organised(), "sog", insert(2), faces=[4, 4, 7, 3, 9, 10])
    s, ev = do(s, "sog", choose_lz(3), faces=[4])
    assert of(ev, "lz-failed") and [x["n"] for x in s["lzs"]] == [1, 2]
    assert s["team_at"] is None
    s, ev = do(s, "sog", choose_lz(1), faces=[10])
    assert s["team_at"] == "7-C"  # LZ 2, the remaining one
    assert of(ev, "team-inserted")[0]["rule"] == "SOG 3.4.3: the remaining LZ"


def test_sog_3_4_4_optional_one_lz_forces_landing():
    s = _organised(lz_count=1)
    s2, ev = do(s, "sog", insert(2), faces=[6, 6])
    assert s2["team_at"] == "6-F" and s2["phase"] == "play"
    assert len(of(ev, "roll")) == 1  # no landing roll


def test_sog_3_4_4_optional_five_lzs():
    s = _organised(lz_count=5)
    s2, _ = do(s, "sog", insert(2), faces=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
    assert len(s2["lzs"]) == 5
    for n in (1, 2, 3):
        s2, _ = do(s2, "sog", choose_lz(n), faces=[9])
    assert s2["team_at"] is None and len(s2["lzs"]) == 2
    s2, _ = do(s2, "sog", choose_lz(5), faces=[8])
    assert s2["team_at"] == "4-D"


def test_sog_3_4_4_lz_count_option_range():
    for bad in (0, 6):
        with pytest.raises(Rejection) as e:
            RS.check_options("mission", {"lz_count": bad})
        assert e.value.code == "BAD_OPTION"
