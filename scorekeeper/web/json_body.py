"""Reading a JSON request body safely for both APIs: any JSON the client sends gets an
answer naming what is wrong, never a 500 (deep nesting, unpaired surrogates, NUL); an
object's fields checked, and a created thing answered."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Response, abort, jsonify, request

from scorekeeper.errors import Invalid
from scorekeeper.quote import short, show
from scorekeeper.web.gettext import gettext as _


def read_json() -> Any:
    """The request body parsed as JSON, whatever its Content-Type says."""
    try:
        body = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise Invalid(_("The request body is not valid JSON: send a JSON object.")) from None
    check_strings(body)
    return body


def check_strings(data: Any) -> None:
    """Refuse text no database stores: NUL (PostgreSQL refuses it) and unpaired surrogates
    (not UTF-8 at all). Walked without recursion, however deep the JSON goes."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            check_text(item)


def check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(_("The request holds an unpaired surrogate (\\ud800–\\udfff).")) from None
    if "\x00" in text:
        raise Invalid(_("Text in the request may not hold the NUL character (\\u0000)."))


def object_body(allowed: frozenset[str], required: Iterable[str] = ()) -> dict[str, Any]:
    """The request's JSON object, with only `allowed` fields and every `required` one."""
    if not request.is_json:
        abort(415, description=_("Send the body as JSON, with Content-Type: application/json."))
    body = read_json()
    if not isinstance(body, dict):
        raise Invalid(
            _("The request body must be a JSON object, not %(value)s.", value=short(body))
        )
    unknown = sorted(set(body) - allowed)
    if unknown:
        fields = ", ".join(show(field) for field in sorted(allowed))
        raise Invalid(
            _(
                "%(field)s is not a field here; the fields are %(fields)s.",
                field=show(unknown[0]),
                fields=fields,
            )
        )
    missing = [field for field in required if field not in body]
    if missing:
        raise Invalid(_("%(field)s is missing.", field=show(missing[0])))
    return body


def text_field(body: Mapping[str, Any], field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str):
        raise Invalid(
            _("%(field)s must be text, not %(value)s.", field=show(field), value=show(value))
        )
    return value


def created(body: dict[str, Any], location: str) -> Response:
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response
