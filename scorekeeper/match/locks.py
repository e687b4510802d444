"""One writer at a time per match.

A hand's score depends on the totals before it (opening needs, the target), and a correction
rescores every later hand. Two requests writing hands of one match at once, each from what it
read before the other committed, could store a hand scored against totals that are no longer
true, or both pick the same next number. So every hand write locks its match and trusts only
what holds under the lock: an edit or a deletion reads the hands after taking it; a new hand
is scored before (other matches' saves go on meanwhile) and kept only if the match's stored
progress (match.progress: every hand write moves it) is the same under the lock, else
scored again there. (A save nobody raced takes the lock with progress.move_on, the UPDATE
that moves the progress on only if it is still the one the hand was scored from.)
"""

from __future__ import annotations

import functools
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match, table_of


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


def lock_match(match: Match) -> None:
    """Hold `match` for this transaction: what was read before the lock is either read anew
    or, for a new hand, checked against the progress it was scored from."""
    lock_row(Match, match.id, Match.first_dealer)


def hold_match(match: Match) -> Any:
    """Hold `match` for this transaction and return its progress as stored under the lock
    (see `hold_row`): a new hand scored from the same progress is still right."""
    return hold_row(Match, match.id, Match.first_dealer, Match.progress)
