"""Who is asking: a logged-in session, or an API bearer token (`Authorization: Bearer …`)."""

from __future__ import annotations

import hmac

from flask import Request, abort, current_app, flash, g, jsonify, redirect, request, session
from flask.typing import ResponseReturnValue
from flask_login import current_user
from flask_login.utils import expand_login_view, login_url, make_next_param

from scorekeeper.accounts.service import user_for_token
from scorekeeper.extensions import db, login_manager
from scorekeeper.models import User
from scorekeeper.numbers import row_id
from scorekeeper.web.security import protect_session_write

#: What an anonymous call to the JSON API hears, instead of a redirect to the login page.
API_LOGIN_NEEDED = "Log in or send Authorization: Bearer <token>"


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    """The user a session or remember-me cookie names ("id:secret", `User.get_id`), if the
    secret is still theirs: "log out everywhere" and a new password change it."""
    number, _, secret = user_id.partition(":")
    found = row_id(number)
    user = None if found is None or not secret else db.session.get(User, found)
    if user is None or not hmac.compare_digest(user.session_secret.encode(), secret.encode()):
        return None
    return user


@login_manager.request_loader
def load_user_from_token(request: Request) -> User | None:
    """The user of a bearer token, under /api/ only: a token opens no page (not even
    /account/tokens, where a leaked token could mint another and outlive its revocation).
    Flask-Login asks only when the session holds no user."""
    if not is_api_request():
        return None
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    user = user_for_token(token.strip())
    g.identified_by_token = user is not None
    return user


def identified_by_token() -> bool:
    """Whether this request's user came from its bearer token, the only case that needs no
    CSRF token (no other site can make a browser send an Authorization header). A session
    cookie wins over a token, so cookie plus someone's token is the cookie's user, and is
    checked for CSRF like any session write."""
    return bool(current_user.is_authenticated and g.get("identified_by_token", False))


def is_api_request() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


@login_manager.unauthorized_handler
def unauthorized() -> ResponseReturnValue:
    """A script calling the JSON API gets 401 JSON; a person on a page goes to the login page."""
    if is_api_request():
        response = jsonify({"error": API_LOGIN_NEEDED})
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
        return response
    # Flask-Login's own behaviour, which a registered handler replaces.
    view = login_manager.blueprint_login_views.get(request.blueprint, login_manager.login_view)
    if not view:
        abort(401)
    if login_manager.login_message:
        # str(): the message is lazy (in the page's language), and the session stores text.
        flash(str(login_manager.login_message), category=login_manager.login_message_category)
    if current_app.config.get("USE_SESSION_FOR_NEXT", False):
        session["_id"] = login_manager._session_identifier_generator()
        session["next"] = make_next_param(expand_login_view(view), request.url)
        return redirect(login_url(view))
    return redirect(login_url(view, next_url=request.url))


def api_login_required() -> ResponseReturnValue | None:
    """The JSON API's guard (its blueprints' before_request): 401 for the anonymous, and a
    write that rides on a session cookie must carry its CSRF token (a bearer token's need
    not)."""
    if not current_user.is_authenticated:
        answer: ResponseReturnValue = login_manager.unauthorized()  # 401 JSON, see below
        return answer
    if not identified_by_token():
        protect_session_write()
    return None
