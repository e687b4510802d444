"""flask --app scorekeeper backup: a consistent SQLite copy while the app writes; on
PostgreSQL a pointer to pg_dump and a non-zero exit."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from flask import Flask
from support.hand_entries import REFERENCE_HAND, typed

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Match, User


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on a SQLite file (backups are SQLite's), with its instance folder in tmp_path."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'live.sqlite'}"}
    )
    app.instance_path = str(tmp_path / "instance")
    with app.app_context():
        db.create_all()
        user = accounts.create_user("olga", "password1")
        club = clubs.create_club(user, "Kafeneio")
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bo", "Cy", "Di")]
        teams = [TeamSpec("A", tuple(ids[:2])), TeamSpec("B", tuple(ids[2:]))]
        matches.create_match(club, user, "pagat", "4p", teams, target=1_000_000)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def backup(app: Flask, *args: str) -> Result:
    return app.test_cli_runner().invoke(args=["backup", *args])


def read(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as connection:
        rows = connection.execute(sql).fetchall()
    connection.close()
    return rows


def add_hands(app: Flask, count: int) -> None:
    with app.app_context():
        match = db.session.scalars(db.select(Match)).one()
        user = db.session.scalars(db.select(User)).one()
        for _ in range(count):
            matches.record_hand(match, user, typed(match, REFERENCE_HAND))


def test_backup_to_a_path_copies_everything_into_one_file(
    sqlite_app: Flask, tmp_path: Path
) -> None:
    add_hands(sqlite_app, 3)
    copy = tmp_path / "copies" / "friday.sqlite"
    result = backup(sqlite_app, str(copy))
    assert result.exit_code == 0, result.output
    assert f"to {copy}" in result.output
    assert read(copy, "PRAGMA integrity_check") == [("ok",)]
    assert read(copy, "PRAGMA journal_mode") == [("delete",)]  # no -wal file needed
    assert read(copy, "SELECT number FROM hand ORDER BY number") == [(1,), (2,), (3,)]
    assert read(copy, "SELECT username FROM user") == [("olga",)]
    assert not list(copy.parent.glob("*.partial"))


def test_backup_without_a_path_goes_to_instance_backups_with_the_utc_time(
    sqlite_app: Flask,
) -> None:
    result = backup(sqlite_app)
    assert result.exit_code == 0, result.output
    (copy,) = (Path(sqlite_app.instance_path) / "backups").iterdir()
    assert re.fullmatch(r"scorekeeper-\d{8}T\d{6}Z\.sqlite", copy.name)
    assert read(copy, "SELECT name FROM club") == [("Kafeneio",)]


def test_backup_never_overwrites_a_file(sqlite_app: Flask, tmp_path: Path) -> None:
    existing = tmp_path / "keep.sqlite"
    existing.write_text("an older backup")
    result = backup(sqlite_app, str(existing))
    assert result.exit_code != 0
    assert "exists already" in result.output
    assert existing.read_text() == "an older backup"


def test_a_backup_taken_while_hands_are_written_is_whole(sqlite_app: Flask, tmp_path: Path) -> None:
    """Each copy is the database at one instant: every hand with its history row, numbers
    without gaps, and never fewer hands than an earlier copy."""
    writing = threading.Thread(target=add_hands, args=(sqlite_app, 60))
    writing.start()
    counts = []
    try:
        for n in range(8):
            copy = tmp_path / f"copy-{n}.sqlite"
            result = backup(sqlite_app, str(copy))
            assert result.exit_code == 0, result.output
            assert read(copy, "PRAGMA integrity_check") == [("ok",)]
            numbers = [n for (n,) in read(copy, "SELECT number FROM hand ORDER BY number")]
            assert numbers == list(range(1, len(numbers) + 1))
            history = read(copy, "SELECT number FROM hand_version ORDER BY number")
            assert [n for (n,) in history] == numbers
            counts.append(len(numbers))
    finally:
        writing.join()
    assert counts == sorted(counts)
    assert counts[0] < 60  # copies were taken while the writer was still going
    final = tmp_path / "final.sqlite"
    assert backup(sqlite_app, str(final)).exit_code == 0
    assert read(final, "SELECT count(*) FROM hand") == [(60,)]


def test_on_postgresql_it_points_to_pg_dump_and_fails() -> None:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "postgresql://league:s3cret@db.example:5433/scores",
        }
    )
    result = backup(app)
    assert result.exit_code == 1
    assert "pg_dump --host=db.example --port=5433 --username=league" in result.output
    assert "scores" in result.output and "PGPASSWORD" in result.output
    assert "s3cret" not in result.output
