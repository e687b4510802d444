"""Properties of the notation, of meld verdicts and of hand scores, over every preset."""

from collections.abc import Sequence
from itertools import product

from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.rules.cards import JOKER, Card, Rank, Suit, format_cards, parse_cards
from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.melds import MeldKind, MeldVerdict, judge_meld
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.scoring import HandScore, TeamHand, score_hand
from scorekeeper.rules.variants import Variant

# Ranks in run order, ace low and again ace high: position 1 … 14.
RUN_ORDER = [
    Rank.ACE,
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
]
NATURAL_RANKS = [r for r in Rank if r not in (Rank.JOKER, Rank.TWO)]
SUITED_RANKS = [r for r in Rank if r is not Rank.JOKER]

variants = st.sampled_from(list(PRESETS.values()))
suits = st.sampled_from(list(Suit))
kozis = st.one_of(st.none(), suits)
wilds = st.one_of(st.just(JOKER), st.builds(Card, st.just(Rank.TWO), suits))
any_card = st.one_of(st.just(JOKER), st.builds(Card, st.sampled_from(SUITED_RANKS), suits))


@st.composite
def runs(draw: st.DrawFn, wild: str | None = None) -> list[Card]:
    """A run of one suit, from a random start, up to 14 long; `wild`: none, replace or add."""
    suit = draw(suits)
    length = draw(st.integers(3, 14))
    start = draw(st.integers(0, 14 - length))
    cards = [Card(rank, suit) for rank in RUN_ORDER[start : start + length]]
    how = wild or draw(st.sampled_from(["none", "replace", "add"]))
    if how == "replace":
        cards[draw(st.integers(0, length - 1))] = draw(wilds)
    elif how == "add":
        cards.append(draw(wilds))
    return cards


@st.composite
def sets(draw: st.DrawFn) -> list[Card]:
    rank = draw(st.sampled_from(NATURAL_RANKS))
    cards = [Card(rank, suit) for suit in draw(st.lists(suits, min_size=2, max_size=9))]
    how = draw(st.sampled_from(["none", "replace", "add"]))
    if how == "replace":
        cards[draw(st.integers(0, len(cards) - 1))] = draw(wilds)
    elif how == "add":
        cards.append(draw(wilds))
    return cards


melds = st.one_of(runs(), sets(), st.lists(any_card, min_size=1, max_size=10))


def summary(verdict: MeldVerdict) -> tuple[object, ...]:
    return (
        verdict.legal,
        verdict.kind,
        verdict.clean,
        verdict.semiclean,
        verdict.biriba,
        verdict.full,
        verdict.kozi,
        verdict.suit,
        verdict.bonus,
        verdict.bonus_label,
        verdict.card_points,
        len(verdict.problems),
        len(verdict.wild_cards),
    )


@given(variant=variants, kozi=kozis, data=st.data(), cards=melds)
def test_a_verdict_does_not_depend_on_the_order_of_the_cards(
    variant: Variant, kozi: Suit | None, data: st.DataObject, cards: list[Card]
) -> None:
    shuffled = data.draw(st.permutations(cards), label="shuffled")
    assert summary(judge_meld(shuffled, variant, kozi)) == summary(judge_meld(cards, variant, kozi))


@given(variant=variants, kozi=kozis, cards=runs(wild="replace") | runs(wild="add"))
def test_a_wild_replaced_by_the_card_it_stands_for_leaves_a_clean_run(
    variant: Variant, kozi: Suit | None, cards: list[Card]
) -> None:
    verdict = judge_meld(cards, variant, kozi)
    assume(verdict.legal and verdict.kind is MeldKind.RUN and verdict.wild_cards)
    (placed,) = [p for p in verdict.layout if p.wild]
    natural = verdict.stands_for(placed)
    assert natural is not None
    assert natural.suit is verdict.suit
    replaced = list(cards)
    replaced.remove(placed.card)
    replaced.append(natural)
    after = judge_meld(replaced, variant, kozi)
    assert after.problems == ()
    assert after.kind is MeldKind.RUN
    assert after.clean is True
    assert after.size == verdict.size


def _codes(cards: Sequence[Card], separator: str) -> str:
    return separator.join(card.code for card in cards)


@given(cards=st.lists(any_card, max_size=20), separator=st.sampled_from([" ", ",", ", ", "  "]))
def test_codes_round_trip_through_the_parser(cards: list[Card], separator: str) -> None:
    assert parse_cards(_codes(cards, separator)) == tuple(cards)


@given(cards=st.lists(any_card, max_size=20))
def test_lower_case_codes_round_trip_too(cards: list[Card]) -> None:
    assert parse_cards(_codes(cards, " ").lower()) == tuple(cards)


@given(cards=st.lists(any_card, max_size=20))
def test_labels_round_trip_through_the_parser(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)


# --- a second, brute-force reading of presets.md §2 ----------------------------------------------

# Lowest and highest position a run may reach, and its longest length, per ace rule.
_BOUNDS = {"both_ends": (1, 14, 14), "low_only": (1, 13, 13), "high_only": (2, 14, 13)}


def brute_force(cards: Sequence[Card], variant: Variant) -> tuple[bool, bool | None]:
    """(legal, clean) by trying every reading: each ace low or high, each suited 2 natural."""
    n = len(cards)
    if n < variant.min_size or (variant.max_size is not None and n > variant.max_size):
        return False, None
    wild_ranks = [c for c in cards if c.rank in (Rank.TWO, Rank.JOKER)]
    naturals = [c for c in cards if c.rank not in (Rank.TWO, Rank.JOKER)]
    if not naturals:
        return variant.wild_melds, None
    readings: list[int] = []  # the number of wilds of every legal reading
    ranks = {c.rank for c in naturals}
    if len(ranks) == 1 and naturals[0].rank in variant.set_ranks:
        readings.append(len(wild_ranks))
    if len({c.suit for c in naturals}) == 1:
        suit = naturals[0].suit
        low, high, longest = _BOUNDS.get(variant.ace, (1, 14, 13))
        aces = sum(1 for c in naturals if c.rank is Rank.ACE)
        fixed = [c.rank.position for c in naturals if c.rank is not Rank.ACE]
        suited_twos = sum(1 for c in wild_ranks if c.rank is Rank.TWO and c.suit is suit)
        for ace_places in product((1, 14), repeat=aces):
            for natural_twos in range(suited_twos + 1):
                places = fixed + list(ace_places) + [2] * natural_twos
                if len(set(places)) < len(places) or n > longest:
                    continue
                if 1 in places and 14 in places and variant.ace != "both_ends":
                    continue
                # Some window of n positions inside the bounds holds every natural card.
                if max(low, max(places) - n + 1) <= min(min(places), high - n + 1):
                    readings.append(n - len(places))
    readings = [wilds for wilds in readings if wilds <= variant.max_wilds]
    if not readings:
        return False, None
    return True, min(readings) == 0


@given(variant=variants, cards=melds)
def test_legal_and_clean_agree_with_a_brute_force_reading(
    variant: Variant, cards: list[Card]
) -> None:
    verdict = judge_meld(cards, variant)
    legal, clean = brute_force(cards, variant)
    assert verdict.legal is legal, verdict.problems
    if verdict.kind is not MeldKind.WILD:
        assert verdict.clean is clean


def _scores(result: HandScore) -> list[tuple[object, ...]]:
    """Everything a hand's score says, with each team's lines and problems as multisets: a
    meld's own line may move with the meld, its points may not."""
    return [
        (team.name, team.score, sorted(team.lines, key=repr), sorted(team.problems))
        for team in result.teams
    ] + [sorted(result.problems)]


teams_melds = st.lists(st.lists(melds, max_size=5), min_size=2, max_size=3)


@given(variant=variants, kozi=kozis, melded=teams_melds, data=st.data())
def test_a_hands_scores_do_not_depend_on_the_order_of_its_melds(
    variant: Variant, kozi: Suit | None, melded: list[list[list[Card]]], data: st.DataObject
) -> None:
    def hand(order: list[list[list[Card]]]) -> HandScore:
        teams = [
            TeamHand(
                name=f"T{i}",
                melds=tuple(tuple(meld) for meld in team),
                hands=((Card(Rank.KING, Suit.CLUBS),), ()),
                went_out=i == 0,
                took_biribaki=True,
            )
            for i, team in enumerate(order)
        ]
        return score_hand(variant, teams, kozi, FORMATS["6p" if len(order) == 3 else "4p"])

    shuffled = [
        data.draw(st.permutations(team), label=f"team {i}") for i, team in enumerate(melded)
    ]
    assert _scores(hand(shuffled)) == _scores(hand(melded))
