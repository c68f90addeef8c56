# The two commands a newcomer needs are `make demo` and `make test` (README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test proto bench vectors clean

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
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/aar demo

test: $(STAMP)
	$(PY) -m pytest -q

# Regenerate the protobuf/gRPC stubs next to the .proto files (one command; a test fails if stale).
proto: $(STAMP)
	$(PY) -m afteraction.v1.generate

# Rewrite fixtures/vectors/*.json from the code (review the diff!). The golden and
# tampered logs in fixtures/logs/ come from fixtures/make_logs.py and are never regenerated silently.
vectors: $(STAMP)
	$(PY) fixtures/make_vectors.py

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
