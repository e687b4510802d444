"""presets.md §2 (meld legality) and the biriba bonuses of §4, clause by clause.

Cards are written in the notation of §1; each table row names the rule it checks.
"""

from typing import Any

import pytest

from scorekeeper.rules.cards import JOKER, CardError, Suit, parse_cards
from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.melds import (
    IllegalMeldError,
    MeldKind,
    MeldVerdict,
    can_meld,
    check_notation,
    verify_meld,
)
from scorekeeper.rules.presets import (
    BERIBA,
    BURACO_US,
    BURRACO_IT,
    CATSATCARDS,
    PAGAT,
    PAGAT_KOURIDAKIS,
    PRESETS,
    VENEZUELAN,
    WIKIPEDIA,
)
from scorekeeper.rules.scoring import TeamHand, deck_problems
from scorekeeper.rules.variants import Variant

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
RUN, SET, WILD = MeldKind.RUN, MeldKind.SET, MeldKind.WILD


def judge(text: str, variant: Variant = PAGAT, kozi: Suit | None = None) -> MeldVerdict:
    return check_notation(text, variant, kozi)


def layout_text(verdict: MeldVerdict) -> str:
    """The layout as rank words, a wild marked with the card it is: ``A 2 3=2♦ 4``."""
    return " ".join(
        f"{p.as_rank}={p.card.label}" if p.wild else f"{p.as_rank}" for p in verdict.layout
    )


def one_problem(verdict: MeldVerdict) -> str:
    assert len(verdict.problems) == 1, verdict.problems
    return verdict.problems[0]


# --- size -----------------------------------------------------------------------------------------

SIZES = [
    pytest.param("3H 4H", PAGAT, "A meld needs at least 3 cards; this one has 2.", id="run of 2"),
    pytest.param("5H 5S", PAGAT, "A meld needs at least 3 cards; this one has 2.", id="set of 2"),
    pytest.param("KD", PAGAT, "A meld needs at least 3 cards; this one has 1.", id="one card"),
    pytest.param(
        "3H 4H 5H",
        PAGAT.with_options(min_size=4),
        "A meld needs at least 4 cards; this one has 3.",
        id="house rule min_size 4 rejects a run of 3",
    ),
    pytest.param(
        "3H-10H",
        BERIBA,
        "A meld may hold at most 7 cards in this variant; this one has 8.",
        id="beriba max 7 rejects a run of 8",
    ),
    pytest.param(
        "4H 4S 4D 4C 4H 4S 4D 4C",
        BERIBA,
        "A meld may hold at most 7 cards in this variant; this one has 8.",
        id="beriba max 7 rejects a set of 8",
    ),
    pytest.param(
        "AH-QH JK",
        BERIBA,
        "A meld may hold at most 7 cards in this variant; this one has 13.",
        id="beriba max 7 rejects a 13-card run",
    ),
]


@pytest.mark.parametrize(("text", "variant", "problem"), SIZES)
def test_meld_size_limits(text: str, variant: Variant, problem: str) -> None:
    verdict = judge(text, variant)
    assert not verdict.legal
    assert one_problem(verdict) == problem
    assert verdict.clean is None
    assert verdict.bonus == 0


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        pytest.param("3H 4H 5H", PAGAT, id="run of 3 is the smallest meld"),
        pytest.param("5H 5S 5D", PAGAT, id="set of 3 is the smallest set"),
        pytest.param("3H-9H", BERIBA, id="beriba run of exactly 7"),
        pytest.param("4H 4S 4D 4C 4H 4S 4D", BERIBA, id="beriba set of exactly 7"),
        pytest.param("3H-10H", PAGAT, id="pagat has no max size below 13"),
    ],
)
def test_meld_sizes_within_the_limits_are_legal(text: str, variant: Variant) -> None:
    assert judge(text, variant).legal


# --- runs -----------------------------------------------------------------------------------------

LEGAL_RUNS = [
    pytest.param("3H 4H 5H", PAGAT, "3 4 5", id="three in sequence"),
    pytest.param("5H 3H 4H", PAGAT, "3 4 5", id="cards may be entered in any order"),
    pytest.param("AS 2S 3S", PAGAT, "A 2 3", id="ace low before the 2"),
    pytest.param("QS KS AS", PAGAT, "Q K A", id="ace high after the K"),
    pytest.param("AS 2S 3S", BURACO_US, "A 2 3", id="ace low in buraco-us"),
    pytest.param("QS KS AS", BURACO_US, "Q K A", id="ace high in buraco-us"),
    # A run holding A through K reads with the ace low, however it was written.
    pytest.param(
        "AC-KC", PAGAT, "A 2 3 4 5 6 7 8 9 10 J Q K", id="13-card run A to K is the longest"
    ),
    pytest.param(
        "2C-AC", PAGAT, "A 2 3 4 5 6 7 8 9 10 J Q K", id="13-card run written 2 to A reads A to K"
    ),
    pytest.param(
        "AC-QC JK",
        PAGAT,
        "A 2 3 4 5 6 7 8 9 10 J Q K=joker",
        id="13-card run with a wild keeps the ace low and the wild at the K",
    ),
    pytest.param(
        "AC-KC AC",
        BURACO_US,
        "A 2 3 4 5 6 7 8 9 10 J Q K A",
        id="buraco-us 14-card run with the ace at both ends",
    ),
    pytest.param(
        "AC-QC JK AC",
        BURACO_US,
        "A 2 3 4 5 6 7 8 9 10 J Q K=joker A",
        id="buraco-us 14-card run with a wild and both aces",
    ),
]


@pytest.mark.parametrize(("text", "variant", "layout"), LEGAL_RUNS)
def test_legal_runs(text: str, variant: Variant, layout: str) -> None:
    verdict = judge(text, variant)
    assert verdict.problems == ()
    assert verdict.kind is RUN
    assert layout_text(verdict) == layout


ILLEGAL_RUNS = [
    pytest.param("3H 4H 5S", PAGAT, "A run keeps to one suit: 5♠ is not ♥.", id="run in two suits"),
    pytest.param(
        "3H 4H 5S 6C",
        PAGAT,
        "A run keeps to one suit: 5♠ 6♣ are not ♥.",
        id="run in three suits names both odd cards",
    ),
    pytest.param(
        "3H 4H 6H",
        PAGAT,
        "The run has a gap: 5♥ is missing, and no wild card fills it.",
        id="not consecutive: one card missing",
    ),
    pytest.param(
        "3H 5H 7H",
        PAGAT,
        "The run has a gap: 4♥ 6♥ are missing, and no wild card fills it.",
        id="not consecutive: two cards missing",
    ),
    pytest.param(
        "3H 5H 7H JK",
        PAGAT,
        "The run has a gap: 4♥ 6♥ are missing, more than its wild card fills.",
        id="two gaps are more than one wild fills",
    ),
    pytest.param(
        "3H 3H 4H",
        PAGAT,
        "A run holds each card once, but 3♥ appears twice in this one.",
        id="a run holds each rank once",
    ),
    pytest.param(
        "KH AH 2H 3H",
        PAGAT,
        "A run never wraps around the ace: K-A-2 is not a run.",
        id="no wrap K-A-2-3",
    ),
    pytest.param(
        "QS KS AS 2S 3S",
        PAGAT,
        "A run never wraps around the ace: K-A-2 is not a run.",
        id="no wrap Q-K-A-2-3",
    ),
    pytest.param(
        "QS KS AS 2S 3S",
        BURACO_US,
        "A run never wraps around the ace: K-A-2 is not a run.",
        id="no wrap Q-K-A-2-3 even where the ace may sit at both ends",
    ),
    pytest.param(
        "AC-KC JK",
        PAGAT,
        "A run can be at most 13 cards long (from A to K or from 2 to A), and never wraps "
        "around; this one would need 14.",
        id="longest run is 13 cards",
    ),
    pytest.param(
        "AC-KC AC JK",
        BURACO_US,
        "A run can be at most 14 cards long (from A to A), and never wraps around; "
        "this one would need 15.",
        id="longest run is 14 cards in buraco-us",
    ),
]


@pytest.mark.parametrize(("text", "variant", "problem"), ILLEGAL_RUNS)
def test_illegal_runs_say_why(text: str, variant: Variant, problem: str) -> None:
    verdict = judge(text, variant)
    assert not verdict.legal
    assert one_problem(verdict) == problem
    assert verdict.clean is None
    assert verdict.biriba is False


ACE_AT_BOTH_ENDS = (
    "This run has A♥ at both ends, but an ace sits low (A-2-3) or high (Q-K-A) in a run, "
    "never both."
)


def test_ace_at_both_ends_of_a_short_run_is_illegal() -> None:
    # Both ends are aces, so the run cannot wrap: the hole in the middle is a gap.
    verdict = judge("AH 2H 3H QH KH AH", PAGAT)
    assert not verdict.legal
    assert verdict.problems == (
        ACE_AT_BOTH_ENDS,
        "The run has a gap: 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ are missing, and no wild card fills it.",
    )


def test_ace_at_both_ends_of_a_14_card_run_is_illegal_outside_buraco_us() -> None:
    verdict = judge("AH-KH AH", PAGAT)
    assert not verdict.legal
    assert verdict.problems == (ACE_AT_BOTH_ENDS,)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            "AH 2H 3H QH KH AH",
            "The run has a gap: 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ are missing, and no wild card fills it.",
            id="A-2-3 Q-K-A in buraco-us has a gap, it does not wrap",
        ),
        pytest.param(
            "AH KH AH",
            "The run has a gap: 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ are missing, "
            "and no wild card fills it.",
            id="A K A in buraco-us has a gap, it does not wrap",
        ),
    ],
)
def test_aces_at_both_ends_where_allowed_leave_a_gap_not_a_wrap(text: str, problem: str) -> None:
    verdict = judge(text, BURACO_US)
    assert not verdict.legal
    assert one_problem(verdict) == problem


@pytest.mark.parametrize(
    ("text", "ace", "problem"),
    [
        pytest.param(
            "QH KH AH",
            "low_only",
            "In this variant an ace is always low (A-2-3), never high.",
            id="house rule aces low only rejects Q-K-A",
        ),
        pytest.param(
            "AH 2H 3H",
            "high_only",
            "In this variant an ace is always high (Q-K-A), never low.",
            id="house rule aces high only rejects A-2-3",
        ),
    ],
)
def test_ace_house_rules(text: str, ace: str, problem: str) -> None:
    verdict = judge(text, PAGAT.with_options(ace=ace))
    assert not verdict.legal
    assert one_problem(verdict) == problem
    assert judge(text, PAGAT).legal


def test_k_a_2_is_only_a_run_with_the_2_as_a_wild_queen() -> None:
    # A 2 after the ace can never be natural (that would wrap): it is read as a wild Q.
    verdict = judge("KH AH 2H", PAGAT)
    assert verdict.legal
    assert layout_text(verdict) == "Q=2♥ K A"
    assert verdict.clean is False


# --- sets -----------------------------------------------------------------------------------------

THREE_TO_ACE = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SET_RANKS = {
    "pagat": THREE_TO_ACE,
    "pagat-kouridakis": [],
    "wikipedia": THREE_TO_ACE,
    "catsatcards": THREE_TO_ACE,
    "venezuelan": THREE_TO_ACE,
    "beriba": THREE_TO_ACE,
    "buraco-us": ["J", "Q", "K", "A"],
    "burraco-it": THREE_TO_ACE,
}


def _set_cases() -> list[Any]:
    cases = []
    for preset_id, allowed in SET_RANKS.items():
        for rank in THREE_TO_ACE:
            legal = rank in allowed
            word = "allowed" if legal else "not allowed"
            cases.append(
                pytest.param(preset_id, rank, legal, id=f"set of {rank}s is {word} in {preset_id}")
            )
    return cases


@pytest.mark.parametrize(("preset_id", "rank", "legal"), _set_cases())
def test_which_ranks_form_sets(preset_id: str, rank: str, legal: bool) -> None:
    verdict = judge(f"{rank}H {rank}S {rank}D {rank}C", PRESETS[preset_id])
    assert verdict.legal is legal
    assert verdict.kind is SET


@pytest.mark.parametrize(
    ("text", "variant", "problem"),
    [
        pytest.param(
            "5H 5S 5D",
            PAGAT_KOURIDAKIS,
            "This variant allows no sets, only runs: 5♥ 5♠ 5♦ is a set.",
            id="kouridakis allows no sets",
        ),
        pytest.param(
            "5H 5S 5D",
            BURACO_US,
            "Sets of 5s are not allowed in this variant: only J Q K A may form sets.",
            id="buraco-us sets of 5s are refused naming the allowed ranks",
        ),
        pytest.param(
            "10H 10S JK",
            BURACO_US,
            "Sets of 10s are not allowed in this variant: only J Q K A may form sets.",
            id="buraco-us sets of 10s with a wild are refused too",
        ),
        pytest.param(
            "5H 5S 6D",
            PAGAT,
            "A set holds one rank: 6♦ is not 5.",
            id="set of two ranks names the odd card",
        ),
        pytest.param(
            "5H 6S 9D",
            PAGAT,
            "5♥ 6♠ 9♦ is neither a run (one suit, in sequence) nor a set (one rank).",
            id="neither a run nor a set",
        ),
    ],
)
def test_illegal_sets_say_why(text: str, variant: Variant, problem: str) -> None:
    verdict = judge(text, variant)
    assert not verdict.legal
    assert one_problem(verdict) == problem


NO_WILD_MELDS = ["pagat", "pagat-kouridakis", "wikipedia", "catsatcards", "buraco-us", "burraco-it"]


@pytest.mark.parametrize(
    "preset_id", [pytest.param(p, id=f"a set of 2s is illegal in {p}") for p in NO_WILD_MELDS]
)
def test_a_set_of_2s_is_never_legal(preset_id: str) -> None:
    verdict = judge("2H 2S 2D", PRESETS[preset_id])
    assert not verdict.legal
    assert one_problem(verdict) == "2♥ 2♠ 2♦: a set of 2s is never legal, 2s are wild."


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(VENEZUELAN, id="2s with wild melds in venezuelan are a wild meld not a set"),
        pytest.param(BERIBA, id="2s with wild melds in beriba are a wild meld not a set"),
    ],
)
def test_2s_are_never_a_set_even_where_wild_melds_are_allowed(variant: Variant) -> None:
    verdict = judge("2H 2S 2D", variant)
    assert verdict.legal
    assert verdict.kind is WILD


def test_set_ranks_may_never_include_the_2() -> None:
    with pytest.raises(ValueError, match="'set_ranks' cannot hold 2 or JK"):
        PAGAT.with_options(set_ranks=["2", "3"])


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        pytest.param("5H 5H 5H", PAGAT, id="set of three 5♥ from three decks is a set"),
        pytest.param("AH AS AD", BURACO_US, id="set of aces in buraco-us"),
        pytest.param("AH AH 2H", PAGAT, id="two aces and a 2 of the same suit are a dirty set"),
        pytest.param("JH JS JK", BURACO_US, id="set of jacks with a joker in buraco-us"),
    ],
)
def test_legal_sets(text: str, variant: Variant) -> None:
    verdict = judge(text, variant)
    assert verdict.problems == ()
    assert verdict.kind is SET


# --- wild cards -----------------------------------------------------------------------------------

TOO_MANY_WILDS = [
    pytest.param(
        "3H 4H JK 2S",
        "A meld may hold only one wild card, but this one has more: joker and 2♠. "
        "2♠ stands in as a wild card here: a 2 is natural only in its own place in a run of "
        "its own suit.",
        id="run with a joker and an off-suit 2",
    ),
    pytest.param(
        "3H 4H 2S 2D",
        "A meld may hold only one wild card, but this one has more: 2♠ and 2♦. "
        "2♠ and 2♦ stand in as wild cards here: a 2 is natural only in its own place in a "
        "run of its own suit.",
        id="run with two off-suit 2s",
    ),
    pytest.param(
        "5H 5S 2H 2S",
        "A meld may hold only one wild card, but this one has more: 2♥ and 2♠. "
        "2♥ and 2♠ stand in as wild cards here: a 2 is natural only in its own place in a "
        "run of its own suit.",
        id="set with two 2s: no 2 is natural in a set",
    ),
    pytest.param(
        "5H 5S JK JK",
        "A meld may hold only one wild card, but this one has more: joker and joker.",
        id="set with two jokers: no note on 2s",
    ),
]


@pytest.mark.parametrize(("text", "problem"), TOO_MANY_WILDS)
def test_at_most_one_wild_card_per_meld(text: str, problem: str) -> None:
    verdict = judge(text, PAGAT)
    assert not verdict.legal
    assert one_problem(verdict) == problem


@pytest.mark.parametrize("text", ["3H 4H JK 2S", "3H 4H 2S 2D", "5H 5S 2H 2S JK"])
def test_no_count_stands_before_the_wild_cards(text: str) -> None:
    """ "this one has 2: joker 2♠" read as two 2s: the wild cards are named, not counted."""
    problem = one_problem(judge(text, PAGAT))
    assert "has 2" not in problem and "has 3" not in problem
    assert "stands in as a wild card" in problem or "stand in as wild cards" in problem


@pytest.mark.parametrize(
    ("text", "twos"),
    [
        pytest.param("AH 2H 3H", "2H", id="a 2 between the ace and the 3"),
        pytest.param("2H 3H 4H", "2H", id="a 2 at the bottom"),
        pytest.param("AH 2H 2H 4H", "2H", id="one 2 natural, the other wild"),
        pytest.param("3H 4H 2S", "", id="an off-suit 2 is wild"),
        pytest.param("5H 5S 2H", "", id="a 2 in a set is wild"),
    ],
)
def test_the_verdict_names_the_natural_2s(text: str, twos: str) -> None:
    assert judge(text, PAGAT).natural_twos == parse_cards(twos)


def test_the_cards_a_run_repeats_are_named_in_one_sentence() -> None:
    verdict = judge("5S 5S 6S 6S 7S", PAGAT)
    assert verdict.problems == (
        "A run holds each card once, but 5♠ and 6♠ appear twice in this one.",
    )


TWO_TWOS = [
    pytest.param("AC 2C 2D 4C", "A 2 3=2♦ 4", id="A♣ 2♣ 2♦ 4♣: 2♦ is the wild standing for 3♣"),
    pytest.param("AH 2H 2H 4H", "A 2 3=2♥ 4", id="two 2♥: one natural, the other wild"),
    pytest.param("2H 2H 4H 5H", "2 3=2♥ 4 5", id="natural 2 at the bottom and a wild 2 above"),
    pytest.param("2S 3S 4S 2S 6S", "2 3 4 5=2♠ 6", id="natural 2 and a wild 2 in the gap"),
    pytest.param("AH 2H 3H JK", "A 2 3 4=joker", id="natural 2 and a joker"),
]


@pytest.mark.parametrize(("text", "layout"), TWO_TWOS)
def test_a_second_2_only_when_one_is_natural(text: str, layout: str) -> None:
    verdict = judge(text, PAGAT)
    assert verdict.problems == ()
    assert layout_text(verdict) == layout
    assert verdict.clean is False
    assert len(verdict.wild_cards) == 1


def test_the_wild_2_stands_for_the_missing_natural() -> None:
    verdict = judge("AC 2C 2D 4C", PAGAT)
    (wild,) = [p for p in verdict.layout if p.wild]
    assert wild.card == parse_cards("2D")[0]
    assert verdict.stands_for(wild) == parse_cards("3C")[0]
    natural_two = verdict.layout[1]
    assert natural_two.card == parse_cards("2C")[0]
    assert natural_two.wild is False
    assert verdict.stands_for(natural_two) == parse_cards("2C")[0]


def test_a_set_wild_stands_for_no_one_card() -> None:
    verdict = judge("5H 5S JK", PAGAT)
    (wild,) = [p for p in verdict.layout if p.wild]
    assert verdict.stands_for(wild) is None


def test_an_off_suit_2_next_to_a_natural_2_fills_the_gap() -> None:
    verdict = judge("2H 2S 5H 6H", PAGAT)
    assert not verdict.legal
    assert one_problem(verdict) == (
        "The run has a gap: 3♥ 4♥ are missing, more than its wild card fills."
    )


# --- clean or dirty -------------------------------------------------------------------------------

CLEAN_OR_DIRTY = [
    pytest.param("2H 3H 4H 5H 6H 7H 8H", True, "2 3 4 5 6 7 8", id="2H-8H is clean"),
    pytest.param(
        "3H 4H 5H 6H 7H 8H 2H", True, "2 3 4 5 6 7 8", id="a 2 entered last goes to its place"
    ),
    pytest.param("AH 2H 3H", True, "A 2 3", id="A-2-3 of one suit is clean"),
    pytest.param("3H 4H 2H 6H 7H", False, "3 4 5=2♥ 6 7", id="3H 4H 2H 6H 7H is dirty, 2H as 5H"),
    pytest.param("2H 3H 5H", False, "3 4=2♥ 5", id="2H must fill the gap, so it is wild"),
    pytest.param("QH KH AH 2H", False, "J=2♥ Q K A", id="a 2 above the ace is wild"),
    pytest.param("3H 4H 6H JK", False, "3 4 5=joker 6", id="joker in a gap is wild"),
    pytest.param("5H 5S 5D", True, "5 5 5", id="a set of naturals is clean"),
    pytest.param("5H 5S JK", False, "5 5 5=joker", id="a set with a joker is dirty"),
    pytest.param("5H 5S 2H", False, "5 5 5=2♥", id="a 2 in a set is always wild"),
]


@pytest.mark.parametrize(("text", "clean", "layout"), CLEAN_OR_DIRTY)
def test_clean_or_dirty_on_the_cleanest_layout(text: str, clean: bool, layout: str) -> None:
    verdict = judge(text, PAGAT)
    assert verdict.legal
    assert verdict.clean is clean
    assert layout_text(verdict) == layout
    assert len(verdict.wild_cards) == (0 if clean else 1)


# --- wild melds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset_id", [pytest.param(p, id=f"no wild meld in {p}") for p in NO_WILD_MELDS]
)
def test_wild_melds_only_where_allowed(preset_id: str) -> None:
    verdict = judge("JK 2S JK", PRESETS[preset_id])
    assert not verdict.legal
    assert one_problem(verdict) == (
        "joker 2♠ joker: this variant allows no meld of wild cards only (jokers and 2s)."
    )


WILD_MELDS = [
    pytest.param("JK 2S JK", VENEZUELAN, False, 0, "", id="venezuelan wild meld of 3"),
    pytest.param("JK JK JK JK JK JK", VENEZUELAN, False, 0, "", id="venezuelan wild meld of 6"),
    pytest.param(
        "JK JK JK JK 2H 2S 2D",
        VENEZUELAN,
        True,
        500,
        "Wild biriba",
        id="venezuelan wild biriba of 7 is 500",
    ),
    pytest.param(
        "JK JK JK JK JK JK 2H 2S",
        VENEZUELAN,
        True,
        500,
        "Wild biriba",
        id="venezuelan wild biriba of 8 is 500",
    ),
    pytest.param("JK 2S JK", BERIBA, False, 0, "", id="beriba wild meld of 3"),
    pytest.param(
        "JK JK JK JK 2H 2S 2D",
        BERIBA,
        True,
        500,
        "Wild beriba",
        id="beriba joker-beriba of 7 wilds is 500",
    ),
]


@pytest.mark.parametrize(("text", "variant", "biriba", "bonus", "label"), WILD_MELDS)
def test_wild_melds(text: str, variant: Variant, biriba: bool, bonus: int, label: str) -> None:
    verdict = judge(text, variant, kozi=H)
    assert verdict.problems == ()
    assert verdict.kind is WILD
    assert verdict.clean is None
    assert verdict.kozi is False
    assert verdict.biriba is biriba
    assert verdict.bonus == bonus
    assert verdict.bonus_label == label
    assert all(verdict.stands_for(p) is None for p in verdict.layout)


def test_beriba_wild_meld_of_8_breaks_the_max_of_7() -> None:
    verdict = judge("JK JK JK JK 2H 2S 2D 2C", BERIBA)
    assert one_problem(verdict) == (
        "A meld may hold at most 7 cards in this variant; this one has 8."
    )


# --- biriba and full biriba -----------------------------------------------------------------------

BIRIBA_OR_NOT = [
    pytest.param("3S-8S", False, False, id="run of 6 is no biriba"),
    pytest.param("3S-9S", True, False, id="run of 7 is a biriba"),
    pytest.param("3S-8S JK", True, False, id="dirty run of 7 is a biriba"),
    pytest.param("5H 5S 5D 5C 5H 5S", False, False, id="set of 6 is no biriba"),
    pytest.param("5H 5S 5D 5C 5H 5S 5D", True, False, id="set of 7 is a biriba"),
    pytest.param("2S-KS", True, False, id="run of 12 is a biriba but not full"),
    pytest.param("AS-KS", True, True, id="run of 13 is a full biriba"),
    pytest.param("2S-AS", True, True, id="run of 13 ace high is a full biriba"),
    pytest.param("AS-QS JK", True, True, id="dirty run of 13 is a full biriba"),
    pytest.param(
        "5H 5H 5H 5S 5S 5S 5D 5D 5D 5C 5C 5C 5H",
        True,
        False,
        id="set of 13 is a biriba but never full",
    ),
]


@pytest.mark.parametrize(("text", "biriba", "full"), BIRIBA_OR_NOT)
def test_biriba_at_7_and_full_biriba_at_a_13_card_run(text: str, biriba: bool, full: bool) -> None:
    verdict = judge(text, PAGAT)
    assert verdict.legal
    assert verdict.biriba is biriba
    assert verdict.full is full


# --- kózi -----------------------------------------------------------------------------------------

KOZI = [
    pytest.param("3H 4H 5H", PAGAT, H, True, id="run in the kozi suit is kozi"),
    pytest.param("3H 4H 5H", PAGAT, S, False, id="run in another suit is not kozi"),
    pytest.param("3H 4H 5H", PAGAT, None, False, id="no kozi suit this hand"),
    pytest.param("3S 4S 2H", PAGAT, H, False, id="a wild 2 of the kozi suit does not make kozi"),
    pytest.param("3S 4S 2H", PAGAT, S, True, id="kozi goes by the suit of the naturals"),
    pytest.param("KH AH 2S", PAGAT, H, True, id="kozi run holding an off-suit wild"),
    pytest.param("2H 3H 4H", PAGAT, H, True, id="natural 2 of the kozi suit in a kozi run"),
    pytest.param("5H 5H 5H", PAGAT, H, False, id="a set all in the kozi suit is never kozi"),
    pytest.param("5H 5S 5D", PAGAT, H, False, id="a set is never kozi"),
    pytest.param("3H 4H 5H", PAGAT_KOURIDAKIS, H, True, id="kozi run in kouridakis"),
    pytest.param("3H 4H 5H", WIKIPEDIA, H, True, id="atout run in wikipedia"),
    pytest.param("3H 4H 5H", CATSATCARDS, H, True, id="kozi run in catsatcards"),
    pytest.param("3H 4H 5H", BERIBA, H, True, id="trump run in beriba"),
    pytest.param("3H 4H 5H", VENEZUELAN, H, False, id="no kozi in venezuelan"),
    pytest.param("3H 4H 5H", BURACO_US, H, False, id="no kozi in buraco-us"),
    pytest.param("3H 4H 5H", BURRACO_IT, H, False, id="no kozi in burraco-it"),
    pytest.param("3H 4H 6H", PAGAT, H, False, id="an illegal run is never kozi"),
]


@pytest.mark.parametrize(("text", "variant", "kozi", "is_kozi"), KOZI)
def test_kozi_runs(text: str, variant: Variant, kozi: Suit | None, is_kozi: bool) -> None:
    assert judge(text, variant, kozi).kozi is is_kozi


def test_house_rule_kozi_off_drops_the_kozi_bonus() -> None:
    verdict = judge("3H-9H", PAGAT.with_options(kozi=False), H)
    assert verdict.kozi is False
    assert verdict.bonus == 200


# --- semipulito -----------------------------------------------------------------------------------

SEMIPULITO = [
    pytest.param("3H-9H", 200, False, "Clean burraco", id="burraco-it pulito run is 200"),
    pytest.param(
        "3H-9H JK", 150, True, "Semi-clean burraco", id="wild above 7 naturals is semipulito 150"
    ),
    pytest.param(
        "2S 3H-9H", 150, True, "Semi-clean burraco", id="off-suit 2 above 7 naturals is 150"
    ),
    pytest.param(
        "AH-7H JK", 150, True, "Semi-clean burraco", id="7 naturals with a natural 2 plus wild 150"
    ),
    pytest.param(
        "2H-8H 2H",
        150,
        True,
        "Semi-clean burraco",
        id="second 2 of the suit as a wild above 7 naturals is 150",
    ),
    pytest.param(
        "2H 4H-10H",
        150,
        True,
        "Semi-clean burraco",
        id="2 that cannot be natural sits at an end of 7 naturals 150",
    ),
    pytest.param(
        "3H 4H 5H 6H JK 8H 9H 10H",
        100,
        False,
        "Dirty burraco",
        id="wild in a gap splitting the naturals is sporco 100",
    ),
    pytest.param(
        "3H-8H JK", 100, False, "Dirty burraco", id="6 naturals plus a wild is sporco 100"
    ),
    pytest.param(
        "3H-9H JK JH",
        150,
        True,
        "Semi-clean burraco",
        id="wild at the end of 7 naturals in sequence with more beyond is semipulito 150",
    ),
    pytest.param(
        "3H 4H JK 6H-KH",
        150,
        True,
        "Semi-clean burraco",
        id="wild below 8 naturals in sequence with 2 more beyond is semipulito 150",
    ),
    pytest.param(
        "3H 4H 5H JK 7H-10H",
        100,
        False,
        "Dirty burraco",
        id="wild between 3 and 4 naturals is sporco 100",
    ),
    pytest.param(
        "AH-QH JK",
        150,
        True,
        "Semi-clean full burraco",
        id="13-card run with the wild at the end of 12 naturals is semipulito 150",
    ),
    pytest.param(
        "AH-6H JK 8H-KH",
        100,
        False,
        "Dirty full burraco",
        id="13-card run with the wild between 6 and 6 naturals is sporco 100",
    ),
    pytest.param(
        "5H 5S 5D 5C 5H 5S 5D",
        200,
        False,
        "Clean burraco (set)",
        id="burraco-it pulito set is 200",
    ),
    pytest.param(
        "5H 5S 5D 5C 5H 5S 5D JK",
        150,
        True,
        "Semi-clean burraco (set)",
        id="set of 7 naturals plus a wild is semipulito 150",
    ),
    pytest.param(
        "5H 5S 5D 5C 5H 5S JK",
        100,
        False,
        "Dirty burraco (set)",
        id="set of 6 naturals plus a wild is sporco 100",
    ),
]


@pytest.mark.parametrize(("text", "bonus", "semiclean", "label"), SEMIPULITO)
def test_burraco_it_semipulito(text: str, bonus: int, semiclean: bool, label: str) -> None:
    verdict = judge(text, BURRACO_IT)
    assert verdict.legal
    assert (verdict.bonus, verdict.semiclean, verdict.bonus_label) == (bonus, semiclean, label)


@pytest.mark.parametrize(
    ("variant", "bonus", "label"),
    [
        pytest.param(PAGAT, 100, "Dirty biriba", id="semipulito shape is plain dirty 100 in pagat"),
        pytest.param(
            BURACO_US, 100, "Dirty buraco", id="semipulito shape is plain dirty 100 in buraco-us"
        ),
        pytest.param(BERIBA, None, "", id="semipulito shape is too long for beriba"),
    ],
)
def test_semipulito_only_in_burraco_it(variant: Variant, bonus: int | None, label: str) -> None:
    verdict = judge("3H-9H JK", variant)
    assert verdict.semiclean is False
    if bonus is None:
        assert not verdict.legal
    else:
        assert verdict.bonus == bonus
    assert verdict.bonus_label == label


# --- every biriba bonus of every preset (presets.md §4) -------------------------------------------

# Each kind of biriba as (clean meld, dirty meld, kózi suit of the hand).
BIRIBA_MELDS = {
    "run": ("3H-9H", "3H-8H JK", S),
    "set": ("KH KS KD KC KH KS KD", "KH KS KD KC KH KS JK", H),
    "kózi run": ("3H-9H", "3H-8H JK", H),
    "13-run": ("AH-KH", "AH-QH JK", S),
    "kózi 13-run": ("AH-KH", "AH-QH JK", H),
    "14-run": ("AH-KH AH", "AH-QH JK AH", S),
}
_LABELS = {
    "run": "biriba",
    "set": "biriba (set)",
    "kózi run": "kózi biriba",
    "13-run": "full biriba",
    "kózi 13-run": "kózi full biriba",
    "14-run": "full biriba",
}
# What each preset calls a biriba in its labels (the Greek presets keep "biriba").
_WORDS = {"beriba": "beriba", "buraco-us": "buraco", "burraco-it": "burraco"}
# (clean, dirty) per preset and kind; None: such a meld is illegal in that preset.
BIRIBA_BONUSES: dict[str, dict[str, tuple[int, int] | None]] = {
    "pagat": {
        "run": (200, 100),
        "set": (300, 150),
        "kózi run": (400, 200),
        "13-run": (1000, 500),
        "kózi 13-run": (2000, 1000),
        "14-run": None,
    },
    "pagat-kouridakis": {
        "run": (200, 100),
        "set": None,
        "kózi run": (400, 200),
        "13-run": (1000, 500),
        "kózi 13-run": (1000, 500),
        "14-run": None,
    },
    "wikipedia": {
        "run": (400, 200),
        "set": (300, 150),
        "kózi run": (600, 300),
        "13-run": (1000, 500),
        "kózi 13-run": (1000, 500),
        "14-run": None,
    },
    "catsatcards": {
        "run": (200, 100),
        "set": (300, 150),
        "kózi run": (400, 200),
        "13-run": (1000, 500),
        "kózi 13-run": (2000, 1000),
        "14-run": None,
    },
    "venezuelan": {
        "run": (200, 100),
        "set": (300, 150),
        "kózi run": (200, 100),
        "13-run": (200, 100),
        "kózi 13-run": (200, 100),
        "14-run": None,
    },
    "beriba": {
        "run": (200, 100),
        "set": (200, 100),
        "kózi run": (400, 200),
        "13-run": None,
        "kózi 13-run": None,
        "14-run": None,
    },
    "buraco-us": {
        "run": (200, 100),
        "set": (200, 100),
        "kózi run": (200, 100),
        "13-run": (200, 100),
        "kózi 13-run": (200, 100),
        "14-run": (200, 100),
    },
    "burraco-it": {
        "run": (200, 100),
        "set": (200, 100),
        "kózi run": (200, 100),
        "13-run": (200, 150),
        "kózi 13-run": (200, 150),
        "14-run": None,
    },
}
# Where a preset has no kózi, a kózi-suited run is scored and labelled as a plain run.
_NO_KOZI = {"venezuelan", "buraco-us", "burraco-it"}
# The dirty 13-run AH-QH JK reads ace low with the joker as K, at the end of 12 naturals:
# in burraco-it that is semipulito, 150, so its "dirty" column holds the semi-clean value.
_SEMICLEAN = {("burraco-it", "13-run"), ("burraco-it", "kózi 13-run")}


def _bonus_cases() -> list[Any]:
    cases = []
    for preset_id, table in BIRIBA_BONUSES.items():
        for kind, pair in table.items():
            if pair is None:
                continue
            for i, cleanness in enumerate(("clean", "dirty")):
                if i == 1 and (preset_id, kind) in _SEMICLEAN:
                    cleanness = "semi-clean"
                text = BIRIBA_MELDS[kind][i]
                kozi = BIRIBA_MELDS[kind][2]
                label_kind = _LABELS[kind].replace("biriba", _WORDS.get(preset_id, "biriba"))
                if preset_id in _NO_KOZI:
                    label_kind = label_kind.replace("kózi ", "")
                label = f"{cleanness.capitalize()} {label_kind}"
                cases.append(
                    pytest.param(
                        preset_id,
                        text,
                        kozi,
                        pair[i],
                        label,
                        id=f"{kind} {cleanness} is {pair[i]} in {preset_id}",
                    )
                )
    return cases


@pytest.mark.parametrize(("preset_id", "text", "kozi", "bonus", "label"), _bonus_cases())
def test_biriba_bonus_of_every_preset(
    preset_id: str, text: str, kozi: Suit, bonus: int, label: str
) -> None:
    verdict = judge(text, PRESETS[preset_id], kozi)
    assert verdict.problems == ()
    assert verdict.biriba is True
    assert verdict.bonus == bonus
    assert verdict.bonus_label == label


def _illegal_biriba_cases() -> list[Any]:
    return [
        pytest.param(
            preset_id, BIRIBA_MELDS[kind][0], BIRIBA_MELDS[kind][2], id=f"no {kind} in {preset_id}"
        )
        for preset_id, table in BIRIBA_BONUSES.items()
        for kind, pair in table.items()
        if pair is None
    ]


@pytest.mark.parametrize(("preset_id", "text", "kozi"), _illegal_biriba_cases())
def test_biriba_kinds_a_preset_does_not_allow(preset_id: str, text: str, kozi: Suit) -> None:
    verdict = judge(text, PRESETS[preset_id], kozi)
    assert not verdict.legal
    assert verdict.bonus == 0
    assert verdict.bonus_label == ""


def test_the_bonus_table_covers_every_preset() -> None:
    assert sorted(BIRIBA_BONUSES) == sorted(PRESETS)


def test_a_meld_under_7_cards_earns_no_bonus() -> None:
    verdict = judge("3H-8H", WIKIPEDIA, H)
    assert (verdict.biriba, verdict.bonus, verdict.bonus_label) == (False, 0, "")


# --- card points of a meld ------------------------------------------------------------------------

MELD_POINTS = [
    pytest.param("JH QH KH", PAGAT, 30, id="J Q K are 10 each"),
    pytest.param("QH KH AH", PAGAT, 35, id="an ace is 15"),
    pytest.param("3H 4H 5H", PAGAT, 15, id="3 4 5 are 5 each"),
    pytest.param("JH QH 2S", PAGAT, 30, id="a 2 standing for a K counts 10 in pagat"),
    pytest.param("JH QH 2S", BURACO_US, 40, id="a 2 standing for a K counts 20 in buraco-us"),
    pytest.param("JH QH 2S", VENEZUELAN, 45, id="a 2 standing for a K counts 25 in venezuelan"),
    pytest.param("3H 4H 2S", PAGAT, 20, id="a 2 standing for a 5 still counts 10"),
    pytest.param("3H 4H JK", PAGAT, 30, id="a joker standing for a 5 counts 20 in pagat"),
    pytest.param("3H 4H JK", WIKIPEDIA, 35, id="a joker counts 25 in wikipedia"),
    pytest.param("3H 4H JK", BERIBA, 40, id="a joker counts 30 in beriba"),
    pytest.param("AH 2H 3H", BERIBA, 40, id="a natural 2 counts 20 in beriba"),
    pytest.param("5H 5S JK", VENEZUELAN, 60, id="a joker in a set counts 50 in venezuelan"),
    pytest.param("JK JK 2S", VENEZUELAN, 125, id="wild meld points in venezuelan"),
]


@pytest.mark.parametrize(("text", "variant", "points"), MELD_POINTS)
def test_a_wild_counts_its_own_printed_value(text: str, variant: Variant, points: int) -> None:
    verdict = judge(text, variant)
    assert verdict.legal
    assert verdict.card_points == points


# --- the three forms of the rule, and names ------------------------------------------------------


def test_verify_meld_raises_with_every_reason() -> None:
    with pytest.raises(IllegalMeldError) as raised:
        verify_meld(parse_cards("JK JK"), PAGAT)
    assert str(raised.value) == (
        "A meld needs at least 3 cards; this one has 2. "
        "joker joker: this variant allows no meld of wild cards only (jokers and 2s)."
    )


def test_verify_meld_returns_the_verdict_of_a_legal_meld() -> None:
    verdict = verify_meld(parse_cards("5S-JS"), PAGAT, S)
    assert (verdict.kind, verdict.bonus, verdict.bonus_label) == (RUN, 400, "Clean kózi biriba")


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        pytest.param("3H 4H 5H", True, id="can meld a run"),
        pytest.param("3H 4H 6H", False, id="cannot meld a run with a gap"),
    ],
)
def test_can_meld(text: str, legal: bool) -> None:
    assert can_meld(parse_cards(text), PAGAT) is legal


def test_check_notation_passes_a_bad_token_on() -> None:
    with pytest.raises(CardError, match="'4Q' is not a card"):
        check_notation("3H 4Q 5H", PAGAT)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param("5S-JS", "5♠–J♠", id="a run is named by its ends"),
        pytest.param("AH-KH", "A♥–K♥", id="a run of A to K is named with the ace low"),
        pytest.param("2H-AH", "A♥–K♥", id="a run written 2 to A is named A to K too"),
        pytest.param("8D JK 10D", "8♦–10♦", id="a run with a wild is named by its ends"),
        pytest.param("JK 9D 10D", "9♦–J♦", id="a wild at the end is part of the name"),
        pytest.param("5H 5S 5D", "5♥ 5♠ 5♦", id="a set is named by its cards"),
        pytest.param("3H 4H 6H", "3♥ 4♥ 6♥", id="an illegal run is named by its cards"),
    ],
)
def test_meld_names(text: str, name: str) -> None:
    assert judge(text, PAGAT).name == name


def test_a_verdict_keeps_the_cards_as_entered() -> None:
    verdict = judge("5H 3H JK", PAGAT)
    assert verdict.cards == (*parse_cards("5H 3H"), JOKER)
    assert verdict.size == 3


# --- deck limits across a hand (§2, checked over everything entered for one hand) ----------------


def _team(name: str, melds: str = "", hand: str = "") -> TeamHand:
    return TeamHand(
        name=name,
        melds=tuple(parse_cards(m) for m in melds.split("|") if m.strip()),
        hands=(parse_cards(hand),) if hand else None,
    )


DECK_LIMITS = [
    pytest.param(
        "4p",
        [_team("A", "7H 8H 9H|7S 7H 7D"), _team("B", hand="7H")],
        ["7♥ appears 3 times, but two decks hold only 2."],
        id="two decks: a third 7♥ across melds and hands is refused",
    ),
    pytest.param(
        "4p",
        [_team("A", "7H 8H 9H|7S 7H 7D"), _team("B", hand="KS")],
        [],
        id="two decks: two 7♥ are fine",
    ),
    pytest.param(
        "4p",
        [_team("A", "3H 4H JK|5S 5D JK"), _team("B", "8C 9C JK", hand="JK JK")],
        ["jokers appear 5 times, but two decks hold only 4."],
        id="two decks: a fifth joker is refused",
    ),
    pytest.param(
        "4p",
        [_team("A", "3H 4H JK|5S 5D JK"), _team("B", "8C 9C JK", hand="JK")],
        [],
        id="two decks: four jokers are fine",
    ),
    pytest.param(
        "3p",
        [_team("A", "7H 8H 9H|7S 7H 7D"), _team("B", hand="7H"), _team("C")],
        [],
        id="three decks: three 7♥ are fine",
    ),
    pytest.param(
        "3p",
        [_team("A", "7H 8H 9H|7S 7H 7D"), _team("B", hand="7H 7H"), _team("C")],
        ["7♥ appears 4 times, but three decks hold only 3."],
        id="three decks: a fourth 7♥ is refused",
    ),
    pytest.param(
        "3p",
        [_team("A", "JK JK 5S"), _team("B", "JK 4C 5C", "JK"), _team("C", hand="JK JK")],
        [],
        id="three decks: six jokers are fine",
    ),
    pytest.param(
        "3p",
        [_team("A", "JK JK 5S"), _team("B", "JK 4C 5C", "JK JK"), _team("C", hand="JK JK")],
        ["jokers appear 7 times, but three decks hold only 6."],
        id="three decks: a seventh joker is refused",
    ),
    pytest.param(
        "4p",
        [_team("A", "5S 6S 7S|5S 6S 7S"), _team("B", hand="5S 6S 6S 7S")],
        ["5♠ and 7♠ appear 3 times and 6♠ appears 4 times, but two decks hold only 2 of each."],
        id="two decks: every card over the limit in one sentence",
    ),
    pytest.param(
        "3p",
        [_team("A", "5S 6S 7S|5S 6S 7S"), _team("B", hand="5S 6S JK"), _team("C", hand="5S")],
        ["5♠ appears 4 times, but three decks hold only 3."],
        id="three decks: three 6♠ are fine, a fourth 5♠ is not",
    ),
]


@pytest.mark.parametrize(("format_id", "teams", "problems"), DECK_LIMITS)
def test_deck_limits_name_the_card(
    format_id: str, teams: list[TeamHand], problems: list[str]
) -> None:
    assert deck_problems(teams, FORMATS[format_id]) == problems


# --- bounded work (issue 11) ----------------------------------------------------------------


def test_repeated_aces_try_a_constant_number_of_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    """5,000 AH took 30 s: every count of low aces was tried, each reading linear in the meld."""
    from scorekeeper.rules import melds

    calls = []
    real = melds._run
    monkeypatch.setattr(melds, "_run", lambda *args: calls.append(1) or real(*args))
    verdict = melds.judge_meld(parse_cards("QH KH " + " ".join(["AH"] * 5000)), PAGAT)
    assert verdict.kind is MeldKind.RUN
    assert "appears 5000 times" in " ".join(verdict.problems)
    assert len(calls) <= 10, f"{len(calls)} readings of one meld"


def _every_split(aces: int) -> list[int]:
    return list(range(aces, -1, -1))


@pytest.mark.parametrize("variant", list(PRESETS.values()), ids=lambda v: v.id)
def test_trying_fewer_ace_splits_changes_no_verdict(
    variant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The readings skipped rank the same as one that is tried: every verdict (problems,
    layout, bonus) is what trying every split of the aces gives."""
    import random

    from scorekeeper.rules import melds

    rng = random.Random(11)
    pool = ["AH", "AH", "AH", "2H", "3H", "4H", "QH", "KH", "JK", "2S", "5H", "10H"]
    samples = [" ".join(rng.choices(pool, k=rng.randint(2, 9))) for _ in range(300)]
    samples += [" ".join(["AH"] * n + extra) for n in range(1, 7) for extra in ([], ["KH"], ["2H"])]
    fast = [melds.judge_meld(parse_cards(s), variant, Suit.HEARTS) for s in samples]
    monkeypatch.setattr(melds, "_ace_splits", _every_split)
    slow = [melds.judge_meld(parse_cards(s), variant, Suit.HEARTS) for s in samples]
    for text, a, b in zip(samples, fast, slow, strict=True):
        assert (a.problems, a.layout, a.kind, a.clean, a.bonus, a.semiclean) == (
            b.problems,
            b.layout,
            b.kind,
            b.clean,
            b.bonus,
            b.semiclean,
        ), text
