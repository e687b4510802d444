"""Holding one row for the rest of a transaction, the same way on SQLite and PostgreSQL:
writers of that row then go one at a time (a match's hands: match.locks; a club's members:
clubs.service)."""

from __future__ import annotations

import functools
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import table_of


def lock_row(model: Any, row_id: int, same: Any) -> None:
    """Hold row `row_id` of `model` for this transaction; other writers that lock it wait
    until it ends. `same` is a column rewritten with its own value on SQLite (never the key).

    Afterwards every object in the session is read again, since what was read before the
    lock may be stale.
    """
    hold_row(model, row_id, same)
    db.session.expire_all()


def hold_row(model: Any, row_id: int, same: Any, read: Any = None) -> Any:
    """Hold row `row_id` of `model` as `lock_row` does, and return its column `read` as it
    is under the lock (in the same statement), leaving the session's objects as they are:
    for a caller that can tell from that one value whether what it read before still holds.
    """
    db.session.flush()  # what is pending is written under the lock, as after lock_row
    sqlite = db.session.get_bind().dialect.name == "sqlite"
    statement = _holding(model, same.key, None if read is None else read.key, sqlite)
    return db.session.execute(statement, {"row_id": row_id}).scalar()


@functools.cache
def _holding(model: Any, same: str, read: str | None, sqlite: bool) -> Any:
    """The statement that holds a row of `model` (built once: each hand write runs it)."""
    table = table_of(model)
    key = table.c.id
    column = key if read is None else table.c[read]
    if sqlite:
        # SQLite has no row locks; a write takes the database's write lock until commit (and
        # waits for it up to the busy timeout, see extensions.py). A write that changes nothing
        # takes it now, before the reads, so they see every write committed before ours.
        # (Not the key column: rewriting a parent key would make SQLite check child tables.)
        rewrite = table.c[same]
        return (
            sa.update(table)
            .where(key == sa.bindparam("row_id"))
            .values({rewrite: rewrite})
            .returning(column)
        )
    # FOR NO KEY UPDATE: writers of the row still queue one at a time, but a row that only
    # refers to it (a hand, a stat row, a live drawing a viewer keeps) is inserted without
    # waiting for the writer's commit, as FOR UPDATE would make it.
    return sa.select(column).where(key == sa.bindparam("row_id")).with_for_update(key_share=True)
