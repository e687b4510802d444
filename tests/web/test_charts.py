"""Chart geometry (web/charts.py): round ticks, values placed linearly in the plot box, path
data through every point, and labels that never crowd. Every expected number is worked out
here from the layout constants."""

from __future__ import annotations

import re

import pytest

from scorekeeper.web import charts
from scorekeeper.web.charts import Series, line_chart, nice_stride, nice_ticks, path_data


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        pytest.param(0, 3000, [0, 1000, 2000, 3000], id="a-target-of-3000"),
        pytest.param(0, 3325, [0, 1000, 2000, 3000, 4000], id="past-the-target"),
        pytest.param(-475, 3325, [-1000, 0, 1000, 2000, 3000, 4000], id="below-zero"),
        pytest.param(0, 4.8, [0, 2, 4, 6], id="a-small-rating"),
        pytest.param(-2.3, 0.4, [-3, -2, -1, 0, 1], id="a-negative-rating"),
        pytest.param(0, 0.3, [0, 0.1, 0.2, 0.3], id="tenths-print-clean"),
        pytest.param(5, 5, [4, 4.5, 5, 5.5, 6], id="flat-is-widened-by-one"),
        pytest.param(600, 0, [0, 200, 400, 600], id="given-backwards"),
    ],
)
def test_ticks_are_round_and_cover_the_range(low: float, high: float, ticks: list[float]) -> None:
    assert nice_ticks(low, high) == ticks


@pytest.mark.parametrize(
    ("count", "stride"),
    [(1, 1), (8, 1), (9, 2), (16, 2), (17, 5), (40, 5), (41, 10), (120, 20)],
    ids=lambda v: str(v),
)
def test_x_labels_thin_out_to_at_most_eight(count: int, stride: int) -> None:
    assert nice_stride(count) == stride
    assert -(-count // stride) <= charts.MAX_X_LABELS


def test_path_data_goes_through_every_point() -> None:
    assert path_data([(10, 20), (30.25, 40.0), (50.04, 5.56)]) == "M10 20L30.2 40L50 5.6"
    assert path_data([]) == ""


def points_of(path: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", path)]


def test_a_match_climbing_to_its_target() -> None:
    """Two teams over three hands and a target of 3000: ticks 0 … 3000 (two digits of
    label at most four characters), so the plot starts 8 + 4 × 7.2 units from the left."""
    us = Series("Us", (0, 665, 1330, 3100))
    them = Series("Them", (0, -95, 600, 1200))
    chart = line_chart([us, them], ["0", "1", "2", "3"], [(3000, "target 3000", "target")])

    assert [t.label for t in chart.y_ticks] == ["−1000", "0", "1000", "2000", "3000", "4000"]
    assert chart.left == pytest.approx(8 + 5 * charts.CHAR_WIDTH)  # "−1000" is 5 long
    assert (chart.right, chart.top) == (charts.WIDTH - charts.RIGHT, charts.TOP)
    assert chart.bottom == charts.HEIGHT - charts.BOTTOM
    height = chart.bottom - chart.top

    def y(value: float) -> float:
        return round(chart.bottom - height * (value + 1000) / 5000, 1)

    width = chart.right - chart.left
    xs = [round(chart.left + width * i / 3, 1) for i in range(4)]
    assert chart.lines[0].points == tuple(zip(xs, [y(0), y(665), y(1330), y(3100)], strict=True))
    assert points_of(chart.lines[1].path) == [
        pytest.approx(p, abs=0.051) for p in zip(xs, [y(0), y(-95), y(600), y(1200)], strict=True)
    ]
    # The first point sits on the left edge, the last on the right; higher is further up.
    assert chart.lines[0].points[0][0] == chart.left
    assert chart.lines[0].points[-1][0] == chart.right
    assert chart.lines[0].points[-1][1] < chart.lines[1].points[-1][1]
    # The target's line crosses exactly where a value of 3000 would be drawn.
    (target,) = chart.guides
    assert (target.y, target.label, target.kind) == (y(3000), "target 3000", "target")
    # Each line has its own style, hand numbers label every point, and dots are drawn.
    assert [line.style for line in chart.lines] == [0, 1]
    assert [(t.at, t.label) for t in chart.x_ticks] == list(zip(xs, "0123", strict=True))
    assert chart.markers


def test_every_point_and_guide_stays_inside_the_plot() -> None:
    wild = Series("wild", (0, 5000, -3000, 120, 4999, -2999))
    chart = line_chart([wild], [str(i) for i in range(6)], [(2000, "t", "target")])
    for x, y in chart.lines[0].points:
        assert chart.left <= x <= chart.right
        assert chart.top <= y <= chart.bottom
    assert chart.top <= chart.guides[0].y <= chart.bottom
    assert chart.y_ticks[0].at == chart.bottom and chart.y_ticks[-1].at == chart.top


def test_a_long_match_labels_every_fifth_hand_and_drops_the_dots() -> None:
    values = tuple(float(i * 100) for i in range(31))
    chart = line_chart([Series("A", values)], [str(i) for i in range(31)])
    assert [t.label for t in chart.x_ticks] == ["0", "5", "10", "15", "20", "25", "30"]
    assert not chart.markers  # 31 points are more than MAX_MARKERS


def test_seven_lines_reuse_the_styles_in_turn() -> None:
    lines = [Series(str(i), (0, i)) for i in range(7)]
    chart = line_chart(lines, ["0", "1"])
    assert [line.style for line in chart.lines] == [0, 1, 2, 3, 4, 5, 0]


def test_a_single_point_and_a_flat_line_do_not_break() -> None:
    lonely = line_chart([Series("A", (0,))], ["0"])
    zero = next(t.at for t in lonely.y_ticks if t.label == "0")
    assert lonely.lines[0].path == f"M{lonely.left:g} {zero:g}"
    flat = line_chart([Series("A", (7, 7, 7))], ["0", "1", "2"])
    assert len({y for _, y in flat.lines[0].points}) == 1
    assert flat.top < flat.lines[0].points[0][1] < flat.bottom


def test_each_point_needs_an_x_label() -> None:
    with pytest.raises(ValueError, match="3 points need 3 x labels, not 2"):
        line_chart([Series("A", (0, 1, 2))], ["0", "1"])


def test_custom_labels_widen_the_left_margin() -> None:
    chart = line_chart([Series("A", (0, 1))], ["0", "1"], label=lambda v: f"{v:.2f} pts")
    assert chart.y_ticks[0].label == "0.00 pts"
    assert chart.left == pytest.approx(8 + 8 * charts.CHAR_WIDTH)
