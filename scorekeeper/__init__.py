"""Scorekeeper: a phone-first score keeper and rules referee for Biriba."""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> "Flask":
    """Build the app: defaults, then instance/config.py, then SCOREKEEPER_*, then test_config."""
    # Imported on call, not at the top: importing scorekeeper.rules runs this file first, and
    # the rules engine must load neither Flask nor SQLAlchemy.
    from scorekeeper.factory import create_app as build

    return build(test_config)
