"""Exact points: shares of a partnership's score are kept as fractions, never floats.

>>> format_points(Fraction(2505, 2))
'1252½'
>>> format_points(Fraction(-1, 3))
'−⅓'
>>> format_points(-40)
'−40'
"""

from __future__ import annotations

import re
from fractions import Fraction

from .i18n import tr

_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
}


def format_points(points: Fraction | int) -> str:
    """Points as players write them: ``1252½``; a minus sign, never a rounded half."""
    # Most points are whole: a page of a long match writes thousands of them.
    if isinstance(points, int) or points.denominator == 1:
        whole_points = int(points)
        return f"−{-whole_points}" if whole_points < 0 else str(whole_points)
    value = Fraction(points)
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole, part = divmod(value, 1)
    if not part:
        return f"{sign}{whole}"
    glyph = _VULGAR.get(part, f" {part.numerator}/{part.denominator}")
    return f"{sign}{whole or ''}{glyph}"


def points_json(points: Fraction | int) -> int | str:
    """A whole number stays a JSON number; a share with a half or a third becomes its text,
    so no client ever sees a rounded float."""
    value = Fraction(points)
    if value.denominator == 1:
        return int(value)
    return format_points(value)


_GLYPHS = {glyph: fraction for fraction, glyph in _VULGAR.items()}
# ASCII digits only (str.isdigit also takes "²", which int() refuses), and never a zero
# denominator (Fraction would raise ZeroDivisionError, not a ValueError naming the text).
_WHOLE = re.compile(r"[0-9]+")
_PLAIN = re.compile(r"[0-9]+(?:/0*[1-9][0-9]*)?")


def parse_points(text: str) -> Fraction:
    """Read points as `format_points` writes them (``"1252½"``, ``"−⅓"``), or as a plain
    fraction (``"2505/2"``); ValueError otherwise.

    >>> parse_points("−12½"), parse_points("-⅓"), parse_points("2505/2")
    (Fraction(-25, 2), Fraction(-1, 3), Fraction(2505, 2))
    """
    word = text.strip().replace("−", "-").replace(" ", "")
    sign = -1 if word.startswith("-") else 1
    body = word[1:] if word[:1] in ("+", "-") else word
    if body and body[-1] in _GLYPHS:
        whole = body[:-1] or "0"
        if not _WHOLE.fullmatch(whole):
            raise ValueError(tr("{text!r} is not a number of points", text=text))
        return sign * (int(whole) + _GLYPHS[body[-1]])
    if not _PLAIN.fullmatch(body):
        raise ValueError(tr("{text!r} is not a number of points", text=text))
    return sign * Fraction(body)
