"""docs/service-limits.md says each limit a client can meet, as the code has them: the Limits table is
service/limits.py's, and every limit has a row saying how it is checked. (The status table of
docs/service-codes.md is engine/codes.py's: tests/engine/test_codes.py.)"""
from __future__ import annotations

import re

from conftest import REPO

from afteraction.service import limits

DOC = (REPO / "docs/service-limits.md").read_text()


def test_the_limits_table_is_the_codes():
    m = re.search(r"<!-- limits:begin -->\n(.*?)<!-- limits:end -->", DOC, re.S)
    assert m, "docs/service-limits.md has no Limits table"
    assert m.group(1) == limits.markdown(), "run: python -m afteraction.service.limits, paste into docs/service-limits.md"
    consts = {k for k, v in vars(limits).items() if k.isupper() and isinstance(v, (int, float)) and k not in ("KiB", "MiB")}
    assert consts == {lim.name for lim in limits.TABLE}, "a constant of service/limits.py is not in its TABLE"


def test_every_limit_says_how_it_is_checked_and_its_tests_exist():
    section = DOC.split("## How each limit is checked")[1]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|$", section, re.M)}
    assert list(rows) == [lim.name for lim in limits.TABLE], "one row per limit, in the table's order"
    for name, tested in rows.items():
        for part in tested.split(";"):
            m = re.match(r"\s*(tests/\S+\.py) `(test_\w+)`", part)
            if m:
                assert f"def {m.group(2)}(" in (REPO / m.group(1)).read_text(), (name, part)
            else:
                assert part.strip().startswith("no test of its own"), (name, part)


def test_the_overview_links_the_limits_and_the_codes():
    overview = (REPO / "docs/service.md").read_text()
    assert "(service-limits.md)" in overview and "(service-codes.md)" in overview
    assert "<!-- limits:begin -->" not in overview and "<!-- codes:begin -->" not in overview
