"""Headless Chromium for the browser tests (tests/client/test_view_browser.py, tests/web/):
Debian's chromium driven by playwright on the system browser (nothing downloaded). Without a
browser or playwright the tests skip with the reason; AAR_REQUIRE_BROWSER=1 (.ci/run) makes
them fail instead."""
from __future__ import annotations

import os
import shutil

import pytest

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    for name in (os.environ.get("AAR_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def unavailable(reason: str):
    if os.environ.get("AAR_REQUIRE_BROWSER") == "1":
        pytest.fail(f"AAR_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


def launched(extra_args: tuple[str, ...] = ()):
    """A generator for a module-scoped ``browser`` fixture: yields a launched playwright Browser."""
    exe = chromium()
    if exe is None:
        unavailable("no chromium on PATH (apt-get install chromium; AAR_CHROMIUM names another binary)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright Python package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=[*ARGS, *extra_args])
        try:
            yield b
        finally:
            b.close()
