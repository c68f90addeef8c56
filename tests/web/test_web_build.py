"""The web client's committed build is the build of its sources: the TypeScript generated from
proto/ (buf + protoc-gen-es) and the bundles (esbuild: the page's, and what the replay page takes
from the library) are rebuilt into a temporary directory and compared; the sources type-check (tsc). `make web` rewrites both. Needs clients/web/node_modules
(`make .venv/.installed` runs `npm ci` there); without it these skip, and fail under
AAR_REQUIRE_BROWSER=1 (CI)."""
from __future__ import annotations

import filecmp
import os
import pathlib
import subprocess

import pytest

WEB = pathlib.Path(__file__).resolve().parents[2] / "clients" / "web"
BIN = WEB / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def tools():
    if not (BIN / "buf").exists() or not (BIN / "esbuild").exists():
        if os.environ.get("AAR_REQUIRE_BROWSER") == "1":
            pytest.fail("AAR_REQUIRE_BROWSER=1 but clients/web/node_modules is missing (npm ci --prefix clients/web)")
        pytest.skip("clients/web/node_modules is missing (npm ci --prefix clients/web)")
    return {"PATH": f"{BIN}:{os.environ.get('PATH', '')}"}


def _run(args, env, cwd=WEB):
    return subprocess.run(args, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=300)


def test_generated_typescript_is_current(tools, tmp_path):
    tpl = tmp_path / "buf.gen.yaml"
    tpl.write_text((WEB / "buf.gen.yaml").read_text().replace("out: src/gen", f"out: {tmp_path / 'gen'}"))
    r = _run(["buf", "generate", "../../proto", "--template", str(tpl)], tools)
    assert r.returncode == 0, r.stderr
    cmp = filecmp.dircmp(tmp_path / "gen" / "afteraction" / "v1", WEB / "src" / "gen" / "afteraction" / "v1")
    assert not (cmp.diff_files or cmp.left_only or cmp.right_only), "stale clients/web/src/gen: run `make web`"


def test_bundle_is_current_and_sources_type_check(tools, tmp_path):
    out, view = tmp_path / "app.js", tmp_path / "view_lib.js"
    r = _run(["node", "build.mjs", str(out), str(view)], tools)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == (WEB / "static" / "app.js").read_bytes(), "stale clients/web/static/app.js: run `make web`"
    # what the replay page takes from the library (clients/cli/view_lib.js, inlined by aar view)
    assert view.read_bytes() == (WEB.parent / "cli" / "view_lib.js").read_bytes(), \
        "stale clients/cli/view_lib.js: run `make web`"
    r = _run(["tsc", "--noEmit", "-p", "."], tools)
    assert r.returncode == 0, r.stdout + r.stderr
