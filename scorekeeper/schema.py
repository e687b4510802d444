"""Making sure a database has its tables before a command writes to it, and that only one
process at a time migrates it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from flask import current_app

from scorekeeper.extensions import db


def ensure_schema() -> None:
    """Give a fresh database its tables. Start-up has normally migrated it already; where it
    has not (AUTO_UPGRADE off), the migrations run here, so later upgrades find the database
    stamped. A test app builds its own schema (as in the factory), so it gets create_all."""
    if sa.inspect(db.engine).has_table("user"):
        return
    if current_app.testing:
        db.create_all()
    else:
        from flask_migrate import upgrade

        upgrade()


#: The PostgreSQL advisory lock key held while migrating (any fixed number; "SKMG").
MIGRATION_LOCK = 0x534B4D47


@contextmanager
def one_migrator(connection: sa.Connection) -> Iterator[None]:
    """Let one process at a time migrate the database (migrations/env.py).

    Every gunicorn worker upgrades the database as it starts, all at the same moment; without
    this, two of them create the same table and the loser's worker fails to boot. PostgreSQL
    serves every machine one advisory lock; a SQLite file is only ever on one machine, so a
    lock file beside it does.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        # The lock belongs to the session; Alembic must begin (and commit) its own transaction.
        connection.commit()
        try:
            yield
        finally:
            connection.rollback()
            connection.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
        return
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    import fcntl  # POSIX only, like gunicorn itself

    with open(f"{database}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield
