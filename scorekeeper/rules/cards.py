"""Cards and the card notation of presets.md §1.

>>> [card.code for card in parse_cards("3h 4H, ★ 10s TS")]
['3H', '4H', 'JK', '10S', '10S']
>>> format_cards(parse_cards("QH-AH"))
'Q♥ K♥ A♥'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .i18n import joined, tr


class CardError(ValueError):
    """A piece of notation that is not a card; the message quotes it."""


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Hearts and diamonds are printed red (the pages draw them so)."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(StrEnum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "JK"

    @property
    def position(self) -> int:
        """Place in a run with the ace low: A=1, 2=2 … K=13 (jokers have none: 0)."""
        return _POSITIONS[self]


_POSITIONS: dict[Rank, int] = {rank: i + 1 for i, rank in enumerate(Rank) if rank is not Rank.JOKER}
_POSITIONS[Rank.JOKER] = 0
#: Ranks in run order, indexed by position (1 … 13; 14 is the ace again, high).
RANK_AT: dict[int, Rank] = {pos: rank for rank, pos in _POSITIONS.items() if pos} | {14: Rank.ACE}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; a joker has rank JOKER and no suit."""

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise CardError(tr("a joker has no suit and every other card has one"))

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def is_wild_rank(self) -> bool:
        """Jokers and 2s are wild; a 2 may still sit in its natural place in a run."""
        return self.rank in (Rank.JOKER, Rank.TWO)

    @property
    def code(self) -> str:
        """The card in plain notation: ``10H``, ``AS``, ``JK``."""
        return "JK" if self.suit is None else f"{self.rank}{self.suit}"

    @property
    def label(self) -> str:
        """The card as players read it: ``10♥``, ``A♠``, ``joker`` (its name translated)."""
        return tr("joker") if self.suit is None else f"{self.rank}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.label


JOKER = Card(Rank.JOKER)

_RANK_WORDS = {r.value: r for r in Rank if r is not Rank.JOKER} | {"T": Rank.TEN}
_SUIT_WORDS = {s.value: s for s in Suit} | {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_JOKER_WORDS = {"JK", "★", "☆", "X", "JOKER", "🃏"}
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_card(token: str) -> Card:
    """Read one card such as ``10H``, ``th``, ``A♠`` or ``JK``; raise CardError otherwise."""
    word = token.strip().upper()
    if word in _JOKER_WORDS:
        return JOKER
    if not word:
        raise CardError(tr("an empty string is not a card"))
    if word in _RANK_WORDS:
        raise CardError(
            tr(
                "'{token}' is not a card: it needs a suit, suits are S H D C (or ♠ ♥ ♦ ♣)",
                token=token,
            )
        )
    rank_part, suit_part = word[:-1], word[-1]
    suit = _SUIT_WORDS.get(suit_part)
    rank = _RANK_WORDS.get(rank_part)
    if suit is None and rank is not None:
        raise CardError(tr("'{token}' is not a card: suits are S H D C (or ♠ ♥ ♦ ♣)", token=token))
    if rank is None:
        raise CardError(
            tr(
                "'{token}' is not a card: ranks are A 2–10 J Q K (T for 10), or JK for a joker",
                token=token,
            )
        )
    return Card(rank, suit)


def parse_range(token: str) -> tuple[Card, ...]:
    """Expand a run written as a range, ``3H-9H`` or ``10S-AS`` (ace high at the top end)."""
    first_text, _, last_text = token.partition("-")
    first, last = parse_card(first_text), parse_card(last_text)
    if first.is_joker or last.is_joker:
        raise CardError(
            tr("'{token}' is not a run: a range runs between two cards of one suit", token=token)
        )
    if first.suit is not last.suit:
        raise CardError(
            tr("'{token}' is not a run: both ends of a range need the same suit", token=token)
        )
    low = first.rank.position
    high = last.rank.position
    if last.rank is Rank.ACE and low > 1:
        high = 14
    if high == low:
        raise CardError(
            tr(
                "'{token}' is not a run: a range goes from one card up to a higher one",
                token=token,
            )
        )
    if high < low:
        raise CardError(
            tr(
                "'{token}' is not a run: a range goes up from its first card to its last, "
                "and a run never wraps past the ace",
                token=token,
            )
        )
    return tuple(Card(RANK_AT[pos], first.suit) for pos in range(low, high + 1))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; ranges like ``3H-9H`` expand to every card."""
    cards: list[Card] = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        if "-" in token:
            if token.count("-") != 1 or token.startswith("-") or token.endswith("-"):
                raise CardError(
                    tr("'{token}' is not a card or a range: write a run as 3H-9H", token=token)
                )
            cards.extend(parse_range(token))
        else:
            cards.append(parse_card(token))
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as players read them, in the given order: ``3♥ 4♥ joker``."""
    return joined(" ", (card.label for card in cards))
