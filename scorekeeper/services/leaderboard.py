"""The season leaderboard from the derived tables (services.stats): one grouped query for
the players' sums and one for their ratings, however many hands the club has played.

A match belongs to the season the owner placed it in, else to the season whose days hold
its first live hand (`played_at`, in UTC, as services.seasons.season_of decides).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, Player, PlayerMatchStat, RatingStep, Season
from scorekeeper.services.errors import Invalid, NotFound
from scorekeeper.services.seasons import season_in, seasons_of
from scorekeeper.services.standings import DEFAULT_SORT, SORTS, PlayerRow, rank_rows
from scorekeeper.services.stats import unscaled

#: The trend of a rating: how far it moved over the player's last this many matches.
TREND_MATCHES = 5
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
    rows = rank_rows(stored_rows(club, chosen), club.min_matches_ranked, sort, descending)
    return Board(club, chosen, sort, descending, rows)


def pick_season(club: Club, raw: str | None) -> Season | None:
    """The season a request names: an id of the club's, "all" (None), or nothing (the
    season whose days hold today, else all time)."""
    if raw is None or raw == "":
        return season_on(club, datetime.now(UTC).date())
    if raw == ALL:
        return None
    try:
        return season_in(club, int(raw) if raw.isdigit() and len(raw) < 12 else raw)
    except NotFound:
        raise Invalid(
            _(
                "This club has no season %(season)s; choose one of its seasons, or all.",
                season=raw[:40],
            )
        ) from None


def season_on(club: Club, day: date) -> Season | None:
    return next((s for s in seasons_of(club) if s.starts_on <= day <= s.ends_on), None)


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
    start = datetime.combine(season.starts_on, time(), UTC)
    end = datetime.combine(season.ends_on + timedelta(days=1), time(), UTC)
    return sa.or_(
        season_id == season.id,
        sa.and_(season_id.is_(None), played_at >= start, played_at < end),
    )


def stored_rows(club: Club, season: Season | None) -> list[PlayerRow]:
    """Every player's sums over the club's finished matches in `season` (None: all time),
    with their stored rating there; unsorted and unranked."""
    stat = PlayerMatchStat

    def total(column: Any) -> Any:
        return sa.func.coalesce(sa.func.sum(column), 0)

    query = (
        sa.select(
            stat.player_id,
            Player.name,
            sa.func.count(),
            total(sa.case((stat.won.is_(True), 1), else_=0)),
            total(stat.hands),
            total(stat.points),
            total(stat.side_points),
            total(stat.biribas_clean),
            total(stat.biribas_dirty),
            total(stat.full_runs),
            total(stat.went_out),
        )
        .join(Player, Player.id == stat.player_id)
        .where(stat.club_id == club.id, stat.finished.is_(True))
        .group_by(stat.player_id, Player.name)
    )
    if season is not None:
        query = query.join(Match, Match.id == stat.match_id).where(
            in_season(season, stat.played_at, Match.season_id)
        )
    rows = []
    for (
        pid,
        name,
        matches,
        wins,
        hands,
        points,
        side,
        clean,
        dirty,
        full,
        out,
    ) in db.session.execute(query):
        rows.append(
            PlayerRow(
                player_id=pid,
                name=name,
                matches=int(matches),
                wins=int(wins),
                hands=int(hands),
                points=unscaled(points),
                side_points=int(side),
                biribas_clean=int(clean),
                biribas_dirty=int(dirty),
                full_runs=int(full),
                went_out=int(out),
            )
        )
    rated = stored_ratings(club, season)
    for row in rows:
        if row.player_id in rated:
            row.rating, row.rating_sigma, row.rating_trend = rated[row.player_id]
    return rows


def stored_ratings(club: Club, season: Season | None) -> dict[int, tuple[float, float, float]]:
    """By player: the conservative rating (mu − 3 sigma) after their last finished match in
    `season` (None: their last of all), its sigma, and its move over their last
    TREND_MATCHES matches up to there."""
    step = RatingStep
    last_query = (
        sa.select(step.player_id, sa.func.max(step.seq).label("seq"))
        .where(step.club_id == club.id)
        .group_by(step.player_id)
    )
    if season is not None:
        last_query = last_query.join(Match, Match.id == step.match_id).where(
            in_season(season, step.played_at, Match.season_id)
        )
    last = last_query.subquery()
    after, before = aliased(RatingStep), aliased(RatingStep)
    first = sa.case(
        (last.c.seq > TREND_MATCHES, last.c.seq - (TREND_MATCHES - 1)),
        else_=1,
    )
    rows = db.session.execute(
        sa.select(after.player_id, after.mu, after.sigma, before.mu_before, before.sigma_before)
        .join(last, sa.and_(last.c.player_id == after.player_id, last.c.seq == after.seq))
        .join(before, sa.and_(before.player_id == after.player_id, before.seq == first))
    )
    rated = {}
    for pid, mu, sigma, mu_before, sigma_before in rows:
        ordinal = mu - 3 * sigma
        rated[pid] = (ordinal, sigma, ordinal - (mu_before - 3 * sigma_before))
    return rated
