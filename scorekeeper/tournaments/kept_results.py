"""Each worker's results of a tournament's closed rounds, by what they follow from.

The big screen is drawn again after every hand of the night, and with it the ranking, which
reads every table of every round: at 30 tables and 8 rounds, reading 240 tables and their
matches was most of a drawing. A closed round's table changes only with a change of its row
or a write of its match's hands, each of which raises the table's version
(models.TournamentTable, tournaments.directing), so their results are kept here under a sum
of those (`mark`), read in one query, and only the open round's tables are read again.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import TournamentTable

T = TypeVar("T")

#: How many tournaments' closed rounds a worker keeps (a club's night has one or two).
KEPT = 32
_kept: OrderedDict[tuple[Any, ...], Mapping[int, Any]] = OrderedDict()
_lock = threading.Lock()


def mark(round_ids: Sequence[int]) -> str:
    """What the results of these rounds' tables follow from: their tables' rows (whose
    versions follow their matches' hands), as a few sums."""
    row = db.session.execute(_mark_query(), {"rounds": list(round_ids)}).one()
    return "-".join(str(value) for value in row)


def kept(key: tuple[Any, ...]) -> Mapping[int, Any] | None:
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
        return found


def keep(key: tuple[Any, ...], results: Mapping[int, T]) -> None:
    with _lock:
        _kept[key] = dict(results)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


@functools.cache
def _mark_query() -> sa.Select[int, int, int, int]:
    """Built once: building and keying a statement cost more than running it."""
    return sa.select(
        sa.func.count(TournamentTable.id),
        sa.func.coalesce(sa.func.sum(TournamentTable.id), 0),
        sa.func.coalesce(sa.func.sum(TournamentTable.version), 0),
        sa.func.count(TournamentTable.match_id),
    ).where(TournamentTable.round_id.in_(sa.bindparam("rounds", expanding=True)))
