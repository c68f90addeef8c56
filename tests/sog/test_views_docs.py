"""Views (public, canonical), 2.4 terrain rules, 5.1 cumulative VP, and the rules-coverage document."""
import pathlib

from afteraction.engine.crypto import canon
from afteraction.engine.games.sog import board, tactical

from .util import RS, confirm, do, in_play, move, place_team, result

RULES = ("1 1.1 1.2 1.3 1.4 1.5 2 2.1 2.2 2.3 2.4 3 3.1 3.1.1 3.1.2 3.1.3 3.2 3.2.1 3.2.2 3.2.3 3.2.4 3.3 3.4 "
         "3.4.1 3.4.2 3.4.3 3.4.4 3.5 3.5.1 3.5.2 3.5.3 3.6 3.6.1 3.6.2 3.6.3 3.7 3.7.1 3.7.2 3.7.3 3.8 3.9 4 4.1 "
         "4.1.1 4.1.2 4.1.3 4.2 4.2.1 5 5.1 5.1.1 5.2").split()


def test_views_are_public_and_canonical():
    s = place_team(in_play(), "7-G")
    s, _ = do(s, "sog", move("7-H"), faces=[7])
    views = [RS.view(s, who) for who in ("sog", "nva", None)]
    assert views[0] == views[1] == views[2]
    assert canon.decode(canon.encode(views[0])) == views[0]
    assert views[0]["pending"]["kind"] == "action_result" and views[0]["action"]["kind"] == "meeting"


def test_sog_2_4_terrain_rules_for_every_terrain():
    assert sorted(tactical.TERRAIN_RULES) == sorted(board.TERRAINS)
    assert "bamboo" in tactical.TERRAIN_RULES["jungle"] and "rough" in tactical.TERRAIN_RULES["mountain"]


def test_sog_5_1_vp_cumulative_over_actions():
    s = place_team(in_play(), "7-G")
    s, _ = do(s, "sog", move("7-H"), faces=[7])
    s, _ = do(s, "sog", result(sog_vp=3, nva_vp=1))
    s, _ = do(s, "nva", confirm(), faces=[9])
    s, _ = do(s, "sog", move("7-I"), faces=[6, 9])  # mountain +2: 8, contacted
    s, _ = do(s, "sog", result(sog_vp=4, nva_vp=2))
    s, _ = do(s, "nva", confirm(), faces=[9, 9])
    assert s["vp"] == {"sog": 7, "nva": 3}


def test_docs_cover_every_rule_number():
    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules" / "sog.md").read_text()
    rows = {line.split("|")[1].strip().split(" ")[0] for line in doc.splitlines() if line.startswith("| ")}
    missing = [r for r in RULES if r not in rows]
    assert not missing, missing
    assert "project's own" in doc


def test_sog_5_2_optional_rules_listed_in_every_action():
    from .util import of
    s = place_team(in_play(), "7-G")
    s, ev = do(s, "sog", move("7-H"), faces=[7])
    opt = of(ev, "action")[0]["optional_rules"]
    assert opt["required"] == ["16.7 Optional Weapon and Equipment", "24. Morale", "25. Prisoners"]
    assert len(opt["recommended"]) == 10


def _rule_rows(doc: str) -> list[list[str]]:
    """The rows of the rule-by-rule table: [rule, status, where, tests]."""
    out, on = [], False
    for line in doc.splitlines():
        if line.startswith("| rule | status | where | tests |"):
            on = True
            continue
        if on and not line.startswith("|"):
            break
        if on and not line.startswith("|---"):
            out.append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


def _test_names() -> set[str]:
    import re
    root = pathlib.Path(__file__).resolve().parents[1]
    names = set()
    for f in [*root.joinpath("sog").glob("test_*.py"), *root.joinpath("engine").glob("test_*.py")]:
        names |= set(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
    return names


def test_docs_name_only_tests_and_functions_that_exist():
    """Every test named in the rules table exists (a trailing * must match at least one),
    and every file:function in the Where column is defined in that file."""
    import re
    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules" / "sog.md").read_text()
    rows = _rule_rows(doc)
    assert len(rows) >= len(RULES)
    names = _test_names()
    code = pathlib.Path(__file__).resolve().parents[2] / "engine" / "games" / "sog"
    bad = []
    for tok in re.findall(r"\btest_\w+\*?(?!\w|\.py)", doc):  # anywhere in the document
        ok = any(n.startswith(tok[:-1]) for n in names) if tok.endswith("*") else tok in names
        if not ok:
            bad.append(("doc", tok))
    for rule, status, where, tests in rows:
        for f, funcs in re.findall(r"`(\w+\.py):([\w/.]+)", where):
            src = (code / f).read_text()
            for fn in funcs.split("/"):
                fn = fn.split(".")[-1]
                if not re.search(rf"^\s*(def|class) {fn}\b|^{fn}\b.*=", src, re.M):
                    bad.append((rule, f"{f}:{fn}"))
        if status not in ("n/a",) and not tests:
            bad.append((rule, "no test"))
        if status not in ("n/a",) and "`" not in where:
            bad.append((rule, "no file:function"))
    assert not bad, bad


def test_combinatorial_decisions_describe_what_apply_accepts():
    """Legal_commands enumerates, or for huge spaces describes and validates. The
    organise (SOG 3.2) and action_result decisions describe their space in the decision data."""
    import pytest

    from afteraction.engine.errors import Rejection

    from .util import new
    s = new([1])
    d = RS.pending(s).data
    assert canon.decode(canon.encode(d)) == d
    assert (d["max_men"], d["max_americans"], d["ranks"], d["impulse_action"]) == (12, 3, {"5": 1, "A": 1}, "6/3")
    assert d["required"] == {"RDO": 1, "SMK": 5} and d["equipment_limits"]["HGN3"] == 30
    assert "GLR2" in d["weapons"] and d["exclusive"] == [["HGN3", "HGN5"]]
    s = place_team(in_play(), "7-G")
    s, _ = do(s, "sog", move("7-H"), faces=[7])  # One Patrol Contacted: one VC squad of 10 men
    d = RS.pending(s).data
    assert d["squads"] == 1 and d["max_prisoners_taken"] == 10 and d["prisoners_held"] == 0
    assert sorted(d["members"]) == sorted(s["team"]["members"]) and d["members"]["A"]["RDO"] == 1
    do(s, "sog", result(taken=d["max_prisoners_taken"]))
    with pytest.raises(Rejection):
        do(s, "sog", result(taken=d["max_prisoners_taken"] + 1))
