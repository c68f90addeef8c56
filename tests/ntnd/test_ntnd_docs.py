"""docs/rules/ntnd.md tells the truth: every rule number of the text has a row, every test a row
names exists in tests/ntnd, every part-1 row marked done names a test, and the counts line adds up."""
from __future__ import annotations

import collections
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/rules/ntnd.md").read_text()
ROW = re.compile(r"^\| (\d+(?:\.\d+)*) \| (.*?) \| (background|done \(part [12]\)|part 2|partly \(part [12]\)|not yet) \| "
                 r"(.*?) \| (.*) \|$", re.M)


def _rule_numbers() -> set[str]:
    text = (ROOT.parent / "shared/seeds/000_dc65da6ddb3c3a25.txt")
    if not text.exists():
        text = pathlib.Path("/work/shared/seeds/000_dc65da6ddb3c3a25.txt")
    return {m.group(1) for m in re.finditer(r"^(\d+(?:\.\d+)+|\d+)\.? [A-Z*]", text.read_text(), re.M)}


def _tests() -> set[str]:
    names = set()
    for f in (ROOT / "tests/ntnd").glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
    return names


def test_ntnd_docs_every_rule_number_has_a_row():
    rows = {m.group(1) for m in ROW.finditer(DOC)}
    missing = sorted(_rule_numbers() - rows, key=lambda r: [int(x) for x in r.split(".")])
    assert missing == []


def test_ntnd_docs_named_tests_exist_and_done_rows_name_one():
    known = _tests()
    for m in ROW.finditer(DOC):
        named = re.findall(r"`(test_\w+\*?)`", m.group(5))   # a trailing * names a family of tests
        missing = [n for n in named if not (n in known or n.endswith("*") and any(k.startswith(n[:-1]) for k in known))]
        assert missing == [], (m.group(1), missing)
        heading = "." not in m.group(2)  # "8.8 | Reaction Movement": a section title, its sub-rules carry tests
        if m.group(3).startswith("done") and not heading:
            assert named, f"{m.group(1)} is done but names no test"


def test_ntnd_docs_counts_line_adds_up():
    c = collections.Counter(m.group(3) for m in ROW.finditer(DOC))
    line = (f"Counts over {sum(c.values())} rule numbers: background: {c['background']}, done (part 1): "
            f"{c['done (part 1)']}, done (part 2): {c['done (part 2)']}, part 2: {c['part 2']}, "
            f"partly (part 1): {c['partly (part 1)']}, partly (part 2): {c['partly (part 2)']}.")
    assert line in DOC


def _opponent_rows() -> dict[str, list[str]]:
    section = DOC.split("## What the opponent can see", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0].strip("`")] = re.findall(r"`([\w-]+)`", cells[1])
    return out


def test_ntnd_docs_what_the_opponent_can_see_matches_the_engine():
    """docs/rules/ntnd.md "What the opponent can see": the public events listed for each Communist
    action on inverted units are the ones the engine emits (issue 26), in order of first appearance,
    up to the next decision, without the game's clock (phases, dice) and what the battle does next."""
    from afteraction.engine.games.ntnd.rules import cmd
    from afteraction.engine.ruleset import Context

    from .mapplay import RS, at, blank, play, put
    from .test_ntnd_owner_leaks import _attack_commands, _marker, _ops, _supply_pair

    def kinds(s, seat, c, faces=None):
        ctx = Context.for_tests(faces=faces)
        RS.apply(RS.copy_state(s), seat, c, ctx)
        out = []
        for e, to in ctx.events:
            if to is None and e["t"] not in out and e["t"] not in ("phase", "phase-note", "roll"):
                out.append(e["t"])
        return out

    got = {}
    s = blank()
    put(s, "vc-cadre-1", "1812")
    got["invert"] = kinds(at(s, "c_ops"), "communist", cmd("invert", location="1812", units=["vc-cadre-1"]))
    got["promote"] = kinds(_ops(["communist-dummy-1"], "vc-cadre-1", "1812", face_up=["sup-ashau"]), "communist",
                           cmd("promote", piece="vc-cadre-1", supply="sup-ashau", to="regiment"))
    got["break_down"] = kinds(_ops(["sup-ashau"], "nva-320", "1812"), "communist", cmd("break_down", piece="nva-320"))
    s = blank()
    mid = _marker(s, ["communist-dummy-1"], "1813")
    got["move"] = kinds(at(s, "c_move"), "communist", cmd("move", piece=mid, path=["1713"]))
    s = at(_supply_pair()[0], "c_move")
    for seat, c in _attack_commands(s)[:3]:
        s, _ = play(s, seat, c, faces=[6, 1])
    got["supply"] = kinds(s, "communist", cmd("losses", units=["sup-ashau"]))[:1]  # a face-up one
    assert _opponent_rows() == got
