"""What the service worker asks before it shows a match page kept on the phone: whose session
the phone holds now, and which clubs that account may still read (web/kept_pages.py tags
each kept page with both; static/sw.js drops the pages that no longer match)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from scorekeeper.accounts import signed_in
from scorekeeper.clubs import clubs_of
from scorekeeper.web.kept_pages import fingerprint

bp = Blueprint("offline", __name__)


@bp.get("/offline/session")
def session() -> ResponseReturnValue:
    """The session's fingerprint (null signed out) and the ids of the clubs it may read.

    Anyone may ask: signed out (a session ended by "log out everywhere" included), the answer
    names nobody and no club, and the worker drops every kept page."""
    user = signed_in()
    clubs = [] if user is None else sorted(club.id for club, _role in clubs_of(user))
    response = jsonify({"session": fingerprint(), "clubs": clubs})
    # Asked afresh each time: a kept answer would keep a removed member's pages.
    response.headers["Cache-Control"] = "no-store"
    return response
