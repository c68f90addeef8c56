# The two commands a newcomer needs are `make demo` and `make test` (README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-long proto bench bench-peer vectors clean web screenshots

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	@# setuptools' editable install always prints an "Editable installation." notice (InformationOnly,
	@# not a problem of this project): that one notice is filtered; any real packaging warning still shows.
	PYTHONWARNINGS="ignore:Editable installation:UserWarning" $(PY) -m pip install -q -e '.[dev]'
	@# buf (proto lint, STANDARD) comes from the npm registry; without npm its test is skipped.
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --no-save --no-package-lock --silent --prefix . @bufbuild/buf@1.75.0 \
	  || echo "buf could not be installed: the buf lint test will be skipped"; \
	else echo "npm not found: the buf lint test will be skipped"; fi
	@# the web client's build tools (clients/web/package-lock.json): its freshness test needs them
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --silent --prefix clients/web || echo "clients/web could not be installed: its build test will be skipped"; \
	fi
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/aar demo

# Compiled bytecode is kept under .venv/pycache for the test run and every process it starts (servers,
# `aar` commands), even where the environment sets PYTHONDONTWRITEBYTECODE (this machine kind does):
# without it each test worker and each server it starts compiled the engine and the service from
# source again (collection alone took 14 s per worker instead of 5 s).
KEEP_BYTECODE := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache

# Three pytest-xdist workers on this 2-core machine kind: with two, the cores stood idle about 30% of
# the run (user+sys 1,104 s in 778 s of a fresh clone's run) while tests waited on browsers,
# servers and timers; a third worker fills that time. worksteal: a worker that runs out of tests
# takes some of another's (the suite's longest tests are whole games of 20-60 s). One file or test
# alone: `.venv/bin/python -m pytest -q tests/...` (serial).
test: $(STAMP)
	$(KEEP_BYTECODE) $(PY) -m pytest -q -n 3 --dist worksteal

# The tests marked `long` (deselected by `make test`): e.g. the NTND period scenarios played to their end.
test-long: $(STAMP)
	$(KEEP_BYTECODE) $(PY) -m pytest -q -n 3 --dist worksteal -m long

# Regenerate the protobuf/gRPC stubs next to the .proto files (one command; a test fails if stale).
proto: $(STAMP)
	$(PY) -m afteraction.v1.generate

# Rewrite fixtures/vectors/*.json from the code (review the diff!). The golden and
# tampered logs in fixtures/logs/ come from fixtures/make_logs.py and are never regenerated silently.
vectors: $(STAMP)
	$(PY) fixtures/make_vectors.py

# Regenerate the web client's TypeScript from proto/ and rebuild its bundle (clients/web/static/app.js,
# committed so that pip installs need no npm; tests/web/test_web_build.py fails when it is stale).
web: $(STAMP) clients/web/node_modules/.package-lock.json
	cd clients/web && npx buf generate ../../proto --template buf.gen.yaml \
	  && npx tsc --noEmit -p . && node build.mjs

# docs/screenshots/<game>-<moment>.png (docs/playing.md): the browser tests that play each game like a
# person (tests/web/test_web_mapplay_browser.py) save the page's window at three moments of each game.
screenshots: $(STAMP)
	AAR_SCREENSHOTS=docs/screenshots $(PY) -m pytest -q -p no:cacheprovider tests/web/test_web_mapplay_browser.py

# The web client's build tools, installed again only when its lock file changed (npm ci empties
# node_modules first: a git worktree whose node_modules links to another checkout's would lose it).
clients/web/node_modules/.package-lock.json: clients/web/package-lock.json
	cd clients/web && npm ci --silent

bench: $(STAMP)
	$(PY) -m bench

# The peer benchmark (bench/peer/compare.py): the duel through our service and through
# boardgame.io in one run; npm ci installs boardgame.io 0.50.2 from bench/peer/package-lock.json.
bench/peer/node_modules/.package-lock.json: bench/peer/package-lock.json
	cd bench/peer && npm ci --silent --no-audit --no-fund

bench-peer: $(STAMP) bench/peer/node_modules/.package-lock.json
	$(PY) bench/peer/compare.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
