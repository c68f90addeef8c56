"""`make demo` and `make test` print no packaging warnings (issue 22): setuptools reads
pyproject.toml and builds every package (with its package data) without a warning: no
deprecated `project.license` table, no data folder that "would be ignored". And no hand-written source file is past 600 lines
(the project rule; generated code is exempt)."""
from __future__ import annotations

import os
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


#: the project rule: no hand-written source file past 600 lines (a longer one is split along its
#: seams; a game's modules follow its rulebook's sections)
MAX_SOURCE_LINES = 600
SOURCE_SUFFIXES = (".py", ".js", ".ts", ".mjs")


def _generated(path: str) -> bool:
    """Code a tool writes: protobuf/gRPC stubs (`make proto`), the web client's generated messages
    (`buf generate`) and its two esbuild bundles (`make web`: the page's, and the replay page's
    view_lib.js, tests/web/test_web_build.py checks both are their sources' build), installed packages."""
    name = path.rsplit("/", 1)[-1]
    return ("_pb2" in name or path.startswith("clients/web/src/gen/")
            or path in ("clients/web/static/app.js", "clients/cli/view_lib.js") or "node_modules/" in path)


def test_no_hand_written_source_file_is_past_600_lines():
    import subprocess

    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"not a git work tree, so no list of tracked files: {e}")
    files = [p for p in out.decode().split("\0") if p.endswith(SOURCE_SUFFIXES) and not _generated(p)]
    assert len(files) > 100, files  # the list is the repository's, not an empty one
    long = {p: n for p in files if (REPO / p).is_file()
            and (n := len((REPO / p).read_text(encoding="utf-8").splitlines())) > MAX_SOURCE_LINES}
    assert long == {}, f"past {MAX_SOURCE_LINES} lines: split them along their seams"
