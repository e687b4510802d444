"""The language of the engine's messages and labels, English by default.

The engine speaks in gettext message ids: each message is an English template with named
fields (python-brace-format), looked up in a standard-library `gettext` translations object
and then filled in. The engine reads no catalog itself: the web layer hands in the request's
translations (Flask-Babel's, from the one `messages.po`) with `set_translations`, and a
ContextVar keeps requests on different threads apart. Without one, `NullTranslations` gives
the English templates themselves.

>>> tr("A meld needs at least {need} cards; this one has {size}.", need=3, size=2)
'A meld needs at least 3 cards; this one has 2.'

* `tr(template, **fields)`: gettext; `ntr(singular, plural, n, **fields)`: ngettext, where the
  words follow a count; `ptr(context, template, **fields)`: pgettext, where one English text
  needs another translation in another place.
* `tr_for(word, template, **fields)`: a template whose words agree with one of a variant's
  own words (Greek "καθαρή μπιρίμπα" but "καθαρό μπουράκο"). The catalog gives the word's
  gender as ``pgettext("gender", word)`` and, for that gender, the template's own translation
  as ``pgettext(gender, template)``; the plain translation where it has neither.
* `term(word)`: one of a variant's own words, ``pgettext("variant word", word)``.

Every message is a `Message` (typed as the `str` it is): the text in the current language,
which also keeps its message id and values (`Message.data`, plain JSON; `data_of`). A
stored result keeps that data, and `render(data)` words it again in whatever language is
current, without scoring anything.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

#: English: the message ids are the English text.
ENGLISH = gettext.NullTranslations()
#: The current translations and the code of their language.
_current: ContextVar[tuple[gettext.NullTranslations, str]] = ContextVar(
    "scorekeeper_translations", default=(ENGLISH, "en")
)
#: The msgctxt of a variant word's gender, and of the variant words themselves.
GENDER = "gender"
WORD = "variant word"


def _pair(
    translations: gettext.NullTranslations | None, code: str | None
) -> tuple[gettext.NullTranslations, str]:
    if translations is None:
        return ENGLISH, "en"
    # A catalog names its language in its header; Flask-Babel's merged catalog keeps no
    # header, so the web layer says the language itself.
    return translations, code or str(translations.info().get("language", "en"))


def set_translations(
    translations: gettext.NullTranslations | None, language: str | None = None
) -> None:
    """Use `translations` (of `language`, else the one its header names) for this context;
    None means English."""
    _current.set(_pair(translations, language))


def translations() -> gettext.NullTranslations:
    return _current.get()[0]


def language() -> str:
    """The language code of the current translations ("en" for English)."""
    return _current.get()[1]


def translating() -> bool:
    """Whether messages come out in another language than their English ids."""
    return _current.get()[1] != "en"


@contextmanager
def using(
    translations: gettext.NullTranslations | None, language: str | None = None
) -> Iterator[None]:
    token = _current.set(_pair(translations, language))
    try:
        yield
    finally:
        _current.reset(token)


class Message(str):
    """A message in the current language that remembers how it was made: `data` holds its
    message id and values (each value plain, or another message's data), as JSON."""

    data: dict[str, Any]

    def capitalize(self) -> Message:
        return _message(str.capitalize(self), {**self.data, "cap": True})


def _message(text: str, data: dict[str, Any]) -> Message:
    message = Message(text)
    message.data = data
    return message


def _value(value: object) -> object:
    """A field's value as data: a message's own data, or the value as JSON keeps it."""
    if isinstance(value, Message):
        return value.data
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def _lookup(t: gettext.NullTranslations, data: Mapping[str, Any]) -> str:
    msgid: str = data["msg"]
    word = data.get("word")
    if word is not None:
        gender = t.pgettext(GENDER, word)
        if gender != word:
            text = t.pgettext(gender, msgid)
            if text != msgid:
                return text
    plural = data.get("plural")
    context = data.get("ctx")
    if plural is not None:
        n = data["n"]
        if context is not None:
            return t.npgettext(context, msgid, plural, n)
        return t.ngettext(msgid, plural, n)
    if context is not None:
        return t.pgettext(context, msgid)
    return t.gettext(msgid)


def _make(data: dict[str, Any], fields: Mapping[str, object]) -> Message:
    text = _lookup(_current.get()[0], data)
    if fields:
        data["values"] = {name: _value(value) for name, value in fields.items()}
        text = text.format(**fields)
    return _message(text, data)


def tr(template: str, /, **fields: object) -> str:
    """`template` in the current language, with its fields filled in."""
    return _make({"msg": template}, fields)


def ntr(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The singular or plural template, as the current language counts `n`, filled in."""
    return _make({"msg": singular, "plural": plural, "n": n}, fields)


def ptr(context: str, template: str, /, **fields: object) -> str:
    """`tr` for a text that reads differently in `context` (gettext's msgctxt)."""
    return _make({"msg": template, "ctx": context}, fields)


def tr_for(word: str, template: str, /, **fields: object) -> str:
    """`tr` for a template whose words agree with `word`, one of a variant's own words
    (English, as in `Variant.biriba_word`): the gendered translation where the catalog
    has one, else the plain one."""
    return _make({"msg": template, "word": word}, fields)


def term(word: str) -> str:
    """One of a variant's own words ("biriba", "buraco", "pot" …) in the current language;
    a word the catalog does not know stays as it is."""
    return _make({"msg": word, "ctx": WORD}, {})


def joined(separator: str, parts: Iterable[str]) -> str:
    """`separator.join(parts)`, keeping each part's data (cards, sentences)."""
    items = list(parts)
    return _message(separator.join(items), {"join": separator, "parts": list(map(_value, items))})


def and_list(items: Iterable[str]) -> str:
    """ "A, B and C" in the current language, each item keeping its data (cards, names)."""
    parts = list(items)
    if len(parts) == 1:
        return parts[0]
    return tr("{names} and {last}", names=joined(", ", parts[:-1]), last=parts[-1])


def upper_first(text: str) -> str:
    """`text` with its first letter upper-case: a label that a translation may start with a
    variant's word ("Μπιρίμπα από μπαλαντέρ" from "{biriba} από μπαλαντέρ")."""
    upper = text[:1].upper() + text[1:]
    return _message(upper, {**text.data, "upper": True}) if isinstance(text, Message) else upper


def data_of(text: str) -> object:
    """What `render` needs to word `text` again: a message's data, else the text itself."""
    return text.data if isinstance(text, Message) else text


def mark(template: str) -> str:
    """Mark `template` as a catalog message kept in a table and translated later by `tr`
    (gettext's ``gettext_noop``): it returns the English template unchanged."""
    return template


def pmark(context: str, template: str) -> str:
    """Mark a catalog message that the engine looks up with a context only known when it
    runs (a gender, with `tr_for`); it returns `template`. Only extraction reads it."""
    del context
    return template


def render(data: object) -> str:
    """A message's `data` (or a plain value) worded in the current language. Stored data
    may come from a file, so its template may only name plain fields ("{cards}", "{text!r}"):
    anything else (an attribute, an index, a format spec) is a ValueError."""
    if not isinstance(data, dict):
        return "" if data is None else str(data)
    if "join" in data:
        return str(data["join"]).join(render(part) for part in data["parts"])
    text = _lookup(_current.get()[0], data)
    values = data.get("values")
    if values:
        _check_fields(text)
        text = text.format(**{name: _rendered(value) for name, value in values.items()})
    if data.get("cap"):
        text = text.capitalize()
    return text[:1].upper() + text[1:] if data.get("upper") else text


def _rendered(value: object) -> object:
    return render(value) if isinstance(value, dict) else value


@cache
def _check_fields(template: str) -> None:
    for _text, name, spec, conversion in string.Formatter().parse(template):
        if name is not None and (not name.isidentifier() or spec or conversion not in {None, "r"}):
            raise ValueError(f"{template!r} names more than plain fields")
