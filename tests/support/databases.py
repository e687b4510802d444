"""The test databases: one app and schema per database kind per test process, emptied after
each test that wrote, and a fresh empty database for tests that build their own app.

Used by tests/conftest.py. Under pytest-xdist each worker gets PostgreSQL databases of its
own, named after SCOREKEEPER_TEST_DATABASE_URL's with the worker's id appended
(``test_gw0``), made when missing; SQLite files live in each worker's temporary folder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url

from scorekeeper import create_app
from scorekeeper.extensions import db

World = TypeVar("World")

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


#: How many statements other than reads every engine has sent so far (`writes`).
_WRITES = 0


@event.listens_for(Engine, "before_cursor_execute")
def _note_writes(
    conn: Connection, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any
) -> None:
    # Every engine, not only the shared app's: a test may reach the shared database through
    # an app or engine of its own.
    if not statement.lstrip()[:6].upper().startswith(_READS):
        global _WRITES
        _WRITES += 1
        if _SHARED:
            name = conn.engine.url.database
            if name in _SHARED:
                _WRITTEN.add(name)


def writes() -> int:
    """How many statements other than SELECT (PRAGMA, SHOW) any engine of this process has
    sent: when the count has not moved over a request, no row can have changed, and a test
    may keep its snapshot of every table instead of reading them all again. Anything else
    counts (SAVEPOINT, SET, a write rolled back), so a moved count says only "look again"."""
    return _WRITES


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


@contextmanager
def file_app(folder: Path) -> Iterator[Flask]:
    """An app of a test module's own on a SQLite file in `folder`, with CSRF on as a browser
    meets it: for pages a service worker keeps across the module's tests, which the shared
    app (emptied after each test) cannot serve. Its connections are closed at the end."""
    app = new_app(f"sqlite:///{folder / 'app.sqlite'}", WTF_CSRF_ENABLED=True)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


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
            if schema and self.dialect == "postgresql":
                # Emptied with DELETE (`_empty`): no vacuum may hand the deleted rows'
                # space to new rows, which would then come back before older ones.
                with db.engine.begin() as connection:
                    for table in db.metadata.sorted_tables:
                        connection.execute(
                            sa.text(f'ALTER TABLE "{table.name}" SET (autovacuum_enabled = off)')
                        )
        if schema:
            _SHARED.add(self.database)
        # The world kept on the database for the tests that only read it (`keep`): its
        # builder, or None when the database holds no kept world.
        self.kept: Callable[[Flask], Any] | None = None
        # What each builder returned the first time, and every row it left, to lay the
        # same world again with one INSERT per table instead of all its service calls.
        self.worlds: dict[Callable[[Flask], Any], tuple[Any, list[tuple[sa.Table, Any]]]] = {}

    def keep(self, build: Callable[[Flask], World]) -> World:
        """The world `build` makes, laid once and kept for the next tests that ask for the
        same builder, as long as none of them writes: after a test that writes, `reset`
        empties the database and the next test gets the world laid anew, so every test
        starts from the world exactly as built. Ask for it before writing anything."""
        assert self.database not in _WRITTEN, (
            "the test wrote before asking for its kept world: ask for the world first"
        )
        if self.kept is build:
            world: World = self.worlds[build][0]
            return world
        return self.rebuild(build)

    def rebuild(self, build: Callable[[Flask], World]) -> World:
        """The database emptied and `build`'s world laid on it again, and kept (see `keep`).
        The first time `build` runs; after that its rows are put back as they were (same
        ids, same times), which is the same world for a fraction of the cost."""
        with self.app.app_context():
            db.session.remove()
            if self.kept is not None or self.database in _WRITTEN:
                self._empty()
            self.kept = None
            if build in self.worlds:
                self._lay(self.worlds[build][1])
            else:
                db.session.remove()
                world = build(self.app)
                db.session.remove()
                self.worlds[build] = (world, self._rows())
        self.kept = build
        _WRITTEN.discard(self.database)  # the world's rows are not the test's writes
        kept: World = self.worlds[build][0]
        return kept

    def forget_world(self) -> None:
        """Empty the database of a kept world before a test that does not ask for it."""
        if self.kept is not None:
            with self.app.app_context():
                db.session.remove()
                self._empty()
            self.kept = None
            _WRITTEN.discard(self.database)

    def _rows(self) -> list[tuple[sa.Table, Sequence[Any]]]:
        with db.engine.connect() as connection:
            return [
                (table, [dict(row) for row in connection.execute(sa.select(table)).mappings()])
                for table in db.metadata.sorted_tables
            ]

    def _lay(self, tables: list[tuple[sa.Table, Sequence[Any]]]) -> None:
        with db.engine.begin() as connection:
            numbered = []
            for table, rows in tables:
                if not rows:
                    continue
                connection.execute(table.insert(), rows)
                if self.dialect == "postgresql" and "id" in table.c:
                    numbered.append(table.name)
            if numbered:
                # Ids were given, so the sequences did not move: each on to its table's
                # largest, all in one round trip.
                connection.execute(
                    sa.text(
                        "SELECT "
                        + ", ".join(
                            f"setval(pg_get_serial_sequence('\"{name}\"', 'id'), "
                            f'(SELECT max(id) FROM "{name}"))'
                            for name in numbered
                        )
                    )
                )

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
                self.kept = None
                _WRITTEN.discard(self.database)

    def _empty(self) -> None:
        with db.engine.begin() as connection:
            if self.dialect != "postgresql":
                for table in reversed(db.metadata.sorted_tables):
                    connection.execute(table.delete())
                # SQLite hands out max(id) + 1: empty tables start again at 1 by themselves.
                return
            # DELETE, not TRUNCATE, which makes new files for every table: 10 ms against
            # 200-300 ms a test. Ids start at 1 again. Rows still come back in the order they
            # were written (as on the fresh tables each test used to get): with autovacuum
            # off on these tables (see __init__), the space of deleted rows is never handed
            # out again, so new rows always go after the old ones.
            # All of it in one round trip (about 50 statements took 20 ms a test): a
            # connection left in a transaction (a server thread) would block the DELETE, so
            # fail instead of waiting for ever; then every table, then every sequence.
            connection.exec_driver_sql(
                "; ".join(
                    [
                        "SET LOCAL lock_timeout = '30s'",
                        *(f'DELETE FROM "{t.name}"' for t in reversed(db.metadata.sorted_tables)),
                        "DO $$ DECLARE s text; BEGIN"
                        " FOR s IN SELECT relname FROM pg_class WHERE relkind = 'S' LOOP"
                        " EXECUTE 'ALTER SEQUENCE ' || quote_ident(s) || ' RESTART';"
                        " END LOOP; END $$",
                    ]
                )
            )

    def close(self) -> None:
        _SHARED.discard(self.database)
        if self.schema:
            drop(self.app)
