"""The test databases: one app and schema per database kind per test process, emptied after
each test that wrote, and a fresh empty database for tests that build their own app.

Used by tests/conftest.py. Under pytest-xdist each worker gets PostgreSQL databases of its
own, named after SCOREKEEPER_TEST_DATABASE_URL's with the worker's id appended
(``test_gw0``), made when missing; SQLite files live in each worker's temporary folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import psycopg
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url

from scorekeeper import create_app
from scorekeeper.extensions import db

#: What every test app runs with. Passwords are hashed with one round of PBKDF2: scrypt's
#: tenth of a second (more on a busy machine) per hash is most of a test's time otherwise.
#: Tests of the production hash set PASSWORD_HASH_METHOD back to None themselves.
TEST_CONFIG: Mapping[str, Any] = {
    "TESTING": True,
    "SECRET_KEY": "test",
    # Form tests post without a token; CSRF itself is Flask-WTF's to test (tests/security
    # switches it on).
    "WTF_CSRF_ENABLED": False,
    "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
}

#: Statements that only read; anything else on a shared database marks it for emptying.
_READS = ("SELECT", "PRAGMA", "SHOW")
#: The databases (file paths or PostgreSQL names) of the shared apps, and which were written.
_SHARED: set[str] = set()
_WRITTEN: set[str] = set()


@event.listens_for(Engine, "before_cursor_execute")
def _note_writes(
    conn: Connection, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any
) -> None:
    # Every engine, not only the shared app's: a test may reach the shared database through
    # an app or engine of its own.
    if _SHARED and not statement.lstrip()[:6].upper().startswith(_READS):
        name = conn.engine.url.database
        if name in _SHARED:
            _WRITTEN.add(name)


def postgresql_url(base: str, suffix: str) -> str:
    """`base` with `suffix` appended to its database name; the database is made if missing."""
    url = make_url(base)
    name = f"{url.database}{suffix}"
    ensure_postgresql_database(url, name)
    return url.set(database=name).render_as_string(hide_password=False)


def ensure_postgresql_database(url: URL, name: str) -> None:
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]


def wipe_postgresql(url: str) -> None:
    """Drop everything a crashed earlier run may have left, so the schema is today's."""
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute("DROP SCHEMA public CASCADE")
        connection.execute("CREATE SCHEMA public")


def new_app(url: str, **config: Any) -> Flask:
    """A test app on `url` with its schema made (`create_all`, as tests always did)."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url, **config})
    with app.app_context():
        db.create_all()
    return app


def drop(app: Flask) -> None:
    with app.app_context():
        # An open session holds a transaction, and PostgreSQL's DROP would wait on it forever.
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


class SharedApp:
    """One app and schema on one database for a whole test process, and how to put it back
    as it was after a test: its rows deleted (ids start at 1 again), its config restored,
    its login-limit counts forgotten."""

    def __init__(self, url: str, schema: bool = True) -> None:
        """`schema=False`: an app without a database for tests that never touch one (an
        in-memory SQLite database without tables: a query fails with "no such table")."""
        self.app = (
            new_app(url) if schema else create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
        )
        self.config = dict(self.app.config)
        self.rules = len(list(self.app.url_map.iter_rules()))
        self.database = make_url(self.app.config["SQLALCHEMY_DATABASE_URI"]).database or ""
        self.schema = schema
        with self.app.app_context():
            self.dialect = db.engine.dialect.name
            db.session.remove()
        if schema:
            _SHARED.add(self.database)

    def reset(self) -> None:
        app = self.app
        app.config.clear()
        app.config.update(self.config)
        limiter = app.extensions.get("scorekeeper_limiter")
        if limiter is not None and str(self.config["RATELIMIT_STORAGE_URI"]).startswith("memory"):
            limiter.reset()
        assert len(list(app.url_map.iter_rules())) == self.rules, (
            "a test added routes to the shared app: mark it @pytest.mark.fresh_app"
        )
        with app.app_context():
            db.session.remove()
            if self.database in _WRITTEN:
                self._empty()
                _WRITTEN.discard(self.database)

    def _empty(self) -> None:
        with db.engine.begin() as connection:
            if self.dialect == "postgresql":
                # TRUNCATE, not DELETE: fresh tables, so rows come back in the order they
                # were written, as on the new schema each test used to get. A connection
                # left in a transaction (a server thread) would block it: fail instead.
                names = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
                connection.execute(sa.text("SET LOCAL lock_timeout = '30s'"))
                connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
                return
            for table in reversed(db.metadata.sorted_tables):
                connection.execute(table.delete())
        # SQLite hands out max(id) + 1, so empty tables start again at 1 by themselves.

    def close(self) -> None:
        _SHARED.discard(self.database)
        if self.schema:
            drop(self.app)
