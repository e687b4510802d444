"""The running matches a member can go back to from the home page: in their clubs, not yet
won, newest first. Where each stands comes from the rules engine (services.matches)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import Match, Membership, PlayerMatchStat, Role, Seat, User
from scorekeeper.rules.points import format_points
from scorekeeper.services.matches import format_of, names_of, state_of, variant_of

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
            selectinload(Match.hands),
            selectinload(Match.club),
        )
    )
    found = []
    for match, role in rows:
        state = state_of(match)
        if state.finished:
            continue
        names = names_of(match)
        found.append(
            RunningMatch(
                id=match.id,
                club=match.club.name,
                rules=variant_of(match).name,
                table=format_of(match).name,
                standings=[
                    Standing(names.get(s.name, s.name), format_points(s.total))
                    for s in state.standings
                ],
                next_dealer=None if state.next_dealer is None else names[state.next_dealer],
                hands_played=state.hands_played,
                can_score=Role(role).allows(Role.SCORER),
            )
        )
    return found[:limit]
