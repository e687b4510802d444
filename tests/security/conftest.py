"""The security tests run the app as production does: CSRF protection and login limits on
(tests elsewhere switch CSRF off to post forms freely). `client` and `live_server` use it.

`app` is the shared test app of tests/conftest.py with CSRF switched on for the test (the
shared app puts its config back afterwards)."""

from collections.abc import Callable

import pytest
from flask import Flask
from security_world import World, build_world


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = True
    return app


@pytest.fixture
def world(app: Flask, kept_world: Callable[[Callable[[Flask], World]], World]) -> World:
    """The world of security_world.py, built once for a run of tests that only read it."""
    return kept_world(build_world)
