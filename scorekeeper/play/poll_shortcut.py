"""The shared scoreboard's poll, answered 304 before Flask runs when nothing changed.

Every phone on a share link asks `/watch/<match>/<secret>/live.json` every two seconds, and
nearly every answer is "not modified". Through Flask that answer costs a session, the
language, the rate limiter's bookkeeping and the hooks of every page, several times the one
indexed query it needs (tests/bench/live_viewers.py). This WSGI layer answers that one case
itself: a GET of that path with If-None-Match, whose link works and names that very match
(play.sharing.revision_for_link, the query the view runs) and whose revision the phone
already holds. It sends the headers Flask's 304 would (the ETag, Cache-Control and the
security headers). Anything else, and any doubt (a dead link, a new revision, a database
error), goes on to Flask untouched, which answers it as before: a 200, or a 404.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from flask import Flask
from werkzeug.http import parse_etags

from scorekeeper.extensions import db
from scorekeeper.numbers import row_id
from scorekeeper.play.live_pages import POLL_CACHE_CONTROL
from scorekeeper.play.sharing import revision_for_link
from scorekeeper.web.i18n import VARIES_WITH
from scorekeeper.web.security import fixed_headers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: The shared poll's path (share.watch_json): the match's id and the link's secret.
SHARED_POLL = re.compile(r"/watch/([0-9]{1,10})/([A-Za-z0-9_-]{20,64})/live\.json")


class PollShortcut:
    """Wraps the app's WSGI callable; see the module's docstring."""

    def __init__(self, app: Flask, wrapped: WSGIApplication) -> None:
        self.app = app
        self.wrapped = wrapped
        self.engine: sa.Engine | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and environ.get("REQUEST_METHOD") == "GET":
            found = SHARED_POLL.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None:
                headers = self.unchanged(found[1], found[2], held)
                if headers is not None:
                    start_response("304 NOT MODIFIED", headers)
                    return []
        return self.wrapped(environ, start_response)

    def unchanged(self, match: str, token: str, held: str) -> list[tuple[str, str]] | None:
        """The 304's headers when the link works and `held` names its current revision."""
        match_id = row_id(match)
        if match_id is None:
            return None
        try:
            # One read, no transaction to open and close around it: one round trip.
            with (
                self._engine()
                .connect()
                .execution_options(isolation_level="AUTOCOMMIT") as connection
            ):
                revision = revision_for_link(connection, match_id, token)
        except sa.exc.SQLAlchemyError:
            return None  # Flask asks again and answers the error its own way
        if revision is None or not parse_etags(held).contains_weak(revision):
            return None
        return [
            ("ETag", f'"{revision}"'),
            ("Cache-Control", POLL_CACHE_CONTROL),
            ("Vary", ", ".join(VARIES_WITH)),  # as i18n adds to every answer
            *fixed_headers(self.app),
        ]

    def _engine(self) -> sa.Engine:
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine


def install(app: Flask) -> None:
    """Put the shortcut in front of the app (outermost: after any proxy middleware)."""
    shortcut: Any = PollShortcut(app, app.wsgi_app)
    # Flask's documented way in for WSGI middleware; mypy reads it as replacing a method.
    app.wsgi_app = shortcut  # type: ignore[method-assign]
