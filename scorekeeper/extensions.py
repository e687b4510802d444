"""Extensions created unbound, so every app from ``create_app`` binds its own."""

import sqlite3
from typing import TYPE_CHECKING, Any

from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

from scorekeeper.web.gettext import lazy_gettext as _l


class Base(DeclarativeBase):
    """Base of every model (SQLAlchemy 2.0 style: ``Mapped[...] = mapped_column(...)``)."""


db = SQLAlchemy(model_class=Base)
if TYPE_CHECKING:
    # db.Model is made at run time (a subclass of Base that names each table after its
    # class), so type checkers cannot see it: to them the models derive from Base itself.
    Model = Base
else:
    Model = db.Model
csrf = CSRFProtect()
login_manager = LoginManager()
migrate = Migrate()
login_manager.login_view = "auth.login"
login_manager.login_message = _l("Please log in to see this page.")


#: How long a SQLite connection waits for another process's write to finish before it gives
#: up with "database is locked". Writes take milliseconds; this only has to outlast a queue of
#: them under load, and stays below gunicorn's 30 s worker timeout.
SQLITE_BUSY_TIMEOUT_MS = 15_000
#: The same for PostgreSQL: how long a statement waits for a row lock (a match being written
#: by another request) before it fails, and the request answers 503 "try again" instead of
#: holding its worker until gunicorn kills it.
POSTGRESQL_LOCK_TIMEOUT_MS = 15_000


@event.listens_for(Engine, "connect")
def _tune_sqlite(dbapi_connection: Any, _connection_record: Any) -> None:
    # Only SQLite connections (any sqlite URL): PostgreSQL has row locks and needs none of it.
    # SQLite leaves foreign keys unchecked unless asked on every connection; WAL lets readers
    # go on while a hand is being written; and with several worker processes a writer must
    # wait its turn for the write lock instead of failing at once. The timeout comes first,
    # so that switching to WAL waits too if another process holds the database.
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()
    elif type(dbapi_connection).__module__.startswith("psycopg"):
        cursor = dbapi_connection.cursor()
        cursor.execute(f"SET lock_timeout = {int(POSTGRESQL_LOCK_TIMEOUT_MS)}")
        cursor.close()
        dbapi_connection.commit()  # a SET is undone with its transaction
