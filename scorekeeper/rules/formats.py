"""Table formats (presets.md §6): who plays as whom, with how many decks, and how a hand's
score is credited to the players."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .i18n import mark, tr


class Credit(StrEnum):
    TEAM = "team"  # the same teams all match long; a hand's score goes to the team
    SHARES = "shares"  # teams form anew each hand; each member gets an equal share


@dataclass(frozen=True, slots=True)
class TableFormat:
    id: str
    english_name: str  # `name` gives it in the current language
    decks: int
    jokers: int
    #: Allowed team sizes in one hand, e.g. ((2, 2),) for partners or ((1, 2), (1, 3)).
    shapes: tuple[tuple[int, ...], ...]
    credit: Credit

    @property
    def name(self) -> str:
        """The format's name in the current language: "4 players, 2 teams of 2"."""
        return tr(self.english_name)

    @property
    def team_counts(self) -> frozenset[int]:
        return frozenset(len(shape) for shape in self.shapes)

    @property
    def player_counts(self) -> frozenset[int]:
        return frozenset(sum(shape) for shape in self.shapes)

    @property
    def cards(self) -> int:
        """Every card at the table: 52 a deck, and the jokers."""
        return 52 * self.decks + self.jokers

    @property
    def deck_words(self) -> str:
        if self.decks == 2:
            return tr("two decks")
        if self.decks == 3:
            return tr("three decks")
        return tr("{decks} decks", decks=self.decks)


FORMATS: dict[str, TableFormat] = {
    f.id: f
    for f in (
        TableFormat("4p", mark("4 players, 2 teams of 2"), 2, 4, ((2, 2),), Credit.TEAM),
        TableFormat("2p", mark("2 players"), 2, 4, ((1, 1),), Credit.TEAM),
        TableFormat("3p", mark("3 players, each alone"), 3, 6, ((1, 1, 1),), Credit.TEAM),
        TableFormat(
            "3p-partnership",
            mark("3 players, one alone against a pair"),
            2,
            4,
            ((1, 2),),
            Credit.SHARES,
        ),
        TableFormat(
            "5p", mark("5 players, one alone against two pairs"), 3, 6, ((1, 2, 2),), Credit.SHARES
        ),
        TableFormat("6p", mark("6 players, 3 teams of 2"), 3, 6, ((2, 2, 2),), Credit.TEAM),
        TableFormat(
            "solo-vs-rest",
            mark("3 or 4 players, one alone against all the others"),
            2,
            4,
            ((1, 2), (1, 3)),
            Credit.SHARES,
        ),
    )
}


#: The most cards any table plays with (three decks and six jokers): no meld, and no hand's
#: cards all together, can hold more. Requests above it are refused before any judging.
MOST_CARDS = max(f.cards for f in FORMATS.values())
#: The format with the most decks: a meld judged for no table in particular can hold no more
#: copies of a card than it does.
LARGEST_FORMAT = max(FORMATS.values(), key=lambda f: (f.decks, f.jokers))


class FormatError(ValueError):
    """An unknown table format; the message names it."""


def find_format(format_id: str) -> TableFormat:
    try:
        return FORMATS[format_id]
    except KeyError:
        known = ", ".join(FORMATS)
        raise FormatError(
            tr(
                "'{format}' is not a table format: use one of {known}",
                format=format_id,
                known=known,
            )
        ) from None
