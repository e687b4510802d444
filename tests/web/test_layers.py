"""The package's layers (issue 17, OPERATING.md "Project layout"): the rules engine at the bottom,
the platform over it, the features over both, each feature reached by the others only
through its front door (its package's own names), and the app assembled at the top.

Checked from the source, import by import, so a new module is held to the same rules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import scorekeeper

pytestmark = pytest.mark.stateless

ROOT = Path(scorekeeper.__file__).parent
#: Each a package with a front door: its __init__ says, in __all__, what others may use.
FEATURES = (
    "match",
    "play",
    "clubs",
    "records",
    "exchange",
    "referee",
    "accounts",
    "words",
    "tournaments",
)
#: Where the app is put together: these may import any feature's insides.
ASSEMBLY = {"__init__.py", "factory.py", "blueprints.py", "cli.py", "demo.py"}


def modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def layer(path: Path) -> str:
    """ "rules", a feature's name, "assembly" or "platform"."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "rules":
        return "rules"
    if parts[0] in FEATURES and len(parts) > 1:
        return parts[0]
    return "assembly" if len(parts) == 1 and parts[0] in ASSEMBLY else "platform"


def imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Each import of the app's own modules: the module named and the names taken from it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            # Only the engine imports its own modules relatively (it runs on its own too).
            assert layer(path) == "rules" and node.level == 1, f"{path}: a relative import"
            found.append((f"scorekeeper.rules.{node.module or ''}".rstrip("."), ()))
            continue
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekeeper"):
            found.append((node.module or "", tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Import):
            found += [(a.name, ()) for a in node.names if a.name.startswith("scorekeeper")]
    return found


def front_door(feature: str) -> set[str]:
    return set(importlib.import_module(f"scorekeeper.{feature}").__all__)


def reached(module: str, names: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """The layers an import reaches, each with the feature's name taken through its front
    door (None: its insides, a module of its own)."""
    bits = module.split(".")
    if module == "scorekeeper":  # from scorekeeper import match, words …
        return [(name, name) if name in FEATURES else ("platform", None) for name in names]
    top = bits[1]
    if top == "rules":
        return [("rules", None)]
    if top not in FEATURES:
        return [("platform", None)]
    if len(bits) > 2:
        return [(top, None)]
    door = front_door(top)
    return [(top, name if name in door else None) for name in names]


def refusal(own: str, target: str, through_door: str | None) -> str | None:
    """Why a module of layer `own` may not import what reaches `target`, if it may not."""
    if own == "rules" and target != "rules":
        return "the rules engine imports from above it"
    if own == "platform" and target in FEATURES:
        return "the platform imports a feature"
    if own in FEATURES and target in FEATURES and target != own and through_door is None:
        return "a feature imports another past its front door"
    return None


def violations() -> list[str]:
    found = []
    for path in modules():
        where = path.relative_to(ROOT.parent).as_posix()
        for module, names in imports(path):
            for target, through_door in reached(module, names):
                why = refusal(layer(path), target, through_door)
                if why is not None:
                    found.append(f"{where}: {why} ({module})")
    return found


def test_every_layer_imports_only_downward_and_features_through_their_front_doors() -> None:
    assert violations() == []


def test_the_layers_are_all_there() -> None:
    """The check above walks every layer: a broken walk would find nothing to refuse."""
    seen = {layer(path) for path in modules()}
    assert seen == {"rules", "platform", "assembly", *FEATURES}
    assert all(front_door(feature) for feature in FEATURES)


def test_the_check_refuses_what_it_should() -> None:
    """Imports that break the layers are named: a feature's insides, the platform reaching a
    feature, the engine reaching above itself."""
    assert refusal("play", "clubs", None)
    assert refusal("play", "clubs", "club_for") is None
    assert refusal("play", "play", None) is None
    assert refusal("platform", "records", "rebuild")
    assert refusal("rules", "platform", None)
    assert refusal("assembly", "records", None) is None
    assert reached("scorekeeper.clubs.service", ("club_for",)) == [("clubs", None)]
    assert reached("scorekeeper.clubs", ("club_for",)) == [("clubs", "club_for")]
    assert reached("scorekeeper.records", ("leaderboard_pages",)) == [("records", None)]
    assert reached("scorekeeper", ("match", "models")) == [
        ("match", "match"),
        ("platform", None),
    ]
