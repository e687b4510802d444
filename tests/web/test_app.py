"""The application factory, its configuration layers, health check and error pages."""

import os
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import config, create_app


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No SCOREKEEPER_* variables from the developer's shell or CI leak into the test."""
    for name in list(os.environ):
        if name.startswith("SCOREKEEPER_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_defaults_put_sqlite_in_the_instance_folder(tmp_path: Path) -> None:
    settings = config.defaults(tmp_path)
    assert settings["SECRET_KEY"] == "dev"
    assert settings["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"


def test_create_app_defaults(clean_environ: pytest.MonkeyPatch) -> None:
    app = create_app({"TESTING": True})
    if (Path(app.instance_path) / "config.py").exists():
        pytest.skip("instance/config.py on this machine overrides the defaults")
    assert app.testing
    assert Path(app.instance_path).is_dir()
    assert app.config["SECRET_KEY"] == "dev"
    expected = Path(app.instance_path) / "scorekeeper.sqlite"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{expected}"


def test_without_test_config_the_app_is_not_testing(
    clean_environ: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environ.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'dev.sqlite'}")
    assert not create_app().testing


def test_test_config_overrides_everything(clean_environ: pytest.MonkeyPatch) -> None:
    clean_environ.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "from-test", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )
    assert app.config["SECRET_KEY"] == "from-test"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"


def test_environment_overrides_defaults(clean_environ: pytest.MonkeyPatch) -> None:
    clean_environ.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    clean_environ.setenv("SCOREKEEPER_DATABASE_URL", "sqlite:////tmp/from-env.sqlite")
    clean_environ.setenv("SCOREKEEPER_MAX_PLAYERS", "6")
    app = create_app({"TESTING": True})
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/from-env.sqlite"
    assert "DATABASE_URL" not in app.config
    assert app.config["MAX_PLAYERS"] == 6  # JSON-looking values arrive parsed


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.sqlite", "sqlite:///x.sqlite"),
    ],
    ids=["heroku-style", "bare-postgresql", "already-psycopg", "sqlite-untouched"],
)
def test_postgresql_urls_use_psycopg_3(url: str, expected: str) -> None:
    assert config.normalize_database_url(url) == expected


def test_healthz_reaches_the_test_database(app: Flask, client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    dialect = app.config["SQLALCHEMY_DATABASE_URI"].split(":")[0].split("+")[0]
    assert response.json == {"status": "ok", "database": dialect}


@pytest.mark.stateless
def test_unknown_api_path_is_a_json_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    assert set(response.json or {}) == {"error"}


@pytest.mark.fresh_app  # adds a route
def test_wrong_method_under_api_is_a_json_405(app: Flask, client: FlaskClient) -> None:
    app.add_url_rule("/api/only-get", view_func=lambda: {"ok": True})
    response = client.post("/api/only-get")
    assert response.status_code == 405
    assert response.mimetype == "application/json"
    assert set(response.json or {}) == {"error"}
    assert "GET" in response.headers["Allow"]


@pytest.mark.stateless
def test_unknown_page_is_an_html_404(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert b"Not Found" in response.data
    assert b"Back to the start page" in response.data


@pytest.mark.fresh_app  # adds a route
def test_server_error_under_api_is_json(app: Flask, client: FlaskClient) -> None:
    def boom() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/api/boom", view_func=boom)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get("/api/boom")
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert "boom" not in (response.json or {})["error"]


@pytest.mark.stateless
def test_the_api_page_lists_the_referee_api_and_the_referee_links_to_it(
    client: FlaskClient,
) -> None:
    response = client.get("/api")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for path in ("/api/v1/variants", "/api/v1/melds/check", "/api/v1/hands/score"):
        assert path in page
    assert '<a href="/healthz">Health check</a>' in page  # for whoever runs the server
    # Out of the players' footer (issue 19): the referee page links to it instead.
    assert '<a href="/api">JSON API</a>' in client.get("/referee").get_data(as_text=True)
    for where in ("/", "/demo", "/api"):
        footer = client.get(where).get_data(as_text=True).partition('<footer class="site-footer">')
        assert footer[1] and 'href="/api"' not in footer[2] and "/healthz" not in footer[2]
