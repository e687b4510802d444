"""The suits' symbols and colours come from the rules engine's Suit, once: the kózi buttons,
the card picker, the scoreboard's kózi marks and the meld faces all read them from there."""

from __future__ import annotations

import pytest

from scorekeeper.play.scoreboard import SUIT_SYMBOLS
from scorekeeper.rules.cards import Suit
from scorekeeper.words.game_words import SUIT_CHOICES, SUIT_FACES, red_suit


def test_hearts_and_diamonds_are_the_red_suits() -> None:
    assert [s for s in Suit if s.red] == [Suit.HEARTS, Suit.DIAMONDS]


@pytest.mark.parametrize(
    ("shown", "red"),
    [("♥", True), ("♦", True), ("H", True), ("D", True), ("♠", False), ("♣", False), ("C", False)],
)
def test_a_kozi_as_shown_is_red_or_not(shown: str, red: bool) -> None:
    assert red_suit(shown) is red


@pytest.mark.parametrize("shown", [None, "", "–", "♥♦"])
def test_no_kozi_is_not_red(shown: str | None) -> None:
    assert red_suit(shown) is False


def test_every_suit_table_agrees_with_the_engine() -> None:
    assert SUIT_SYMBOLS == {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert SUIT_FACES == (("S", "♠", False), ("H", "♥", True), ("D", "♦", True), ("C", "♣", False))
    assert [(code, symbol, red) for code, symbol, _name, red in SUIT_CHOICES] == [
        *SUIT_FACES,
        ("", "–", False),
    ]
