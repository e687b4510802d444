"""The security tests run the app as production does: CSRF protection and login limits on
(tests elsewhere switch CSRF off to post forms freely). `client` and `live_server` use it.

`app` is the shared test app of tests/conftest.py with CSRF switched on for the test (the
shared app puts its config back afterwards)."""

import pytest
from flask import Flask
from security_world import World, build_world


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = True
    return app


@pytest.fixture
def world(app: Flask) -> World:
    return build_world(app)
