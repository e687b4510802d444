"""The modules of the rules engine, found by walking the scorekeeper.rules package, so a test
over all of them covers a module added later without being told of it."""

from __future__ import annotations

import pkgutil

import scorekeeper.rules


def engine_modules() -> list[str]:
    """scorekeeper.rules and every module under it, by dotted name, sorted."""
    found = pkgutil.walk_packages(scorekeeper.rules.__path__, "scorekeeper.rules.")
    return ["scorekeeper.rules", *sorted(module.name for module in found)]
