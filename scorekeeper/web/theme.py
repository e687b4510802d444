"""Light, dark, or the phone's own setting ("auto"), remembered in a `theme` cookie.

The server writes the choice on `<html data-theme="…">`, so a page is drawn in its theme from
the first paint; static/style.css keeps the phone's `prefers-color-scheme` for "auto". The
switch is a plain form post and needs no JavaScript.
"""

from __future__ import annotations

from flask import Blueprint, Flask, has_request_context, redirect, request
from flask.typing import ResponseReturnValue

from scorekeeper.extensions import csrf
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.i18n import COOKIE_AGE, back
from scorekeeper.web.security import secure_cookies

THEMES = {"auto": _l("Auto"), "light": _l("Light"), "dark": _l("Dark")}
DEFAULT = "auto"
COOKIE = "theme"

bp = Blueprint("theme", __name__)


def chosen_theme() -> str:
    if not has_request_context():
        return DEFAULT
    theme = request.cookies.get(COOKIE, DEFAULT)
    return theme if theme in THEMES else DEFAULT


def _template_globals() -> dict[str, object]:
    return {"theme": chosen_theme(), "themes": THEMES}


# Like the language, a theme is a preference that touches nobody's data: no CSRF token, which
# would only expire on a phone left open at the table.
@bp.post("/theme")
@csrf.exempt
def switch_theme() -> ResponseReturnValue:
    response = redirect(back(), 303)
    theme = request.form.get("theme")
    if theme in THEMES:
        response.set_cookie(
            COOKIE,
            theme,
            max_age=COOKIE_AGE,
            samesite="Lax",
            httponly=True,
            secure=secure_cookies(),
        )
    return response


def init_app(app: Flask) -> None:
    app.context_processor(_template_globals)
    app.register_blueprint(bp)
