"""The one URL converter for ids: ASCII digits only, within a row id's range.

Werkzeug's own ``int`` converter matches ``\\d+``, which in Python takes every script's
digits: ``/clubs/%EF%BC%91`` (a fullwidth one) named club 1, past any proxy or log rule
written for ASCII paths. This one replaces it under the same name, so every ``<int:…>`` in
every route (and any added later) reads ids the same way: anything else is a 404.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter, ValidationError

#: Digits enough for any number a URL of ours could mean, past every integer column.
MAX_LENGTH = 100


class RowIdConverter(BaseConverter):
    """A row's id in a path: ASCII digits. A number that names no row (0, past 2³¹−1) still
    reaches the view, which says what is missing ("There is no such club…"); one too long
    to be any number is a plain 404."""

    regex = r"[0-9]+"
    weight = 50  # as werkzeug's number converters: a number beats a free string

    def to_python(self, value: str) -> int:
        if len(value) > MAX_LENGTH:  # int() of thousands of digits is slow, then refused
            raise ValidationError()
        return int(value)

    def to_url(self, value: object) -> str:
        return str(int(value))  # type: ignore[call-overload]


def register(app: Flask) -> None:
    """Before any blueprint: a rule binds its converters when it is added."""
    app.url_map.converters["int"] = RowIdConverter
