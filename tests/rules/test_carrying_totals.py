"""Totals carried from hand to hand (`carry`) equal a replay of the match, and a side that
`scores_alike` with two totals before the hand gets the very same score with either."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import referee
from scorekeeper.match import read_teams, team_hands
from scorekeeper.rules.formats import find_format
from scorekeeper.rules.match import (
    MatchSetup,
    PlayedHand,
    Side,
    carry,
    match_state,
    start_totals,
)
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.scoring import score_hand, scores_alike

SETUP = MatchSetup(
    find_variant("wikipedia"),
    find_format("4p"),
    ("1", "2", "3", "4"),
    {"A": ("1", "3"), "B": ("2", "4")},
)


@given(st.lists(st.tuples(st.integers(-500, 3000), st.integers(-500, 3000)), max_size=30))
def test_carried_totals_are_the_replayed_ones(scores: list[tuple[int, int]]) -> None:
    played = [PlayedHand((Side(("1", "3"), a, "A"), Side(("2", "4"), b, "B"))) for a, b in scores]
    totals = start_totals(SETUP)
    for number, hand in enumerate(played, 1):
        totals = carry(SETUP, totals, hand, number)
    assert totals == {s.name: s.total for s in match_state(SETUP, played).standings}


#: The side's melds; with an opening named (cards or marked melds) or none.
MELDS = ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"]
OPENINGS = [{}, {"opening": "QD QC QH"}, {"opening_melds": [0]}, {"opening": "5S-JS"}]
BEFORE = st.one_of(
    st.integers(-2000, 5000),
    st.sampled_from([1499, 1500, 2999, 3000, 3001]),
    st.fractions(min_value=-100, max_value=4000, max_denominator=3),
)


@given(BEFORE, BEFORE, st.sampled_from(OPENINGS), st.sampled_from(["wikipedia", "catsatcards"]))
def test_a_side_that_scores_alike_scores_the_same(
    before: Fraction, other: Fraction, opening: dict[str, object], variant_id: str
) -> None:
    variant = find_variant(variant_id)
    table = find_format("4p")

    def scored(score: Fraction) -> object:
        body = {"name": "A", "melds": MELDS, "hands": ["", ""], **opening}
        body["score_before"] = str(score)
        teams = team_hands(*read_teams([body], table.cards), table)
        return referee.hand_json(score_hand(variant, teams, None, table))

    if scores_alike(variant, before, other, opening_named=bool(opening)):
        assert scored(before) == scored(other)


def test_scores_alike_is_false_across_an_opening_band_or_for_a_named_short_opening() -> None:
    variant = find_variant("wikipedia")
    assert scores_alike(variant, 100, 1400, opening_named=False)
    assert not scores_alike(variant, 1400, 1500, opening_named=False)
    assert not scores_alike(variant, 100, 1400, opening_named=True)
    assert scores_alike(variant, 100, 100, opening_named=True)
