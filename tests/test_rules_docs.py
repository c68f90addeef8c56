"""The rules-coverage documents (docs/rules/*.md) point at code that exists: every module path in a
table's "where" column names a file of the repository (a game's modules relative to its package,
engine/games/<game>/), and in NTND's rules table each rule number names the one module that implements
it first in its "where" cell (a newcomer goes from a rule number to one module)."""
from __future__ import annotations

import re

from conftest import REPO

DOCS = REPO / "docs" / "rules"
#: a module path: ``rules.py``, ``combat/battles.py``, ``engine/log/replay.py`` (``:function`` may follow);
#: a data path ``data/x.json``; a package ``combat/``
PATH = re.compile(r"(?<![\w/.-])((?:[A-Za-z_][\w-]*/)*[A-Za-z_]\w*\.(?:py|json)|(?:[A-Za-z_]\w*/)+(?=`))")


def tables(text: str):
    """(header cells, rows of cells) of every markdown table."""
    rows: list[list[str]] = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
        elif rows:
            if len(rows) > 2:
                yield rows[0], rows[2:]
            rows = []


def where_rows():
    """(doc, row as {column: cell}) of every table with a "where" column."""
    for doc in sorted(DOCS.glob("*.md")):
        for head, rows in tables(doc.read_text(encoding="utf-8")):
            if "where" in head:
                for r in rows:
                    if len(r) == len(head):
                        yield doc, dict(zip(head, r))


def where_cells():
    """(doc, first cell, where cell) of every table with a "where" column."""
    for doc, row in where_rows():
        yield doc, next(iter(row.values())), row["where"]


def resolve(doc, path: str):
    """The file or folder a path of ``doc`` names: from the repository root when it starts with a
    top-level folder, else in the game's package (the document is named after the game); a data
    file named alone, in the game's data/ folder."""
    if path.split("/")[0] in ("engine", "service", "clients", "tests", "docs", "fixtures", "proto"):
        return REPO / path
    game = REPO / "engine" / "games" / doc.stem
    if "/" not in path and path.endswith(".json"):
        return game / "data" / path     # a data file named alone: the game's data/
    return game / path


def test_every_module_a_where_column_names_exists():
    cells = list(where_cells())
    assert {d.stem for d, _, _ in cells} >= {"ntnd", "sog"}, "the tables are read"
    paths = [(d.stem, rule, p) for d, rule, cell in cells for p in PATH.findall(cell)]
    assert len(paths) > 500, len(paths)
    missing = [f"{doc}: {rule}: {p}" for doc, rule, p in paths if not resolve(DOCS / f"{doc}.md", p).exists()]
    assert missing == [], "where columns naming modules that do not exist:\n" + "\n".join(missing)


def test_a_missing_module_is_found():
    assert PATH.findall("`combat/battles.py`: battles.py:x, data/map.json, `movement/`") == [
        "combat/battles.py", "battles.py", "data/map.json", "movement/"]
    assert not resolve(DOCS / "ntnd.md", "combat/no_such_rule.py").exists()
    assert resolve(DOCS / "ntnd.md", "combat/battles.py").is_file()


def test_ntnd_each_rule_number_names_its_one_module_first():
    """NTND's rules table: the "where" cell of every rule (but the background ones) starts with the
    one module (a path under engine/games/ntnd/; a whole part's package for a rule whose sub-rules
    are spread over it) that implements it; the rest of the cell is the detail."""
    rows = [r for doc, r in where_rows() if doc.stem == "ntnd" and re.fullmatch(r"\d+(\.\d+)*", r.get("rule", ""))]
    assert len(rows) > 380, len(rows)
    bad = []
    for row in rows:
        rule, cell = row["rule"], row["where"]
        if row["status"] == "background":
            continue
        m = re.match(r"`([\w/]+(?:\.py|/))`(:|$)", cell)
        if not m or not resolve(DOCS / "ntnd.md", m.group(1)).exists():
            bad.append(f"{rule}: {cell[:80]}")
    assert bad == [], "rules whose where cell does not start with one existing module:\n" + "\n".join(bad)


def _key(rule: str) -> tuple[int, ...]:
    return tuple(int(x) for x in rule.split("."))


def test_ntnd_the_index_by_part_is_the_where_column_gathered():
    """docs/rules/ntnd.md "Where each rule is implemented": per package, each module with the rule
    numbers (two levels) whose row names it first, in the order of their first rule: nothing else."""
    first: dict[str, list[str]] = {}
    for doc, row in where_rows():
        if doc.stem == "ntnd" and re.fullmatch(r"\d+(\.\d+)*", row.get("rule", "")) and row["where"].startswith("`"):
            first.setdefault(row["where"].split("`")[1], []).append(row["rule"])
    index = next(rows for head, rows in tables((DOCS / "ntnd.md").read_text(encoding="utf-8"))
                 if head[0] == "part (package)")
    assert len(index) == 10
    for part, _rules, modules in index:
        pkg = re.match(r"`([\w]+/)`", part).group(1)
        mods = sorted((m for m in first if m.startswith(pkg) and m != pkg), key=lambda m: min(_key(r) for r in first[m]))
        want = []
        for m in mods:
            two = []
            for r in sorted(first[m], key=_key):
                if (k := ".".join(r.split(".")[:2])) not in two:
                    two.append(k)
            want.append(f"`{m[len(pkg):]}` {', '.join(two)}")
        assert modules == "; ".join(want), pkg
