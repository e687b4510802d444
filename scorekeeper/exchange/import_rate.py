"""How many club files one account may send to be imported, and when (issue 18: anyone
registered could import as often as they liked, and three imports at once stalled the
server). Each import sent is a row of `club_import`, in the database every worker and
machine shares, so the limit holds across all of them without Redis; rows older than the
longest window are deleted as new ones come.

The limit is config's IMPORT_LIMIT_PER_ACCOUNT ("5 per 10 minutes; 20 per day").
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app
from limits import RateLimitItem, parse_many

from scorekeeper.errors import ServiceError
from scorekeeper.extensions import db
from scorekeeper.models import ClubImport, User, as_utc, utcnow
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext


class TooSoon(ServiceError):
    """Past the account's import limit: 429, with the seconds until one more is allowed."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _windows() -> list[RateLimitItem]:
    return list(parse_many(current_app.config["IMPORT_LIMIT_PER_ACCOUNT"]))


def start_import(user: User) -> int:
    """Count an import `user` is starting, or refuse it (TooSoon) if their imports in any
    window of the limit are already as many as it allows; returns the counted row's id.

    The row is written (and committed) first and the account's rows counted after it, so
    two imports sent at the same moment cannot both find room for one."""
    windows = _windows()
    now = utcnow()
    longest = max((w.get_expiry() for w in windows), default=0)
    db.session.execute(
        sa.delete(ClubImport).where(
            ClubImport.user_id == user.id,
            ClubImport.started_at < now - timedelta(seconds=longest),
        )
    )
    row = ClubImport(user_id=user.id, started_at=now)
    db.session.add(row)
    db.session.commit()
    attempt = row.id
    times = [
        as_utc(when)
        for when in db.session.scalars(
            sa.select(ClubImport.started_at)
            .where(ClubImport.user_id == user.id, ClubImport.id < attempt)
            .where(ClubImport.started_at >= now - timedelta(seconds=longest))
            .order_by(ClubImport.started_at)
        )
    ]
    wait = max((_wait(times, window, now) for window in windows), default=0)
    if wait > 0:
        # A refused import is not counted: refusals must not push the next allowed one away.
        db.session.execute(sa.delete(ClubImport).where(ClubImport.id == attempt))
        db.session.commit()
        raise TooSoon(_too_soon(wait), wait)
    return attempt


def _wait(times: list[datetime], window: RateLimitItem, now: datetime) -> int:
    """Seconds until one more import fits in `window`, given the earlier imports' `times`
    (oldest first); 0 if one fits now."""
    span = timedelta(seconds=window.get_expiry())
    inside = [when for when in times if when > now - span]
    if len(inside) < window.amount:
        return 0
    # The oldest imports must leave the window until fewer than `amount` are left in it.
    frees = inside[len(inside) - window.amount] + span
    return max(1, math.ceil((frees - now).total_seconds()))


def _too_soon(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        after = ngettext("%(num)d minute", "%(num)d minutes", minutes)
    else:
        after = ngettext("%(num)d hour", "%(num)d hours", math.ceil(minutes / 60))
    return _(
        "You have imported as many club files as an account may for now; try again in %(after)s.",
        after=after,
    )


def mark_club(attempt: int, club_id: int | None) -> None:
    """Note the club the import `attempt` is making (None once it is made), in the caller's
    transaction: a hidden club whose import has stopped is found by it."""
    db.session.execute(
        sa.update(ClubImport).where(ClubImport.id == attempt).values(club_id=club_id)
    )
