"""The tournament's arithmetic is pure: its modules import the standard library and the
engine's message functions (scorekeeper.rules.i18n, itself pure) and nothing else, so the
service and API can be built on them and they can be tested without an app."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

# The models, service and API of the package are not pure; these are, and stay so.
PURE_MODULES = [
    "scorekeeper.tournaments",
    "scorekeeper.tournaments.scales",
    "scorekeeper.tournaments.standings",
]
ALLOWED_FIRST_PARTY = {"scorekeeper.rules.i18n"}


def imported_names(module: str) -> set[str]:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module} imports relatively: name the module"
            names.add(node.module or "")
    return names


@pytest.mark.parametrize("module", PURE_MODULES)
def test_a_pure_module_imports_only_the_standard_library(module: str) -> None:
    for name in imported_names(module):
        top = name.split(".")[0]
        assert (
            top in sys.stdlib_module_names or top == "__future__" or (name in ALLOWED_FIRST_PARTY)
        ), f"{module} imports {name}"


def test_the_import_check_sees_an_import_that_is_not_allowed() -> None:
    # Guards the test above against passing vacuously: the web layer's i18n imports Flask.
    assert "flask_babel" in imported_names("scorekeeper.web.i18n")


@pytest.mark.parametrize("module", PURE_MODULES)
def test_importing_it_loads_neither_flask_nor_sqlalchemy(module: str) -> None:
    # A fresh interpreter: this test process may have imported Flask for other tests.
    probe = (
        f"import sys, {module}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('flask', 'sqlalchemy', 'flask_sqlalchemy', 'werkzeug', 'wtforms', 'jinja2', "
        "'babel', 'flask_babel'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
