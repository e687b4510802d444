"""Failed logins per account, counted in the database: every worker and every machine of a
deployment shares it, with or without Redis (Flask-Limiter's memory:// store counts in each
worker alone, so four workers gave a guesser four times the tries). As established login
throttles do (django-axes keeps a row per failure too): one row per failed login, counted
over the windows of LOGIN_LIMIT_PER_ACCOUNT ("5 per minute; 20 per hour"), and rows older
than the longest window deleted as new ones come, so the table stays small.

Accounts are named by the one key a login finds them by (usernames.username_key), so
carol with a zero-width space or in fullwidth letters counts against carol; the key is stored as an
HMAC under the app's secret, since people type their password into the username field.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app
from limits import RateLimitItem, parse_many

from scorekeeper.extensions import db
from scorekeeper.models import LoginFailure, as_utc, utcnow
from scorekeeper.usernames import username_key


def _account(username: str) -> str:
    secret = current_app.config["SECRET_KEY"]
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    key = username_key(username).encode()
    return hmac.new(secret, b"login-failure:" + key, hashlib.sha256).hexdigest()


def _windows() -> list[tuple[int, timedelta]]:
    """Each window of the limit: how many failures it allows, and how long it is."""
    items: list[RateLimitItem] = parse_many(str(current_app.config["LOGIN_LIMIT_PER_ACCOUNT"]))
    return [(item.amount, timedelta(seconds=item.get_expiry())) for item in items]


def wait_before_trying(username: str) -> int | None:
    """Seconds until the account `username` names may be tried again, or None when it may
    be now. One indexed read of the failures within the longest window (a few dozen rows at
    most: over the limit nothing more is counted)."""
    if not username_key(username):
        return None
    windows = _windows()
    now = utcnow()
    longest = max(length for _, length in windows)
    times = [
        as_utc(when)
        for when in db.session.scalars(
            sa.select(LoginFailure.at)
            .where(LoginFailure.account == _account(username), LoginFailure.at > now - longest)
            .order_by(LoginFailure.at.desc())
        )
    ]
    wait = 0.0
    for allowed, length in windows:
        recent = [when for when in times if when > now - length]
        if len(recent) >= allowed:
            # Tries are free again once the `allowed`-th newest failure leaves the window.
            wait = max(wait, (recent[allowed - 1] + length - now).total_seconds())
    return max(1, math.ceil(wait)) if wait > 0 else None


def count_failure(username: str) -> None:
    """A failed login against the account `username` names (committed at once: the count
    must hold whatever the request does next), and failures too old to count deleted."""
    if not username_key(username):
        return
    now = utcnow()
    longest = max(length for _, length in _windows())
    db.session.execute(sa.delete(LoginFailure).where(LoginFailure.at < now - longest))
    db.session.execute(sa.insert(LoginFailure).values(account=_account(username), at=now))
    db.session.commit()
