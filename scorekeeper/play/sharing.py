"""Read-only share links (a match's scoreboard, or a club's big screen) and the requests to
join a club that people who opened one send.

A link's secret is shown once, when it is made; only its SHA-256 digest is stored (as for
API tokens). A link that is unknown, revoked, expired or names another match or club is
NotFound (404): to its holder a dead link and a link that never was look the same.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa

from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    Hand,
    JoinRequest,
    Match,
    Membership,
    Role,
    ShareLink,
    User,
    utcnow,
)
from scorekeeper.numbers import is_row_id
from scorekeeper.play.live import revision_text
from scorekeeper.web.gettext import gettext as _

#: What a link's secret looks like (secrets.token_urlsafe(24)); anything else is no link
#: and is refused before the database is asked.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,64}")
#: The phone's offset from UTC in minutes, as JavaScript's getTimezoneOffset gives it
#: (UTC−12 … UTC+14).
MAX_OFFSET = 14 * 60


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def end_of_day(offset_minutes: int | None, now: datetime | None = None) -> datetime:
    """The coming midnight on the phone's clock (`offset_minutes` as getTimezoneOffset gives
    it: minutes to add to local time to get UTC), in UTC; without an offset, UTC's midnight."""
    offset = offset_minutes or 0
    if abs(offset) > MAX_OFFSET:
        raise Invalid(_("The time zone offset must be within 14 hours of UTC."))
    now = now or utcnow()
    local = now - timedelta(minutes=offset)
    midnight = (local + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight + timedelta(minutes=offset)


def create_link(
    club: Club, match: Match | None, user: User | None, expires_at: datetime | None = None
) -> str:
    """A new link to `match` (or to the club's big screen); its secret, shown only now."""
    token = secrets.token_urlsafe(24)
    db.session.add(
        ShareLink(
            club_id=club.id,
            match_id=None if match is None else match.id,
            digest=_digest(token),
            created_by_id=None if user is None else user.id,
            expires_at=expires_at,
        )
    )
    db.session.commit()
    return token


def _alive() -> sa.ColumnElement[bool]:
    return sa.and_(
        ShareLink.revoked_at.is_(None),
        sa.or_(ShareLink.expires_at.is_(None), ShareLink.expires_at > utcnow()),
    )


def live_links(club: Club, match: Match | None) -> list[ShareLink]:
    """The links of this match (or the club's big-screen links) still working, newest first."""
    target = ShareLink.match_id.is_(None) if match is None else ShareLink.match_id == match.id
    return list(
        db.session.scalars(
            sa.select(ShareLink)
            .where(ShareLink.club_id == club.id, target, _alive())
            .order_by(ShareLink.id.desc())
        )
    )


def revoke(club: Club, match: Match | None, link_id: int) -> None:
    link = db.session.get(ShareLink, link_id) if is_row_id(link_id) else None
    wanted = None if match is None else match.id
    if link is None or link.club_id != club.id or link.match_id != wanted:
        raise NotFound(_("There is no such shared link here."))
    if link.revoked_at is None:
        link.revoked_at = utcnow()
    db.session.commit()


def _link(token: str) -> ShareLink:
    """The working link whose secret is `token`, compared in constant time; else 404."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise dead_link()
    digest = _digest(token)
    link = db.session.scalar(sa.select(ShareLink).where(ShareLink.digest == digest, _alive()))
    if link is None or not hmac.compare_digest(link.digest, digest):
        raise dead_link()
    return link


def dead_link() -> NotFound:
    return NotFound(
        _("This link shows nothing: it was withdrawn, it has expired, or it was never made.")
    )


_links_table = ShareLink.__table__
_hands_table = Hand.__table__
#: The poll of a shared scoreboard in one round trip, built once: the link (working, of this
#: very match) and the match's revision (play.live.match_revision) together.
_LINK_REVISION = sa.select(
    _links_table.c.digest,
    sa.select(sa.func.count())
    .where(_hands_table.c.match_id == _links_table.c.match_id)
    .scalar_subquery(),
    sa.select(sa.func.coalesce(sa.func.sum(_hands_table.c.version), 0))
    .where(_hands_table.c.match_id == _links_table.c.match_id)
    .scalar_subquery(),
    sa.select(sa.func.max(_hands_table.c.updated_at))
    .where(_hands_table.c.match_id == _links_table.c.match_id)
    .scalar_subquery(),
).where(
    _links_table.c.digest == sa.bindparam("digest"),
    _links_table.c.match_id == sa.bindparam("match_id"),
    _links_table.c.revoked_at.is_(None),
    sa.or_(
        _links_table.c.expires_at.is_(None),
        _links_table.c.expires_at > sa.bindparam("now", type_=sa.DateTime(timezone=True)),
    ),
)


def link_revision(match_id: int, token: str) -> str:
    """The revision of the match a working link of that very match names (one query); else
    404. The same text as play.live.match_revision."""
    revision = revision_for_link(db.session.connection(), match_id, token)
    if revision is None:
        raise dead_link()
    return revision


def revision_for_link(connection: sa.Connection, match_id: int, token: str) -> str | None:
    """`link_revision` on a bare connection (web.poll_shortcut asks it before Flask runs):
    the revision, or None for a link that opens nothing."""
    if not TOKEN_SHAPE.fullmatch(token) or not is_row_id(match_id):
        return None
    digest = _digest(token)
    row = connection.execute(
        _LINK_REVISION, {"digest": digest, "match_id": match_id, "now": utcnow()}
    ).first()
    if row is None or not hmac.compare_digest(row[0], digest):
        return None
    return revision_text(match_id, row[1], row[2], row[3])


def match_for_link(match_id: int, token: str) -> Match:
    """The match a working link of that very match opens; any other pairing is 404."""
    link = _link(token)
    match = db.session.get(Match, match_id) if link.match_id == match_id else None
    if match is None:
        raise dead_link()
    return match


def club_for_link(club_id: int, token: str) -> Club:
    """The club whose big screen a working club link opens; a match's link opens none."""
    link = _link(token)
    club = db.session.get(Club, club_id) if link.match_id is None and is_row_id(club_id) else None
    if club is None or link.club_id != club_id:
        raise dead_link()
    return club


# --- asking to join ---------------------------------------------------------------------------


def ask_to_join(user: User, club: Club) -> bool:
    """Ask the club's owners to let `user` in; False when they are a member already."""
    member = db.session.scalar(
        sa.select(Membership.id).where(Membership.club_id == club.id, Membership.user_id == user.id)
    )
    if member is not None:
        return False
    asked = db.session.scalar(
        sa.select(JoinRequest.id).where(
            JoinRequest.club_id == club.id, JoinRequest.user_id == user.id
        )
    )
    if asked is None:
        db.session.add(JoinRequest(club_id=club.id, user_id=user.id))
        db.session.commit()
    return True


def join_requests(club: Club) -> list[JoinRequest]:
    return list(
        db.session.scalars(
            sa.select(JoinRequest).where(JoinRequest.club_id == club.id).order_by(JoinRequest.id)
        )
    )


def answer_request(club: Club, request_id: int, accept: bool) -> User:
    """Let the asker in as a viewer (`accept`), or not; the request is gone either way."""
    asked = db.session.get(JoinRequest, request_id) if is_row_id(request_id) else None
    if asked is None or asked.club_id != club.id:
        raise NotFound(_("There is no such request to join this club."))
    user = asked.user
    if accept:
        member = db.session.scalar(
            sa.select(Membership).where(
                Membership.club_id == club.id, Membership.user_id == user.id
            )
        )
        if member is None:
            db.session.add(Membership(club_id=club.id, user_id=user.id, role=Role.VIEWER))
    db.session.delete(asked)
    db.session.commit()
    return user
