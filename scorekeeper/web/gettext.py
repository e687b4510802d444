"""The message functions every page and feature translates with: Flask-Babel's `gettext`,
`ngettext`, `pgettext` and `npgettext`, with the request's catalog looked up once.

Flask-Babel finds the catalog anew for every message: a dozen context-local lookups (its
context, the locale, the domain, the cache key) for each of the hundred-odd messages of a
page, a fifth of the time a page took to draw. Here the catalog is kept beside Flask-Babel's
own locale on its per-request context, together with that locale, so a `refresh()` or
`force_locale()` (which replace the locale) gets the new language's catalog at once.
Outside a request or app context they answer as Flask-Babel does (the English text).
"""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations
from flask.globals import _cv_app
from flask_babel import LazyString, get_translations

_ENGLISH = NullTranslations()


def translations() -> NullTranslations:
    """The catalog of the current request's language, found once per language per request."""
    # The app context straight from its context variable: `flask.g` is a proxy that costs two
    # lookups per use, and this runs for every message of every page (a hand page has 270).
    app_context = _cv_app.get(None)
    if app_context is None:
        return _ENGLISH
    g = app_context.g
    try:
        context = g._flask_babel  # Flask-Babel's own per-request namespace
        locale, catalog = context.kept_catalog
        if locale is context.babel_locale:
            return catalog
    except AttributeError:
        pass
    catalog = get_translations()  # fills context.babel_locale on the way
    g._flask_babel.kept_catalog = (g._flask_babel.babel_locale, catalog)
    return catalog


def gettext(string: str, **variables: Any) -> str:
    text: str = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text: str = translations().ungettext(singular, plural, num)
    return text % variables


def pgettext(context: str, string: str, **variables: Any) -> str:
    text: str = translations().upgettext(context, string)
    return text % variables if variables else text


def npgettext(context: str, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text: str = translations().unpgettext(context, singular, plural, num)
    return text % variables


def install(jinja_env: Any) -> None:
    """Templates translate through the same kept catalog (Flask-Babel installs its own)."""
    jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """A message translated each time it is shown (form labels made at import time)."""
    return LazyString(gettext, string, **variables)
