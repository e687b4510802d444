"""Opening-meld tables (presets.md §5): a team's score before the hand sets the minimum
card points of its first meld.

>>> requirement("W1", 3000)
Requirement(points=120, comparison=<Comparison.MORE_THAN: 'more_than'>)
>>> requirement("W1", 3000).text
'more than 120'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .i18n import tr


class Comparison(StrEnum):
    AT_LEAST = "at_least"
    MORE_THAN = "more_than"


@dataclass(frozen=True, slots=True)
class Band:
    """From this score up (until the next band), the first meld needs `points`."""

    from_score: int
    points: int
    comparison: Comparison = Comparison.AT_LEAST


@dataclass(frozen=True, slots=True)
class OpeningTable:
    id: str
    source: str
    bands: tuple[Band, ...]  # ascending from_score; the first band also takes every lower score

    def band_for(self, score: Fraction | int) -> Band:
        # Negative scores (and half points in the share formats) fall in the band below.
        chosen = self.bands[0]
        for band in self.bands:
            if score >= band.from_score:
                chosen = band
        return chosen


@dataclass(frozen=True, slots=True)
class Requirement:
    points: int
    comparison: Comparison = Comparison.AT_LEAST

    def is_met_by(self, points: int) -> bool:
        if self.comparison is Comparison.MORE_THAN:
            return points > self.points
        return points >= self.points

    def least_meeting(self, step: int) -> int:
        """Fewest card points that meet this, when meld values move in steps of `step`."""
        if self.comparison is Comparison.AT_LEAST:
            return self.points
        return (self.points // step + 1) * step

    @property
    def text(self) -> str:
        """The requirement in words, in the current language: "at least 75"."""
        if self.points == 0 and self.comparison is Comparison.AT_LEAST:
            return tr("no minimum")
        if self.comparison is Comparison.MORE_THAN:
            return tr("more than {points}", points=self.points)
        return tr("at least {points}", points=self.points)


NO_REQUIREMENT = Requirement(0)
_A, _M = Comparison.AT_LEAST, Comparison.MORE_THAN


def _table(
    id_: str, source: str, *rows: tuple[int, int] | tuple[int, int, Comparison]
) -> OpeningTable:
    return OpeningTable(id_, source, tuple(Band(*row) for row in rows))


OPENING_TABLES: dict[str, OpeningTable] = {
    t.id: t
    for t in (
        _table("W1", "Wikipedia (English), 'Vulnerability'", (0, 75), (1500, 90), (3000, 120, _M)),
        _table("C1", "CatsAtCards", (0, 0), (1500, 75), (3000, 100), (4000, 120)),
        _table("B1", "Wikipedia, Buraco (US rules)", (0, 50), (1500, 75)),
        _table("P1", "pagat.com, target 5000", (0, 0), (1500, 75), (3000, 100), (4000, 120)),
        _table("P2", "pagat.com, target 3000", (0, 0), (500, 75), (1000, 100), (2000, 120)),
        _table("P3", "pagat.com, target 2000", (0, 0), (1250, 75), (1750, 150)),
        _table("P4", "pagat.com, target 5000", (0, 0), (2000, 75), (3000, 90)),
        _table("P5", "pagat.com, target 3000", (0, 0), (1000, 75), (1500, 90)),
        _table("P6", "pagat.com, target 3030", (0, 0), (1030, 75)),
        _table("P7", "pagat.com, target 5000", (0, 55), (1500, 75), (3000, 95)),
    )
}


def requirement(
    table_id: str | None,
    score: Fraction | int,
    comparison: Comparison | None = None,
    failed_attempts: int = 0,
    failed_increment: int = 0,
) -> Requirement:
    """What a team's first meld of the hand needs; `comparison` overrides the table's own."""
    if table_id is None:
        return NO_REQUIREMENT
    band = OPENING_TABLES[table_id].band_for(score)
    return Requirement(
        band.points + failed_attempts * failed_increment,
        comparison or band.comparison,
    )
