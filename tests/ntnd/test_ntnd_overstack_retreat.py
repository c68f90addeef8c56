"""NTND 19.3.2: "A stack may retreat into a hex already occupied by other friendly units, but if it
causes the stacking limit to be exceeded in that hex, the owning player must immediately eliminate
all units in violation of the stacking rules (his choice)." Over-stacking destinations are offered;
the owner then answers an ``overstack_losses`` decision, validated by the engine; hidden units of an
inverted marker stay hidden except the ones the elimination itself makes public."""
from __future__ import annotations

import json

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.combat import battles, resolution as cb
from afteraction.engine.games.ntnd.phases import FLOW

_advance = FLOW.advance
from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
from afteraction.engine.ruleset import Context

from .leakcheck import check_views, perturb
from .test_ntnd_rules import blank, hide, put

RS = NtndRuleset()
BATTLE, DEST, FRONT, FAR = "1714", "1715", "1713", "1716"


def _battle(s, side, target, attackers, loser):
    s["phase"] = {"id": "a_combat" if side == "allied" else "c_combat", "queue": []}
    s["attacks"] = []
    s["battle"] = {"kind": "battle", "side": side, "target": target, "attackers": attackers,
                   "todo": [f"retreat:{loser}"],
                   "result": {"winner": side, "band": cb.HIGHER, "order": [[loser, "must"]], "losses": []}}
    _advance(s, Context.for_tests())


def allied_case():
    """us-1-4 loses at 1714 and must retreat; 1715 already holds two Allied brigades (the limit, 8.10)."""
    s = blank()
    put(s, "us-1-4", BATTLE)
    put(s, "us-2-4", DEST)
    put(s, "us-3-4", DEST)
    put(s, "vc-qn", FRONT)
    _battle(s, "communist", BATTLE, ["vc-qn"], "allied")
    return s


def canon(s):
    return json.dumps(s, sort_keys=True, default=repr)


def test_ntnd_19_3_2_overstacking_destination_is_offered():
    s = allied_case()
    d = s["decision"]
    assert d["kind"] == "retreat" and d["unit"] == "us-1-4" and DEST in d["to"]
    assert cmd("retreat", unit="us-1-4", to=DEST) in RS.legal_commands(s, "allied")


def test_ntnd_19_3_2_owner_chooses_and_exactly_the_excess_is_eliminated():
    s = allied_case()
    ctx = Context.for_tests()
    s = RS.apply(s, "allied", cmd("retreat", unit="us-1-4", to=DEST), ctx)
    d = RS.pending(s)
    assert d.seat == "allied" and d.kind == "overstack_losses" and "19.3.2" in d.prompt
    assert d.data["count"] == 1 and d.data["eligible"] == ["us-1-4", "us-2-4", "us-3-4"]
    legal = RS.legal_commands(s, "allied")
    assert legal == [cmd("losses", units=[u]) for u in ("us-1-4", "us-2-4", "us-3-4")]
    pp = s["pp"]
    ctx = Context.for_tests()
    s = RS.apply(s, "allied", cmd("losses", units=["us-2-4"]), ctx)
    gone = [e for e, _ in ctx.events if e["t"] == "eliminated"]
    assert [(e["unit"], e["rule"]) for e in gone] == [("us-2-4", "NTND 19.3.2")]
    assert s["units"]["us-2-4"]["status"] == "dead" and s["pp"] == pp - 1     # 22.4
    assert sorted(u for u, x in s["units"].items() if x["status"] == "map" and x["loc"] == DEST) == ["us-1-4", "us-3-4"]
    assert s["battle"] is None and (s["decision"] or {}).get("kind") != "overstack_losses"


@pytest.mark.parametrize("units", [[], ["us-2-4", "us-3-4"], ["us-2-4", "us-2-4"], ["vc-qn"], ["us-173"],
                                   ["us-fleet"], ["nobody"]])
def test_ntnd_19_3_2_invalid_choice_is_rejected_and_changes_nothing(units):
    s = allied_case()
    put(s, "us-173", FAR)   # a unit of another hex
    s = RS.apply(s, "allied", cmd("retreat", unit="us-1-4", to=DEST), Context.for_tests())
    before = canon(s)
    with pytest.raises(Rejection) as e:
        RS.apply(RS.copy_state(s), "allied", cmd("losses", units=units), Context.for_tests())
    assert e.value.code == "ILLEGAL_LOSSES" and "NTND 19.3.2" in e.value.message
    assert canon(s) == before
    # the other seat may not answer it either
    with pytest.raises(Rejection):
        RS.apply(RS.copy_state(s), "communist", cmd("losses", units=["us-2-4"]), Context.for_tests())


def test_ntnd_19_3_2_retreat_within_the_limit_asks_nothing():
    s = allied_case()
    s["units"]["us-3-4"].update(status="sched", loc=None)
    s = RS.apply(s, "allied", cmd("retreat", unit="us-1-4", to=DEST), Context.for_tests())
    assert (s["decision"] or {}).get("kind") != "overstack_losses"
    assert s["units"]["us-1-4"]["loc"] == DEST


def communist_case():
    """vc-qn loses at 1714 to us-1-4 and must retreat; 1715 holds an inverted marker of two units (the
    limit); another marker far away holds other contents (so the leak check can rotate them)."""
    s = blank()
    put(s, "vc-qn", BATTLE)
    put(s, "us-1-4", FRONT)
    mk = hide(s, ["nva-7", "vc-dak-to"], DEST)
    hide(s, ["vc-bmt", "vc-nt"], "2020")
    _battle(s, "allied", BATTLE, ["us-1-4"], "communist")
    return s, mk


def test_ntnd_19_3_2_communist_retreat_into_hidden_stack_stays_leak_free():
    s, mk = communist_case()
    assert s["decision"]["kind"] == "retreat" and DEST in s["decision"]["to"]
    s = RS.apply(s, "communist", cmd("retreat", unit="vc-qn", to=DEST), Context.for_tests())
    d = s["decision"]
    assert d["kind"] == "overstack_losses" and d["count"] == 1
    assert d["eligible"] == ["nva-7", "vc-dak-to", "vc-qn"]
    pub = RS.pending(s)
    assert "count" not in pub.data and "eligible" not in pub.data            # depend on the marker
    assert "nva-7" not in json.dumps(RS.view(s, "allied")) and "nva-7" not in json.dumps(pub.as_dict())
    p = perturb(s)
    assert p is not None and [p["units"][u]["mk"] for u in ("vc-bmt", "vc-nt")] == [mk, mk]
    assert check_views(s, p)
    # the Communist player eliminates a unit of the hidden stack: it alone becomes public
    ctx = Context.for_tests()
    s = RS.apply(s, "communist", cmd("losses", units=["nva-7"]), ctx)
    public = json.dumps([e for e, to in ctx.events if to is None])
    assert '"unit": "nva-7"' in public and "NTND 19.3.2" in public
    assert "vc-dak-to" not in public and "vc_regiment" not in public
    view = json.dumps(RS.view(s, "allied"))
    assert "vc-dak-to" not in view and view.count("vc_regiment") == 1   # vc-qn, face up
    assert s["units"]["nva-7"]["status"] == "mix" and s["units"]["vc-dak-to"]["inv"]
    assert mk not in s["markers"] and any(m["loc"] == DEST and m["units"] == ["vc-dak-to"]
                                          for m in s["markers"].values())
    assert s["units"]["vc-qn"]["loc"] == DEST and s["battle"] is None


def test_ntnd_19_3_2_communist_invalid_choice_names_the_rule():
    s, _ = communist_case()
    s = RS.apply(s, "communist", cmd("retreat", unit="vc-qn", to=DEST), Context.for_tests())
    before = canon(s)
    for units in ([], ["vc-bmt"], ["nva-7", "vc-qn"], ["us-1-4"]):
        with pytest.raises(Rejection) as e:
            RS.apply(RS.copy_state(s), "communist", cmd("losses", units=units), Context.for_tests())
        assert e.value.code == "ILLEGAL_LOSSES" and "NTND 19.3.2" in e.value.message
        assert "vc-dak-to" not in e.value.message and "nva-7" not in e.value.message
    assert canon(s) == before
