"""docs/rules/gmv.md cannot go stale: every test it names exists in tests/gmv,
every table row names at least one test, and every function named in the
"Where" column exists in the file named before it (a name after a .json file
must be a key or value in it)."""
from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "gmv.md"
CODE = ROOT / "engine" / "games" / "gmv"
TESTS = pathlib.Path(__file__).resolve().parent


def _defined_tests() -> dict[str, set[str]]:
    return {p.name: set(re.findall(r"^def (test_\w+)", p.read_text(encoding="utf-8"), re.M))
            for p in sorted(TESTS.glob("test_*.py"))}


def _rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Rule -> where -> tested by", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---") and not line.startswith("| Rule "):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert len(cells) == 4, f"a table row without 4 cells: {line}"
            rows.append(cells)
    return rows


def test_gmv_doc_names_only_existing_tests():
    defined = _defined_tests()
    everywhere = set().union(*defined.values())
    named = re.findall(r"`((?:test_\w+\.py::)?test_gmv\w*)`", DOC.read_text(encoding="utf-8"))
    assert len(named) > 50
    for n in named:
        if "::" in n:
            f, t = n.split("::")
            assert t in defined.get(f, set()), f"docs/rules/gmv.md names {n}, which does not exist"
        else:
            assert n in everywhere, f"docs/rules/gmv.md names {n}, which is not a test in tests/gmv"


def test_gmv_doc_every_rule_row_names_a_test():
    rows = _rows()
    assert len(rows) > 40
    for rule, status, where, tests in rows:
        assert re.search(r"`test_gmv\w*`", tests), f"rule {rule!r} names no test"
        assert status, f"rule {rule!r} has no status"


def test_gmv_doc_where_column_names_existing_code():
    for rule, _, where, _ in _rows():
        current = None
        for tok in re.findall(r"`([^`]+)`", where):
            if tok.endswith((".py", ".json")):
                current = ROOT / tok if tok.startswith("engine/") else CODE / tok
                assert current.exists(), f"{rule!r}: no file {tok}"
                continue
            assert current is not None, f"{rule!r}: {tok} follows no file"
            src = current.read_text(encoding="utf-8")
            if current.suffix == ".json":
                assert f'"{tok}"' in src, f"{rule!r}: {tok} is not in {current.name}"
                continue
            assert re.search(rf"^\s*(def|class) {re.escape(tok)}\b|^{re.escape(tok)}\b[^=\n]*=", src, re.M), \
                f"{rule!r}: {tok} is not defined in {current.name}"


def _opponent_rows() -> dict[str, list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## What the opponent can see", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0].strip("`")] = re.findall(r"`([\w-]+)`", cells[1])
    return out


def test_gmv_docs_what_the_opponent_can_see_matches_the_engine():
    """docs/rules/gmv.md "What the opponent can see": the public events listed for each hidden
    action are the ones the engine emits, in order of first appearance, without the
    game's clock (dice, rounds, phases)."""
    from afteraction.engine.games.gmv import combat
    from afteraction.engine.ruleset import Context

    from .util import RS, add, cmd, empty, events, play

    def kinds(ctx):
        out = []
        for e in events(ctx, private=False):
            if e["t"] not in out and e["t"] not in ("roll", "round", "phase"):
                out.append(e["t"])
        return out

    got = {}
    s = empty(side="nva")
    (a,) = add(s, "inf", "nva", "kontum")
    got["infiltrate"] = kinds(play(s, "nva", cmd("infiltrate", unit_ids=[a], to_zone="pleiku"))[1])
    s = empty(side="nva", phase=4)
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)
    got["hidden_move"] = kinds(play(s, "nva", cmd("hidden_move", unit_ids=[a], to_zone="pleiku"))[1])
    assert kinds(play(s, "nva", cmd("hidden_move"))[1]) == got["hidden_move"]
    s = empty(side="nva")
    add(s, "inf", "us", "pleiku")
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)
    got["attack"] = kinds(play(s, "nva", cmd("attack", unit_ids=[a], zone="pleiku"))[1])
    s = empty(side="us")
    add(s, "inf", "us", "pleiku")
    add(s, "inf", "nva", "pleiku")
    (a,) = add(s, "inf", "nva", "kontum", hidden=True)
    combat.start(s, "pleiku", "us", Context.for_tests(), "attack")
    s["battle"]["ask"] = "nva"
    got["support"] = kinds(play(s, "nva", cmd("support", unit_ids=[a]))[1])
    assert _opponent_rows() == got
