"""Values read from an imported file, each refusal naming where in the file it is (a JSON
path such as ``matches[3].hands[0].number``) in a sentence for the person importing it."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.web.gettext import gettext as _

#: Row ids and counters are 32-bit integers on PostgreSQL.
MOST_NUMBER = 2**31 - 1
#: The days a file's days and times fall in.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(9998, 12, 31)
#: Line breaks and tabs are text in a reason typed in a textarea; other control characters
#: are in no name or reason the forms take.
_LINE_BREAKS = frozenset("\t\n\r")


def need_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(_("%(where)s must be a JSON object.", where=where))
    return value


def need_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Invalid(_("%(where)s must be a list.", where=where))
    return value


def need_number(value: Any, where: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value < 2**31:
        raise Invalid(
            _("%(where)s must be a whole number from %(least)d.", where=where, least=least)
        )
    return value


def need_between(value: Any, where: str, least: int, most: int) -> int:
    """A whole number (not a bool) from `least` to `most`."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise Invalid(
            _(
                "%(where)s must be a whole number from %(least)d to %(most)d.",
                where=where,
                least=least,
                most=most,
            )
        )
    return value


def need_flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise Invalid(_("%(where)s must be true or false.", where=where))
    return value


def need_text(value: Any, where: str, most: int, lines: bool = False) -> str:
    """Text of 1 to `most` characters; on one line unless `lines` (a reason may have several)."""
    if not isinstance(value, str) or not value.strip() or len(value) > most or "\x00" in value:
        raise Invalid(
            _("%(where)s must be text of 1 to %(most)d characters.", where=where, most=most)
        )
    allowed = _LINE_BREAKS if lines else frozenset()
    if any((ch < " " or "\x7f" <= ch < "\xa0") and ch not in allowed for ch in value):
        raise Invalid(
            _(
                "%(where)s must be text of 1 to %(most)d characters, on one line and "
                "without control characters.",
                where=where,
                most=most,
            )
            if not lines
            else _(
                "%(where)s must be text of 1 to %(most)d characters without control characters.",
                where=where,
                most=most,
            )
        )
    return value


def optional_text(value: Any, where: str, most: int = 10_000, lines: bool = False) -> str | None:
    return None if value is None else need_text(value, where, most, lines)


def need_day(value: Any, where: str) -> date:
    try:
        day = date.fromisoformat(value)
    except (TypeError, ValueError):
        raise Invalid(_("%(where)s must be a day such as 2026-03-01.", where=where)) from None
    if not FIRST_DAY <= day <= LAST_DAY:  # (the message is worded only when it is needed)
        _in_calendar(day, where, _("%(where)s must be a day from %(first)s to %(last)s."))
    return day


def need_time(value: Any, where: str) -> datetime:
    try:
        when = datetime.fromisoformat(value)
        # Days at the ends of the calendar overflow when moved to UTC.
        when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except (TypeError, ValueError, OverflowError):
        raise Invalid(
            _("%(where)s must be a time such as 2026-03-01T20:00:00+00:00.", where=where)
        ) from None
    if not FIRST_DAY <= when.date() <= LAST_DAY:
        _in_calendar(when.date(), where, _("%(where)s must be a time from %(first)s to %(last)s."))
    return when


def _in_calendar(day: date, where: str, message: str) -> None:
    """Days far from the calendar's ends: the pages count a day past a season's last one,
    which overflows at 9999-12-31."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise Invalid(
            message % {"where": where, "first": FIRST_DAY.isoformat(), "last": LAST_DAY.isoformat()}
        )


def check_values(data: Any, where: str = "the file") -> None:
    """Refuse text no page can show and no database stores, wherever it is in the file: an
    unpaired surrogate (no UTF-8 at all) or NUL (PostgreSQL refuses it), in keys too; and
    NaN or Infinity (JSON has no such number, so neither the database nor an export would
    take it back)."""
    if _clean(data):
        return
    for path, value in _values(data, where):
        if isinstance(value, float):
            if not math.isfinite(value):
                raise Invalid(_("%(where)s is not a finite number.", where=path))
            continue
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Invalid(
                _(
                    "%(where)s holds an unpaired surrogate (\\ud800–\\udfff), which is no text.",
                    where=path,
                )
            ) from None
        if "\x00" in value:
            raise Invalid(
                _(
                    "%(where)s holds the NUL character (\\u0000), which no database stores.",
                    where=path,
                )
            )


def _clean(data: Any) -> bool:
    """The common case, quickly (the encoder is C): whether `data` is certainly clean. NUL
    is written as an escape, which a string may also spell out, so a file holding one is
    walked slowly to say where the fault is, if there is one."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (ValueError, TypeError, RecursionError):  # UnicodeEncodeError is a ValueError
        return False
    return "\\u0000" not in text


def _values(data: Any, where: str) -> Iterator[tuple[str, str | float]]:
    """Every string (keys too) and float in `data` with the path of the value that holds
    it, in the file's order; walked without recursion, however deep the JSON goes."""
    stack: list[tuple[str, Any]] = [(where, data)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str | float):
            yield path, item
        elif isinstance(item, dict):
            # The file's own keys are plain names ("club"); deeper ones join with a dot.
            prefix = "" if path == "the file" else f"{path}."
            for key in item:
                if isinstance(key, str):
                    yield path, key
            stack.extend((f"{prefix}{key}", value) for key, value in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", value) for i, value in reversed(list(enumerate(item))))
