"""Accounts and API tokens."""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa
from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, User, utcnow
from scorekeeper.services.clubs import is_row_id
from scorekeeper.services.errors import Invalid

MIN_PASSWORD = 8


class UsernameTaken(Invalid):
    """Someone already has that username (a form shows it beside the username field)."""


def create_user(username: str, password: str) -> User:
    username = username.strip()
    if not username or len(username) > 80:
        raise Invalid(_("A username needs 1 to 80 characters."))
    if len(password) < MIN_PASSWORD:
        raise Invalid(_("A password needs at least %(count)d characters.", count=MIN_PASSWORD))
    if find_user(username) is not None:
        raise UsernameTaken(_taken(username))
    user = User(username=username, password_hash=generate_password_hash(password))
    db.session.add(user)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        # Two people registered the same name at once; the other one was first.
        db.session.rollback()
        raise UsernameTaken(_taken(username)) from None
    return user


def _taken(username: str) -> str:
    return _("The username %(name)s is taken; choose another.", name=repr(username))


def find_user(username: str) -> User | None:
    return db.session.scalar(sa.select(User).where(User.username == username.strip()))


def authenticate(username: str, password: str) -> User | None:
    user = find_user(username)
    if user is None or not check_password_hash(user.password_hash, password):
        return None
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(user: User, label: str = "") -> str:
    """A new bearer token; it is shown once and only its digest is kept."""
    token = "sk_" + secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, digest=_digest(token), label=label[:80]))
    db.session.commit()
    return token


def user_for_token(token: str) -> User | None:
    row = db.session.scalar(
        sa.select(ApiToken).where(ApiToken.digest == _digest(token), ApiToken.revoked_at.is_(None))
    )
    return None if row is None else row.user


def revoke_token(user: User, token_id: int) -> None:
    row = db.session.get(ApiToken, token_id) if is_row_id(token_id) else None
    if row is None or row.user_id != user.id:
        raise Invalid(_("No such token."))
    if row.revoked_at is None:  # revoking twice keeps the first date
        row.revoked_at = utcnow()
    db.session.commit()


def list_tokens(user: User) -> list[ApiToken]:
    """The user's tokens, newest first, revoked ones included (only digests are stored)."""
    return list(
        db.session.scalars(
            sa.select(ApiToken)
            .where(ApiToken.user_id == user.id)
            .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
        )
    )
