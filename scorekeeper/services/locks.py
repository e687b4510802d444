"""One writer at a time per match.

A hand's score depends on the totals before it (opening needs, the target), and a correction
rescores every later hand. Two requests writing hands of one match at once, each from what it
read before the other committed, could store a hand scored against totals that are no longer
true, or both pick the same next number. So every hand write locks its match and trusts only
what holds under the lock: an edit or a deletion reads the hands after taking it; a new hand
is scored before (other matches' saves go on meanwhile) and kept only if the match's stored
progress (services.progress: every hand write moves it) is the same under the lock, else
scored again there.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match


def lock_row(model: Any, row_id: int, same: Any) -> None:
    """Hold row `row_id` of `model` for this transaction; other writers that lock it wait
    until it ends. `same` is a column rewritten with its own value on SQLite (never the key).

    Afterwards every object in the session is read again, since what was read before the
    lock may be stale.
    """
    db.session.flush()  # nothing pending may be lost by the expiry below
    if db.session.get_bind().dialect.name == "sqlite":
        # SQLite has no row locks; a write takes the database's write lock until commit (and
        # waits for it up to the busy timeout, see extensions.py). A write that changes nothing
        # takes it now, before the reads, so they see every write committed before ours.
        # (Not the key column: rewriting a parent key would make SQLite check child tables.)
        db.session.execute(
            sa.update(model)
            .where(model.id == row_id)
            .values({same: same})
            .execution_options(synchronize_session=False)
        )
    else:
        # FOR NO KEY UPDATE: writers of the row still queue one at a time, but a row that
        # only refers to it (a hand, a stat row, a live drawing a viewer keeps) is inserted
        # without waiting for the writer's commit, as FOR UPDATE would make it.
        db.session.execute(
            sa.select(model.id).where(model.id == row_id).with_for_update(key_share=True)
        )
    db.session.expire_all()


def lock_match(match: Match) -> None:
    """Hold `match` for this transaction: what was read before the lock is either read anew
    or, for a new hand, checked against the progress it was scored from."""
    lock_row(Match, match.id, Match.first_dealer)
