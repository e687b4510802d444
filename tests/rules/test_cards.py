"""presets.md §1: cards, their notation and their points in every preset."""

from typing import Any

import pytest

from scorekeeper.rules.cards import (
    JOKER,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from scorekeeper.rules.presets import PRESETS

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def codes(text: str) -> list[str]:
    return [card.code for card in parse_cards(text)]


# --- one card --------------------------------------------------------------------------------

ONE_CARD = [
    pytest.param("10H", Card(Rank.TEN, H), id="10H is the ten of hearts"),
    pytest.param("TH", Card(Rank.TEN, H), id="T stands for 10"),
    pytest.param("th", Card(Rank.TEN, H), id="lower-case t for 10 and lower-case suit"),
    pytest.param("10h", Card(Rank.TEN, H), id="lower-case suit after 10"),
    pytest.param("AS", Card(Rank.ACE, S), id="AS is the ace of spades"),
    pytest.param("as", Card(Rank.ACE, S), id="lower-case ace of spades"),
    pytest.param("2C", Card(Rank.TWO, C), id="2C is the two of clubs"),
    pytest.param("3D", Card(Rank.THREE, D), id="3D is the three of diamonds"),
    pytest.param("4H", Card(Rank.FOUR, H), id="4H"),
    pytest.param("5S", Card(Rank.FIVE, S), id="5S"),
    pytest.param("6C", Card(Rank.SIX, C), id="6C"),
    pytest.param("7D", Card(Rank.SEVEN, D), id="7D"),
    pytest.param("8H", Card(Rank.EIGHT, H), id="8H"),
    pytest.param("9S", Card(Rank.NINE, S), id="9S"),
    pytest.param("JC", Card(Rank.JACK, C), id="JC is the jack of clubs"),
    pytest.param("jc", Card(Rank.JACK, C), id="lower-case jack of clubs is not a joker"),
    pytest.param("QD", Card(Rank.QUEEN, D), id="QD is the queen of diamonds"),
    pytest.param("KH", Card(Rank.KING, H), id="KH is the king of hearts"),
    pytest.param("A♠", Card(Rank.ACE, S), id="suit symbol spades"),
    pytest.param("7♥", Card(Rank.SEVEN, H), id="suit symbol hearts"),
    pytest.param("q♦", Card(Rank.QUEEN, D), id="suit symbol diamonds with lower-case rank"),
    pytest.param("10♣", Card(Rank.TEN, C), id="suit symbol clubs after 10"),
    pytest.param("T♣", Card(Rank.TEN, C), id="suit symbol clubs after T"),
    pytest.param("JK", JOKER, id="JK is a joker"),
    pytest.param("jk", JOKER, id="lower-case jk is a joker"),
    pytest.param("Jk", JOKER, id="mixed-case Jk is a joker"),
    pytest.param("★", JOKER, id="star is a joker"),
    pytest.param("X", JOKER, id="X is a joker"),
    pytest.param("x", JOKER, id="lower-case x is a joker"),
    pytest.param("  KH ", Card(Rank.KING, H), id="surrounding spaces are ignored"),
]


@pytest.mark.parametrize(("token", "card"), ONE_CARD)
def test_every_accepted_spelling_of_one_card(token: str, card: Card) -> None:
    assert parse_card(token) == card
    assert parse_cards(token) == (card,)


# --- several cards and ranges ----------------------------------------------------------------

MANY_CARDS = [
    pytest.param("3H 4H 5H", ["3H", "4H", "5H"], id="separated by spaces"),
    pytest.param("3H,4H,5H", ["3H", "4H", "5H"], id="separated by commas"),
    pytest.param("3H, 4H ,5H", ["3H", "4H", "5H"], id="commas with spaces around them"),
    pytest.param(
        "3H   4H\t5H\n6H", ["3H", "4H", "5H", "6H"], id="runs of spaces tabs and newlines"
    ),
    pytest.param("  3H 4H  ", ["3H", "4H"], id="leading and trailing spaces"),
    pytest.param("3h 4H, ★ 10s TS", ["3H", "4H", "JK", "10S", "10S"], id="mixed spellings"),
    pytest.param("KS KS JK JK", ["KS", "KS", "JK", "JK"], id="repeated cards are kept"),
    pytest.param("", [], id="empty text is no cards"),
    pytest.param("3H-9H", ["3H", "4H", "5H", "6H", "7H", "8H", "9H"], id="range 3H-9H"),
    pytest.param("3h-9h", ["3H", "4H", "5H", "6H", "7H", "8H", "9H"], id="lower-case range"),
    pytest.param("3♥-5♥", ["3H", "4H", "5H"], id="range with suit symbols"),
    pytest.param("10S-AS", ["10S", "JS", "QS", "KS", "AS"], id="range 10S-AS puts the ace high"),
    pytest.param("TS-AS", ["10S", "JS", "QS", "KS", "AS"], id="range TS-AS puts the ace high"),
    pytest.param("QH-AH", ["QH", "KH", "AH"], id="range QH-AH puts the ace high"),
    pytest.param("AS-5S", ["AS", "2S", "3S", "4S", "5S"], id="range AS-5S puts the ace low"),
    pytest.param("AC-3C", ["AC", "2C", "3C"], id="range AC-3C includes the natural 2"),
    pytest.param(
        "AD-KD",
        ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
        id="range AD-KD is all 13 ranks ace low",
    ),
    pytest.param(
        "2D-AD",
        ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
        id="range 2D-AD is all 13 ranks ace high",
    ),
    pytest.param("9C-JC", ["9C", "10C", "JC"], id="range across the ten"),
    pytest.param("3H-5H JK", ["3H", "4H", "5H", "JK"], id="range followed by a joker"),
    pytest.param("2S,3H-4H", ["2S", "3H", "4H"], id="range after a comma"),
]


@pytest.mark.parametrize(("text", "expected"), MANY_CARDS)
def test_cards_and_ranges(text: str, expected: list[str]) -> None:
    assert codes(text) == expected


# --- rejected notation -------------------------------------------------------------------------

REJECTS = [
    pytest.param("1H", "'1H' is not a card", "ranks are A 2–10 J Q K", id="rank 1 does not exist"),
    pytest.param("11H", "'11H' is not a card", "ranks are", id="rank 11 does not exist"),
    pytest.param("0S", "'0S' is not a card", "ranks are", id="rank 0 does not exist"),
    pytest.param("ZZ", "'ZZ' is not a card", "ranks are", id="nonsense token"),
    pytest.param("3Z", "'3Z' is not a card", "suits are S H D C", id="suit Z does not exist"),
    pytest.param("AX", "'AX' is not a card", "suits are S H D C", id="X is a joker not a suit"),
    pytest.param("3H 4Q 5H", "'4Q' is not a card", "suits are", id="bad token inside a list"),
    pytest.param("JKH", "'JKH' is not a card", "ranks are", id="a joker has no suit"),
    pytest.param(
        "KH-2H", "'KH-2H' is not a run", "never wraps past the ace", id="range may not wrap K-A-2"
    ),
    pytest.param(
        "QH-3H", "'QH-3H' is not a run", "never wraps past the ace", id="range may not wrap Q-A-3"
    ),
    pytest.param("9H-3H", "'9H-3H' is not a run", "goes up", id="range may not go down"),
    pytest.param(
        "3H-9S", "'3H-9S' is not a run", "same suit", id="range with mixed suits is rejected"
    ),
    pytest.param(
        "3h-9s", "'3h-9s' is not a run", "same suit", id="rejected range is quoted as typed"
    ),
    pytest.param("JK-5H", "'JK-5H' is not a run", "one suit", id="range may not start at a joker"),
    pytest.param("5H-JK", "'5H-JK' is not a run", "one suit", id="range may not end at a joker"),
    pytest.param("3H-1H", "'1H' is not a card", "ranks are", id="range with a bad end"),
]


@pytest.mark.parametrize(("text", "quoted", "hint"), REJECTS)
def test_bad_notation_is_rejected_with_a_message_quoting_the_token(
    text: str, quoted: str, hint: str
) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(text)
    message = str(raised.value)
    assert quoted in message
    assert hint in message


SUIT_NEEDED = "is not a card: it needs a suit, suits are S H D C (or ♠ ♥ ♦ ♣)"
RANGE_HELP = "is not a card or a range: write a run as 3H-9H"
ONE_CARD_RANGE = "is not a run: a range goes from one card up to a higher one"

MESSAGES = [
    pytest.param("K", f"'K' {SUIT_NEEDED}", id="a bare K needs a suit"),
    pytest.param("10", f"'10' {SUIT_NEEDED}", id="a bare 10 needs a suit"),
    pytest.param("2", f"'2' {SUIT_NEEDED}", id="a bare 2 needs a suit"),
    pytest.param("3H K 5H", f"'K' {SUIT_NEEDED}", id="a bare rank inside a list needs a suit"),
    pytest.param("3H-", f"'3H-' {RANGE_HELP}", id="range with no end"),
    pytest.param("-3H", f"'-3H' {RANGE_HELP}", id="range with no start"),
    pytest.param("3H-9H-KH", f"'3H-9H-KH' {RANGE_HELP}", id="range with two hyphens"),
    pytest.param("AH-AH", f"'AH-AH' {ONE_CARD_RANGE}", id="range of one ace"),
    pytest.param("KH-KH", f"'KH-KH' {ONE_CARD_RANGE}", id="range of one king"),
]


@pytest.mark.parametrize(("text", "message"), MESSAGES)
def test_bad_notation_messages_read_in_full(text: str, message: str) -> None:
    with pytest.raises(CardError) as raised:
        parse_cards(text)
    assert str(raised.value) == message


def test_the_rank_message_reads_in_full() -> None:
    with pytest.raises(CardError) as raised:
        parse_card("1H")
    assert str(raised.value) == (
        "'1H' is not a card: ranks are A 2–10 J Q K (T for 10), or JK for a joker"
    )


def test_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="'9Y' is not a card"):
        parse_card("9Y")


@pytest.mark.parametrize(
    ("rank", "suit"),
    [
        pytest.param(Rank.JOKER, H, id="a joker with a suit"),
        pytest.param(Rank.ACE, None, id="an ace without a suit"),
    ],
)
def test_impossible_cards_cannot_be_built(rank: Rank, suit: Suit | None) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


# --- how cards read -----------------------------------------------------------------------------

SHOWN = [
    pytest.param(Card(Rank.SEVEN, H), "7♥", "7H", id="seven of hearts"),
    pytest.param(Card(Rank.TEN, S), "10♠", "10S", id="ten of spades is written 10 not T"),
    pytest.param(Card(Rank.ACE, D), "A♦", "AD", id="ace of diamonds"),
    pytest.param(Card(Rank.KING, C), "K♣", "KC", id="king of clubs"),
    pytest.param(JOKER, "joker", "JK", id="joker"),
]


@pytest.mark.parametrize(("card", "label", "code"), SHOWN)
def test_label_and_code(card: Card, label: str, code: str) -> None:
    assert card.label == label
    assert str(card) == label
    assert card.code == code


def test_format_cards_keeps_the_order_given() -> None:
    assert format_cards(parse_cards("KH 3S JK 10D")) == "K♥ 3♠ joker 10♦"


# --- wild cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wild"),
    [
        pytest.param("JK", True, id="a joker is wild"),
        pytest.param("2H", True, id="a 2 of hearts is wild"),
        pytest.param("2S", True, id="a 2 of spades is wild"),
        pytest.param("AH", False, id="an ace is not wild"),
        pytest.param("3C", False, id="a 3 is not wild"),
        pytest.param("KD", False, id="a king is not wild"),
    ],
)
def test_every_joker_and_every_2_is_wild(text: str, wild: bool) -> None:
    assert parse_card(text).is_wild_rank is wild


# --- card points per preset -----------------------------------------------------------------------

# presets.md §4, card points JK / A / 2 / 8-K / 3-7.
CARD_POINTS = {
    "pagat": (20, 15, 10, 10, 5),
    "pagat-kouridakis": (20, 15, 10, 10, 5),
    "wikipedia": (25, 15, 10, 10, 5),
    "catsatcards": (20, 15, 10, 10, 5),
    "venezuelan": (50, 20, 25, 10, 5),
    "beriba": (30, 15, 20, 10, 5),
    "buraco-us": (30, 15, 20, 10, 5),
    "burraco-it": (30, 15, 20, 10, 5),
}


def _points_cases() -> list[Any]:
    cases = []
    for preset_id, (joker, ace, two, high, low) in CARD_POINTS.items():
        for token, points in [
            ("JK", joker),
            ("AS", ace),
            ("2H", two),
            ("3D", low),
            ("4C", low),
            ("5S", low),
            ("6H", low),
            ("7D", low),
            ("8C", high),
            ("9S", high),
            ("10H", high),
            ("JD", high),
            ("QC", high),
            ("KS", high),
        ]:
            cases.append(
                pytest.param(preset_id, token, points, id=f"{token} is {points} in {preset_id}")
            )
    return cases


@pytest.mark.parametrize(("preset_id", "token", "points"), _points_cases())
def test_card_points_of_every_rank_in_every_preset(preset_id: str, token: str, points: int) -> None:
    assert PRESETS[preset_id].card_points(parse_card(token)) == points


def test_the_card_points_table_covers_every_preset() -> None:
    assert sorted(CARD_POINTS) == sorted(PRESETS)
