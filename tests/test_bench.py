"""`make bench` conventions (issue 2): every benchmark module prints its figures and then
`ratio NAME VALUE` lines that a script can read; bench_verify runs end to end on a tiny log."""
from __future__ import annotations

import re
import sys
import tempfile

import pytest

from conftest import REPO

RATIO = re.compile(r"^ratio [a-z][a-z0-9_]* -?[0-9]+(\.[0-9]+)?$")
BENCHES = sorted(p.stem for p in (REPO / "bench").glob("bench_*.py"))


@pytest.mark.parametrize("name", BENCHES)
def test_every_benchmark_prints_a_ratio_line(name):
    src = (REPO / "bench" / f"{name}.py").read_text()
    assert "def run()" in src
    lines = re.findall(r'print\(f"ratio ([a-z][a-z0-9_]*) \{[^}]*\}"\)', src)
    assert lines, f"{name} prints no `ratio NAME VALUE` line"


def test_bench_verify_runs_on_a_small_log_and_prints_its_ratio(monkeypatch, tmp_path, capsys):
    sys.path.insert(0, str(REPO))
    try:
        import bench.bench_verify as bv
    finally:
        sys.path.remove(str(REPO))
    monkeypatch.setattr(bv, "N_RECORDS", 26)  # genesis, 4 handshake records, 10 rounds, the end
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    bv.run()
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("records: 26 ") for line in out), out
    assert RATIO.match(out[-1]) and out[-1].startswith("ratio verify_crypto "), out
    assert float(out[-1].split()[2]) > 0
    assert len(list(tmp_path.glob("aar-bench-verify-26-*.aar"))) == 1  # cached where asked
