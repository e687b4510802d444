"""A value as a client sent it, quoted in a message: JSON (null, true, "x"), cut short."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.web.gettext import gettext as _


def show(value: Any) -> str:
    """A value as the client sent it, in JSON (null, true, "x"), for error messages."""
    return json.dumps(value, ensure_ascii=False)


def short(value: Any) -> str:
    """A value for a message, cut short: a number of 4,000 digits is no message."""
    text = show(value) if not isinstance(value, int) or abs(value) < 10**30 else _("a huge number")
    return text if len(text) <= 40 else text[:39] + "…"
