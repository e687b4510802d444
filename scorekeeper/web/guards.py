"""Checks every request passes before any view runs."""

from __future__ import annotations

from flask import Flask, abort, request

from scorekeeper.web.gettext import gettext as _


def refuse_unstorable_text() -> None:
    """A form or query value with a NUL character can be stored by no database we use
    (PostgreSQL refuses it outright), so it is a 400 with a reason, never a 500."""
    # Every key and every value of it (a MultiDict's values() gives only each key's first).
    texts: list[str | None] = []
    for data in (request.args, request.form):
        for key, values in data.lists():
            texts += [key, *values]
    # A path's own words too (/join/<code>): PostgreSQL would refuse the lookup with a 500.
    texts += [value for value in (request.view_args or {}).values() if isinstance(value, str)]
    # (A multipart part werkzeug cannot name may come through as None.)
    if any(isinstance(text, str) and "\x00" in text for text in texts):
        abort(400, description=_("Text in the request may not hold the NUL character."))


def register(app: Flask) -> None:
    app.before_request(refuse_unstorable_text)
