"""Match progress (presets.md §4–§6): running totals in every table format, exact shares,
the opening requirement for the next hand, dealer rotation, target and ties."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.match import (
    MatchError,
    MatchSetup,
    PlayedHand,
    Side,
    credits,
    deal_order,
    dealer_for,
    match_state,
    seat_order,
    side_score_before,
)
from scorekeeper.rules.opening import Comparison, Requirement
from scorekeeper.rules.points import format_points
from scorekeeper.rules.presets import (
    BERIBA,
    BURACO_US,
    BURRACO_IT,
    CATSATCARDS,
    PAGAT,
    PAGAT_KOURIDAKIS,
    VENEZUELAN,
    WIKIPEDIA,
)
from scorekeeper.rules.variants import Direction, OptionError, Variant

F = Fraction
SEATS4 = ("ann", "bob", "cat", "dan")  # clockwise
PARTNERS = {"NS": ("ann", "cat"), "EW": ("bob", "dan")}


def teams_hand(**scores: int) -> PlayedHand:
    """A hand in a fixed-team format: team name → its hand score."""
    return PlayedHand(tuple(Side((), score, team=name) for name, score in scores.items()))


def sides_hand(*sides: tuple[tuple[str, ...], int]) -> PlayedHand:
    """A hand in a share format: (players of the side, the side's hand score)."""
    return PlayedHand(tuple(Side(players, score) for players, score in sides))


def four_player(variant: Variant = PAGAT, first_dealer: int = 0) -> MatchSetup:
    return MatchSetup(variant, FORMATS["4p"], SEATS4, PARTNERS, first_dealer)


def two_player(variant: Variant) -> MatchSetup:
    return MatchSetup(variant, FORMATS["2p"], ("ann", "bob"), {"ann": ("ann",), "bob": ("bob",)})


def assert_exact(history: tuple[dict[str, Fraction], ...], expected: list[dict[str, F]]) -> None:
    assert [dict(h) for h in history] == expected
    for totals in history:
        for total in totals.values():
            assert isinstance(total, Fraction)  # never a float


# --- running totals in every format ----------------------------------------------------------


def test_4p_running_totals_belong_to_the_teams() -> None:
    hands = [
        teams_hand(NS=575, EW=20),
        teams_hand(NS=605, EW=-180),
        teams_hand(NS=2210, EW=600),
    ]
    state = match_state(four_player(), hands)
    assert_exact(
        state.history,
        [
            {"NS": F(575), "EW": F(20)},
            {"NS": F(575 + 605), "EW": F(20 - 180)},  # 1180, −160
            {"NS": F(1180 + 2210), "EW": F(-160 + 600)},  # 3390, 440
        ],
    )
    assert state.total("NS") == 3390
    assert state.total("EW") == 440
    assert state.hands_played == 3
    assert [s.name for s in state.standings] == ["NS", "EW"]
    assert not state.finished


def test_2p_running_totals_belong_to_the_players() -> None:
    hands = [teams_hand(ann=550, bob=-85), teams_hand(ann=-40, bob=535)]
    state = match_state(two_player(BURACO_US), hands)
    assert_exact(
        state.history,
        [{"ann": F(550), "bob": F(-85)}, {"ann": F(550 - 40), "bob": F(-85 + 535)}],
    )
    assert (state.total("ann"), state.total("bob")) == (510, 450)


def test_3p_each_player_alone() -> None:
    setup = MatchSetup(
        WIKIPEDIA,
        FORMATS["3p"],
        ("ann", "bob", "cat"),
        {"ann": ("ann",), "bob": ("bob",), "cat": ("cat",)},
    )
    hands = [teams_hand(ann=485, bob=340, cat=-185), teams_hand(ann=100, bob=-50, cat=220)]
    state = match_state(setup, hands)
    assert_exact(
        state.history,
        [
            {"ann": F(485), "bob": F(340), "cat": F(-185)},
            {"ann": F(585), "bob": F(290), "cat": F(35)},
        ],
    )


def test_6p_three_teams_of_two() -> None:
    setup = MatchSetup(
        PAGAT_KOURIDAKIS,
        FORMATS["6p"],
        ("a1", "b1", "c1", "a2", "b2", "c2"),
        {"A": ("a1", "a2"), "B": ("b1", "b2"), "C": ("c1", "c2")},
    )
    hands = [teams_hand(A=345, B=25, C=120), teams_hand(A=-60, B=400, C=15)]
    state = match_state(setup, hands)
    assert_exact(
        state.history,
        [
            {"A": F(345), "B": F(25), "C": F(120)},
            {"A": F(285), "B": F(425), "C": F(135)},
        ],
    )


def test_3p_partnership_pair_members_get_half_each() -> None:
    setup = MatchSetup(PAGAT, FORMATS["3p-partnership"], ("ann", "bob", "cat"))
    hands = [
        sides_hand((("ann",), 300), (("bob", "cat"), 205)),
        sides_hand((("bob",), -45), (("ann", "cat"), 151)),
    ]
    state = match_state(setup, hands)
    assert_exact(
        state.history,
        [
            # solo ann gets 300 in full; bob and cat get 205/2 = 102½ each
            {"ann": F(300), "bob": F(205, 2), "cat": F(205, 2)},
            # ann 300 + 151/2 = 751/2; bob 205/2 − 45 = 115/2; cat 205/2 + 151/2 = 178
            {"ann": F(751, 2), "bob": F(115, 2), "cat": F(178)},
        ],
    )
    assert format_points(state.total("ann")) == "375½"
    assert format_points(state.total("bob")) == "57½"


def test_5p_solo_against_two_pairs() -> None:
    setup = MatchSetup(PAGAT, FORMATS["5p"], ("a", "b", "c", "d", "e"))
    hands = [
        sides_hand((("a",), 400), (("b", "c"), 125), (("d", "e"), -35)),
        sides_hand((("c",), 230), (("a", "d"), 91), (("b", "e"), 10)),
    ]
    state = match_state(setup, hands)
    assert_exact(
        state.history,
        [
            {"a": F(400), "b": F(125, 2), "c": F(125, 2), "d": F(-35, 2), "e": F(-35, 2)},
            {
                "a": F(400) + F(91, 2),  # 891/2
                "b": F(125, 2) + 5,  # 135/2
                "c": F(125, 2) + 230,  # 585/2
                "d": F(-35, 2) + F(91, 2),  # 28
                "e": F(-35, 2) + 5,  # −25/2
            },
        ],
    )
    assert state.total("a") == F(891, 2)
    assert state.total("d") == 28
    assert format_points(state.total("e")) == "−12½"


def test_solo_vs_rest_four_players_share_in_thirds() -> None:
    setup = MatchSetup(BERIBA, FORMATS["solo-vs-rest"], SEATS4)
    hands = [
        sides_hand((("ann",), 500), (("bob", "cat", "dan"), 100)),
        sides_hand((("bob",), -20), (("ann", "cat", "dan"), 250)),
    ]
    state = match_state(setup, hands)
    assert_exact(
        state.history,
        [
            {"ann": F(500), "bob": F(100, 3), "cat": F(100, 3), "dan": F(100, 3)},
            {
                "ann": F(500) + F(250, 3),  # 1750/3
                "bob": F(100, 3) - 20,  # 40/3
                "cat": F(350, 3),
                "dan": F(350, 3),
            },
        ],
    )
    assert state.total("bob") == F(40, 3)
    assert format_points(state.total("bob")) == "13⅓"
    assert format_points(state.total("cat")) == "116⅔"
    # a third of 100 is never rounded: three shares add back to the side's score exactly
    assert sum(credits(setup, hands[0]).values()) == 500 + 100


def test_solo_vs_rest_three_players_share_in_halves() -> None:
    setup = MatchSetup(BERIBA, FORMATS["solo-vs-rest"], ("ann", "bob", "cat"))
    state = match_state(setup, [sides_hand((("cat",), 75), (("ann", "bob"), 125))])
    assert_exact(state.history, [{"ann": F(125, 2), "bob": F(125, 2), "cat": F(75)}])


def test_credits_of_one_hand() -> None:
    setup = MatchSetup(PAGAT, FORMATS["solo-vs-rest"], SEATS4)
    gains = credits(setup, sides_hand((("dan",), -100), (("ann", "bob", "cat"), 100)))
    assert gains == {"dan": F(-100), "ann": F(100, 3), "bob": F(100, 3), "cat": F(100, 3)}


# --- the opening requirement for the next hand ------------------------------------------------


@pytest.mark.parametrize(
    ("total", "points", "comparison", "text"),
    [
        pytest.param(-250, 75, Comparison.AT_LEAST, "at least 75", id="negative-lowest-row"),
        pytest.param(0, 75, Comparison.AT_LEAST, "at least 75", id="0"),
        pytest.param(1495, 75, Comparison.AT_LEAST, "at least 75", id="1495"),
        pytest.param(1500, 90, Comparison.AT_LEAST, "at least 90", id="1500"),
        pytest.param(2995, 90, Comparison.AT_LEAST, "at least 90", id="2995"),
        pytest.param(3000, 120, Comparison.MORE_THAN, "more than 120", id="3000-more-than"),
        pytest.param(4500, 120, Comparison.MORE_THAN, "more than 120", id="4500"),
    ],
)
def test_w1_opening_for_the_next_hand(
    total: int, points: int, comparison: Comparison, text: str
) -> None:
    state = match_state(two_player(WIKIPEDIA), [teams_hand(ann=total, bob=0)])
    ann, bob = state.standings
    assert ann.opening == Requirement(points, comparison)
    assert ann.opening.text == text
    assert bob.opening == Requirement(75, Comparison.AT_LEAST)


@pytest.mark.parametrize(
    ("total", "points", "text"),
    [
        pytest.param(-50, 0, "no minimum", id="negative-lowest-row"),
        pytest.param(1495, 0, "no minimum", id="1495"),
        pytest.param(1500, 75, "at least 75", id="1500"),
        pytest.param(2995, 75, "at least 75", id="2995"),
        pytest.param(3000, 100, "at least 100", id="3000"),
        pytest.param(3995, 100, "at least 100", id="3995"),
        pytest.param(4000, 120, "at least 120", id="4000-still-at-least"),
    ],
)
def test_c1_opening_for_the_next_hand(total: int, points: int, text: str) -> None:
    state = match_state(four_player(CATSATCARDS), [teams_hand(NS=total, EW=1500)])
    ns, ew = state.standings
    assert ns.opening == Requirement(points, Comparison.AT_LEAST)
    assert ns.opening.text == text
    assert ew.opening == Requirement(75, Comparison.AT_LEAST)


def test_b1_opening_and_no_table() -> None:
    state = match_state(two_player(BURACO_US), [teams_hand(ann=1500, bob=1495)])
    assert state.standings[0].opening == Requirement(75, Comparison.AT_LEAST)
    assert state.standings[1].opening == Requirement(50, Comparison.AT_LEAST)
    state = match_state(two_player(PAGAT), [teams_hand(ann=4000, bob=0)])
    assert all(s.opening == Requirement(0) for s in state.standings)


def test_half_point_share_falls_in_the_band_below() -> None:
    setup = MatchSetup(WIKIPEDIA, FORMATS["3p-partnership"], ("ann", "bob", "cat"))
    # the pair scores 2999 → 1499½ each, still below 1500; solo 3001 → more than 1500
    state = match_state(setup, [sides_hand((("ann",), 1501), (("bob", "cat"), 2999))])
    assert state.total("bob") == F(2999, 2)
    by_name = {s.name: s for s in state.standings}
    assert by_name["bob"].opening == Requirement(75, Comparison.AT_LEAST)
    assert by_name["cat"].opening == Requirement(75, Comparison.AT_LEAST)
    assert by_name["ann"].opening == Requirement(90, Comparison.AT_LEAST)
    # a side formed of bob and ann opens as its leader would: ann's 1501 → 90
    assert side_score_before(state, ["bob", "ann"]) == 1501


# --- dealer rotation ----------------------------------------------------------------------------


def test_pagat_deals_anticlockwise() -> None:
    setup = four_player(PAGAT)
    dealers = [match_state(setup, [teams_hand(NS=0, EW=0)] * n).next_dealer for n in range(5)]
    # seats are clockwise ann, bob, cat, dan: the deal passes to the right, ann → dan → cat …
    assert dealers == ["ann", "dan", "cat", "bob", "ann"]


def test_buraco_us_deals_clockwise() -> None:
    setup = four_player(BURACO_US)
    dealers = [dealer_for(setup, n) for n in range(5)]
    assert dealers == ["ann", "bob", "cat", "dan", "ann"]


@pytest.mark.parametrize(
    ("direction", "first", "played", "order"),
    [
        # seats go clockwise: anticlockwise passes the deal to the right, ann → dan → cat
        (Direction.ANTICLOCKWISE, 0, 0, ("ann", "dan", "cat", "bob")),
        (Direction.CLOCKWISE, 0, 0, ("ann", "bob", "cat", "dan")),
        (Direction.ANTICLOCKWISE, 2, 1, ("bob", "ann", "dan", "cat")),
        (Direction.CLOCKWISE, 3, 6, ("bob", "cat", "dan", "ann")),
    ],
    ids=["right from ann", "left from ann", "right, after a hand", "left, after six hands"],
)
def test_deal_order_starts_with_the_next_dealer(
    direction: Direction, first: int, played: int, order: tuple[str, ...]
) -> None:
    assert deal_order(SEATS4, first, direction, played) == order


def test_deal_order_agrees_with_the_dealer_of_every_hand() -> None:
    for variant in (PAGAT, BURACO_US):
        setup = four_player(variant, first_dealer=1)
        for played in range(6):
            order = deal_order(SEATS4, 1, variant.deal_direction, played)
            assert order[0] == dealer_for(setup, played)
            assert sorted(order) == sorted(SEATS4)


def test_partners_sit_opposite() -> None:
    assert seat_order([("ann", "cat"), ("bob", "dan")]) == SEATS4
    assert seat_order([("a1", "a2"), ("b1", "b2"), ("c1", "c2")]) == (
        "a1",
        "b1",
        "c1",
        "a2",
        "b2",
        "c2",
    )
    assert seat_order([("solo",), ("x", "y")]) == ("solo", "x", "y")
    assert seat_order([]) == ()


def test_first_dealer_is_respected() -> None:
    assert [dealer_for(four_player(PAGAT, first_dealer=2), n) for n in range(3)] == [
        "cat",
        "bob",
        "ann",
    ]
    assert [dealer_for(four_player(BURACO_US, first_dealer=3), n) for n in range(3)] == [
        "dan",
        "ann",
        "bob",
    ]


@pytest.mark.parametrize(
    ("variant", "direction"),
    [
        (PAGAT, "anticlockwise"),
        (PAGAT_KOURIDAKIS, "anticlockwise"),
        (WIKIPEDIA, "anticlockwise"),
        (CATSATCARDS, "anticlockwise"),
        (VENEZUELAN, "clockwise"),
        (BERIBA, "clockwise"),
        (BURACO_US, "clockwise"),
        (BURRACO_IT, "clockwise"),
    ],
    ids=lambda v: v.id if isinstance(v, Variant) else v,
)
def test_second_dealer_by_preset(variant: Variant, direction: str) -> None:
    expected = "dan" if direction == "anticlockwise" else "bob"
    assert dealer_for(four_player(variant), 1) == expected


# --- target and winner ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "not_enough", "enough"),
    [
        (PAGAT, 5000, 5005),  # above 5000
        (PAGAT_KOURIDAKIS, 5000, 5005),
        (WIKIPEDIA, 3000, 3005),
        (CATSATCARDS, 5000, 5005),
        (VENEZUELAN, 2495, 2500),  # at least 2500
        (BERIBA, 3000, 3005),
        (BURACO_US, 1995, 2000),  # at least 2000
        (BURRACO_IT, 2005, 2010),  # above 2005
    ],
    ids=lambda v: v.id if isinstance(v, Variant) else str(v),
)
def test_target(variant: Variant, not_enough: int, enough: int) -> None:
    setup = four_player(variant)
    short = match_state(setup, [teams_hand(NS=not_enough, EW=100)])
    assert not short.finished
    assert short.winner is None
    assert short.tied_leaders == ()
    assert not short.standings[0].reached_target
    won = match_state(setup, [teams_hand(NS=enough, EW=100)])
    assert won.finished
    assert won.winner == "NS"
    assert won.standings[0].reached_target
    assert not won.standings[1].reached_target


def test_pagat_5000_is_not_enough_and_5005_wins() -> None:
    setup = four_player(PAGAT)
    hands = [teams_hand(NS=2500, EW=1000), teams_hand(NS=2500, EW=500)]
    assert match_state(setup, hands).total("NS") == 5000
    assert not match_state(setup, hands).finished
    hands.append(teams_hand(NS=5, EW=-20))
    state = match_state(setup, hands)
    assert (state.finished, state.winner) == (True, "NS")


def test_buraco_us_2000_wins() -> None:
    state = match_state(two_player(BURACO_US), [teams_hand(ann=1200, bob=300)] * 2)
    assert state.total("ann") == 2400
    state = match_state(two_player(BURACO_US), [teams_hand(ann=1000, bob=300)] * 2)
    assert state.total("ann") == 2000
    assert (state.finished, state.winner) == (True, "ann")


def test_highest_above_the_target_wins_when_both_are_above() -> None:
    state = match_state(four_player(PAGAT), [teams_hand(NS=5100, EW=5200)])
    assert (state.finished, state.winner) == (True, "EW")


def test_a_tie_above_the_target_plays_on_and_the_next_hand_decides() -> None:
    setup = four_player(PAGAT)
    hands = [teams_hand(NS=5100, EW=5100)]
    tied = match_state(setup, hands)
    assert not tied.finished
    assert tied.winner is None
    assert set(tied.tied_leaders) == {"NS", "EW"}
    decided = match_state(setup, [*hands, teams_hand(NS=20, EW=70)])
    assert decided.finished
    assert decided.winner == "EW"
    assert decided.tied_leaders == ()


def test_a_tie_below_the_target_is_no_tie_yet() -> None:
    state = match_state(four_player(PAGAT), [teams_hand(NS=4000, EW=4000)])
    assert (state.finished, state.winner, state.tied_leaders) == (False, None, ())


# --- fixed deals (a tournament's round) -----------------------------------------------------------


def test_fixed_deals_end_the_match_after_that_many_hands_whatever_the_target() -> None:
    setup = four_player(PAGAT.with_options(deals=2))
    one = match_state(setup, [teams_hand(NS=6000, EW=100)])
    assert (one.finished, one.winner) == (False, None)  # past the target, one hand short
    two = match_state(setup, [teams_hand(NS=300, EW=100), teams_hand(NS=-50, EW=400)])
    assert (two.finished, two.winner) == (True, "EW")  # 250 v 500, far below the target
    assert two.tied_leaders == ()


def test_fixed_deals_with_equal_totals_are_a_draw_not_another_hand() -> None:
    setup = four_player(PAGAT.with_options(deals=1))
    state = match_state(setup, [teams_hand(NS=250, EW=250)])
    assert (state.finished, state.winner, state.tied_leaders) == (True, None, ())


def test_fixed_deals_must_be_at_least_one() -> None:
    with pytest.raises(OptionError, match="'deals' must be at least 1"):
        PAGAT.with_options(deals=0)
    assert PAGAT.with_options(deals=None).deals is None
    assert PAGAT.deals is None


def test_a_tie_for_the_lead_in_thirds_plays_on() -> None:
    setup = MatchSetup(BURACO_US, FORMATS["solo-vs-rest"], SEATS4)
    # ann 1500 + 1500/3 = 2000; bob 1500 + 1500/3 = 2000: level at the top of "at least 2000"
    hands = [
        sides_hand((("ann",), 1500), (("bob", "cat", "dan"), 1500)),
        sides_hand((("bob",), 1500), (("ann", "cat", "dan"), 1500)),
    ]
    state = match_state(setup, hands)
    assert state.total("ann") == state.total("bob") == 2000
    assert not state.finished
    assert set(state.tied_leaders) == {"ann", "bob"}


# --- hands that do not fit the match ------------------------------------------------------------


def test_unknown_team_raises_match_error() -> None:
    with pytest.raises(MatchError, match="'Z'"):
        match_state(four_player(), [teams_hand(NS=100, EW=0), teams_hand(NS=10, Z=5)])


def test_unknown_team_error_names_the_hand() -> None:
    with pytest.raises(MatchError, match="Hand 2"):
        match_state(four_player(), [teams_hand(NS=100, EW=0), teams_hand(NS=10, Z=5)])


def test_unknown_player_raises_match_error() -> None:
    setup = MatchSetup(PAGAT, FORMATS["3p-partnership"], ("ann", "bob", "cat"))
    with pytest.raises(MatchError, match="'zed'"):
        match_state(setup, [sides_hand((("ann",), 10), (("bob", "zed"), 20))])


def test_team_format_without_teams_raises_match_error() -> None:
    setup = MatchSetup(PAGAT, FORMATS["4p"], SEATS4)
    with pytest.raises(MatchError, match="4p"):
        match_state(setup, [])


def test_a_side_without_players_raises_match_error() -> None:
    setup = MatchSetup(PAGAT, FORMATS["5p"], ("a", "b", "c", "d", "e"))
    with pytest.raises(MatchError):
        match_state(setup, [sides_hand((("a",), 10), ((), 20))])


def test_a_new_match_has_nothing_yet() -> None:
    state = match_state(four_player(WIKIPEDIA), [])
    assert state.hands_played == 0
    assert state.history == ()
    assert state.next_dealer == "ann"
    assert all(s.total == 0 and not s.reached_target for s in state.standings)
    assert not state.finished
