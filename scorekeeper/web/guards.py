"""Checks every request passes before any view runs."""

from __future__ import annotations

from flask import Flask, abort, request
from flask_babel import gettext as _


def refuse_unstorable_text() -> None:
    """A form or query value with a NUL character can be stored by no database we use
    (PostgreSQL refuses it outright), so it is a 400 with a reason, never a 500."""
    for values in (request.args, request.form):
        for value in values.values():
            if "\x00" in value:
                abort(400, description=_("Text in the request may not hold the NUL character."))


def register(app: Flask) -> None:
    app.before_request(refuse_unstorable_text)
