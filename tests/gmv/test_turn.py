"""GMV "Turn Order": five phases (buy, bombing, combat, non-combat, place);
the project's order of sides: the US plays its five, then the NVA (which has no
bombers, so its phase 2 is skipped), then the next turn."""
from .util import RS, cmd, play


def test_gmv_turn_order_five_phases_us_then_nva_then_next_turn():
    from afteraction.engine.ruleset import Context
    s = RS.setup("1965", dict(RS.options), Context.for_tests())
    seen = []
    for _ in range(9):
        d = RS.pending(s)
        seen.append((s["turn"], d.seat, s["phase"]))
        # the NVA's phase 4 ends with its hidden-move order, given every turn
        end = cmd("hidden_move") if (d.seat, s["phase"]) == ("nva", 4) else cmd("end_phase")
        s, _ = play(s, d.seat, end)
    assert seen == [(1, "us", 1), (1, "us", 2), (1, "us", 3), (1, "us", 4), (1, "us", 5),
                    (1, "nva", 1), (1, "nva", 3), (1, "nva", 4), (1, "nva", 5)]
    assert (s["turn"], RS.pending(s).seat, s["phase"]) == (2, "us", 1)
    assert s["money"]["us"]["ipc"] == 60  # Phase 1 income each turn: flat 30
