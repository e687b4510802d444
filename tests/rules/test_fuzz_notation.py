"""Fuzzing the notation readers: whatever text comes in, the answer is cards (or points), or
the documented error (CardError for cards, ValueError for points) with a message that names
the problem, in English and in Greek. Never any other exception."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.catalog import catalog

from scorekeeper.rules.cards import Card, CardError, parse_card, parse_cards, parse_range
from scorekeeper.rules.i18n import using
from scorekeeper.rules.points import parse_points

#: Characters that mean something to the readers, so the fuzzer reaches past the first check.
NOTATION = "AJQKTXajqkt0123456789SHDCshdc★☆🃏♠♥♦♣♤♡♢♧-−+/½⅓⅔¼¾, ;\t\n"
texts = st.one_of(
    st.text(),
    st.text(alphabet=NOTATION, max_size=40),
    st.lists(st.sampled_from(["10H", "TH", "A♠", "JK", "3H-9H", "-", "2", "1/0", "½"])).map(
        "".join
    ),
)
FUZZ = settings(max_examples=200, deadline=None)


def refused_with_a_message(error: ValueError, text: str) -> None:
    message = str(error).strip()
    assert message, f"{type(error).__name__} without a message for {text!r}"


@pytest.mark.parametrize("language", ["en", "el"])
@FUZZ
@given(text=texts)
def test_any_text_is_cards_or_a_card_error(language: str, text: str) -> None:
    with using(catalog(language)):
        for read in (parse_cards, parse_card, parse_range):
            try:
                answer = read(text)
            except CardError as error:
                refused_with_a_message(error, text)
            else:
                cards = answer if isinstance(answer, tuple) else (answer,)
                assert all(isinstance(card, Card) for card in cards)


@pytest.mark.parametrize("language", ["en", "el"])
@FUZZ
@given(text=texts)
def test_any_text_is_points_or_a_value_error(language: str, text: str) -> None:
    with using(catalog(language)):
        try:
            points = parse_points(text)
        except ValueError as error:
            refused_with_a_message(error, text)
            assert text in str(error) or repr(text) in str(error)
        else:
            assert isinstance(points, Fraction)


@pytest.mark.parametrize("text", ["1/0", "²", "1/²", "٣", "1/-2", "+-3"])
def test_odd_numbers_are_refused_by_name(text: str) -> None:
    """Found by the fuzzer: a zero denominator, and digits that are not 0–9."""
    with pytest.raises(ValueError, match="is not a number of points"):
        parse_points(text)
