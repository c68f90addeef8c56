"""GMV victory (the project's own rule, docs/rules/gmv.md) and the end of the game."""
from afteraction.engine.games.gmv import victory
from afteraction.engine.ruleset import Context

from .util import RS, add, cmd, empty, events, play


def test_gmv_victory_final_reveals_hidden_units_and_counts_r_points():
    s = empty()
    add(s, "inf", "us", "saigon")           # R3
    add(s, "inf", "us", "can_tho")          # R3, contested by a hidden VC: nobody's
    add(s, "vc", "nva", "can_tho", hidden=True)
    add(s, "vc", "nva", "hue", hidden=True)  # R2
    ctx = Context.for_tests()
    out = victory.final(s, ctx)
    assert out["r_points"] == {"us": 3, "nva": 2} and out["winner"] == "us" and out["saigon"] == "us"
    assert len(events(ctx, "open")) == 2 and not any(u["hidden"] for u in s["units"].values())


def test_gmv_victory_nva_wins_on_more_r_points_without_saigon_held():
    s = empty()
    add(s, "vc", "nva", "hue")
    add(s, "vc", "nva", "da_nang")
    out = victory.final(s, Context.for_tests())
    assert out["winner"] == "nva" and out["saigon"] is None


def test_gmv_victory_immediate_nva_takes_saigon():
    s = empty(side="nva", phase=4)
    (n,) = add(s, "inf", "nva", "bien_hoa")
    s, ctx = play(s, "nva", cmd("move", unit_ids=[n], path=["saigon"]))
    assert RS.outcome(s)["winner"] == "nva" and RS.pending(s) is None
    assert events(ctx, "game-over")


def test_gmv_turn_limit_ends_the_game_after_the_nva_turn():
    s = empty(side="nva", phase=5, turn=8)
    s["turns"] = 8
    add(s, "inf", "us", "saigon")
    s, ctx = play(s, "nva", cmd("end_phase"))
    assert RS.outcome(s) is not None and RS.outcome(s)["turn"] == 8


def test_gmv_victory_nva_holding_saigon_at_the_end_wins_even_with_fewer_r_points():
    s = empty()
    add(s, "vc", "nva", "saigon", hidden=True)   # revealed at the end: Saigon is the NVA's
    for z in ("hue", "da_nang", "can_tho"):
        add(s, "sv", "us", z)
    out = victory.final(s, Context.for_tests())
    assert out["saigon"] == "nva" and out["r_points"]["us"] > out["r_points"]["nva"] and out["winner"] == "nva"


def test_gmv_victory_us_needs_saigon_and_more_r_points_else_draw():
    s = empty()
    add(s, "inf", "us", "saigon")   # R3
    add(s, "vc", "nva", "my_tho")   # R3
    out = victory.final(s, Context.for_tests())
    assert out["r_points"] == {"us": 3, "nva": 3} and out["winner"] is None


def test_gmv_victory_immediate_when_a_side_has_no_unit_left():
    s = empty()
    (i,) = add(s, "inf", "us", "hue")
    nva_ids = [u["id"] for u in s["units"].values() if u["side"] == "nva"]
    for uid in nva_ids:
        del s["units"][uid]
    (n,) = add(s, "inf", "nva", "hue")
    s["battle"] = None
    from afteraction.engine.games.gmv import combat
    combat.start(s, "hue", "us", Context.for_tests(), "test")
    s, _ = play(s, "us", cmd("support"))
    s, _ = play(s, "nva", cmd("support"), faces=[1, 6])  # the last NVA unit dies
    assert RS.outcome(s) == {"winner": "us", "reason": "no NVA or VC unit is left", "turn": 2}
