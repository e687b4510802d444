"""Exact points: shares of a partnership's score are kept as fractions, never floats.

>>> format_points(Fraction(2505, 2))
'1252½'
>>> format_points(Fraction(-1, 3))
'−⅓'
>>> format_points(-40)
'−40'
"""

from __future__ import annotations

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


def parse_points(text: str) -> Fraction:
    """Read points as `format_points` writes them (``"1252½"``, ``"−⅓"``), or as a plain
    fraction (``"2505/2"``); ValueError otherwise.

    >>> parse_points("−12½"), parse_points("-⅓"), parse_points("2505/2")
    (Fraction(-25, 2), Fraction(-1, 3), Fraction(2505, 2))
    """
    word = text.strip().replace("−", "-").replace(" ", "")
    sign = -1 if word.startswith("-") else 1
    body = word.lstrip("+-")
    if body and body[-1] in _GLYPHS:
        whole = body[:-1] or "0"
        if not whole.isdigit():
            raise ValueError(tr("{text!r} is not a number of points", text=text))
        return sign * (int(whole) + _GLYPHS[body[-1]])
    if not body or not all(ch.isdigit() or ch == "/" for ch in body) or body.count("/") > 1:
        raise ValueError(tr("{text!r} is not a number of points", text=text))
    return sign * Fraction(body)
