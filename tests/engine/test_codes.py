"""The one enum of rejection codes (engine/codes.py): every code has a gRPC status, a one-line
meaning and a row of docs/service-codes.md's table; the service's status mapping and the client's
retry set are the enum's; every code raised in engine/ or service/ (read with ast, game packages
included) is a member of the enum, named as one (``Code.X``: a Rejection refuses a plain string),
and every code of the enum is raised. A Rejection carries its rule and the offending input, and
the input reaches nobody else. Every exception the engine raises descends from the one root
(engine/errors.py), checked by type: every exception class of every engine module, and no
``raise`` of a builtin exception in engine/ but the documented ones."""
from __future__ import annotations

import importlib
import pkgutil
import re

import grpc
import pytest
from conftest import REPO
from sources import builtin_raises, code_uses

import afteraction.engine
from afteraction.engine import codes
from afteraction.engine.codes import Code
from afteraction.engine.errors import AfteractionError, InternalTypeError, Rejection

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


def test_every_code_is_named_as_a_member_of_the_enum_where_it_is_raised():
    """``Rejection(Code.X, ...)`` at every raise site (no plain string), so the tests above read it
    and a typo fails at import."""
    untyped = [f"{u.where}: {u.text}" for u in USES if not u.typed
               and u.text != "rich_status(e.code, e.message, md)"]  # service/status.py passes a Rejection's on
    assert not untyped, "a rejection whose code is not Code.X:\n" + "\n".join(untyped)


def test_a_rejection_refuses_a_code_that_is_not_a_member_of_the_enum():
    with pytest.raises(InternalTypeError, match="member of engine/codes.py's Code"):
        Rejection("ILLEGAL_MOVE", "SOG 3.5 allows one square per turn")  # a plain string on purpose: refused
    with pytest.raises(InternalTypeError):
        Rejection("NO_SUCH_CODE", "a typo")  # a plain string on purpose: refused
    assert type(Rejection(Code.ILLEGAL_MOVE, "SOG 3.5").code) is str   # the plain name goes on the wire


def test_every_rule_rejection_of_a_game_names_its_rule():
    """A rejection of a game's rules (scope ``rules``) raised in engine/games/ passes ``rule=``,
    which the service sends as ErrorInfo metadata ``rule``."""
    import ast

    from sources import files, parse

    found, missing = 0, []
    for p in files("engine/games"):
        for n in ast.walk(parse(p)):
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Rejection" and n.args \
                    and isinstance(n.args[0], ast.Attribute) and Code[n.args[0].attr].scope == "rules":
                found += 1
                if not any(k.arg == "rule" for k in n.keywords):
                    missing.append(f"{p.relative_to(REPO)}:{n.lineno}: {ast.unparse(n)[:100]}")
    assert found >= 100
    assert not missing, "rule rejections without rule=:\n" + "\n".join(missing)


#: builtin exceptions the engine raises on purpose, each with its reason (path: class)
BUILTIN_RAISES = {
    # the enum checks itself at import; errors.py imports codes.py, so codes.py cannot import the root
    "engine/codes.py: ValueError",
    # floor division of the fixed-point arithmetic fails as Python's // does (an ArithmeticError)
    "engine/league/fixed.py: ZeroDivisionError",
}


def test_the_engine_raises_no_builtin_exception_but_the_documented_ones():
    """A ValueError, TypeError, KeyError... raised in engine/ is one of engine/errors.py's classes
    (InternalValueError...: under the root, and still the builtin for a caller's ``except``)."""
    found = builtin_raises("engine")
    assert any(f.startswith("engine/codes.py:") for f in found)  # the reader sees the documented one
    stray = sorted(f for f in found if f"{f.split(':')[0]}:{f.rsplit(':', 1)[1]}" not in BUILTIN_RAISES)
    assert not stray, "raise engine/errors.py's Internal*Error (or a Rejection) instead:\n" + "\n".join(stray)


def _engine_modules():
    for m in pkgutil.walk_packages(afteraction.engine.__path__, "afteraction.engine."):
        yield importlib.import_module(m.name)


def test_every_exception_class_of_the_engine_descends_from_the_one_root():
    classes = {(m.__name__, c.__name__): c for m in _engine_modules() for c in vars(m).values()
               if isinstance(c, type) and issubclass(c, BaseException) and c.__module__ == m.__name__}
    assert len(classes) >= 12, sorted(classes)  # a floor: the reader finds errors.py's classes and the others
    outside = sorted(f"{m}.{n}" for (m, n), c in classes.items() if not issubclass(c, AfteractionError))
    assert not outside, f"exception classes of the engine outside AfteractionError (engine/errors.py): {outside}"


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
    plain = Rejection(Code.ILLEGAL_MOVE, "SOG 3.5 allows one square per turn")  # rule and input are optional
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
