"""Seasons: named date ranges of a club. A match belongs to the season its first hand was
played in, unless the owner placed it in another one."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import Club, Hand, HandVersion, Match, Season, Seat
from scorekeeper.numbers import is_row_id
from scorekeeper.web.gettext import gettext as _


def create_season(club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A new season; its name is unique in the club and its days overlap no other season."""
    name = _check(club, name, starts_on, ends_on, None)
    season = Season(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    db.session.add(season)
    db.session.commit()
    return season


def update_season(season: Season, name: str, starts_on: date, ends_on: date) -> Season:
    season.name = _check(season.club, name, starts_on, ends_on, season)
    season.starts_on, season.ends_on = starts_on, ends_on
    db.session.commit()
    return season


def delete_season(season: Season) -> None:
    """Remove a season; matches placed in it by hand go back to the rule of their first hand."""
    db.session.execute(sa.update(Match).where(Match.season_id == season.id).values(season_id=None))
    db.session.delete(season)
    db.session.commit()


def seasons_of(club: Club) -> list[Season]:
    """The club's seasons, earliest first."""
    return list(
        db.session.scalars(
            sa.select(Season).where(Season.club_id == club.id).order_by(Season.starts_on)
        )
    )


def season_in(club: Club, season_id: object) -> Season:
    season = db.session.get(Season, season_id) if is_row_id(season_id) else None
    if season is None or season.club_id != club.id:
        raise NotFound(_("This club has no such season."))
    return season


def place_match(match: Match, season: Season | None) -> None:
    """The owner's override: put the match in `season`, or None to follow its first hand."""
    if season is not None and season.club_id != match.club_id:
        raise NotFound(_("This club has no such season."))
    match.season_id = None if season is None else season.id
    db.session.commit()


def first_hand_times(matches: Iterable[Match]) -> dict[int, datetime]:
    """When each match's first live hand was first saved (its "created" version), by match id;
    matches without a live hand are left out. One query for all of them."""
    ids = [m.id for m in matches]
    if not ids:
        return {}
    rows = db.session.execute(
        sa.select(Hand.match_id, sa.func.min(HandVersion.created_at))
        .join(
            HandVersion,
            sa.and_(HandVersion.match_id == Hand.match_id, HandVersion.number == Hand.number),
        )
        .where(Hand.match_id.in_(ids), Hand.deleted.is_(False), HandVersion.action == "created")
        .group_by(Hand.match_id)
    )
    return {match_id: _utc(when) for match_id, when in rows}


def season_of(match: Match) -> Season | None:
    """The owner's choice, else the season whose days hold the match's first live hand."""
    if match.season_id is not None:
        return match.season
    when = first_hand_times([match]).get(match.id)
    return None if when is None else season_on(seasons_of(match.club), when.date())


def matches_in(club: Club, season: Season | None) -> list[Match]:
    """The club's matches in `season` (every match for None, the all-time view), in the
    order they were played: by first hand, then id; matches with no hand yet come last."""
    everything = list(
        db.session.scalars(
            sa.select(Match)
            .where(Match.club_id == club.id)
            .options(
                selectinload(Match.hands),
                selectinload(Match.seats).selectinload(Seat.player),
                selectinload(Match.teams),
            )
        )
    )
    times = first_hand_times(everything)
    if season is not None:
        seasons = seasons_of(club)

        def belongs(match: Match) -> bool:
            if match.season_id is not None:
                return match.season_id == season.id
            when = times.get(match.id)
            found = None if when is None else season_on(seasons, when.date())
            return found is not None and found.id == season.id

        everything = [m for m in everything if belongs(m)]
    return sorted(everything, key=lambda m: played_order(m, times))


def played_order(match: Match, times: dict[int, datetime]) -> tuple[bool, datetime, int]:
    """Sort key of a match: by its first hand's time (see first_hand_times), then by id."""
    when = times.get(match.id)
    return (when is None, when or datetime.min, match.id)


def _utc(when: datetime) -> datetime:
    """A naive UTC time: SQLite gives back naive times (stored as UTC), PostgreSQL aware ones."""
    return when if when.tzinfo is None else when.astimezone(UTC).replace(tzinfo=None)


def season_on(seasons: Iterable[Season], day: date) -> Season | None:
    """The season whose days hold `day` (both ends included), if any: seasons never overlap."""
    return next((s for s in seasons if s.starts_on <= day <= s.ends_on), None)


def _check(club: Club, name: str, starts_on: date, ends_on: date, editing: Season | None) -> str:
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise Invalid(_("A season's name needs 1 to 80 characters."))
    if not isinstance(starts_on, date) or not isinstance(ends_on, date):
        raise Invalid(_("A season needs a first and a last day."))
    if starts_on > ends_on:
        raise Invalid(
            _(
                "The season starts on %(start)s, after its last day %(end)s.",
                start=starts_on.isoformat(),
                end=ends_on.isoformat(),
            )
        )
    for other in seasons_of(club):
        if editing is not None and other.id == editing.id:
            continue
        if other.name == name:
            raise Invalid(_("The club already has a season called %(name)s.", name=name))
        if other.starts_on <= ends_on and starts_on <= other.ends_on:
            raise Invalid(
                _(
                    "These days overlap the season %(name)s (%(start)s to %(end)s); "
                    "a club's seasons never share a day.",
                    name=other.name,
                    start=other.starts_on.isoformat(),
                    end=other.ends_on.isoformat(),
                )
            )
    return name
