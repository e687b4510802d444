"""Shared fixtures: an app on a throw-away database, its clients, a live server, a phone browser."""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, serve

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.services import accounts

SCREENSHOTS = Path(__file__).parent / "screenshots"
BROWSER_FIXTURES = {"page", "context", "browser", "browser_type"}


POSTGRESQL_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")


@pytest.fixture(params=["sqlite", "postgresql"] if POSTGRESQL_URL else ["sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every test with an app runs on a fresh SQLite file, and again on PostgreSQL when
    SCOREKEEPER_TEST_DATABASE_URL names one (CI sets it)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    assert POSTGRESQL_URL is not None
    return POSTGRESQL_URL


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """A test app on a throw-away database (see `database_url`)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url,
            # Form tests post without a token; CSRF itself is Flask-WTF's to test.
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        # An open session holds a transaction, and PostgreSQL's DROP would wait on it forever.
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """Serve ``app`` on a free localhost port in a background thread; yields its base URL."""
    with serve(app) as base_url:
        yield base_url


@pytest.fixture
def owner(app: Flask) -> Iterator[User]:
    """The user eleni (password "password1"), with the app's context open for the whole test."""
    with app.app_context():
        yield accounts.create_user("eleni", "password1")


@pytest.fixture
def screenshots() -> Path:
    """Folder (git-ignored) where browser tests save what they saw."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # A phone: its viewport, and mobile mode so the page's viewport meta tag is honoured.
    return {
        **browser_context_args,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
    }


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that uses a Playwright fixture as ``browser``; skip those without Chromium.

    In CI a missing Chromium is a broken machine, so there the tests run and fail loudly.
    """
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: apt-get install -y chromium")
    for item in items:
        if BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if (
            item.get_closest_marker("browser")
            and not CHROMIUM.exists()
            and not os.environ.get("CI")
        ):
            item.add_marker(skip)
