"""The rules engine is pure: importing it must not drag in the web or database layers."""

import subprocess
import sys

import pytest
from support.engine import engine_modules

ENGINE_MODULES = engine_modules()
# The modules there are today: the walk must find at least these (it cannot come back empty).
KNOWN_MODULES = [
    "scorekeeper.rules",
    "scorekeeper.rules.cards",
    "scorekeeper.rules.melds",
    "scorekeeper.rules.variants",
    "scorekeeper.rules.presets",
    "scorekeeper.rules.opening",
    "scorekeeper.rules.formats",
    "scorekeeper.rules.scoring",
    "scorekeeper.rules.match",
    "scorekeeper.rules.points",
    "scorekeeper.rules.i18n",
    "scorekeeper.rules.word_forms",
]


def test_every_known_engine_module_is_found() -> None:
    assert set(KNOWN_MODULES) <= set(ENGINE_MODULES)


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_importing_the_engine_loads_neither_flask_nor_sqlalchemy(module: str) -> None:
    # A fresh interpreter: this test process has long since imported Flask for other tests.
    probe = (
        f"import sys, {module}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('flask', 'sqlalchemy', 'flask_sqlalchemy', 'werkzeug', 'wtforms', 'jinja2'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_the_probe_would_see_flask_if_it_were_imported() -> None:
    # Guards the test above against passing vacuously.
    probe = "import sys, flask\nprint('flask' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"
