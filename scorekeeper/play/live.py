"""What the live pages poll: a match's (or a club's running matches') revision, read from
the stored hands alone, and a small summary of where a match stands.

The revision is the ETag of the poll: it must be cheap, because every viewer asks for it
every two seconds. It is the number of hands and the sum of their versions: saving a hand
adds one hand (version 1), a correction or a deletion raises that hand's version by one, so
every change moves the sum and nothing else does (the time of the last change rides along).
One indexed aggregate, no replay of the match; only a changed revision makes the page ask
for the new scores.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.match import last_tally, view_of
from scorekeeper.models import Hand, Match, Membership, PlayerMatchStat, as_utc
from scorekeeper.rules.points import format_points

#: How often a live page asks whether anything changed, in milliseconds: with the answer's
#: own time a save shows on every other phone within 3 s (static/js/live.js).
POLL_EVERY_MS = 2000
#: The big screen shows at most this many running matches, newest first: a café's club
#: night has a handful of tables; an abandoned match of last year should not crowd it.
BIG_SCREEN_MATCHES = 12


def match_revision(match_id: int) -> str:
    """The match's ETag (unquoted): its id, its number of hands, the sum of their versions."""
    count, versions, latest = db.session.execute(
        sa.select(
            sa.func.count(Hand.id),
            sa.func.coalesce(sa.func.sum(Hand.version), 0),
            sa.func.max(Hand.updated_at),
        ).where(Hand.match_id == match_id)
    ).one()
    return revision_text(match_id, count, versions, latest)


def member_revision(match_id: int, user_id: int) -> str | None:
    """The match's revision if `user_id` is a member of its club, else None: the member's
    poll in one query (the membership and the aggregate together)."""
    row = db.session.execute(
        sa.select(
            sa.func.count(Hand.id),
            sa.func.coalesce(sa.func.sum(Hand.version), 0),
            sa.func.max(Hand.updated_at),
        )
        .select_from(Match)
        .join(Membership, Membership.club_id == Match.club_id)
        .outerjoin(Hand, Hand.match_id == Match.id)
        .where(Match.id == match_id, Membership.user_id == user_id)
        .group_by(Match.id)
    ).first()
    return None if row is None else revision_text(match_id, row[0], row[1], row[2])


def revision_text(match_id: int, count: int, versions: int, latest: datetime | None) -> str:
    """The revision's text. The last change's time (in ms) makes it one of this database
    alone: a restored or another database cannot meet a kept drawing of the same numbers."""
    stamp = 0 if latest is None else round(as_utc(latest).timestamp() * 1000)
    return f"m{match_id}-{count}-{versions}-{stamp}"


def running_ids(club_id: int) -> list[int]:
    """The club's newest matches nobody has won yet (the derived rows say who has)."""
    won = sa.exists().where(
        PlayerMatchStat.match_id == Match.id, PlayerMatchStat.finished.is_(True)
    )
    return list(
        db.session.scalars(
            sa.select(Match.id)
            .where(Match.club_id == club_id, ~won)
            .order_by(Match.id.desc())
            .limit(BIG_SCREEN_MATCHES)
        )
    )


def club_revision(club_id: int) -> str:
    """The ETag of the club's big screen: which matches are running, and each one's hands."""
    ids = running_ids(club_id)
    counted: dict[int, tuple[int, int]] = {}
    if ids:
        rows = db.session.execute(
            sa.select(
                Hand.match_id,
                sa.func.count(Hand.id),
                sa.func.coalesce(sa.func.sum(Hand.version), 0),
            )
            .where(Hand.match_id.in_(ids))
            .group_by(Hand.match_id)
        ).all()
        counted = {match_id: (count, versions) for match_id, count, versions in rows}
    text = ";".join(f"{i}:{counted.get(i, (0, 0))[0]}:{counted.get(i, (0, 0))[1]}" for i in ids)
    return f"c{club_id}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


@dataclass(frozen=True, slots=True)
class LiveSide:
    name: str
    players: str  # a fixed team's players ("Ann & Cy"), unless its name already says it
    total: str
    progress: float  # toward the target, for the bar (0 … target)
    leading: bool


@dataclass(frozen=True, slots=True)
class LiveMatch:
    """One running match as the big screen and the poll's JSON show it."""

    id: int
    target: int
    sides: list[LiveSide]
    hands_played: int
    last_hand: int | None
    last_scores: list[tuple[str, str]]  # the last live hand's score per side
    next_dealer: str | None
    finished: bool
    winner: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "target": self.target,
            "teams": [{"name": s.name, "total": s.total} for s in self.sides],
            "hands_played": self.hands_played,
            "last_hand": self.last_hand,
            "last_scores": [{"name": n, "score": s} for n, s in self.last_scores],
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "winner": self.winner,
        }


def live_match(match: Match) -> LiveMatch:
    """Where the match stands, from its read model (its stored progress) and its last hand's
    tally: no hand is read but the last."""
    view = view_of(match)
    last = last_tally(match) if view.hands_played else None
    names = {s.key: s.name for s in view.standings}
    return LiveMatch(
        id=match.id,
        target=view.target,
        sides=[
            LiveSide(
                name=s.name,
                players=s.players,
                total=format_points(s.total),
                progress=s.toward(view.target),
                leading=s.leading,
            )
            for s in view.standings
        ],
        hands_played=view.hands_played,
        last_hand=None if last is None else last[0],
        last_scores=[]
        if last is None
        else [
            (names.get(side.name, side.name), format_points(side.score)) for side in last[1].sides
        ],
        next_dealer=view.next_dealer,
        finished=view.finished,
        winner=view.winner,
    )
