"""Reading a JSON request body safely for both APIs: any JSON the client sends gets an
answer naming what is wrong, never a 500 (deep nesting, unpaired surrogates, NUL)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import request

from scorekeeper.services.errors import Invalid


def read_json() -> Any:
    """The request body parsed as JSON, whatever its Content-Type says."""
    try:
        body = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise Invalid("The request body is not valid JSON: send a JSON object.") from None
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
        raise Invalid("The request holds an unpaired surrogate (\\ud800–\\udfff).") from None
    if "\x00" in text:
        raise Invalid("Text in the request may not hold the NUL character (\\u0000).")
