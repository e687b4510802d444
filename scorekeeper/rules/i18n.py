"""The language of the engine's messages and labels, English by default.

The engine stays pure: no Flask, no gettext catalogs on disk. Each message is written as an
English template with named fields, `tr("A meld needs at least {need} cards.", need=3)`;
a catalog maps templates to their translation. The web layer sets the language of each
request with `set_language("el")`; a ContextVar keeps requests on different threads apart.

>>> tr("A meld needs at least {need} cards; this one has {size}.", need=3, size=2)
'A meld needs at least 3 cards; this one has 2.'
>>> with using("el"):
...     tr("A meld needs at least {need} cards; this one has {size}.", need=3, size=2)
'Ένας συνδυασμός θέλει τουλάχιστον 3 φύλλα, ενώ αυτός έχει 2.'

A variant's own words (biriba, buraco, pot …) are catalog entries too: `term("buraco")`.
Where a template's words must agree with such a word (Greek "καθαρή μπιρίμπα" but
"καθαρό μπουράκο"), `tr_for(word, template)` lets a catalog give the word's gender under
``"gender" + CONTEXT + word`` and, for that gender, its own translation of the template
under ``gender + CONTEXT + template`` (a context as in gettext's msgctxt).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

LANGUAGES = ("en", "el")
_language: ContextVar[str] = ContextVar("scorekeeper_language", default="en")
#: language → {English template: translated template}; filled by the catalog modules.
CATALOGS: dict[str, Mapping[str, str]] = {}
#: Separates a context (a gender, or "gender" itself) from the rest of a catalog key.
CONTEXT = "\x04"


def set_language(code: str) -> None:
    """Use `code` (``"en"`` or ``"el"``) for this context; anything else means English."""
    _language.set(code if code in LANGUAGES else "en")


def language() -> str:
    return _language.get()


@contextmanager
def using(code: str) -> Iterator[None]:
    token = _language.set(code if code in LANGUAGES else "en")
    try:
        yield
    finally:
        _language.reset(token)


def tr(template: str, /, **fields: object) -> str:
    """`template` in the current language, with its fields filled in."""
    catalog = CATALOGS.get(_language.get())
    if catalog is not None:
        template = catalog.get(template, template)
    return template.format(**fields) if fields else template


def tr_for(word: str, template: str, /, **fields: object) -> str:
    """`tr` for a template whose words agree with `word`, one of a variant's own words
    (English, as in `Variant.biriba_word`): the gendered translation where the catalog
    has one, else the plain one."""
    catalog = CATALOGS.get(_language.get())
    if catalog is not None:
        gender = catalog.get("gender" + CONTEXT + word)
        text = None if gender is None else catalog.get(gender + CONTEXT + template)
        template = catalog.get(template, template) if text is None else text
    return template.format(**fields) if fields else template


def term(word: str) -> str:
    """One of a variant's own words ("biriba", "buraco", "pot" …) in the current language;
    a word the catalog does not know stays as it is."""
    catalog = CATALOGS.get(_language.get())
    return word if catalog is None else catalog.get(word, word)


def mark(template: str) -> str:
    """Mark `template` as a catalog message kept in a table and translated later by `tr`
    (gettext's ``gettext_noop``): it returns the English template unchanged."""
    return template


# The Greek catalog, registered as this module loads. It imports nothing from the engine, so
# importing it last, here, makes no cycle.
from . import messages_el  # noqa: E402

CATALOGS["el"] = messages_el.CATALOG
