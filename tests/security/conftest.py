"""The security tests run the app as production does: CSRF protection and login limits on
(tests elsewhere switch CSRF off to post forms freely). `client` and `live_server` use it."""

from collections.abc import Iterator

import pytest
from flask import Flask
from security_world import World, build_world, drop, secure_app


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    app = secure_app(database_url)
    yield app
    drop(app)


@pytest.fixture
def world(app: Flask) -> World:
    return build_world(app)
