"""`make demo` and `make test` print no packaging warnings: setuptools reads
pyproject.toml and builds every package (with its package data) without a warning: no
deprecated `project.license` table, no data folder that "would be ignored"; every package is listed.
And the size rules: no function of engine, service or the clients past 60 lines, no package
past 30 modules or 6000 lines (a reader finds a rule or a step by the package and module named for it,
not by where a file-length cap cut), and no other hand-written source file (tests, bench, scripts,
JavaScript) past 600 lines; generated code is exempt."""
from __future__ import annotations

import ast
import os
import pathlib
import warnings

import pytest

from conftest import REPO

setuptools = pytest.importorskip("setuptools")


def test_setuptools_builds_the_packages_without_a_warning(tmp_path):
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            dist = Distribution()
            dist.script_name = "setup.py"
            apply_configuration(dist, str(REPO / "pyproject.toml"))
            cmd = dist.get_command_obj("build_py")
            cmd.build_lib = str(tmp_path / "lib")
            cmd.ensure_finalized()
            cmd.run()
    finally:
        os.chdir(cwd)
    built = tmp_path / "lib" / "afteraction"
    from afteraction.cli.view import SCRIPTS

    assert all((built / "cli" / name).is_file() for name in ("view_page.html", *SCRIPTS))
    assert sorted(p.name for p in (built / "engine" / "games" / "ntnd" / "data").glob("*.json"))


#: no hand-written source file past 600 lines (a longer one is split along its seams), but for the
#: Python of CODE_FOLDERS: the function and package limits below hold it instead
MAX_SOURCE_LINES = 600
SOURCE_SUFFIXES = (".py", ".js", ".ts", ".mjs")


def _generated(path: str) -> bool:
    """Code a tool writes: protobuf/gRPC stubs (`make proto`), the web client's generated messages
    (`buf generate`) and its two esbuild bundles (`make web`: the page's, and the replay page's
    view_lib.js, tests/web/test_web_build.py checks both are their sources' build), installed packages."""
    name = path.rsplit("/", 1)[-1]
    return ("_pb2" in name or path.startswith("clients/web/src/gen/")
            or path in ("clients/web/static/app.js", "clients/cli/view_lib.js") or "node_modules/" in path)


def test_no_other_hand_written_source_file_is_past_600_lines():
    import subprocess

    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"not a git work tree, so no list of tracked files: {e}")
    files = [p for p in out.decode().split("\0") if p.endswith(SOURCE_SUFFIXES) and not _generated(p)
             and not (p.endswith(".py") and p.startswith(tuple(f + "/" for f in CODE_FOLDERS)))]
    assert len(files) > 100, files  # the list is the repository's, not an empty one
    long = {p: n for p in files if (REPO / p).is_file()
            and (n := len((REPO / p).read_text(encoding="utf-8").splitlines())) > MAX_SOURCE_LINES}
    assert long == {}, f"past {MAX_SOURCE_LINES} lines: split them along their seams"


def test_every_package_is_listed_in_pyproject():
    """An installed copy (``pip install .``, not the editable one the tests run) holds only the
    packages pyproject.toml lists: a folder of modules left out is missing there, and nothing here
    would notice (NTND's subpackages by rulebook part: each one is listed)."""
    import tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    dirs = {"engine": "afteraction.engine", "service": "afteraction.service",
            "clients/python": "afteraction.client", "clients/cli": "afteraction.cli"}
    found = {".".join([name, *p.parent.relative_to(REPO / d).parts])
             for d, name in dirs.items() for p in (REPO / d).rglob("*.py")
             if "__pycache__" not in p.parts and "node_modules" not in p.parts}
    assert len(found) > 15
    assert found - listed == set(), "packages pyproject.toml's [tool.setuptools] packages does not list"


#: the hand-written Python the function and package limits cover (the layers of docs/developers.md)
CODE_FOLDERS = ("engine", "service", "clients/python", "clients/cli")
#: a function (or method) longer than this is split into named steps: a reader sees one rule or one
#: step of a procedure per function. Counted from ``def`` to its last line, docstring included.
MAX_FUNCTION_LINES = 60
#: the functions already longer than MAX_FUNCTION_LINES, path:qualified name -> their length when
#: the limit came. The list may only shrink: a function split below the limit (or gone)
#: must leave it, and none may grow. The engine's and the clients' are split; the service's are left:
LONG_FUNCTIONS: dict[str, int] = {
    # none left: the last ones (the service's backup, restore and web guard) were split into named steps
}


def _code_files() -> list[pathlib.Path]:
    return sorted(p for d in CODE_FOLDERS for p in (REPO / d).rglob("*.py")
                  if "__pycache__" not in p.parts and not _generated(str(p.relative_to(REPO))))


def function_lengths(path: pathlib.Path, root: pathlib.Path = REPO) -> dict[str, int]:
    """path:qualified name (``Class.method``, ``outer.inner``) -> lines, of every function in a file."""
    rel = path.relative_to(root).as_posix()
    out: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for n in ast.iter_child_nodes(node):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[f"{rel}:{prefix}{n.name}"] = n.end_lineno - n.lineno + 1
                walk(n, f"{prefix}{n.name}.")
            elif isinstance(n, ast.ClassDef):
                walk(n, f"{prefix}{n.name}.")
            else:
                walk(n, prefix)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_no_function_is_past_60_lines():
    lengths = {k: v for p in _code_files() for k, v in function_lengths(p).items()}
    assert len(lengths) > 1000, len(lengths)   # the reader finds the functions
    long = {k: v for k, v in lengths.items() if v > MAX_FUNCTION_LINES and k not in LONG_FUNCTIONS}
    assert long == {}, f"functions past {MAX_FUNCTION_LINES} lines: split them into named steps"
    grown = {k: (LONG_FUNCTIONS[k], v) for k, v in lengths.items() if k in LONG_FUNCTIONS and v > LONG_FUNCTIONS[k]}
    assert grown == {}, "allowlisted long functions grew (listed, now): split them instead"
    done = sorted(k for k in LONG_FUNCTIONS if lengths.get(k, 0) <= MAX_FUNCTION_LINES)
    assert done == [], "short now (or gone): remove them from LONG_FUNCTIONS, the list only shrinks"


def test_a_long_function_is_found(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("class A:\n    def f(self):\n" + "        x = 1\n" * 70 + "        def g():\n            pass\n")
    assert function_lengths(f, tmp_path) == {"m.py:A.f": 73, "m.py:A.f.g": 2}


#: a package (the modules directly in one folder) stays small enough to read as one part: past
#: these, it is split into subpackages along its seams (a game's along its rulebook's parts)
MAX_PACKAGE_MODULES = 30
MAX_PACKAGE_LINES = 6000


def package_sizes() -> dict[str, tuple[int, int]]:
    """folder -> (modules, lines) of the hand-written Python directly in it."""
    out: dict[str, tuple[int, int]] = {}
    for p in _code_files():
        d = p.parent.relative_to(REPO).as_posix()
        n, lines = out.get(d, (0, 0))
        out[d] = (n + 1, lines + len(p.read_text(encoding="utf-8").splitlines()))
    return out


def test_no_package_is_past_its_limits():
    sizes = package_sizes()
    assert "engine/games/ntnd/combat" in sizes and len(sizes) > 15, sorted(sizes)
    big = {d: s for d, s in sizes.items() if s[0] > MAX_PACKAGE_MODULES or s[1] > MAX_PACKAGE_LINES}
    assert big == {}, f"packages past {MAX_PACKAGE_MODULES} modules or {MAX_PACKAGE_LINES} lines (modules, lines)"
