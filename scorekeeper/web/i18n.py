"""The language of each page: English or Greek (Flask-Babel).

A `lang` cookie, set by the switcher in the header, wins; without one the browser's
Accept-Language chooses between English and Greek, and English is the default. Each request
also hands the rules engine its translations (`scorekeeper.rules.i18n.set_translations`, the
same Flask-Babel catalog as the pages'), so the engine's own messages follow the page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup

from scorekeeper.extensions import csrf
from scorekeeper.rules import i18n as engine_i18n
from scorekeeper.web import gettext
from scorekeeper.web.security import safe_next, secure_cookies

#: The languages offered, with their names as the switcher shows them.
LANGUAGES = {"en": "EN", "el": "ΕΛ"}
#: What a screen reader says for each button of the switcher, in that language.
LANGUAGE_NAMES = {"en": "English", "el": "Ελληνικά"}
DEFAULT = "en"
COOKIE = "lang"
#: A year: the choice is a preference, not a session.
COOKIE_AGE = 365 * 24 * 60 * 60
#: The request headers a page's words depend on.
VARIES_WITH = ("Accept-Language", "Cookie")

babel = Babel()
bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The cookie's language, else the browser's best match, else English."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(tuple(LANGUAGES), default=DEFAULT) or DEFAULT


def language() -> str:
    """The language code of this request ("en" or "el")."""
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else DEFAULT


def _tell_the_engine() -> None:
    engine_i18n.set_translations(get_translations(), language())


def _forget_the_language(_error: BaseException | None = None) -> None:
    # The test client runs requests on the caller's thread; the next code there (a test
    # calling the engine directly) must not inherit this request's language.
    engine_i18n.set_translations(None)


def strong(text: object) -> Markup:
    """`text` in bold, to put into a translated sentence: the translation decides where the
    bold words go ("Next to deal: %(dealer)s" with dealer=strong(name))."""
    return Markup("<strong>{}</strong>").format(text)


def _vary(response: Response) -> Response:
    # A page's words depend on these two headers: a shared cache must keep one copy per value.
    if request.endpoint != "static":
        response.vary.update(VARIES_WITH)
    return response


def _template_globals() -> dict[str, object]:
    return {
        "lang": language(),
        "languages": LANGUAGES,
        "language_names": LANGUAGE_NAMES,
        "here": here(),
        "strong": strong,
    }


def here() -> str:
    """This page's address (path and query), for a switch to send the person back to; a
    form that came back with errors was a POST, so its path is used only where a GET answers."""
    if not has_request_context():
        return "/"
    if request.method != "GET":
        adapter = current_app.url_map.bind_to_environ(request.environ)
        return request.path if adapter.test(request.path, method="GET") else "/"
    query = request.query_string.decode("utf-8", "replace")
    return request.path + ("?" + query if query else "")


def back() -> str:
    """Where a switch sends the person: the `next` field when it is a page of this site, else
    the page they came from (when it is on this site), else the start page."""
    target = safe_next(request.form.get("next") or request.args.get("next"))
    if target is None and request.referrer:
        parts = urlsplit(request.referrer)
        if parts.netloc == request.host:
            path = parts.path + ("?" + parts.query if parts.query else "")
            target = safe_next(path)
    return target or url_for("pages.home")


def _switch(code: str | None) -> ResponseReturnValue:
    response = redirect(back(), 303)
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", httponly=True, secure=secure_cookies()
        )
    return response


# A language is a preference, not an action on anyone's data: a forged switch does no harm,
# and a token would expire on a phone left open at the table all evening.
@bp.post("/language")
@csrf.exempt
def switch_language() -> ResponseReturnValue:
    return _switch(request.form.get("lang"))


@bp.get("/language/<code>")
def switch_language_link(code: str) -> ResponseReturnValue:
    return _switch(code)


def init_app(app: Flask) -> None:
    """Babel with our locale selector; the engine's language and the template globals."""
    babel.init_app(app, locale_selector=select_locale)
    gettext.install(app.jinja_env)  # after Flask-Babel's own, which it replaces
    app.before_request(_tell_the_engine)
    app.teardown_request(_forget_the_language)
    app.after_request(_vary)
    app.context_processor(_template_globals)
    app.register_blueprint(bp)
