"""docs/service.md says each limit a client can meet, as the code has them: the Limits table is
service/limits.py's. (The status table is engine/codes.py's: tests/engine/test_codes.py.)"""
from __future__ import annotations

import re

from conftest import REPO

from afteraction.service import limits

DOC = (REPO / "docs/service.md").read_text()


def test_the_limits_table_is_the_codes():
    m = re.search(r"<!-- limits:begin -->\n(.*?)<!-- limits:end -->", DOC, re.S)
    assert m, "docs/service.md has no Limits table"
    assert m.group(1) == limits.markdown(), "run: python -m afteraction.service.limits, paste into docs/service.md"
    consts = {k for k, v in vars(limits).items() if k.isupper() and isinstance(v, (int, float)) and k not in ("KiB", "MiB")}
    assert consts == {lim.name for lim in limits.TABLE}, "a constant of service/limits.py is not in its TABLE"
