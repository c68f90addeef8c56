"""`make bench` conventions: every benchmark module prints its figures and then
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


def test_bench_service_games_runs_in_quick_mode_and_prints_its_ratios():
    """The real-games service benchmark end to end (aar serve, the echo, SOG, GMV and NTND drivers, the
    idle Watch streams) in its quick configuration: every ratio line is there and parses."""
    import subprocess

    p = subprocess.run([sys.executable, str(REPO / "bench" / "bench_service_games.py"), "--quick"],
                       capture_output=True, text=True, timeout=240)
    assert p.returncode == 0, p.stderr[-2000:]
    ratios = dict(line.split()[1:] for line in p.stdout.splitlines() if line.startswith("ratio "))
    assert set(ratios) == {"service_sog_vs_echo", "service_gmv_vs_echo", "service_ntnd_vs_echo",
                           "sog_p99_ms_at_100", "getstate_p99_watch1000_vs_idle"}, p.stdout
    assert all(RATIO.match(f"ratio {k} {v}") for k, v in ratios.items())
    assert all(float(ratios[f"service_{g}_vs_echo"]) > 0 for g in ("sog", "gmv", "ntnd"))
    assert any(line.startswith("sog ") and "games=3" in line for line in p.stdout.splitlines()), p.stdout
    pairs = [ln for ln in p.stdout.splitlines() if "sog games=3: sog/echo commands per window pair" in ln]
    assert len(pairs) == 1 and f"median {ratios['service_sog_vs_echo']} " in pairs[0], p.stdout  # the figure


def _peer_missing() -> str | None:
    """Why bench/peer cannot run here (bench/peer/compare.py's own check), or None."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_peer_compare", REPO / "bench" / "peer" / "compare.py")
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    return compare.missing()


@pytest.mark.skipif(_peer_missing() is not None, reason=f"bench-peer cannot run here: {_peer_missing()}")
def test_bench_peer_runs_in_quick_mode_and_prints_its_ratios():
    """The peer benchmark end to end at 2 games: our service (over Play streams, and over unary
    calls), boardgame.io in memory, with the
    per-move crypto and on its FlatFile store each play the duel in a window, and every ratio line is
    there and parses (no target is asserted: speed targets live in the benchmark's figures)."""
    import subprocess

    p = subprocess.run([sys.executable, str(REPO / "bench" / "peer" / "compare.py"), "--quick"],
                       capture_output=True, text=True, timeout=240)
    assert p.returncode == 0, p.stderr[-2000:]
    ratios = dict(line.split()[1:] for line in p.stdout.splitlines() if line.startswith("ratio "))
    assert set(ratios) == {
        "service_vs_bgio_crypto_at_2", "service_vs_bgio_flatfile_at_2", "service_vs_bgio_memory_at_2",
        "service_vs_bgio_crypto", "service_vs_bgio_flatfile", "service_p99_ms_at_2", "bgio_crypto_p99_ms_at_2",
        "service_cpu_ms_per_command", "bgio_crypto_cpu_ms_per_move", "service_vs_bgio_crypto_cpu_at_2",
        "service_vs_bgio_flatfile_cpu_at_2", "service_unary_cpu_ms_per_command",
        "service_vs_service_unary_cpu_at_2"} | {f"service_{g}_{k}_at_2" for g in ("sog", "gmv")
                                                for k in ("moves_per_s", "cpu_ms_per_command", "p99_ms")}, p.stdout
    assert all(RATIO.match(f"ratio {k} {v}") for k, v in ratios.items())
    assert all(float(v) > 0 for v in ratios.values()), p.stdout  # every system played moves in its window
    for system in ("service", "service_unary", "bgio_memory", "bgio_crypto", "bgio_flatfile"):
        assert any(line.startswith(f"{system} ") and "games=2 " in line for line in p.stdout.splitlines()), p.stdout


def test_bench_peer_our_side_runs_without_node_and_plays_sog_over_play():
    """Our systems alone need neither node nor boardgame.io: the duel and SOG over Play streams at 2
    games, each with its ratio lines (SOG's beside the duel, no target)."""
    import subprocess

    p = subprocess.run([sys.executable, str(REPO / "bench" / "peer" / "compare.py"), "--quick", "--systems", "service",
                        "--rulesets", "sog"], capture_output=True, text=True, timeout=240)
    assert p.returncode == 0, p.stderr[-2000:]
    ratios = dict(line.split()[1:] for line in p.stdout.splitlines() if line.startswith("ratio "))
    assert set(ratios) == {"service_sog_moves_per_s_at_2", "service_sog_cpu_ms_per_command_at_2",
                           "service_sog_p99_ms_at_2"}, p.stdout
    assert all(RATIO.match(f"ratio {k} {v}") and float(v) > 0 for k, v in ratios.items()), p.stdout
    for system in ("service", "service_sog"):
        assert any(line.startswith(f"{system} ") and "games=2 " in line for line in p.stdout.splitlines()), p.stdout
