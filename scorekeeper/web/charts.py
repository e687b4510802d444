"""Line charts as SVG geometry: series of numbers in, path data, ticks and guides out.

No chart library and no Flask here: templates/macros/charts.html draws a `Chart` as inline
SVG, and static/style.css colours it from the theme's variables (classes, never style
attributes), so a chart follows the light and dark themes like the rest of the page.
Coordinates are in the SVG's own units (its viewBox); the browser scales it to the screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: The size of a chart's viewBox: drawn at about 330 px on a 390 px phone, so a unit is
#: about a pixel and the 12-unit labels stay readable.
WIDTH = 340
HEIGHT = 210
#: Room around the plot: right for the guide labels' end, bottom for the hand numbers.
TOP, RIGHT, BOTTOM = 12.0, 10.0, 34.0
#: Label size in viewBox units, and the width one character of it takes (digits, roughly).
FONT = 12
CHAR_WIDTH = 7.2
#: At most this many labels along the x axis, so they never run into each other.
MAX_X_LABELS = 8
#: Dots at the points only while there are few enough to tell apart.
MAX_MARKERS = 24
#: Lines are told apart by colour and dash pattern: this many styles, then they repeat.
STYLES = 6


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name and its values at x = 0, 1, 2, …"""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Tick:
    at: float  # the position along its axis, in viewBox units
    label: str


@dataclass(frozen=True, slots=True)
class Guide:
    """A labelled horizontal line across the plot, such as the target or zero."""

    y: float
    label: str
    kind: str  # its CSS modifier: chart-guide-<kind>


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    style: int  # chart-line-<style>: colour and dash pattern
    path: str  # SVG path data
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: float  # the plot's box
    top: float
    right: float
    bottom: float
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    guides: tuple[Guide, ...]
    markers: bool  # draw a dot at every point


def nice_step(span: float, count: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts `span` into at most about
    `count` parts."""
    if span <= 0 or count < 1:
        return 1.0
    raw = span / count
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values from a multiple of the step at or below `low` to one at or above
    `high`; a flat range is widened so there is always a span."""
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    step = nice_step(high - low, count)
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    steps = round((last - first) / step)
    # Rounded to the step's own decimals, so 0.1 + 0.2 prints as 0.3.
    digits = max(0, -math.floor(math.log10(step)))
    return [round(first + i * step, digits) for i in range(steps + 1)]


def plain(value: float) -> str:
    """A tick label: whole numbers without decimals, others with one; a real minus sign."""
    text = f"{value:.0f}" if value == int(value) else f"{value:.1f}"
    return text.replace("-", "−")


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    guides: Sequence[tuple[float, str, str]] = (),
    label: Callable[[float], str] = plain,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Chart:
    """Lay out `series` over x = 0 … n−1 (labelled with `x_labels`), with horizontal
    `guides` given as (value, label, kind). The y range covers every value and guide."""
    count = max((len(s.values) for s in series), default=0)
    if len(x_labels) < count:
        raise ValueError(f"{count} points need {count} x labels, not {len(x_labels)}")
    values = [v for s in series for v in s.values] + [g[0] for g in guides]
    ticks = nice_ticks(min(values, default=0.0), max(values, default=0.0))
    y_labels = [label(t) for t in ticks]
    left = round(8 + CHAR_WIDTH * max(len(text) for text in y_labels), 1)
    right, top, bottom = width - RIGHT, TOP, height - BOTTOM
    low, high = ticks[0], ticks[-1]

    # Positions are rounded to a tenth of a unit: finer is invisible, and the page smaller.
    def x_at(index: int) -> float:
        return round(left if count < 2 else left + (right - left) * index / (count - 1), 1)

    def y_at(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    lines = []
    for number, one in enumerate(series):
        points = tuple((x_at(i), y_at(v)) for i, v in enumerate(one.values))
        lines.append(Line(one.name, number % STYLES, path_data(points), points))
    stride = nice_stride(count)
    return Chart(
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        lines=tuple(lines),
        x_ticks=tuple(Tick(x_at(i), x_labels[i]) for i in range(0, count, stride)),
        y_ticks=tuple(Tick(y_at(t), text) for t, text in zip(ticks, y_labels, strict=True)),
        guides=tuple(Guide(y_at(value), text, kind) for value, text, kind in guides),
        markers=count <= MAX_MARKERS,
    )


def nice_stride(count: int, most: int = MAX_X_LABELS) -> int:
    """Label every 1st, 2nd, 5th, 10th, 20th … point, so at most `most` labels show."""
    stride = 1
    while math.ceil(count / stride) > most:
        stride = next(s for s in _strides() if s > stride)
    return stride


def _strides() -> list[int]:
    return [m * 10**p for p in range(7) for m in (1, 2, 5)]


def path_data(points: Sequence[tuple[float, float]]) -> str:
    """SVG path data through `points`: "M x y L x y …", one decimal at most."""
    return "".join(
        f"{'L' if i else 'M'}{_number(x)} {_number(y)}" for i, (x, y) in enumerate(points)
    )


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True, slots=True)
class Picture:
    chart: Chart
    id: str  # unique on its page: the title and description are found by it
    title: str
    description: str
    x_title: str  # what the x axis counts
    columns: tuple[str, ...]  # the numbers' table: its header …
    rows: tuple[tuple[str, ...], ...]  # … and its rows
    links: tuple[str | None, ...] = ()  # per row, where its first cell leads (if anywhere)
    more: tuple[str, str] | None = None  # rows left out: words and where they all are
