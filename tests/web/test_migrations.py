"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import User
from scorekeeper.usernames import look_key, username_key


@pytest.fixture
def empty_app(database_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        _wipe()
        yield app
        _wipe()
        db.engine.dispose()


def _wipe() -> None:
    db.session.remove()
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))


def test_upgrade_on_an_empty_database_matches_the_models(empty_app: Flask) -> None:
    upgrade()
    with db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_upgrade_is_idempotent_and_downgrade_removes_every_table(empty_app: Flask) -> None:
    upgrade()
    upgrade()  # start-up runs it every time; the second run must change nothing
    assert "hand" in sa.inspect(db.engine).get_table_names()
    downgrade(revision="base")
    assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}


def test_start_up_upgrades_a_fresh_database(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/fresh.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        assert "match" in sa.inspect(db.engine).get_table_names()
        db.engine.dispose()


def test_upgrade_to_0010_fills_each_users_keys(empty_app: Flask) -> None:
    """Accounts made before the keys were stored are found by them after the upgrade (issue
    18): the login looks a name up by its key alone, and a look-alike by its skeleton."""
    upgrade(revision="0009")
    names = ["Olga", "\u0251lice", "Νίκος"]
    with db.engine.begin() as connection:
        for name in names:
            connection.execute(
                sa.text(
                    'INSERT INTO "user" (username, password_hash, created_at, session_secret)'
                    " VALUES (:name, 'x', CURRENT_TIMESTAMP, 's')"
                ),
                {"name": name},
            )
    upgrade()
    with db.engine.connect() as connection:
        rows = connection.execute(sa.text('SELECT username, name_key, look_key FROM "user"'))
        assert sorted(rows) == sorted((n, username_key(n), look_key(n)) for n in names)
    found = accounts.find_user("\uff2f\uff2c\uff27\uff21\u200b")
    assert found is not None and found.username == "Olga"
    alike = db.session.scalar(sa.select(User.username).where(User.look_key == look_key("alice")))
    assert alike == "\u0251lice"
    db.session.remove()
