# Targets for people: `make run`, `make test` (everything, as CI runs it) and `make check`
# (the fast tests, for the edit-test loop). They build .venv on first use and reinstall only
# when pyproject.toml changes (the stamp files remember the last install).

VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
# Test processes (pytest-xdist); each gets databases of its own (tests/conftest.py).
# worksteal: each starts on its own half of the tests, in order, so a module's kept world
# and module fixtures are built on one worker, and an idle one takes over half of what the
# other has left instead of waiting for its slowest tests.
WORKERS ?= 2

export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Some machines set PYTHONDONTWRITEBYTECODE: then every test process, and every server and
# script a test starts, compiles the app and pytest rewrites every test module again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check runtime

run: $(VENV)/run.stamp runtime
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

test: $(VENV)/test.stamp runtime
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy scorekeeper
	$(BIN)/mypy --strict scorekeeper/rules
	$(BIN)/mypy --strict scorekeeper/tournaments/scales.py scorekeeper/tournaments/standings.py \
		scorekeeper/tournaments/movements.py scorekeeper/tournaments/draws.py \
		scorekeeper/tournaments/mitchell.py scorekeeper/tournaments/robin.py scorekeeper/tournaments/danish.py
	$(BIN)/pytest -n $(WORKERS) --dist worksteal

# No browser, SQLite only (even where SCOREKEEPER_TEST_DATABASE_URL is set), no linters.
check: $(VENV)/test.stamp
	env -u SCOREKEEPER_TEST_DATABASE_URL $(BIN)/pytest -n $(WORKERS) --dist worksteal -q -m "not browser"

$(BIN)/python:
	python3 -m venv $(VENV)

$(VENV)/run.stamp: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/test.stamp: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# The rules engine on the phone (the offline score): Pyodide, pinned in package.json and
# package-lock.json, installed from the npm registry into node_modules/ (the app serves five
# of its files, scorekeeper/play/engine_files.py). Without npm everything else works; the
# hand page then has no score offline (OPERATING.md, "The score with no network").
runtime:
	@if [ node_modules/.package-lock.json -nt package-lock.json ]; then :; \
	elif command -v npm >/dev/null; then npm ci --no-audit --no-fund --ignore-scripts --loglevel=error; \
	else echo "npm not found: no score offline on the hand page (see OPERATING.md)"; fi
