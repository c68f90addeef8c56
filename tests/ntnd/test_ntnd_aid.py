"""NTND 27 (Communist aid), 28.10 (NVA mobilization) and 4.1.5 (random events' recruitment extras) in
the campaign, through the Communist Recruitment phase as the game runs it (flow.enter/advance, the
offered commands applied by NtndRuleset.apply)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.decisions import DECISIONS
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .mapplay import RS, legal, play
from .test_ntnd_neutrality import at, cblank, kinds, past_policy
from .test_ntnd_rules import put


def aid_cmds(s):
    return [c for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "aid"]


def aid_cmd(source, kind, location, inverted=False):
    return cmd("aid", source=source, kind=kind, location=location, inverted=inverted)


def rolls(s):
    return [e for e in kinds(s["_events"], "aid") if e["event"] == "roll"]


# --- 27.1 ------------------------------------------------------------------------------------

def test_ntnd_27_1_aid_rolled_each_january_february_and_then_received_every_turn():
    s = at(cblank(turn=6), "c_recruit", faces=[5, 2])          # turn 6: January/February 1966
    r = rolls(s)
    assert [(e["source"], e["total"], e["begun"]) for e in r] == [("china", 5, True), ("soviet", 2, False)]
    assert s["decision"]["kind"] == "aid" and s["phase"]["aid"] == ["china"]
    s, ev = play(s, "communist", aid_cmd("china", "communist_supply", "CHINA"))
    assert kinds(ev, "aid")[0]["type"] == "communist_supply" and s["decision"]["kind"] == "recruit"
    s["turn"] = 7                                               # not a roll turn: no roll, aid goes on
    s = at(s, "c_recruit")
    assert not rolls(s) and s["phase"]["aid"] == ["china"]
    s = at(cblank(turn=5), "c_recruit")
    assert not rolls(s) and s["decision"]["kind"] == "recruit"   # no roll outside the roll turns


def test_ntnd_24_4_3_after_a_reversal_soviet_and_chinese_aid_begin_at_once():
    s = cblank(turn=7)                                          # not a roll turn (27.1)
    s["vietnamization_reversed"] = "full"                      # vietnamization.py's record of a reversal
    s = at(s, "c_recruit")
    assert not rolls(s) and sorted(s["aid"]["begun"]) == ["china", "soviet"]
    assert [e["source"] for e in kinds(s["_events"], "aid") if e["event"] == "begun"] == ["china", "soviet"]
    assert s["decision"]["kind"] == "aid" and s["phase"]["aid"] == ["china", "soviet"]
    t = at(cblank(turn=7), "c_recruit")                         # no reversal: no aid without its roll
    assert not t.get("aid", {}).get("begun") and t["decision"]["kind"] == "recruit"


def test_ntnd_27_1_1_full_vietnamization_takes_two_partial_one():
    s = cblank(turn=6)
    s["vietnamization"] = "full"
    s = at(s, "c_recruit", faces=[6, 6])
    assert [e["total"] for e in rolls(s)] == [4, 4] and not s["aid"]["begun"]
    s = cblank(turn=6)
    s["vietnamization"] = "partial"
    s = at(s, "c_recruit", faces=[6, 5])
    assert [(e["total"], e["begun"]) for e in rolls(s)] == [(5, True), (4, False)]


def test_ntnd_27_1_2_allied_ground_units_in_north_vietnam_add_two():
    s = cblank(turn=6)
    s["neutrality"] = {"charged": {}, "joined": {}, "conquered": {}, "nva_attack": 0, "nv_entered": 6}
    s = at(s, "c_recruit", faces=[3, 1])
    assert [e["total"] for e in rolls(s)] == [5, 3]
    assert all(m["rule"] == "27.1.2" for e in rolls(s) for m in e["modifiers"])


# --- 27.2 / 27.3 / 27.4 ------------------------------------------------------------------------

def test_ntnd_27_2_chinese_aid_supply_or_sam_in_china_or_a_cadre_placed_as_cadres():
    s = cblank(turn=6)
    s = at(s, "c_recruit", faces=[6, 1])
    got = {(c.ntnd.aid.kind, c.ntnd.aid.location == "CHINA") for c in aid_cmds(s)}
    assert ("communist_supply", True) in got and ("nva_sam", True) in got
    assert ("vc_cadre", False) in got and ("pl_cadre", False) in got and ("kr_cadre", False) in got
    assert not any(c.ntnd.aid.kind == "nva_artillery" for c in aid_cmds(s))
    hexes = {c.ntnd.aid.location for c in aid_cmds(s) if c.ntnd.aid.kind == "vc_cadre"}
    from afteraction.engine.games.ntnd.forces.recruitment import cadre_hexes
    assert hexes == set(cadre_hexes(s, "VC"))                 # 4.1.1's hexes
    c = next(c for c in aid_cmds(s) if c.ntnd.aid.kind == "vc_cadre" and c.ntnd.aid.inverted)
    s, ev = play(s, "communist", c)
    assert s["markers"] and kinds(ev, "aid")[0].get("type") is None


def test_ntnd_27_3_soviet_aid_at_haiphong_and_in_china_the_next_turn_if_mined():
    s = cblank(turn=6)
    s = at(s, "c_recruit", faces=[1, 6])
    assert {c.ntnd.aid.kind for c in aid_cmds(s)} == {"communist_supply", "nva_sam", "nva_artillery",
                                                      "nva_interceptor", "nva_tank_regiment"}
    assert {c.ntnd.aid.location for c in aid_cmds(s)} == {"HAIPHONG"}
    s["haiphong_mined"] = True
    s, ev = play(s, "communist", aid_cmd("soviet", "nva_tank_regiment", "HAIPHONG"))
    assert kinds(ev, "aid")[0]["event"] == "deferred" and not any(
        u["status"] == "map" for u in s["units"].values() if u["type"] == "nva_tank_regiment")
    s["turn"] = 7
    s = at(s, "c_recruit")
    tanks = [u for u in s["units"].values() if u["type"] == "nva_tank_regiment" and u["status"] == "map"]
    assert [u["loc"] for u in tanks] == ["CHINA"]


def test_ntnd_27_4_a_different_unit_each_turn():
    s = at(cblank(turn=6), "c_recruit", faces=[6, 1])
    s, _ = play(s, "communist", aid_cmd("china", "communist_supply", "CHINA"))
    s["turn"] = 7
    s = at(s, "c_recruit")
    s, ev = play(s, "communist", aid_cmd("china", "nva_sam", "CHINA"))
    assert kinds(ev, "aid")[0]["type"] == "nva_sam"


def test_ntnd_27_aid_choice_is_sealed_and_an_inverted_unit_shows_no_type():
    """Leak test: an inverted SAM and an inverted supply unit from China make the same public events."""
    kind = next(k for k in DECISIONS.kinds if k.name == "aid")
    assert kind.sealed is True and kind.seat == "communist"
    streams = []
    for what in ("nva_sam", "communist_supply"):
        s = at(cblank(turn=6), "c_recruit", faces=[6, 1])
        ctx = Context.for_tests()
        RS.apply(s, "communist", aid_cmd("china", what, "CHINA", inverted=True), ctx)
        streams.append([e for e, to in ctx.events if to is None])
    assert streams[0] == streams[1]
    assert not any(what in str(streams[0]) for what in ("nva_sam", "communist_supply"))


def test_ntnd_27_1_aid_suspended_and_an_extra_aid_unit_from_random_events():
    s = cblank(turn=7)
    s["aid"] = {"begun": {"china": 6}, "deferred": []}
    s["mods"] = {"aid_suspended": True}
    s = at(s, "c_recruit")
    assert s["decision"]["kind"] == "recruit" and kinds(s["_events"], "aid")[0]["event"] == "suspended"
    assert "aid_suspended" not in s["mods"]
    s = cblank(turn=7)
    s["mods"] = {"aid_units": ["soviet"]}
    s = at(s, "c_recruit")
    assert s["phase"]["aid"] == ["soviet"] and not s["aid"]["begun"]


# --- 28.10 / 4.1.5 -------------------------------------------------------------------------------

def _divisions_offered(s):
    return any(c.ntnd.WhichOneof("action") == "place" and c.ntnd.place.kind == "nva_division"
               for c in legal(s, "communist"))


def test_ntnd_28_10_the_national_uprising_lifts_the_ten_division_cap():
    s = cblank(turn=3)
    divs = sorted(u["id"] for u in s["units"].values() if u["type"] == "nva_division")[:10]
    for d in divs:
        put(s, d, "HANOI")
    s = at(s, "c_recruit")
    assert not _divisions_offered(s)
    s = cblank(turn=3)
    for d in divs:
        put(s, d, "HANOI")
    s["uprising"] = {"turn": 2}                                      # declared on turn 2 (uprising.declare)
    s = at(s, "c_recruit")
    assert _divisions_offered(s)
    s, _ = play(s, "communist", cmd("place", kind="nva_division", nationality="NVA", location="CHINA"))
    assert sum(1 for u in s["units"].values() if u["type"] == "nva_division" and u["status"] == "map") == 11


def test_ntnd_4_1_5_random_event_recruits_consumed_in_the_next_recruitment():
    s = cblank(turn=3)
    s["mods"] = {"basic_cadres": -1, "nva_recruits": 1,
                 "communist_recruits": [{"type": "kr_cadre", "count": 2, "place": "4.1.1 placement in Cambodia"}]}
    s = at(s, "c_recruit")
    assert (s["phase"]["cadres"], s["phase"]["nva"], s["phase"]["extra"]) == (2, 3, {"CA": 2})
    assert s["mods"] == {}
    c = next(c for c in legal(s, "communist") if c.ntnd.WhichOneof("action") == "place"
             and c.ntnd.place.nationality == "KR")
    s, _ = play(s, "communist", c)
    assert s["phase"]["extra"] == {"CA": 1} and s["phase"]["cadres"] == 2


# --- a whole short campaign: the new decisions accept what they offer, nothing leaks -------------

def test_ntnd_10_and_27_campaign_short_plays_to_the_end_without_leaks():
    """random_bot and tet_bot play campaign_short to its end with neutrality and aid in force; the
    leak check of test_ntnd_game (every public event and the Allied view against the hidden units).
    The random bots' game is the corpus's (test_ntnd_game checks the same game: its check is made once a run)."""
    import corpus
    from afteraction.engine.games.ntnd.bots.military import tet_bot

    from .test_ntnd_game import play_checked
    for seed, bot in ((corpus.NTND_SHORT_CAMPAIGN_RANDOM, None), (b"tests/ntnd/neutral-tet", tet_bot(b"neutral"))):
        g, n, leaks, allied_openings = play_checked(seed, bot, scenario="campaign_short")
        assert g.referee.ended and n > 50 and leaks == [] and allied_openings == 0
        s = g.referee.state
        assert "neutrality" in s and s["outcome"] is not None


def test_ntnd_27_2_and_10_5_2_every_offered_answer_is_accepted_and_others_rejected():
    from afteraction.engine.errors import Rejection
    s = at(cblank(turn=6), "c_recruit", faces=[6, 6])
    offered = legal(s, "communist")
    assert len(offered) > 10
    for c in offered[::7] + offered[-1:]:
        RS.apply(RS.copy_state(s), "communist", c, Context.for_tests())
    for bad in (aid_cmd("soviet", "nva_sam", "HAIPHONG"), aid_cmd("china", "nva_artillery", "CHINA"),
                aid_cmd("china", "nva_sam", "HANOI")):
        try:
            RS.apply(RS.copy_state(s), "communist", bad, Context.for_tests())
            raise AssertionError("accepted")
        except Rejection as e:
            assert e.code == "ILLEGAL_AID"
    t = past_policy(at(cblank(), "a_reinforce"))
    for c in legal(t, "allied"):
        RS.apply(RS.copy_state(t), "allied", c, Context.for_tests())
    try:
        RS.apply(RS.copy_state(t), "allied", cmd("coup", country="NV"), Context.for_tests())
        raise AssertionError("accepted")
    except Rejection as e:
        assert e.code == "ILLEGAL_COUP"
