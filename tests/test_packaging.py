"""`make demo` and `make test` print no packaging warnings (issue 22): setuptools reads
pyproject.toml and builds every package (with its package data) without a warning: no
deprecated `project.license` table, no data folder that "would be ignored"."""
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
