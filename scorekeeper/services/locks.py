"""One writer at a time per match.

A hand's score depends on the totals before it (opening needs, the target), and a correction
rescores every later hand. Two requests writing hands of one match at once, each from what it
read before the other committed, could store a hand scored against totals that are no longer
true, or both pick the same next number. So every hand write locks its match and trusts only
what holds under the lock: an edit or a deletion reads the hands after taking it; a new hand
is scored before (other matches' saves go on meanwhile) and kept only if the match's hands
still bear the same marks under the lock, else scored again there.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Hand, Match

#: What a match's hands were when something was computed from them: (number, version,
#: deleted) of each. Every change to an entry raises its hand's version, and every result
#: follows from the entries, so equal marks mean equal hands.
Mark = tuple[tuple[int, int, bool], ...]


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
        db.session.execute(sa.select(model.id).where(model.id == row_id).with_for_update())
    db.session.expire_all()


def lock_match(match: Match) -> None:
    """Hold `match` for this transaction: what was read before the lock is either read anew
    or checked against `written_now`."""
    lock_row(Match, match.id, Match.first_dealer)


def written(match: Match) -> Mark:
    """The mark of the hands as this session has loaded them (what a computation used)."""
    return tuple((h.number, h.version, h.deleted) for h in sorted(match.hands, key=_number))


def written_now(match: Match) -> Mark:
    """The mark of the hands as stored now; under `lock_match`, as they stay until commit."""
    rows = db.session.execute(
        sa.select(Hand.number, Hand.version, Hand.deleted)
        .where(Hand.match_id == match.id)
        .order_by(Hand.number)
    )
    return tuple((number, version, bool(deleted)) for number, version, deleted in rows)


def _number(hand: Hand) -> int:
    return hand.number
