"""Comments and docstrings give the reason, not an issue number: "" tells a reader nothing
the tracker still has to explain, and the tracker is not in the repository. The check reads the
comments and docstrings of every tracked hand-written source file (Python with ``tokenize``; the
``//`` and ``#`` comments of TypeScript, JavaScript, proto, TOML and Makefile lines), not test names
or doc pages."""
from __future__ import annotations

import io
import re
import subprocess
import tokenize

from conftest import REPO

CITES = re.compile(r"\bissues? #?\d+", re.I)
GENERATED = ("tests/test_comments.py", "clients/web/static/", "clients/cli/view_lib.js", "clients/web/src/gen/", "_pb2")
LINE_COMMENT = {".ts": "//", ".js": "//", ".mjs": "//", ".proto": "//", ".toml": "#", "Makefile": "#"}


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if not any(g in f for g in GENERATED)]


def _python_texts(src: str):
    """(line, text) of every comment and string literal (docstrings are strings) of a module."""
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            yield tok.start[0], tok.string


def _line_comments(src: str, mark: str):
    for i, line in enumerate(src.splitlines(), 1):
        if mark in line:
            yield i, line[line.index(mark):]


def citations() -> list[str]:
    found = []
    for f in _tracked():
        suffix = "Makefile" if f.endswith("Makefile") else "." + f.rsplit(".", 1)[-1]
        if not f.endswith(".py") and suffix not in LINE_COMMENT:
            continue
        path = REPO / f
        if not path.is_file():
            continue
        src = path.read_text(encoding="utf-8")
        texts = _python_texts(src) if f.endswith(".py") else _line_comments(src, LINE_COMMENT[suffix])
        found += [f"{f}:{n}: {CITES.search(t).group(0)}" for n, t in texts if CITES.search(t)]
    return found


def test_comments_give_reasons_not_issue_numbers():
    found = citations()
    assert not found, f"{len(found)} comments or docstrings cite an issue number; say the reason instead: {found[:20]}"


def test_the_check_finds_a_citation():
    assert list(_python_texts('x = 1  # fast\n'))[0][1] == "# fast"
    assert CITES.search("the ports of Issue 11 remove")
    assert not CITES.search("the issue is 15 hexes away")
