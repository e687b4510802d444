"""The examples in the rules engine's docstrings (its >>> lines) run, and hold: every module
of scorekeeper.rules, found by walking the package, and every example in it."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest
from support.engine import engine_modules

MODULES = engine_modules()


def run_examples(name: str) -> tuple[int, int, str]:
    """How many examples of module `name` ran, how many failed, and the failures' report."""
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=report.append)
    return runner.tries, runner.failures, "".join(report)


@pytest.mark.parametrize("name", MODULES)
def test_every_example_in_the_module_runs_and_holds(name: str) -> None:
    tries, failures, report = run_examples(name)
    assert failures == 0, report
    # Each >>> line is one example: one the finder missed (a docstring it does not look in)
    # would never be run, so it could go stale unnoticed.
    written = sum(
        line.lstrip().startswith(">>>")
        for line in inspect.getsource(importlib.import_module(name)).splitlines()
    )
    assert tries == written, f"{written} examples written in {name}, {tries} run"


def test_the_engine_has_examples_to_run() -> None:
    # Guards the test above against passing vacuously (no module found, no example run).
    assert {"scorekeeper.rules.cards", "scorekeeper.rules.match"} <= set(MODULES)
    assert sum(run_examples(name)[0] for name in MODULES) > 0
