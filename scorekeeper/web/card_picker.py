"""The card picker's HTML drawn once per language, field and label, not on every page.

templates/macros/cards.html draws 53 keys, each with its spoken name in the page's language:
a third of the hand page's time (about 3 of its 8 ms) went into it on every hand form, while
what it draws changes only with the language and the macro's two arguments. The pages call
this global as they called the macro; it draws the macro the first time and keeps the HTML.
"""

from __future__ import annotations

from flask import Flask, current_app
from flask_babel import get_locale
from markupsafe import Markup

#: Where each app keeps the drawn pickers (app.extensions): a few entries, one per language
#: and page kind, since the arguments come from the templates, never from a request.
KEPT = "card_picker_html"
KIND = "card_picker"  # the macro's name in macros/cards.html


def card_picker(target_id: str = "", label: str | None = None) -> Markup:
    """The card picker as macros/cards.html's `card_picker` draws it (see its notes)."""
    kept: dict[tuple[str, str, str | None], Markup] = current_app.extensions[KEPT]
    key = (str(get_locale()), target_id, None if label is None else str(label))
    html = kept.get(key)
    # A template edited while the app runs (auto_reload, as `flask run --debug` has it) is
    # drawn anew every time.
    if html is None or current_app.jinja_env.auto_reload:
        macro = getattr(current_app.jinja_env.get_template("macros/cards.html").module, KIND)
        html = kept[key] = Markup(macro(target_id=target_id, label=label))
    return html


def init_app(app: Flask) -> None:
    app.extensions[KEPT] = {}
    app.add_template_global(card_picker)
