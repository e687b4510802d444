"""Configuration layers: built-in defaults and ``SCOREKEEPER_*`` environment variables."""

from pathlib import Path
from typing import Any

from flask import Flask

ENV_PREFIX = "SCOREKEEPER"

# Environment names that read better than the config keys they feed.
ENV_ALIASES = {"DATABASE_URL": "SQLALCHEMY_DATABASE_URI"}


def defaults(instance_path: str | Path) -> dict[str, Any]:
    """Settings that work on a developer's machine with nothing configured."""
    database = Path(instance_path) / "scorekeeper.sqlite"
    return {
        # Fine for development only; production sets SCOREKEEPER_SECRET_KEY.
        "SECRET_KEY": "dev",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
        # Cookies: never readable by page scripts, not sent along with other sites' forms,
        # and over HTTPS only once SCOREKEEPER_SESSION_COOKIE_SECURE=true (web/security.py).
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        # A CSRF token lives as long as the session: a hand form left open at the table all
        # evening must still save (the token is bound to the session, which no one else has).
        "WTF_CSRF_TIME_LIMIT": None,
        # Failed logins allowed (accounts/limits.py); counted in memory unless
        # SCOREKEEPER_RATELIMIT_STORAGE_URI names a shared store such as redis://host:6379.
        "RATELIMIT_STORAGE_URI": "memory://",
        "LOGIN_LIMIT_PER_ACCOUNT": "5 per minute; 20 per hour",
        "LOGIN_LIMIT_PER_ADDRESS": "20 per minute; 100 per hour",
        # Past the per-account limit, the right password still logs in from an address with
        # fewer failed logins than this (the owner), so nobody can lock a user out.
        "LOGIN_OWNER_ADDRESS_FAILURES": "3 per hour",
        # Accounts made per client address (accounts/limits.py).
        "REGISTER_LIMIT_PER_ADDRESS": "10 per hour",
        # Request bodies (web/security.py): the largest hand or form is a few KB, so more is
        # refused with 413 before it is read; the club import takes files up to its own limit.
        "MAX_CONTENT_LENGTH": 256 * 1024,
        # 2 MB: the largest file within the limits below is 1.3 MB; a larger body is refused
        # from its Content-Length alone, where reading 5 MB of JSON took a quarter second.
        "MAX_IMPORT_LENGTH": 2 * 1024 * 1024,
        # What a club file imported through the web may hold (exchange/import_limits.py):
        # chosen, and measured with tests/bench/worst_requests.py, so that the largest file
        # they let in imports in under 3 s on SQLite and PostgreSQL. Each live hand is scored
        # at the import, and its melds are most of that work. Larger clubs are restored with
        # `flask --app scorekeeper import FILE`, which takes any size.
        # (Three such imports at once on this 2-core machine must each end in 3 s too.)
        "MAX_IMPORT_HANDS": 500,  # live hands in all (as many as one match may hold)
        "MAX_IMPORT_MELDS": 5000,  # in every hand's entry, in all
        "MAX_IMPORT_VERSIONS": 1000,  # earlier versions and deleted hands, in all
        "MAX_IMPORT_MATCHES": 150,
        "MAX_IMPORT_SEASONS": 100,
        "MAX_IMPORT_MEMBERS": 500,
        "MAX_IMPORT_TEXT": 300_000,  # characters of names and reasons, in all
        # Imports each account may start (exchange/import_rate.py), counted in the database
        # so that every worker and machine counts the same: over it, 429 with Retry-After.
        "IMPORT_LIMIT_PER_ACCOUNT": "5 per 10 minutes; 20 per day",
        # Players a club may have, however they are added (the form, the API, an import on
        # the web); the pages that list them show a page or a search of them at a time.
        "MAX_CLUB_PLAYERS": 1000,
        # Seconds a match page kept on a phone for use offline is shown after it was last
        # fetched (web/pwa.py, static/sw.js): past it, the offline page says the copy expired.
        # A logout elsewhere or a removal from the club drops kept pages at the next contact;
        # this bounds how long a phone that never comes back online shows them.
        "OFFLINE_PAGES_MAX_AGE": 24 * 60 * 60,
    }


def load_environment(app: Flask) -> None:
    """Apply ``SCOREKEEPER_X`` as config key ``X`` (values parsed as JSON where they are JSON)."""
    app.config.from_prefixed_env(prefix=ENV_PREFIX)
    for name, key in ENV_ALIASES.items():
        if name in app.config:
            app.config[key] = app.config.pop(name)


def normalize_database_url(url: str) -> str:
    """Send bare PostgreSQL URLs to psycopg 3, the only PostgreSQL driver we install.

    SQLAlchemy reads ``postgresql://`` (and hosting platforms' ``postgres://``) as psycopg2.
    """
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url
