"""Which of a club's matches count in its leaderboard and ratings: all of them but the tables
of a tournament set up with `counts_in_season` off (tournaments.md §6: a setting, on by
default). Such a table is still a match of the club, listed and shown as any other; it only
adds nothing to the players' totals and ratings.

The choice is read where the sums are made (records.stats' totals, records.rating_history's
replay, the leaderboard's season query), so every view of them agrees. A tournament's
setting is fixed when it is set up and its tables get their matches when a round is drawn,
before any hand: a match's standing never changes after it was counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match, Tournament, TournamentRound, TournamentTable

#: Set while a migration older than 0012 runs today's `stats.rebuild`: its database has no
#: tournament tables yet, so every match counts.
_BEFORE_TOURNAMENTS: ContextVar[bool] = ContextVar("before_tournaments", default=False)


@contextmanager
def before_tournaments() -> Iterator[None]:
    """Count every match, reading no tournament table (migration 0007's fill: 0012 makes
    them)."""
    token = _BEFORE_TOURNAMENTS.set(True)
    try:
        yield
    finally:
        _BEFORE_TOURNAMENTS.reset(token)


def uncounted_ids() -> sa.Select[Any]:
    """The ids of the matches left out of the sums: the tables of tournaments that do not
    count in the season. (Never a NULL: `x NOT IN` a list holding one is never true.)"""
    table = TournamentTable
    return (
        sa.select(table.match_id)
        .join(TournamentRound, TournamentRound.id == table.round_id)
        .join(Tournament, Tournament.id == TournamentRound.tournament_id)
        .where(Tournament.counts_in_season.is_(False), table.match_id.is_not(None))
    )


def counts(match_id: Any) -> sa.ColumnElement[bool]:
    """Whether the match `match_id` (a column) counts in the leaderboard and ratings."""
    if _BEFORE_TOURNAMENTS.get():
        return sa.true()
    return sa.not_(match_id.in_(uncounted_ids()))


def left_out(match_ids: Iterable[int]) -> set[int]:
    """Of `match_ids`, those that do not count: one query for all of them."""
    ids = list(match_ids)
    if not ids or _BEFORE_TOURNAMENTS.get():
        return set()
    return set(db.session.scalars(uncounted_ids().where(TournamentTable.match_id.in_(ids))))


def counted_matches(matches: Iterable[Match]) -> list[Match]:
    """Of `matches`, in their order, those that count: one query for all of them."""
    everything = list(matches)
    out = left_out(m.id for m in everything)
    return [m for m in everything if m.id not in out]
