"""A server with the web transport (Connect, gRPC-Web) beside its gRPC port, both on port 0; and
the browser library's code bundled for node (``node_bundle``)."""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ESBUILD = ROOT / "clients" / "web" / "node_modules" / ".bin" / "esbuild"


def node_bundle(tmp_path_factory, driver: str) -> pathlib.Path:
    """tests/web/``driver`` (TypeScript importing clients/web/src) bundled by esbuild into one module
    for node. Skips without node or clients/web/node_modules, fails under AAR_REQUIRE_BROWSER=1."""
    if not ESBUILD.exists() or shutil.which("node") is None:
        if os.environ.get("AAR_REQUIRE_BROWSER") == "1":
            pytest.fail("AAR_REQUIRE_BROWSER=1 but node or clients/web/node_modules is missing")
        pytest.skip("node or clients/web/node_modules is missing (npm ci --prefix clients/web)")
    out = tmp_path_factory.mktemp("drv") / (pathlib.Path(driver).stem + ".mjs")
    r = subprocess.run([str(ESBUILD), str(ROOT / "tests" / "web" / driver), "--bundle", "--platform=node",
                        "--format=esm", f"--outfile={out}", "--log-level=warning"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


class WebServer:
    def __init__(self, tmp_path, origins=(), page=None):
        from afteraction.service.server import start

        self.run = start("127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path),
                         web_listen="127.0.0.1:0", web_origins=tuple(origins), web_page=page)
        self.target = f"127.0.0.1:{self.run.port}"
        self.web_port = self.run.web_port
        self.base = f"http://127.0.0.1:{self.web_port}"

    def stop(self):
        if self.run is not None:
            self.run.stop(2)
            self.run = None


@pytest.fixture
def web_server(tmp_path):
    s = WebServer(tmp_path)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through playwright, one per test module (tests/browsers.py)."""
    from browsers import launched

    yield from launched(("--disable-quic",))


@pytest.fixture
def site(tmp_path):
    """A server whose web port serves the web client's page too (clients/cli/webpage.py)."""
    from afteraction.cli.webpage import WebPage

    s = WebServer(tmp_path, page=WebPage())
    try:
        yield s
    finally:
        s.stop()
