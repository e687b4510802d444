"""The base of every page form: Flask-WTF's FlaskForm, with the request read so that each
field gets what it can take.

Flask-WTF hands a field whatever the request holds under its name: a JSON body's values as
they are (a number, a list, an object), and an uploaded file under any name. A text field
then failed on `len()` or `.strip()` with a 500, and an unpaired surrogate from a JSON
escape reached the database. Here a JSON body (a script may still log in with one) must be an
object of text, numbers, booleans or lists of them, each read as text; files reach only the
form's file fields; and anything else is a 400 naming what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request
from flask_wtf import FlaskForm
from flask_wtf.form import _Auto  # Flask-WTF's "read the request" marker
from werkzeug.datastructures import CombinedMultiDict, MultiDict
from wtforms import FileField

from scorekeeper.errors import Invalid
from scorekeeper.numbers import short
from scorekeeper.web.gettext import gettext as _


class PageForm(FlaskForm):
    class Meta(FlaskForm.Meta):
        def wrap_formdata(self, form: PageForm, formdata: Any) -> Any:
            if formdata is not _Auto or not form.is_submitted():
                return super().wrap_formdata(form, formdata)
            if request.files:
                names = {f.name for f in form if isinstance(f, FileField)}
                files = MultiDict((k, v) for k, v in request.files.items(multi=True) if k in names)
                return CombinedMultiDict((files, request.form))
            if request.form or not request.is_json:
                return super().wrap_formdata(form, formdata)
            return json_fields()


def json_fields() -> MultiDict[str, str]:
    """A JSON body as form fields: an object whose values are text, numbers, booleans, null
    or lists of those, each read as text (true "true", null ""). Anything else is Invalid."""
    try:
        body = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        body = None
    if not isinstance(body, dict):
        raise Invalid(_("A form sent as JSON must be one JSON object of its fields."))
    fields: MultiDict[str, str] = MultiDict()
    for name, value in body.items():
        _storable(name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict | list):
                raise Invalid(
                    _("The field “%(name)s” must be text or a list of text.", name=short(name))
                )
            fields.add(name, _storable(_text(item)))
    return fields


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value)  # a number as JSON writes it


def _storable(text: str) -> str:
    """`text`, unless it holds what no database stores (as guards.py refuses in a form)."""
    if "\x00" in text or _unpaired(text):
        raise Invalid(
            _("Text in the request may not hold the NUL character or an unpaired surrogate.")
        )
    return text


def _unpaired(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
