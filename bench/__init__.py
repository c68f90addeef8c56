"""Benchmarks: `make bench` (= `python -m bench` from the repo root) runs every
bench/bench_*.py module's run(). Each prints its figures, then one line per ratio:
`ratio NAME VALUE`."""
