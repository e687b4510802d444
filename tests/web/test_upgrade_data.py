"""`flask --app scorekeeper db upgrade` brings a database of ANY earlier revision to head with
its data intact, on SQLite and PostgreSQL.

The revisions are read from migrations/versions, so a new migration is walked too. The data:
a club's real life (members, a token, players, matches in several formats, hands edited,
deleted and accepted with a reason, a season) made with the services on a head database,
then written into the database at each earlier revision, restricted to that revision's
columns. After the upgrade every value is where it was, and the app reads each match exactly
as it reads the same match on the head database, and can save a new hand in it.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask
from support.hand_entries import REFERENCE_HAND, typed

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Match, Role, User
from scorekeeper.records import seasons

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"
Rows = dict[str, list[dict[str, Any]]]


def earlier_revisions() -> list[str]:
    """Every revision but the newest, oldest first."""
    script = ScriptDirectory(str(MIGRATIONS))
    newest_first = [rev.revision for rev in script.walk_revisions()]
    return list(reversed(newest_first))[:-1]


ILLEGAL = {
    "kozi": "S",
    "teams": [
        {"name": "A", "melds": ["3H 5S 9D"], "hands": ["", ""], "went_out": True},
        {"name": "B", "melds": [], "hands": ["AS", "4H"]},
    ],
}


def fill(app: Flask) -> None:
    """A club as it lives: what every table of the newest schema holds."""
    with app.app_context():
        owner = accounts.create_user("olga", "password1")
        scorer = accounts.create_user("sam", "password1")
        accounts.create_token(owner, "phone")
        club = clubs.create_club(owner, "Kafeneio <b>&</b> Σία")
        clubs.join_by_invite(scorer, club.invite_code)
        clubs.set_role(club, scorer.id, Role.SCORER)
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bo", "Cy", "Di", "Ελένη")]
        season = seasons.create_season(
            club, "Winter", datetime.date(2026, 1, 1), datetime.date(2026, 12, 31)
        )
        fours = matches.create_match(
            club,
            owner,
            "pagat",
            "4p",
            [TeamSpec("A", (ids[0], ids[1])), TeamSpec("B", tuple(ids[2:4]))],
        )
        matches.record_hand(fours, owner, typed(fours, REFERENCE_HAND), idempotency_key="tap-1")
        matches.record_hand(
            fours, scorer, typed(fours, ILLEGAL), accepted_reason="Agreed at the table."
        )
        matches.edit_hand(
            fours, 1, scorer, typed(fours, REFERENCE_HAND | {"kozi": "S"}), expected_version=1
        )
        matches.record_hand(fours, owner, typed(fours, REFERENCE_HAND))
        matches.delete_hand(fours, 3, owner, expected_version=1)
        seasons.place_match(fours, season)
        shares = matches.create_match(
            club,
            owner,
            "pagat-kouridakis",
            "5p",
            [TeamSpec("", tuple(ids))],
            house_rules={"target": 4000},
        )
        alone = [ids[0]]
        matches.record_hand(
            shares,
            owner,
            typed(
                shares,
                {
                    "kozi": "D",
                    "teams": [
                        {
                            "players": alone,
                            "melds": ["3D 4D 5D 6D"],
                            "hands": [""],
                            "went_out": True,
                        },
                        {"players": ids[1:3], "melds": ["KS KD KH"], "hands": ["9C", ""]},
                        {"players": ids[3:], "melds": [], "hands": ["QH", "2C"]},
                    ],
                },
            ),
            accepted_reason="No biribaki in this house.",
        )
        matches.create_match(
            club, scorer, "wikipedia", "2p", [TeamSpec("Ann", (ids[0],)), TeamSpec("Bo", (ids[1],))]
        )


def dump(engine: sa.Engine) -> Rows:
    meta = sa.MetaData()
    meta.reflect(engine)
    with engine.connect() as connection:
        return {
            table.name: [
                dict(row._mapping)
                for row in connection.execute(sa.select(table).order_by(*table.primary_key))
            ]
            for table in meta.sorted_tables
            if table.name != "alembic_version"
        }


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Rows, dict[int, Any]]:
    """The rows of a filled head database, and how the app reads each of its matches."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sample') / 'head.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
    fill(app)
    with app.app_context():
        rows = dump(db.engine)
        shown = {m.id: matches.match_json(m) for m in db.session.scalars(sa.select(Match))}
        db.session.remove()
        db.engine.dispose()
    return rows, shown


@pytest.fixture
def target(database_url: str) -> Iterator[Flask]:
    """An app on an empty database (it never upgrades by itself: TESTING)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        wipe(db.engine)
    yield app
    with app.app_context():
        db.session.remove()
        wipe(db.engine)
        db.engine.dispose()


def wipe(engine: sa.Engine) -> None:
    meta = sa.MetaData()
    meta.reflect(engine)
    meta.drop_all(engine)


def upgrade(app: Flask, *revision: str) -> None:
    """What an administrator runs: flask --app scorekeeper db upgrade [REVISION]."""
    result = app.test_cli_runner().invoke(args=["db", "upgrade", *revision])
    assert result.exit_code == 0, result.output + repr(result.exception)


def without_times(data: Any) -> Any:
    """The app's reading of the matches without the hands' update times: those were compared
    as stored above, and PostgreSQL reads back with a time zone what SQLite gave without."""
    if isinstance(data, dict):
        return {k: without_times(v) for k, v in data.items() if k != "updated_at"}
    if isinstance(data, list):
        return [without_times(v) for v in data]
    return data


def write_rows(engine: sa.Engine, rows: Rows) -> int:
    """Write `rows` into the tables the database has now, only into columns it has now."""
    meta = sa.MetaData()
    meta.reflect(engine)
    written = 0
    with engine.begin() as connection:
        for table in meta.sorted_tables:
            columns = set(table.columns.keys())
            batch = [
                {k: v for k, v in row.items() if k in columns} for row in rows.get(table.name, [])
            ]
            if batch:
                connection.execute(table.insert(), batch)
                written += len(batch)
        if engine.dialect.name == "postgresql":
            # Ids were written as they were; the sequences must go on after them.
            for table in meta.sorted_tables:
                if "id" in table.columns and rows.get(table.name):
                    connection.execute(
                        sa.text(
                            f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                            f'(SELECT max(id) FROM "{table.name}"))'
                        )
                    )
    return written


def test_every_earlier_revision_is_walked() -> None:
    revisions = earlier_revisions()
    assert revisions[0] == "0001"
    files = [p for p in (MIGRATIONS / "versions").glob("*.py")]
    assert len(revisions) == len(files) - 1


@pytest.mark.parametrize("revision", earlier_revisions())
def test_upgrade_from_an_earlier_revision_keeps_every_value(
    target: Flask, sample: tuple[Rows, dict[int, Any]], revision: str
) -> None:
    rows, shown = sample
    upgrade(target, revision)
    with target.app_context():
        assert write_rows(db.engine, rows) > 0
        before = dump(db.engine)
    assert all(before[name] for name in ("user", "club", "match", "hand", "hand_version"))

    upgrade(target)

    with target.app_context():
        after = dump(db.engine)
        for name, old_rows in before.items():
            kept = [{k: row[k] for k in old_rows[0]} for row in after[name]] if old_rows else []
            assert kept == old_rows, f"table {name} changed in the upgrade from {revision}"
        read = {m.id: matches.match_json(m) for m in db.session.scalars(sa.select(Match))}
        assert without_times(read) == without_times(shown)
        # The upgraded database takes new hands: its keys, sequences and constraints work.
        match = db.session.get(Match, min(shown))
        user = db.session.scalar(sa.select(User).where(User.username == "olga"))
        assert match is not None and user is not None
        hand, created = matches.record_hand(
            match, user, typed(match, REFERENCE_HAND), idempotency_key="after-upgrade"
        )
        assert created and hand.number == 4  # after hands 1–3, though 3 was deleted
        again, created = matches.record_hand(
            match, user, typed(match, REFERENCE_HAND), idempotency_key="tap-1"
        )
        assert not created and again.number == 1


def test_workers_upgrading_a_fresh_database_at_once_all_succeed(database_url: str) -> None:
    """Every gunicorn worker upgrades as it starts; on a fresh database they must not race."""
    target = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    with target.app_context():
        wipe(db.engine)
        db.engine.dispose()
    env = os.environ | {"SCOREKEEPER_DATABASE_URL": database_url}
    command = [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"]
    runs = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=120)[0].decode() for run in runs]
    try:
        assert [run.returncode for run in runs] == [0] * 4, "\n".join(outputs)
        with target.app_context():
            tables = set(sa.inspect(db.engine).get_table_names())
            assert {"user", "club", "match", "hand", "hand_version", "alembic_version"} <= tables
            heads = db.session.scalars(sa.text("SELECT version_num FROM alembic_version")).all()
            assert heads == [ScriptDirectory(str(MIGRATIONS)).get_current_head()]
    finally:
        with target.app_context():
            db.session.remove()
            wipe(db.engine)
            db.engine.dispose()
