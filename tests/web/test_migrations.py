"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db


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
