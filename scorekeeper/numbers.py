"""The one reader of whole numbers and ids in request data (query strings, form fields,
headers): ASCII digits only and few of them, so "²" (which str.isdigit takes and int()
refuses) and numbers of thousands of digits (which int() refuses past 4,300, and databases
overflow long before) are a 400 naming the value, never a 500."""

from __future__ import annotations

#: Row ids are 32-bit integers on PostgreSQL (SQLite allows 64 bits); a larger number sent
#: in a URL or a JSON body names no row, and must not reach the database as a query error.
MAX_ROW_ID = 2**31 - 1
#: Digits enough for any id or count (a BIGINT holds 18), and no more.
MAX_DIGITS = 18


def whole_number(text: str | None, most: int | None = None) -> int | None:
    """`text` as a whole number of 0 or more (surrounding spaces allowed), or None when it
    is anything else: empty, signed, not ASCII digits, too long, or above `most`."""
    if text is None:
        return None
    text = text.strip()
    if not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return None if most is not None and value > most else value


def signed_number(text: str | None, most: int) -> int | None:
    """`text` as a whole number from -`most` to `most` with at most one leading minus
    ("--12", "²" and "-" are None), or None when it is anything else."""
    if text is None:
        return None
    text = text.strip()
    negative = text.startswith("-")
    value = whole_number(text[1:] if negative else text, most)
    if value is None or (negative and text[1:2] in ("", "-", " ", "+")):
        return None
    return -value if negative else value


def row_id(text: str | None) -> int | None:
    """`text` as a row's id (1 to 2³¹−1), or None when it cannot be one."""
    value = whole_number(text, MAX_ROW_ID)
    return value if value else None


def short(text: str, limit: int = 40) -> str:
    """Text quoted in a message, cut to `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_row_id(value: object) -> bool:
    """Whether `value` could be a row's id: a whole number (not a bool) in the id range."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ROW_ID
