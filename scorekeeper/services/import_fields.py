"""Values read from an imported file, each refusal naming where in the file it is (a JSON
path such as ``matches[3].hands[0].number``) in a sentence for the person importing it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from flask_babel import gettext as _

from scorekeeper.services.errors import Invalid


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


def need_text(value: Any, where: str, most: int) -> str:
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > most
        or "\x00" in value
        or not _utf8(value)  # an unpaired surrogate: no database stores it
    ):
        raise Invalid(
            _("%(where)s must be text of 1 to %(most)d characters.", where=where, most=most)
        )
    return value


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def optional_text(value: Any, where: str, most: int = 10_000) -> str | None:
    return None if value is None else need_text(value, where, most)


def need_day(value: Any, where: str) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise Invalid(_("%(where)s must be a day such as 2026-03-01.", where=where)) from None


def need_time(value: Any, where: str) -> datetime:
    try:
        when = datetime.fromisoformat(value)
        # 0001-01-01T00:00+14:00 is a time before the calendar's first in UTC: OverflowError.
        return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except (TypeError, ValueError, OverflowError):
        raise Invalid(
            _("%(where)s must be a time such as 2026-03-01T20:00:00+00:00.", where=where)
        ) from None
