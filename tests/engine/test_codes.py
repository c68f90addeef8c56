"""The one enum of rejection codes (engine/codes.py, issue 11 step 5): every code has a gRPC
status, a one-line meaning and a row of docs/service-codes.md's table; the service's status mapping
and the client's retry set are the enum's; every code raised in engine/ or service/ (read
with ast, game packages included) is in the enum, and every code of the enum is raised.
A Rejection carries its rule and the offending input, and the input reaches nobody else."""
from __future__ import annotations

import re

import grpc
from conftest import REPO
from sources import code_uses

from afteraction.engine import codes
from afteraction.engine.codes import Code
from afteraction.engine.errors import Rejection

DOC = (REPO / "docs/service-codes.md").read_text()
USES = code_uses()


def test_the_sources_are_read():
    # a floor, so that a reader that finds nothing cannot make the tests below pass
    found = {u.code for u in USES}
    assert {"MALFORMED", "ILLEGAL_COMMAND", "NTND_LOSS_COUNT", "BAD_ZONE", "ILLEGAL_LZ", "UNKNOWN_RPC",
            "STORE_UNAVAILABLE", "LOST_RACE"} <= found
    assert len(found) >= 100


def test_every_code_raised_is_in_the_enum():
    missing = sorted({f"{u.code} ({u.where})" for u in USES if u.code is not None and u.code not in Code.__members__})
    assert not missing, "codes raised but not in engine/codes.py (add each with its status and meaning):\n" + \
        "\n".join(missing)


def test_every_code_is_named_where_it_is_raised():
    """A code is a literal (or Code.X) at its raise site, so the test above can read it."""
    vague = [f"{u.where}: {u.text}" for u in USES if u.code is None and "Code." not in u.text
             and u.text != "rich_status(e.code, e.message, md)"]  # service/status.py passes a Rejection's on
    assert not vague, "a rejection whose code is not a literal:\n" + "\n".join(vague)


def test_every_code_of_the_enum_is_raised():
    raised = {u.code for u in USES}
    unused = sorted(c.value for c in Code if c.value not in raised)
    assert not unused, f"codes in engine/codes.py that nothing raises (stale): {unused}"


def test_every_code_has_a_status_a_scope_and_a_meaning():
    codes._check()
    for c in Code:
        assert c.name == c.value
        assert c.status in codes.STATUSES and c.status != "OK", c
        assert grpc.StatusCode[c.status].name == c.status
        assert c.scope in codes.SCOPES, c
        assert 10 <= len(c.meaning) <= 200 and "\n" not in c.meaning, c


def test_the_status_mapping_is_the_enum():
    from afteraction.service import status

    assert set(status._BY_CODE) == set(Code.__members__)
    for c in Code:
        assert status.status_for(c.value) == grpc.StatusCode[c.status], c
    # what the service puts on the wire: the status and ErrorInfo of a Rejection
    st = status.status_of(Rejection(Code.WEAK_SEAT_KEY, "seat a: the key is weak"), "CreateGame")
    assert st.code == grpc.StatusCode.INVALID_ARGUMENT


def test_the_docs_table_is_the_enum():
    m = re.search(r"<!-- codes:begin -->\n(.*?)<!-- codes:end -->", DOC, re.S)
    assert m, "docs/service-codes.md has no codes table"
    assert m.group(1) == codes.markdown(), "run: python -m afteraction.engine.codes, paste into docs/service-codes.md"
    rows = {r.split("|")[1].strip(" `") for r in m.group(1).splitlines()[2:]}
    assert rows == set(Code.__members__)


def test_the_clients_retry_set_is_the_enum():
    from afteraction.client.client import TRANSIENT

    assert set(TRANSIENT) == {c.value for c in Code if c.retry}
    assert {"STALE_STATE", "COUNTER_GAP", "LOST_RACE", "SHUTTING_DOWN", "STORE_UNAVAILABLE", "DEADLINE"} == set(TRANSIENT)
    assert "WRONG_HISTORY" not in TRANSIENT  # the seat saw another history: a retry signs the same mistake


def test_a_rejection_takes_a_code_its_rule_and_its_input():
    e = Rejection(Code.ILLEGAL_MOVE, "SOG 3.5 allows one square per turn", rule="SOG 3.5", input={"to": "B7"})
    assert type(e.code) is str and e.code == "ILLEGAL_MOVE"
    assert (e.message, e.rule, e.input) == ("SOG 3.5 allows one square per turn", "SOG 3.5", {"to": "B7"})
    assert str(e) == "ILLEGAL_MOVE: SOG 3.5 allows one square per turn"
    plain = Rejection("ILLEGAL_MOVE", "SOG 3.5 allows one square per turn")  # the positional form is unchanged
    assert (plain.code, plain.rule, plain.input) == ("ILLEGAL_MOVE", None, None)


def test_a_rejections_input_reaches_nobody_else():
    """The input is the sender's own command: it is not in the exception's text or args (which
    the service logs and a verifier reports), nor in the status and ErrorInfo the service sends;
    the rule is (metadata ``rule``)."""
    from google.rpc import error_details_pb2, status_pb2

    from afteraction.service import status

    secret = "hidden-unit-NVA-7th-regiment"
    e = Rejection(Code.ILLEGAL_ATTACK, "NTND 19.1: no such attack", rule="NTND 19.1", input={"unit": secret})
    assert secret not in str(e) and secret not in repr(e.args)
    st = status.status_of(e, "SubmitCommand")
    raw = b"".join(v if isinstance(v, bytes) else v.encode() for _, v in st.trailing_metadata) + st.details.encode()
    assert secret.encode() not in raw
    info = error_details_pb2.ErrorInfo()
    s = status_pb2.Status.FromString(dict(st.trailing_metadata)["grpc-status-details-bin"])
    s.details[0].Unpack(info)
    assert info.reason == "ILLEGAL_ATTACK" and info.metadata["rule"] == "NTND 19.1" and info.domain == codes.DOMAIN
