"""Lists of matches as the season and player pages show them, read from the derived tables
(records.stats) instead of every stored hand: which matches a season holds, newest first,
and a page of them as records.MatchLine.

A match is listed by the day it was played: its first live hand's (PlayerMatchStat's
`played_at`, in UTC), else the day it was started; then by id. It belongs to the season the
owner placed it in, else to the season whose days hold its first live hand (the rule of
records.seasons.season_of). A match without a live hand has no summary rows: the few of
those on a page are read from the match itself, as records.match_lines reads any match.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, MatchStat, Player, PlayerMatchStat, Season, Seat, as_utc
from scorekeeper.records.leaderboard import season_part
from scorekeeper.records.lines import MatchLine, match_lines
from scorekeeper.records.seasons import season_on
from scorekeeper.records.stats import unscaled


@dataclasses.dataclass(frozen=True, slots=True)
class Listed:
    """A match as a list orders it: when it was first played (None: no live hand yet),
    when it was started, and the owner's choice of season."""

    match_id: int
    played_at: datetime | None
    created_at: datetime
    season_id: int | None

    @property
    def day(self) -> date:
        return (self.played_at or self.created_at).date()


def newest_first(listed: Iterable[Listed]) -> list[Listed]:
    return sorted(listed, key=lambda m: (m.day, m.match_id), reverse=True)


def count_matches(club: Club, season: Season | None) -> int:
    """How many matches the club has in `season` (None: all time)."""
    stat = MatchStat
    if season is None:
        where = Match.club_id == club.id
        return db.session.scalar(sa.select(sa.func.count()).where(where)) or 0
    part = season_part(stat, [stat.match_id], season)
    played = db.session.scalar(sa.select(sa.func.count()).select_from(part)) or 0
    return played + (
        db.session.scalar(
            sa.select(sa.func.count()).where(
                Match.season_id == season.id, ~sa.exists().where(stat.match_id == Match.id)
            )
        )
        or 0
    )


def club_matches(club: Club, season: Season | None, stop: int | None = None) -> list[Listed]:
    """The first `stop` (None: all) of the club's matches in `season` (None: all time),
    newest first."""
    stat = MatchStat
    if season is not None:
        part = season_part(stat, [stat.match_id, stat.played_at], season)
        played = {mid: when for mid, when in db.session.execute(sa.select(part))}
        # Placed matches with a live hand are in `played` already; these add those without.
        placed = db.session.scalars(sa.select(Match.id).where(Match.season_id == season.id))
        return newest_first(_listed(list(set(played).union(placed)), played))[:stop]
    # All time: the newest `stop` of the matches played, by the index on their days, and
    # the few matches without a live hand, from the matches themselves.
    latest = (
        sa.select(stat.played_at, Match.id, Match.created_at, Match.season_id)
        .join(Match, Match.id == stat.match_id)
        .where(stat.club_id == club.id)
        .order_by(stat.played_on.desc(), stat.match_id.desc())
        .limit(stop)
    )
    unplayed = sa.select(Match.id, Match.created_at, Match.season_id).where(
        Match.club_id == club.id, ~sa.exists().where(stat.match_id == Match.id)
    )
    listed = [
        Listed(m, as_utc(at), made, placed) for at, m, made, placed in db.session.execute(latest)
    ]
    listed += [Listed(m, None, made, placed) for m, made, placed in db.session.execute(unplayed)]
    return newest_first(listed)[:stop]


def player_matches(club: Club, player: Player) -> list[Listed]:
    """Every match of the club `player` has a seat in, newest first."""
    stat = PlayerMatchStat
    played = dict(
        db.session.execute(
            sa.select(stat.match_id, stat.played_at).where(
                stat.player_id == player.id, stat.club_id == club.id
            )
        ).all()
    )
    seated = db.session.scalars(
        sa.select(Seat.match_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player_id == player.id, Match.club_id == club.id)
    )
    return newest_first(_listed(list(seated), played))


def _listed(ids: Sequence[int], played: dict[int, Any]) -> list[Listed]:
    if not ids:
        return []
    rows = db.session.execute(
        sa.select(Match.id, Match.created_at, Match.season_id).where(Match.id.in_(ids))
    )
    return [Listed(mid, _played(played.get(mid)), created, placed) for mid, created, placed in rows]


def _played(when: datetime | None) -> datetime | None:
    return None if when is None else as_utc(when)


def season_ids(club: Club, listed: Iterable[Listed]) -> dict[int, int | None]:
    """The season each listed match falls in (None: in no season), by match id."""
    found: dict[int, int | None] = {}
    for match in listed:
        if match.season_id is not None or match.played_at is None:
            found[match.match_id] = match.season_id
            continue
        season = season_on(club.seasons, match.played_at.date())
        found[match.match_id] = None if season is None else season.id
    return found


def lines(listed: Sequence[Listed], player: Player | None = None) -> list[MatchLine]:
    """The MatchLines of `listed` (newest first, as given), from `player`'s point of view
    when given: each competitor's players and final total, from the summary rows."""
    stat = PlayerMatchStat
    ids = [m.match_id for m in listed]
    if not ids:
        return []
    rows = db.session.execute(
        sa.select(
            stat.match_id,
            stat.competitor,
            stat.player_id,
            Player.name,
            stat.competitor_total,
            stat.finished,
            stat.won,
        )
        .join(Player, Player.id == stat.player_id)
        .where(stat.match_id.in_(ids))
        .order_by(stat.match_id, stat.competitor_order, stat.seat)
    )
    made = {mid: _line(mid, list(group), player) for mid, group in groupby(rows, lambda r: r[0])}
    unsummed = [m.match_id for m in listed if m.match_id not in made]
    if unsummed:
        loaded = db.session.scalars(
            sa.select(Match)
            .where(Match.id.in_(unsummed))
            .options(
                selectinload(Match.hands),
                selectinload(Match.seats).selectinload(Seat.player),
                selectinload(Match.teams),
            )
        )
        made |= {line.match_id: line for line in match_lines(list(loaded), player)}
    return [
        dataclasses.replace(made[m.match_id], day=m.day, placed=m.season_id is not None)
        for m in listed
    ]


def _line(match_id: int, rows: list[Any], player: Player | None) -> MatchLine:
    competitors: list[str] = []
    members: dict[str, list[str]] = {}
    totals: dict[str, Any] = {}
    winner, own = None, None
    for _mid, competitor, pid, name, total, finished, won in rows:
        if competitor not in members:
            competitors.append(competitor)
            members[competitor], totals[competitor] = [], unscaled(total)
        members[competitor].append(name)
        if won and finished:
            winner = competitor
        if player is not None and pid == player.id:
            own = competitor
    sides = tuple(" & ".join(members[c]) for c in competitors)
    return MatchLine(
        match_id=match_id,
        day=date.min,  # the caller's
        sides=sides,
        totals=tuple(totals[c] for c in competitors),
        winner=None if winner is None else sides[competitors.index(winner)],
        finished=bool(rows[0][5]),
        placed=False,  # the caller's
        own=None if own is None else competitors.index(own),
        won=own is not None and own == winner,
    )
