"""docs/rules/ntnd.md tells the truth: every rule number of the text has a row, every test a row
names exists in tests/ntnd, every part-1 row marked done names a test, and the counts line adds up."""
from __future__ import annotations

import collections
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/rules/ntnd.md").read_text()
ROW = re.compile(r"^\| (\d+(?:\.\d+)*) \| (.*?) \| (background|done \(part 1\)|part 2|partly \(part 1\)|not yet) \| "
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
        if m.group(3) == "done (part 1)" and not heading:
            assert named, f"{m.group(1)} is done but names no test"


def test_ntnd_docs_counts_line_adds_up():
    c = collections.Counter(m.group(3) for m in ROW.finditer(DOC))
    line = (f"Counts over {sum(c.values())} rule numbers: background: {c['background']}, done (part 1): "
            f"{c['done (part 1)']}, part 2: {c['part 2']}, partly (part 1): {c['partly (part 1)']}.")
    assert line in DOC
