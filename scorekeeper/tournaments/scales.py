"""Victory Point scales: how a table's Match Points become VP (tournaments.md §2 and §3).

A scale is a `VPScale`: an id, a name and ordered rows ``ScaleRow(up_to, winner, loser)``.
The difference of MP between the two entries of a table is taken in steps of 5, rounded
down, and falls in the FIRST row whose ``up_to`` is at least that (inclusive thresholds); the
last row's ``up_to`` is None and takes every larger difference. tournaments.md prints its
tables as ranges of multiples of 5 (0–50, 55–150, …) and says a difference between two rows
(52) belongs to the lower row: the row of the lower differences, 0–50, as 52 rounded down to
a multiple of 5 is 50. So 0–54 → 10–10, 55–154 → 11–9, …, 1505 and over → 20–0. That step
is the preset's (`VPScale.step`); win-draw-loss and a custom scale read differences exactly.
Every row's winner + loser is the same total (20 on the Burraco scales, 2
on win-draw-loss), and row 1, where equal MP fall, splits it evenly.

A `VPScale` is checked when it is built: an invalid one cannot exist.

Public API:

* `vp(scale, mp_a, mp_b) -> tuple[int, int]`: the VP of side A and side B. MP may be
  negative (a Biriba match total can be); only their difference counts.
* `row_for(scale, difference) -> ScaleRow`: the row a difference (≥ 0) falls in.
* `SCALES`: the presets by id (`burraco-3-deals`, `burraco-4-deals`, `win-draw-loss`), in
  the order a form offers them; `find_scale(scale_id) -> VPScale` looks one up and raises
  `ScaleError` for an unknown id.
* `parse_scale(data) -> VPScale`: a custom scale (id `CUSTOM`) from the API's JSON form,
  ``[{"up_to": 50, "winner": 10, "loser": 10}, …, {"up_to": null, "winner": 20, "loser":
  0}]``; `scale_to_json(scale)` gives that form back, and ``parse_scale(scale_to_json(s))``
  has the rows of `s`.
* `ScaleError(ValueError)`: `messages` lists EVERY problem found, each an English sentence
  that names the row ("Row 3's up_to (100) must be above row 2's (150)."), made with the
  engine's `tr` and so in the current language (`scorekeeper.rules.i18n.set_translations`,
  which the web layer sets per request) and extracted into the catalog; the service answers
  them with a 400. ``str(error)`` joins them.
* Bounds, so a request cannot make the work or the numbers large: at most `MAX_ROWS` rows,
  an ``up_to`` at most `MAX_UP_TO`, a row's VP adding up to at most `MAX_TOTAL`.

A scale's `name` is an English catalog message (marked, not translated): show it with
``tr(scale.name)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from scorekeeper.rules.i18n import mark, tr

MAX_ROWS = 30
MAX_UP_TO = 1_000_000
MAX_TOTAL = 100
#: The id of a scale parsed from its rows rather than chosen from the presets.
CUSTOM = "custom"
_FIELDS = ("up_to", "winner", "loser")
_T = TypeVar("_T")


class ScaleError(ValueError):
    """A scale that cannot be used; `messages` names every problem, one sentence each."""

    def __init__(self, messages: Iterable[str]) -> None:
        self.messages: tuple[str, ...] = tuple(messages)
        super().__init__(" ".join(self.messages))


@dataclass(frozen=True)
class ScaleRow:
    """Differences up to `up_to` MP (inclusive; None: any larger one) give `winner` VP to the
    entry with more MP and `loser` VP to the other."""

    up_to: int | None
    winner: int
    loser: int


@dataclass(frozen=True)
class VPScale:
    """A preset (`id` its registry key) or a custom scale (`id` CUSTOM); `name` is an English
    catalog message. Building one with rows that break a rule raises ScaleError."""

    id: str
    name: str
    rows: tuple[ScaleRow, ...]
    #: The steps MP differences are read in, rounded down: 5 on the Burraco tables, whose rows
    #: are ranges of multiples of 5; 1 (exact thresholds) on win-draw-loss and custom scales.
    step: int = 1

    def __post_init__(self) -> None:
        problems = _problems(
            [_Row(number, row.up_to, row.winner, row.loser) for number, row in _numbered(self.rows)]
        )
        if problems:
            raise ScaleError(problems)

    @property
    def total(self) -> int:
        """The VP a table shares out, the same in every row."""
        return self.rows[0].winner + self.rows[0].loser


def row_for(scale: VPScale, difference: int) -> ScaleRow:
    """The row of `scale` that a difference of `difference` MP (not negative) falls in."""
    if difference < 0:
        raise ValueError(f"a difference of MP is not negative, not {difference}")
    # Between two rows of a table of multiples of 5 is the lower row (52 goes with 50).
    stepped = difference - difference % scale.step
    for row in scale.rows:
        if row.up_to is None or stepped <= row.up_to:
            return row
    raise AssertionError("a scale's last row is open-ended")  # VPScale checks it


def vp(scale: VPScale, mp_a: int, mp_b: int) -> tuple[int, int]:
    """The VP of side A and of side B at a table where they scored `mp_a` and `mp_b` MP."""
    row = row_for(scale, abs(mp_a - mp_b))
    # Equal MP fall in row 1, whose winner and loser VP are equal: either order is right.
    return (row.winner, row.loser) if mp_a >= mp_b else (row.loser, row.winner)


def find_scale(scale_id: str) -> VPScale:
    """The preset scale `scale_id`; a ScaleError naming the ones there are otherwise."""
    try:
        return SCALES[scale_id]
    except KeyError:
        raise ScaleError(
            [
                tr(
                    "There is no VP scale {scale}; choose one of {scales}.",
                    scale=_cut(scale_id),
                    scales=", ".join(SCALES),
                )
            ]
        ) from None


def scale_to_json(scale: VPScale) -> list[dict[str, int | None]]:
    """The rows of `scale` in the API's JSON form, which `parse_scale` reads back."""
    return [{"up_to": row.up_to, "winner": row.winner, "loser": row.loser} for row in scale.rows]


def parse_scale(data: object) -> VPScale:
    """A custom scale from its JSON form (a list of {"up_to", "winner", "loser"} objects), or
    a ScaleError listing every problem in it."""
    if not isinstance(data, list):
        raise ScaleError([tr("A VP scale must be a list of rows.")])
    if not data:
        raise ScaleError([tr("A VP scale needs at least one row.")])
    if len(data) > MAX_ROWS:
        # Nothing more is read: the rows' own problems could be many.
        raise ScaleError(
            [
                tr(
                    "A VP scale has at most {most} rows; this one has {count}.",
                    most=MAX_ROWS,
                    count=len(data),
                )
            ]
        )
    problems: list[tuple[int, str]] = []
    rows = [_read_row(number, item, problems) for number, item in _numbered(data)]
    # Rows with a missing or mistyped field are still checked against the others where
    # they can be, so one request hears of every problem at once.
    problems.extend(_numbered_problems(rows))
    problems.sort(key=lambda problem: problem[0])  # stable: a row's own problems first
    if problems:
        raise ScaleError(message for _number, message in problems)
    return VPScale(
        CUSTOM,
        mark("Custom scale"),
        tuple(ScaleRow(row.up_to, _int(row.winner), _int(row.loser)) for row in rows),
    )


@dataclass
class _Row:
    """A row being checked: a field that is None besides up_to is missing or not a number
    (already said); `up_to_read` is False when up_to is."""

    number: int
    up_to: int | None
    winner: int | None
    loser: int | None
    up_to_read: bool = True


def _numbered(items: Iterable[_T]) -> Iterable[tuple[int, _T]]:
    return enumerate(items, start=1)


def _int(value: int | None) -> int:
    assert value is not None  # parse_scale only builds rows that passed every check
    return value


def _shown(value: object) -> str:
    """A value as the request sent it (JSON), cut short: messages quote what they reject."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from JSON: a Python caller's object
        try:
            text = repr(value)
        except ValueError:  # an int too long to write out
            text = type(value).__name__
    return _cut(text)


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _read_row(number: int, item: object, problems: list[tuple[int, str]]) -> _Row:
    if not isinstance(item, dict):
        problems.append(
            (number, tr("Row {row} must be an object with up_to, winner and loser.", row=number))
        )
        return _Row(number, None, None, None, up_to_read=False)
    unknown = sorted(str(key) for key in item if key not in _FIELDS)
    if unknown:
        problems.append(
            (
                number,
                tr(
                    "Row {row} has fields a VP scale does not have: {fields}.",
                    row=number,
                    fields=_cut(", ".join(unknown)),
                ),
            )
        )
    values: dict[str, int | None] = {}
    for field in _FIELDS:
        values[field] = None
        if field not in item:
            problems.append((number, tr("Row {row} has no {field}.", row=number, field=field)))
            continue
        value = item[field]
        if isinstance(value, float) and value.is_integer():
            values[field] = int(value)  # JSON may write a whole number as 50.0
        elif isinstance(value, int) and not isinstance(value, bool):
            values[field] = value
        elif field == "up_to" and value is None:
            continue
        elif field == "up_to":
            problems.append(
                (
                    number,
                    tr(
                        "Row {row}'s {field} must be a whole number or null, not {value}.",
                        row=number,
                        field=field,
                        value=_shown(value),
                    ),
                )
            )
        else:
            problems.append(
                (
                    number,
                    tr(
                        "Row {row}'s {field} must be a whole number, not {value}.",
                        row=number,
                        field=field,
                        value=_shown(value),
                    ),
                )
            )
    up_to_read = "up_to" in item and (item["up_to"] is None or values["up_to"] is not None)
    return _Row(number, values["up_to"], values["winner"], values["loser"], up_to_read)


def _problems(rows: list[_Row]) -> list[str]:
    return [message for _number, message in _numbered_problems(rows)]


_Say = Callable[[int, str], None]


def _numbered_problems(rows: list[_Row]) -> list[tuple[int, str]]:
    """Every problem of the rows' values, alone and together, with the row it is in (0: the
    scale as a whole). A value already reported missing or mistyped is None and skipped."""
    problems: list[tuple[int, str]] = []

    def say(number: int, message: str) -> None:
        problems.append((number, message))

    if not rows:
        say(0, tr("A VP scale needs at least one row."))
    elif len(rows) > MAX_ROWS:
        say(
            0,
            tr(
                "A VP scale has at most {most} rows; this one has {count}.",
                most=MAX_ROWS,
                count=len(rows),
            ),
        )
    else:
        for row in rows:
            _check_range(row, say)
        _check_up_tos(rows, say)
        _check_vps(rows, say)
    return problems


def _check_range(row: _Row, say: _Say) -> None:
    """A field's own bounds: not negative, not above its most."""
    for field, value, most in (
        ("up_to", row.up_to, MAX_UP_TO),
        ("winner", row.winner, MAX_TOTAL),
        ("loser", row.loser, MAX_TOTAL),
    ):
        if value is not None and value < 0:
            say(
                row.number,
                tr(
                    "Row {row}'s {field} ({value}) must not be negative.",
                    row=row.number,
                    field=field,
                    value=value,
                ),
            )
        elif value is not None and value > most:
            say(
                row.number,
                tr(
                    "Row {row}'s {field} ({value}) must be at most {most}.",
                    row=row.number,
                    field=field,
                    value=_shown(value),
                    most=most,
                ),
            )


def _in_range(value: int | None, most: int) -> bool:
    return value is not None and 0 <= value <= most


def _check_up_tos(rows: list[_Row], say: _Say) -> None:
    """Only the last row is open-ended, and the thresholds rise from row to row."""
    last = rows[-1]
    previous: _Row | None = None  # the nearest earlier row with a threshold in range
    for row in rows:
        if not row.up_to_read:
            continue
        if row.up_to is None and row is not last:
            say(
                row.number,
                tr(
                    "Row {row}'s up_to is null, but only the last row may leave it open.",
                    row=row.number,
                ),
            )
        elif row.up_to is not None and row is last:
            say(
                row.number,
                tr(
                    "Row {row} is the last row, so its up_to must be null: it takes every "
                    "larger difference.",
                    row=row.number,
                ),
            )
        if row.up_to is None or not _in_range(row.up_to, MAX_UP_TO):
            continue
        if previous is not None and previous.up_to is not None and row.up_to <= previous.up_to:
            say(
                row.number,
                tr(
                    "Row {row}'s up_to ({up_to}) must be above row {previous}'s "
                    "({previous_up_to}).",
                    row=row.number,
                    up_to=row.up_to,
                    previous=previous.number,
                    previous_up_to=previous.up_to,
                ),
            )
        previous = row


def _check_vps(rows: list[_Row], say: _Say) -> None:
    """Winner at least loser; row 1 even; the winner's VP never falling; one total, in
    bounds, in every row."""
    first: _Row | None = None  # the first row with both VP in range: its total is the rule
    previous: _Row | None = None  # the nearest earlier such row
    for row in rows:
        winner, loser = row.winner, row.loser
        if winner is None or loser is None:
            continue
        if not (_in_range(winner, MAX_TOTAL) and _in_range(loser, MAX_TOTAL)):
            continue
        if winner < loser:
            say(
                row.number,
                tr(
                    "Row {row} gives the loser more VP ({loser}) than the winner ({winner}).",
                    row=row.number,
                    loser=loser,
                    winner=winner,
                ),
            )
        if row.number == 1 and winner != loser:
            say(
                row.number,
                tr(
                    "Row 1 must give both sides the same VP, not {winner}–{loser}: equal MP "
                    "fall in it.",
                    winner=winner,
                    loser=loser,
                ),
            )
        if first is None or previous is None:
            _check_total(row, winner + loser, say)
            first = row
        else:
            _check_against(row, first, previous, say)
        previous = row


def _check_total(row: _Row, total: int, say: _Say) -> None:
    """The first usable row's total, which every later row is held to."""
    if total == 0:
        say(
            row.number,
            tr("Row {row}'s VP add up to 0: a scale must give a table some VP.", row=row.number),
        )
    elif total > MAX_TOTAL:
        say(
            row.number,
            tr(
                "Row {row}'s VP add up to {total}; a scale gives a table at most {most} VP.",
                row=row.number,
                total=total,
                most=MAX_TOTAL,
            ),
        )


def _check_against(row: _Row, first: _Row, previous: _Row, say: _Say) -> None:
    """A row against the first usable one (the same total: a row off it is named alone) and
    the nearest earlier usable one (no fewer VP for the winner)."""
    winner, loser = _int(row.winner), _int(row.loser)
    total = _int(first.winner) + _int(first.loser)
    if winner + loser != total:
        say(
            row.number,
            tr(
                "Row {row}'s VP add up to {total}, but row {first}'s add up to "
                "{first_total}: every row must share out the same total.",
                row=row.number,
                total=winner + loser,
                first=first.number,
                first_total=total,
            ),
        )
    elif winner < _int(previous.winner):
        say(
            row.number,
            tr(
                "Row {row} gives the winner fewer VP ({winner}) than row {previous} does "
                "({previous_winner}): a larger difference must not give less.",
                row=row.number,
                winner=winner,
                previous=previous.number,
                previous_winner=previous.winner,
            ),
        )


# The presets come last: building one checks it with the functions above.


def _preset(
    scale_id: str, name: str, rows: Iterable[tuple[int | None, int, int]], step: int = 1
) -> VPScale:
    return VPScale(scale_id, name, tuple(ScaleRow(*row) for row in rows), step)


def _burraco(thresholds: tuple[int, ...]) -> list[tuple[int | None, int, int]]:
    """10–10 up to the first threshold, one VP more to the winner per row, 20–0 beyond."""
    ups: tuple[int | None, ...] = (*thresholds, None)
    return [(up_to, 10 + step, 10 - step) for step, up_to in enumerate(ups)]


BURRACO_3_DEALS = _preset(
    "burraco-3-deals",
    mark("Burraco, 3 deals"),
    _burraco((50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500)),
    step=5,
)
BURRACO_4_DEALS = _preset(
    "burraco-4-deals",
    mark("Burraco, 4 deals"),
    _burraco((100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000)),
    step=5,
)
WIN_DRAW_LOSS = _preset("win-draw-loss", mark("Win, draw or loss"), [(0, 1, 1), (None, 2, 0)])

SCALES: Mapping[str, VPScale] = MappingProxyType(
    {scale.id: scale for scale in (BURRACO_3_DEALS, BURRACO_4_DEALS, WIN_DRAW_LOSS)}
)


__all__ = [
    "BURRACO_3_DEALS",
    "BURRACO_4_DEALS",
    "CUSTOM",
    "MAX_ROWS",
    "MAX_TOTAL",
    "MAX_UP_TO",
    "SCALES",
    "WIN_DRAW_LOSS",
    "ScaleError",
    "ScaleRow",
    "VPScale",
    "find_scale",
    "parse_scale",
    "row_for",
    "scale_to_json",
    "vp",
]
