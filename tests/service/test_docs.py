"""docs/service.md says each limit and each error reason a client can meet, as the code has them:
the Limits table is service/limits.py's, and the status table lists every reason of
service/status.py (and every reason the service raises) under its gRPC status; the
client's retry set names only documented reasons."""
from __future__ import annotations

import re

from conftest import REPO

from afteraction.service import limits, status

DOC = (REPO / "docs/service.md").read_text()
_RAISE = re.compile(r'(?:Rejection|Refusal)\(\s*"([A-Z_]+)"')


def status_table() -> dict[str, set[str]]:
    """gRPC status name -> the reasons its row of "Status codes and reasons" names."""
    sec = DOC.split("## Status codes and reasons", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    for line in sec.splitlines():
        m = re.match(r"\|\s*`([A-Z_]+)`\s*\|(.*)\|\s*$", line)
        if m:
            out[m.group(1)] = set(re.findall(r"`([A-Z_]+)`", m.group(2)))
    return out


def test_the_limits_table_is_the_codes():
    m = re.search(r"<!-- limits:begin -->\n(.*?)<!-- limits:end -->", DOC, re.S)
    assert m, "docs/service.md has no Limits table"
    assert m.group(1) == limits.markdown(), "run: python -m afteraction.service.limits, paste into docs/service.md"
    consts = {k for k, v in vars(limits).items() if k.isupper() and isinstance(v, (int, float)) and k not in ("KiB", "MiB")}
    assert consts == {lim.name for lim in limits.TABLE}, "a constant of service/limits.py is not in its TABLE"


def test_every_reason_is_in_the_status_table_under_its_status():
    table = status_table()
    assert len(table) >= 10
    for reason, code in status._BY_CODE.items():
        assert reason in table.get(code.name, set()), f"{reason} is not listed under {code.name}"


def test_every_reason_the_service_raises_is_documented():
    table = status_table()
    documented = set().union(*table.values())
    raised = set()
    for f in (REPO / "service").glob("*.py"):
        raised |= set(_RAISE.findall(f.read_text()))
    assert {"MALFORMED", "FIELD_TOO_LONG", "UNKNOWN_GAME", "OUT_OF_RANGE"} <= raised  # the pattern finds them
    missing = raised - documented
    assert not missing, f"raised by service/ but not in docs/service.md: {missing}"
    for reason in raised - set(status._BY_CODE):  # the rest are FAILED_PRECONDITION
        assert reason in table["FAILED_PRECONDITION"], reason


def test_the_clients_retry_set_is_documented():
    from afteraction.client.client import TRANSIENT

    documented = set().union(*status_table().values())
    assert set(TRANSIENT) <= documented, set(TRANSIENT) - documented
