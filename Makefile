# Two targets for people: `make run` and `make test`. Both build .venv on first use and
# reinstall only when pyproject.toml changes (the stamp files remember the last install).

VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test

run: $(VENV)/run.stamp
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

test: $(VENV)/test.stamp
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy scorekeeper
	$(BIN)/mypy --strict scorekeeper/rules
	$(BIN)/pytest

$(BIN)/python:
	python3 -m venv $(VENV)

$(VENV)/run.stamp: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/test.stamp: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@
