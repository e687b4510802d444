"""`create-user` and `create-token`: accounts for the match API from the command line, on a
database that has no tables yet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner

from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import ApiToken


@pytest.fixture
def fresh(app: Flask) -> Iterator[Flask]:
    """The test app with every table dropped, as on a database nobody has used yet."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        assert sa.inspect(db.engine).get_table_names() == []
    yield app


def test_create_user_then_a_token_that_works_against_the_api(
    fresh: Flask, runner: FlaskCliRunner
) -> None:
    made = runner.invoke(args=["create-user", "alice", "--password", "correct horse"])
    assert made.exit_code == 0, made.output
    assert made.output.strip().splitlines()[-1] == "Created user alice."

    issued = runner.invoke(args=["create-token", "alice", "--label", "laptop"])
    assert issued.exit_code == 0, issued.output
    token = issued.output.strip().splitlines()[-1]
    assert token.startswith("sk_")
    assert len(token) > 40
    assert issued.stdout.strip() == token  # nothing else on stdout: TOKEN=$(flask create-token …)

    with fresh.app_context():
        user = accounts.authenticate("alice", "correct horse")
        assert user is not None
        assert accounts.user_for_token(token) == user
        labels = db.session.scalars(sa.select(ApiToken.label)).all()
        assert labels == ["laptop"]

    client = fresh.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/clubs", headers=bearer).get_json() == {"clubs": []}
    created = client.post("/api/v1/clubs", json={"name": "Alice's table"}, headers=bearer)
    assert created.status_code == 201
    assert created.get_json()["role"] == "owner"
    assert client.get("/api/v1/clubs").status_code == 401  # and without the token, nothing


def test_each_token_is_new(fresh: Flask, runner: FlaskCliRunner) -> None:
    runner.invoke(args=["create-user", "alice", "--password", "correct horse"])
    first = runner.invoke(args=["create-token", "alice"]).output.strip().splitlines()[-1]
    second = runner.invoke(args=["create-token", "alice"]).output.strip().splitlines()[-1]
    assert first != second
    with fresh.app_context():
        assert accounts.user_for_token(first) is not None
        assert accounts.user_for_token(second) is not None


def test_create_user_asks_for_the_password_when_it_is_left_out(
    fresh: Flask, runner: FlaskCliRunner
) -> None:
    made = runner.invoke(args=["create-user", "bob"], input="s3cret-pass\ns3cret-pass\n")
    assert made.exit_code == 0, made.output
    assert "Created user bob." in made.output
    assert "s3cret-pass" not in made.output  # hidden while typed
    with fresh.app_context():
        assert accounts.authenticate("bob", "s3cret-pass") is not None


def test_a_taken_username_is_refused(fresh: Flask, runner: FlaskCliRunner) -> None:
    assert (
        runner.invoke(args=["create-user", "alice", "--password", "correct horse"]).exit_code == 0
    )
    again = runner.invoke(args=["create-user", "alice", "--password", "another one"])
    assert again.exit_code == 1
    assert "Error: The username 'alice' is taken; choose another." in again.output
    with fresh.app_context():
        assert accounts.authenticate("alice", "correct horse") is not None  # untouched
        assert accounts.authenticate("alice", "another one") is None


def test_a_short_password_is_refused(fresh: Flask, runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["create-user", "carol", "--password", "short"])
    assert result.exit_code == 1
    assert "Error: A password needs at least 8 characters." in result.output
    with fresh.app_context():
        assert accounts.find_user("carol") is None


def test_a_token_for_an_unknown_user_is_refused(fresh: Flask, runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["create-token", "nobody"])
    assert result.exit_code == 1
    assert "Error: There is no user 'nobody'; make one with: create-user nobody" in result.output
    assert "sk_" not in result.output
    with fresh.app_context():
        assert db.session.scalar(sa.select(sa.func.count(ApiToken.id))) == 0  # tables made


def test_a_common_password_is_refused(fresh: Flask, runner: FlaskCliRunner) -> None:
    """The command's user chooses the password, so it is judged as registering judges it."""
    result = runner.invoke(args=["create-user", "alice", "--password", "password1"])
    assert result.exit_code != 0
    assert "one of the most common ones" in result.output
    result = runner.invoke(args=["create-user", "alice", "--password", "alice-alice"])
    assert "must not contain your username" in result.output
