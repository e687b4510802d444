"""Whose a page kept offline is: the tags the service worker (static/sw.js) stores with each
match page it keeps, so that it can drop the page once it no longer belongs to whoever uses
the phone.

A match page carries, in response headers, an opaque fingerprint of the session it was drawn
for, the club it shows, and how long a kept copy may be shown offline. The worker asks the
session's fingerprint and the clubs the account may still read (play/offline.py) the first
time it reaches the network again, and drops every kept page whose session or club no longer
holds: a "log out everywhere" from another device, a password changed elsewhere, a removal
from the club. A phone that never comes back online stops showing a copy once it is older
than OFFLINE_PAGES_MAX_AGE.

A tournament table's pages (tournaments.table_pages) are kept for a phone with no account:
they carry only the max age, and the worker keeps them while their link still opens the
table (the link's secret is in their path; the worker asks the table's live.json).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

from flask import Flask, Response, current_app, g
from flask_babel import format_timedelta
from flask_login import current_user

SESSION_HEADER = "X-Offline-Session"
CLUB_HEADER = "X-Offline-Club"
MAX_AGE_HEADER = "X-Offline-Max-Age"


def fingerprint() -> str | None:
    """The signed-in session's fingerprint, or None for the anonymous.

    It hashes the user's id with their session secret (`User.get_id`), so it changes exactly
    when every session of the account ends, and it reveals neither: the secret is a login
    credential, and the fingerprint sits in the phone's cache where page scripts read it.
    """
    if not current_user.is_authenticated:
        return None
    key = str(current_app.secret_key or "").encode()
    message = b"offline-pages\0" + str(current_user.get_id()).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def max_age() -> int:
    """Seconds a kept page may be shown offline (0: never)."""
    return max(0, int(current_app.config["OFFLINE_PAGES_MAX_AGE"]))


def max_age_words() -> str:
    """That time in the page's language ("1 day", "12 hours")."""
    return str(format_timedelta(timedelta(seconds=max_age()), threshold=1))


def kept_for_club(club_id: int) -> None:
    """Mark this answer as a page of `club_id`'s: if the worker keeps it, it keeps it for this
    session and this club only."""
    g.offline_club = club_id


def kept_for_table() -> None:
    """Mark this answer as a table link's page: if the worker keeps it, it keeps it while the
    link works and for the max age at most, whoever uses the phone."""
    g.offline_table = True


def _tag(response: Response) -> Response:
    if response.mimetype != "text/html":
        return response
    if g.get("offline_table"):
        response.headers[MAX_AGE_HEADER] = str(max_age())
        return response
    club = g.get("offline_club")
    session = fingerprint() if club is not None else None
    if session is not None:
        response.headers[SESSION_HEADER] = session
        response.headers[CLUB_HEADER] = str(club)
        response.headers[MAX_AGE_HEADER] = str(max_age())
    return response


def init_app(app: Flask) -> None:
    app.after_request(_tag)
