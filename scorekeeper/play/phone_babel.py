"""Flask-Babel's `gettext`, `ngettext` and `lazy_gettext` for the rules engine on the phone:
Pyodide has no Flask, so the engine's zip (engine_files.py) carries this file as
`flask_babel.py`, and the word builders the server's pages use (`scorekeeper/words`: the
meld verdicts, the deal) run there unchanged, in the page's language, from the same catalog.

They behave as Flask-Babel 4's: the catalog's text, filled with `%` only when given values
(`ngettext` always has `num`). The server never imports this module.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.i18n import translations


def gettext(string: str, **variables: Any) -> str:
    text = translations().gettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    return translations().ngettext(singular, plural, num) % variables


class LazyString:
    """A text looked up when it is shown, as Flask-Babel's: module-level tables of words
    (game_words.py) are built before the language is set."""

    def __init__(self, string: str, **variables: Any) -> None:
        self._string = string
        self._variables = variables

    def __str__(self) -> str:
        return gettext(self._string, **self._variables)

    def __html__(self) -> str:
        return str(self)


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    return LazyString(string, **variables)
