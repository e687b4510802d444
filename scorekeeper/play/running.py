"""The running matches a member can go back to from the home page: in their clubs, not yet
won, newest first. Where each stands comes from its read model (the match's stored progress)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.match import format_of, view_of
from scorekeeper.models import Match, Membership, PlayerMatchStat, Role, Seat, User
from scorekeeper.rules.points import format_points

#: The home page is a place to continue, not an archive: the club pages list the rest.
SHOWN = 6


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    total: str


@dataclass(frozen=True, slots=True)
class RunningMatch:
    id: int
    club: str
    rules: str
    table: str
    standings: list[Standing]
    next_dealer: str | None
    hands_played: int
    can_score: bool


def running_matches(user: User, limit: int = SHOWN) -> list[RunningMatch]:
    """Up to `limit` matches of the user's clubs that nobody has won yet, newest first."""
    won = sa.exists().where(
        PlayerMatchStat.match_id == Match.id, PlayerMatchStat.finished.is_(True)
    )
    rows = db.session.execute(
        sa.select(Match, Membership.role)
        .join(Membership, Membership.club_id == Match.club_id)
        .where(Membership.user_id == user.id, ~won)
        .order_by(Match.created_at.desc(), Match.id.desc())
        .limit(limit * 2)  # a few may turn out won (derived rows lag): keep enough
        .options(
            selectinload(Match.seats).selectinload(Seat.player),
            selectinload(Match.teams),
            selectinload(Match.club),
        )
    )
    found = []
    for match, role in rows:
        view = view_of(match)
        if view.finished:
            continue
        found.append(
            RunningMatch(
                id=match.id,
                club=match.club.name,
                rules=view.variant.name,
                table=format_of(match).name,
                standings=[Standing(s.name, format_points(s.total)) for s in view.standings],
                next_dealer=view.next_dealer,
                hands_played=view.hands_played,
                can_score=Role(role).allows(Role.SCORER),
            )
        )
    return found[:limit]
