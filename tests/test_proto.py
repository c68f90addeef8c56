"""The protobuf schema: committed stubs are not stale, and every message, field, enum,
enum value, service and rpc carries a comment (the project's style, on top of buf
STANDARD lint, which runs here only if a buf binary is already installed)."""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

PROTO_DIR = REPO / "proto" / "afteraction" / "v1"
STUB_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")


def _stubs(d: pathlib.Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.name.endswith(STUB_SUFFIXES)}


def test_every_proto_has_committed_stubs_and_every_stub_has_a_proto():
    protos = {p.stem for p in PROTO_DIR.glob("*.proto")}
    assert protos
    want = {stem + suf for stem in protos for suf in STUB_SUFFIXES}
    assert set(_stubs(PROTO_DIR)) == want


def test_stubs_are_not_stale(tmp_path):
    r = subprocess.run([sys.executable, "-m", "afteraction.v1.generate", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    fresh = _stubs(tmp_path / "afteraction" / "v1")
    committed = _stubs(PROTO_DIR)
    assert sorted(fresh) == sorted(committed)
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale stubs (run `make proto`): {stale}"


# -- comments on every element -------------------------------------------------------------

_DECL = {
    "message": re.compile(r"^message\s+(\w+)\s*\{"),
    "enum": re.compile(r"^enum\s+(\w+)\s*\{"),
    "service": re.compile(r"^service\s+(\w+)\s*\{"),
    "rpc": re.compile(r"^rpc\s+(\w+)\s*\("),
    "oneof": re.compile(r"^oneof\s+(\w+)\s*\{"),
}
_FIELD = re.compile(r"^(?:repeated\s+|optional\s+)?(?:map\s*<[^>]*>|[\w.]+)\s+(\w+)\s*=\s*\d+")
_ENUM_VALUE = re.compile(r"^([A-Z][A-Z0-9_]*)\s*=\s*-?\d+")


def uncommented(text: str) -> list[str]:
    """Elements (message, field, enum, enum value, service, rpc) without a comment on the
    line(s) just above or at the end of their own line."""
    missing = []
    stack: list[str] = []
    prev_comment = False
    in_block = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if in_block:
            in_block = "*/" not in line
            prev_comment = True
            continue
        if line.startswith("/*"):
            in_block = "*/" not in line
            prev_comment = True
            continue
        if line.startswith("//"):
            prev_comment = True
            continue
        if not line:
            prev_comment = False
            continue
        code, _, trailing = line.partition("//")
        code = code.strip()
        commented = prev_comment or bool(trailing.strip())
        kind = name = None
        for k, rx in _DECL.items():
            m = rx.match(code)
            if m:
                kind, name = k, m.group(1)
                break
        if kind is None and stack and stack[-1] == "enum":
            m = _ENUM_VALUE.match(code)
            if m:
                kind, name = "enum value", m.group(1)
        elif kind is None and stack and stack[-1] in ("message", "oneof"):
            m = _FIELD.match(code)
            if m and not code.startswith(("option", "reserved", "extensions")):
                kind, name = "field", m.group(1)
        if kind is not None and kind != "oneof" and not commented:
            missing.append(f"line {n}: {kind} {name}")
        opens, closes = code.count("{"), code.count("}")
        if opens:
            stack.append(kind if kind in ("message", "enum", "service", "oneof") else "other")
            opens -= 1
            stack += ["other"] * opens
        for _ in range(closes):
            if stack:
                stack.pop()
        prev_comment = False
    return missing


def test_comment_checker_finds_what_it_should():
    src = """
// ok
message A {
  // ok
  string x = 1;
  int32 y = 2;
  oneof o {
    B b = 3;  // trailing ok
    C c = 4;
  }
  map<string, int32> m = 5;
}
enum E {
  // ok
  E_UNSPECIFIED = 0;
  E_ONE = 1;
}
message Z {}
service S {
  rpc Get(A) returns (A);
}
"""
    assert uncommented(src) == ["line 6: field y", "line 9: field c", "line 11: field m", "line 13: enum E", "line 16: enum value E_ONE",
                                "line 18: message Z", "line 19: service S", "line 20: rpc Get"]


@pytest.mark.parametrize("proto", sorted(p.name for p in PROTO_DIR.glob("*.proto")))
def test_every_element_is_commented(proto):
    assert uncommented((PROTO_DIR / proto).read_text()) == []


# -- buf lint (only where buf is already installed) -----------------------------------------

def _buf() -> str | None:
    for cand in (shutil.which("buf"), REPO / "node_modules" / ".bin" / "buf"):
        if cand and os.access(str(cand), os.X_OK):
            return str(cand)
    return None


@pytest.mark.skipif(_buf() is None, reason="no buf binary on PATH or in node_modules/.bin (npm install @bufbuild/buf)")
def test_buf_lint_standard():
    r = subprocess.run([_buf(), "lint"], cwd=REPO / "proto", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
