"""The compiled catalogs, read with the standard library as the rules engine sees them: tests
of the engine hand these to `scorekeeper.rules.i18n.using`, as the web layer hands in
Flask-Babel's (the same messages.mo)."""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

import scorekeeper

TRANSLATIONS = Path(scorekeeper.__file__).parent / "translations"


@cache
def catalog(code: str) -> gettext.NullTranslations:
    """The translations of language `code`; English (and any language without a catalog) is
    the message ids themselves."""
    mo = TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo"
    if not mo.is_file():
        return gettext.NullTranslations()
    with mo.open("rb") as file:
        return gettext.GNUTranslations(file)
