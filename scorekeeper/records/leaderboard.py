"""The season leaderboard from the derived tables (records.stats): one grouped query for
the players' sums and one for their ratings, however many hands the club has played.

A match belongs to the season the owner placed it in, else to the season whose days hold
its first live hand (`played_at`, in UTC, as records.seasons.season_of decides).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    Match,
    Player,
    PlayerMatchStat,
    PlayerRating,
    PlayerTotal,
    RatingStep,
    Season,
)
from scorekeeper.numbers import whole_number
from scorekeeper.records.counted import counts
from scorekeeper.records.rating_history import TREND_MATCHES
from scorekeeper.records.seasons import season_in, season_on, seasons_of
from scorekeeper.records.standings import DEFAULT_SORT, SORTS, PlayerRow, rank_rows
from scorekeeper.records.stats import SUMMED, TOTALS, unscaled
from scorekeeper.web.gettext import gettext as _

#: The most matches a club may ask of a player before ranking them.
MAX_MINIMUM = 1000
ALL = "all"


@dataclasses.dataclass(frozen=True)
class Board:
    """A leaderboard as asked for: its season, order, and the players (ranked ones first)."""

    club: Club
    season: Season | None  # None: all time
    sort: str
    descending: bool
    rows: list[PlayerRow]

    @property
    def ranked(self) -> list[PlayerRow]:
        return [r for r in self.rows if r.ranked]

    @property
    def unranked(self) -> list[PlayerRow]:
        return [r for r in self.rows if not r.ranked]

    def json(self) -> dict[str, Any]:
        return {
            "season": season_json(self.season),
            "min_matches": self.club.min_matches_ranked,
            "sort": self.sort,
            "dir": "desc" if self.descending else "asc",
            "players": [row.json() for row in self.rows],
        }


def board(
    club: Club, season: str | None = None, sort: str | None = None, direction: str | None = None
) -> Board:
    """The leaderboard for the request's words: `season` an id, "all" or nothing (the
    season running today, else all time); `sort` a column of standings.SORTS; `direction`
    "asc" or "desc" (by default names go up and numbers down). Invalid names what is wrong."""
    chosen = pick_season(club, season)
    sort = sort or DEFAULT_SORT
    if sort not in SORTS:
        raise Invalid(
            _(
                "%(sort)s is not a column of the leaderboard; sort by one of %(known)s.",
                sort=sort,
                known=", ".join(SORTS),
            )
        )
    if direction not in (None, "", "asc", "desc"):
        raise Invalid(
            _("%(dir)s is not a sort direction; use asc or desc.", dir=str(direction)[:40])
        )
    descending = direction == "desc" if direction else sort != "name"
    return Board(club, chosen, sort, descending, ranked(club, chosen, sort, descending))


def ranked(
    club: Club, season: Season | None, sort: str = DEFAULT_SORT, descending: bool = True
) -> list[PlayerRow]:
    """The club's leaderboard rows for `season` (None: all time), with each player's stored
    rating, ranked and sorted by standings.rank_rows."""
    return rank_rows(stored_rows(club, season), club.min_matches_ranked, sort, descending)


def pick_season(club: Club, raw: str | None) -> Season | None:
    """The season a request names: an id of the club's, "all" (None), or nothing (the
    season whose days hold today, else all time)."""
    if raw is None or raw == "":
        return season_on(seasons_of(club), datetime.now(UTC).date())
    if raw == ALL:
        return None
    try:
        return season_in(club, whole_number(raw) if whole_number(raw) is not None else raw)
    except NotFound:
        raise Invalid(
            _(
                "This club has no season %(season)s; choose one of its seasons, or all.",
                season=raw[:40],
            )
        ) from None


def season_json(season: Season | None) -> dict[str, Any]:
    if season is None:
        return {"id": ALL, "name": None, "starts_on": None, "ends_on": None}
    return {
        "id": season.id,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
    }


def set_minimum(club: Club, count: object) -> None:
    """The club's minimum of finished matches in a season for a player to be ranked."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_MINIMUM:
        raise Invalid(
            _(
                "The minimum of matches must be a whole number from 0 to %(most)d.",
                most=MAX_MINIMUM,
            )
        )
    club.min_matches_ranked = count
    db.session.commit()


def in_season(season: Season, played_at: Any, season_id: Any) -> sa.ColumnElement[bool]:
    """Whether a match is in `season`: placed there, or unplaced and first played in its
    days (UTC, both days included)."""
    start, end = _days(season)
    return sa.or_(
        season_id == season.id,
        sa.and_(season_id.is_(None), played_at >= start, played_at < end),
    )


def season_part(table: Any, columns: list[Any], season: Season, *where: Any) -> sa.Subquery:
    """`columns` of the rows of `table` (a derived table with match_id, club_id and
    played_at) whose match is in `season`. Two index ranges, not one OR: the season's days
    (of unplaced matches), and the matches placed in it."""
    start, end = _days(season)
    # The few matches placed by hand, read by the season index; a join with every match of
    # the range would read the wide match table.
    placed_anywhere = sa.select(Match.id).where(Match.season_id.is_not(None))
    by_days = sa.select(*columns).where(
        table.club_id == season.club_id,
        table.played_at >= start,
        table.played_at < end,
        table.match_id.not_in(placed_anywhere),
        *where,
    )
    placed = (
        sa.select(*columns)
        .join(Match, Match.id == table.match_id)
        .where(Match.season_id == season.id, *where)
    )
    return sa.union_all(by_days, placed).subquery()


def _days(season: Season) -> tuple[datetime, datetime]:
    start = datetime.combine(season.starts_on, time(), UTC)
    if season.ends_on == date.max:  # a season "for ever": there is no day after it
        return start, datetime.max.replace(tzinfo=UTC)
    return start, datetime.combine(season.ends_on + timedelta(days=1), time(), UTC)


def stored_rows(club: Club, season: Season | None) -> list[PlayerRow]:
    """Every player's sums over the club's finished matches in `season` (None: all time)
    that count (records.counted), with their stored rating there; unsorted and unranked."""
    if season is None:
        total = PlayerTotal
        query: sa.Select[Any] = sa.select(
            total.player_id, *(getattr(total, name) for name in TOTALS)
        ).where(total.club_id == club.id)
    else:
        stat = PlayerMatchStat
        part = season_part(
            stat,
            [stat.player_id, stat.won, *(getattr(stat, name) for name in SUMMED)],
            season,
            stat.finished.is_(True),
            counts(stat.match_id),
        )
        query = sa.select(
            part.c.player_id,
            sa.func.count(),
            sa.func.sum(sa.case((part.c.won.is_(True), 1), else_=0)),
            *(sa.func.sum(part.c[name]) for name in SUMMED),
        ).group_by(part.c.player_id)
    names = {
        pid: name
        for pid, name in db.session.execute(
            sa.select(Player.id, Player.name).where(Player.club_id == club.id)
        )
    }
    rows = []
    for pid, *sums in db.session.execute(query):
        line: dict[str, Any] = dict(zip(TOTALS, map(int, sums), strict=True))
        line["points"] = unscaled(line["points"])
        rows.append(PlayerRow(player_id=pid, name=names[pid], **line))
    rated = stored_ratings(club, season)
    for row in rows:
        if row.player_id in rated:
            row.rating, row.rating_sigma, row.rating_trend = rated[row.player_id]
    return rows


def stored_ratings(club: Club, season: Season | None) -> dict[int, tuple[float, float, float]]:
    """By player: the conservative rating (mu − 3 sigma) after their last finished match in
    `season` (None: their last of all), its sigma, and how far it moved over their last
    TREND_MATCHES matches there."""
    if season is None:
        rating = PlayerRating
        return {
            pid: (mu - 3 * sigma, sigma, trend)
            for pid, mu, sigma, trend in db.session.execute(
                sa.select(rating.player_id, rating.mu, rating.sigma, rating.trend).where(
                    rating.club_id == club.id
                )
            )
        }
    step = RatingStep
    part = season_part(
        step,
        [step.player_id, step.seq, step.mu, step.sigma, step.mu_before, step.sigma_before],
        season,
    )
    # A season holds a few thousand steps at most; picking each player's last ones here
    # costs less than asking the database to join them back.
    history: dict[int, list[tuple[int, float, float, float, float]]] = {}
    for pid, *step_values in db.session.execute(sa.select(part).order_by(part.c.seq)):
        history.setdefault(pid, []).append(tuple(step_values))
    rated = {}
    for pid, steps in history.items():
        last = steps[-1]
        first = next(s for s in steps if s[0] > last[0] - TREND_MATCHES)
        ordinal = last[1] - 3 * last[2]
        rated[pid] = (ordinal, last[2], ordinal - (first[3] - 3 * first[4]))
    return rated
