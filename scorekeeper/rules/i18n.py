"""The language of the engine's messages and labels, English by default.

The engine stays pure: no Flask, no gettext catalogs on disk. Each message is written as an
English template with named fields, `tr("A meld needs at least {need} cards.", need=3)`;
a catalog maps templates to their translation. The web layer sets the language of each
request with `set_language("el")`; a ContextVar keeps requests on different threads apart.

>>> tr("A meld needs at least {need} cards; this one has {size}.", need=3, size=2)
'A meld needs at least 3 cards; this one has 2.'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

LANGUAGES = ("en", "el")
_language: ContextVar[str] = ContextVar("scorekeeper_language", default="en")
#: language → {English template: translated template}; filled by the catalog modules.
CATALOGS: dict[str, Mapping[str, str]] = {}


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


def tr(template: str, **fields: object) -> str:
    """`template` in the current language, with its fields filled in."""
    text = CATALOGS.get(_language.get(), {}).get(template, template)
    return text.format(**fields) if fields else text
