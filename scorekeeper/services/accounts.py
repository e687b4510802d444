"""Accounts and API tokens."""

from __future__ import annotations

import hashlib
import secrets
from functools import cache

import sqlalchemy as sa
from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, User, new_session_secret, utcnow
from scorekeeper.services.clubs import is_row_id
from scorekeeper.services.errors import Invalid, NotFound

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
    user = User(username=username, password_hash=hash_password(password))
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


def hash_password(password: str) -> str:
    """Werkzeug's current default: scrypt (N=2**15, r=8, p=1) in Werkzeug 3. A hash made
    another way or with weaker parameters is made anew when its owner next logs in."""
    return generate_password_hash(password)


def _method_of(password_hash: str) -> str:
    """How a hash was made: "scrypt:32768:8:1", "pbkdf2:sha256:600000"…"""
    return password_hash.split("$", 1)[0]


@cache
def _decoy_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


def authenticate(username: str, password: str) -> User | None:
    user = find_user(username)
    if user is None:
        # Check a password all the same, so that an unknown username answers no faster than a
        # wrong password and timing tells nobody which usernames exist.
        check_password_hash(_decoy_hash(), password)
        return None
    if not check_password_hash(user.password_hash, password):
        return None
    if _method_of(user.password_hash) != _method_of(_decoy_hash()):
        user.password_hash = hash_password(password)
        db.session.commit()
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def end_sessions(user: User) -> None:
    """Log `user` out everywhere: every session and remember-me cookie made so far names the
    old session secret, and stops working at its next request (API tokens are apart)."""
    user.session_secret = new_session_secret()
    db.session.commit()


def change_password(user: User, current: str, new: str) -> None:
    """A new password, if `current` is the one now; every other session ends with the old
    one (the caller logs the session that asked in again)."""
    if not check_password_hash(user.password_hash, current):
        raise Invalid(_("That is not your current password; nothing was changed."))
    if len(new) < MIN_PASSWORD:
        raise Invalid(_("A password needs at least %(count)d characters.", count=MIN_PASSWORD))
    user.password_hash = hash_password(new)
    end_sessions(user)


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
        # Another person's token is as unknown as one that never existed: 404, not 403.
        raise NotFound(_("No such token."))
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
