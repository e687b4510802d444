"""presets.md §5: opening-meld tables, at and around every boundary."""

from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest

from scorekeeper.rules.opening import (
    OPENING_TABLES,
    Comparison,
    Requirement,
    requirement,
)
from scorekeeper.rules.presets import BURACO_US, WIKIPEDIA

AT_LEAST, MORE_THAN = Comparison.AT_LEAST, Comparison.MORE_THAN

# Every row of every table as (lowest score of the row, points, comparison); the first row
# also takes every lower score. W1, C1 and B1 from presets.md §5; P1–P7 from sources.md §4.
TABLES: dict[str, list[tuple[int, int, Comparison]]] = {
    "W1": [(0, 75, AT_LEAST), (1500, 90, AT_LEAST), (3000, 120, MORE_THAN)],
    "C1": [(0, 0, AT_LEAST), (1500, 75, AT_LEAST), (3000, 100, AT_LEAST), (4000, 120, AT_LEAST)],
    "B1": [(0, 50, AT_LEAST), (1500, 75, AT_LEAST)],
    "P1": [(0, 0, AT_LEAST), (1500, 75, AT_LEAST), (3000, 100, AT_LEAST), (4000, 120, AT_LEAST)],
    "P2": [(0, 0, AT_LEAST), (500, 75, AT_LEAST), (1000, 100, AT_LEAST), (2000, 120, AT_LEAST)],
    "P3": [(0, 0, AT_LEAST), (1250, 75, AT_LEAST), (1750, 150, AT_LEAST)],
    "P4": [(0, 0, AT_LEAST), (2000, 75, AT_LEAST), (3000, 90, AT_LEAST)],
    "P5": [(0, 0, AT_LEAST), (1000, 75, AT_LEAST), (1500, 90, AT_LEAST)],
    "P6": [(0, 0, AT_LEAST), (1030, 75, AT_LEAST)],
    "P7": [(0, 55, AT_LEAST), (1500, 75, AT_LEAST), (3000, 95, AT_LEAST)],
}


def test_the_tables_are_exactly_w1_c1_b1_and_p1_to_p7() -> None:
    assert sorted(OPENING_TABLES) == sorted(TABLES)


def _boundary_cases() -> list[Any]:
    """Each row at its first score, and the previous row 5 points and 1 point below it."""
    cases = []
    for table_id, rows in TABLES.items():
        lowest = rows[0]
        for score in (-500, -5):
            cases.append(
                pytest.param(
                    table_id,
                    score,
                    lowest[1],
                    lowest[2],
                    id=f"{table_id} negative score {score} is in the lowest row",
                )
            )
        cases.append(pytest.param(table_id, 0, lowest[1], lowest[2], id=f"{table_id} at 0"))
        for below, (start, points, comparison) in pairwise(rows):
            for score in (start - 5, start - 1):
                cases.append(
                    pytest.param(
                        table_id,
                        score,
                        below[1],
                        below[2],
                        id=f"{table_id} {score} is still {below[1]}",
                    )
                )
            cases.append(
                pytest.param(
                    table_id, start, points, comparison, id=f"{table_id} {start} needs {points}"
                )
            )
        top = rows[-1]
        cases.append(
            pytest.param(table_id, 9000, top[1], top[2], id=f"{table_id} 9000 is in the top row")
        )
    return cases


@pytest.mark.parametrize(("table_id", "score", "points", "comparison"), _boundary_cases())
def test_every_row_at_and_around_its_boundary(
    table_id: str, score: int, points: int, comparison: Comparison
) -> None:
    assert requirement(table_id, score) == Requirement(points, comparison)


# The printed boundaries of presets.md §5 and sources.md §4, spelled out once more.
SPELLED_OUT = [
    pytest.param("W1", 1495, 75, id="W1 1495 needs 75"),
    pytest.param("W1", 1500, 90, id="W1 1500 needs 90"),
    pytest.param("W1", 2995, 90, id="W1 2995 needs 90"),
    pytest.param("W1", 3000, 120, id="W1 3000 needs more than 120"),
    pytest.param("C1", 1495, 0, id="C1 1495 or less needs nothing"),
    pytest.param("C1", 2995, 75, id="C1 2995 needs 75"),
    pytest.param("C1", 3995, 100, id="C1 3995 needs 100"),
    pytest.param("C1", 4000, 120, id="C1 4000 or above needs 120"),
    pytest.param("B1", 1495, 50, id="B1 below 1500 needs 50"),
    pytest.param("B1", 2995, 75, id="B1 2995 needs 75"),
    pytest.param("B1", 4000, 75, id="B1 1500 and over needs 75"),
    pytest.param("P6", 1025, 0, id="P6 up to 1025 needs nothing"),
    pytest.param("P6", 1030, 75, id="P6 1030 and more needs 75"),
    pytest.param("P7", 1495, 55, id="P7 up to 1495 needs 55"),
    pytest.param("P7", 3000, 95, id="P7 3000 and more needs 95"),
]


@pytest.mark.parametrize(("table_id", "score", "points"), SPELLED_OUT)
def test_printed_boundaries(table_id: str, score: int, points: int) -> None:
    assert requirement(table_id, score).points == points


# --- at least or more than ------------------------------------------------------------------------

MEETS = [
    pytest.param("W1", 0, 70, False, id="W1 lowest row: 70 is short of 75"),
    pytest.param("W1", 0, 75, True, id="W1 lowest row: 75 is at least 75"),
    pytest.param("W1", 1500, 85, False, id="W1 middle row: 85 is short of 90"),
    pytest.param("W1", 1500, 90, True, id="W1 middle row: 90 is at least 90"),
    pytest.param("W1", 3000, 120, False, id="W1 top row: 120 is not more than 120"),
    pytest.param("W1", 3000, 125, True, id="W1 top row: 125 is more than 120"),
    pytest.param("C1", 0, 0, True, id="C1 lowest row: no minimum"),
    pytest.param("C1", 4000, 120, True, id="C1 top row: 120 is at least 120"),
    pytest.param("B1", 0, 50, True, id="B1 lowest row: 50 is at least 50"),
    pytest.param("B1", 1500, 70, False, id="B1 top row: 70 is short of 75"),
    pytest.param("P3", 1750, 150, True, id="P3 top row: 150 is at least 150"),
    pytest.param("P3", 1750, 145, False, id="P3 top row: 145 is short of 150"),
]


@pytest.mark.parametrize(("table_id", "score", "points", "met"), MEETS)
def test_is_met_by(table_id: str, score: int, points: int, met: bool) -> None:
    assert requirement(table_id, score).is_met_by(points) is met


OVERRIDES = [
    pytest.param(
        "W1", 3000, AT_LEAST, 120, True, id="W1 top row overridden to at least: 120 passes"
    ),
    pytest.param(
        "W1", 0, MORE_THAN, 75, False, id="W1 lowest row overridden to more than: 75 fails"
    ),
    pytest.param(
        "W1", 0, MORE_THAN, 80, True, id="W1 lowest row overridden to more than: 80 passes"
    ),
    pytest.param("P1", 1500, MORE_THAN, 75, False, id="P1 more than 75: 75 fails"),
    pytest.param("P1", 1500, MORE_THAN, 80, True, id="P1 more than 75: 80 passes"),
    pytest.param("P7", 0, MORE_THAN, 55, False, id="P7 more than 55: 55 fails"),
    pytest.param("P7", 0, AT_LEAST, 55, True, id="P7 at least 55: 55 passes"),
    pytest.param("P4", 0, MORE_THAN, 0, False, id="P4 more than 0: an opening worth 0 fails"),
]


@pytest.mark.parametrize(("table_id", "score", "comparison", "points", "met"), OVERRIDES)
def test_the_comparison_override(
    table_id: str, score: int, comparison: Comparison, points: int, met: bool
) -> None:
    needed = requirement(table_id, score, comparison)
    assert needed.comparison is comparison
    assert needed.is_met_by(points) is met


# --- B1: +15 after each failed attempt ------------------------------------------------------------

FAILED = [
    pytest.param(0, 0, 50, id="B1 low row no failed attempt 50"),
    pytest.param(0, 1, 65, id="B1 low row one failed attempt 65"),
    pytest.param(0, 2, 80, id="B1 low row two failed attempts 80"),
    pytest.param(1500, 1, 90, id="B1 high row one failed attempt 90"),
    pytest.param(1500, 3, 120, id="B1 high row three failed attempts 120"),
]


@pytest.mark.parametrize(("score", "failed", "points"), FAILED)
def test_b1_adds_15_after_each_failed_attempt(score: int, failed: int, points: int) -> None:
    needed = requirement(
        BURACO_US.opening_table,
        score,
        BURACO_US.opening_comparison,
        failed_attempts=failed,
        failed_increment=BURACO_US.opening_failed_increment,
    )
    assert needed == Requirement(points, AT_LEAST)


def test_failed_attempts_cost_nothing_without_an_increment() -> None:
    assert requirement("W1", 0, failed_attempts=3).points == 75


# --- half points (shares in the 3- and 5-player partnership formats) ---------------------------

HALVES = [
    pytest.param("W1", Fraction(2999, 2), 75, id="W1 1499½ is still below 1500"),
    pytest.param("W1", Fraction(3001, 2), 90, id="W1 1500½ is in the 1500 row"),
    pytest.param("W1", Fraction(5999, 2), 90, id="W1 2999½ is still below 3000"),
    pytest.param("C1", Fraction(7999, 2), 100, id="C1 3999½ is still below 4000"),
    pytest.param("B1", Fraction(2999, 2), 50, id="B1 1499½ is still below 1500"),
    pytest.param("P6", Fraction(2059, 2), 0, id="P6 1029½ is still below 1030"),
    pytest.param("P3", Fraction(-1, 2), 0, id="P3 minus ½ is in the lowest row"),
]


@pytest.mark.parametrize(("table_id", "score", "points"), HALVES)
def test_half_point_scores(table_id: str, score: Fraction, points: int) -> None:
    assert requirement(table_id, score).points == points


# --- presets and text -----------------------------------------------------------------------------


def test_no_table_means_no_requirement() -> None:
    needed = requirement(None, 4000)
    assert needed == Requirement(0, AT_LEAST)
    assert needed.is_met_by(0)
    assert needed.text == "no minimum"


def test_wikipedia_uses_w1_with_its_own_comparison() -> None:
    needed = requirement(WIKIPEDIA.opening_table, 3000, WIKIPEDIA.opening_comparison)
    assert needed == Requirement(120, MORE_THAN)


@pytest.mark.parametrize(
    ("needed", "text"),
    [
        pytest.param(Requirement(120, MORE_THAN), "more than 120", id="more than"),
        pytest.param(Requirement(75, AT_LEAST), "at least 75", id="at least"),
        pytest.param(Requirement(0, AT_LEAST), "no minimum", id="zero is no minimum"),
        pytest.param(Requirement(0, MORE_THAN), "more than 0", id="more than zero is a minimum"),
    ],
)
def test_requirement_text(needed: Requirement, text: str) -> None:
    assert needed.text == text
