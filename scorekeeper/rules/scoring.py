"""Hand scoring (presets.md §3): every team's score with itemised lines, and every problem
of the hand collected at once.

score = melded card points + biriba bonuses + going-out bonus + cut bonus
        − cards left in hand − penalties
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import gcd
from typing import Any

from .cards import JOKER, Card, Suit, format_cards
from .formats import FORMATS, LARGEST_FORMAT, TableFormat
from .i18n import and_list, joined, ntr, ptr, tr, tr_for, upper_first
from .melds import MeldKind, MeldVerdict, judge_meld, verdict_json
from .opening import Requirement, requirement
from .points import format_points
from .variants import UnplayedBiribaki, Variant


class Cut(StrEnum):
    EXACT = "exact"
    OFF_BY_ONE = "off_by_one"


@dataclass(frozen=True, slots=True)
class TeamHand:
    """What one team (or lone player) reports after a hand."""

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    hands: tuple[tuple[Card, ...], ...] | None = None  # cards left, one tuple per player
    hand_points: int | None = None  # or just their point total
    went_out: bool = False
    took_biribaki: bool = False
    score_before: Fraction | int = 0
    opening: tuple[Card, ...] | None = None  # the cards of the team's first meld this hand
    # Or which of `melds` (indexes from 0) made up the team's opening: the scorer marks them.
    opening_melds: tuple[int, ...] | None = None
    cut: Cut | None = None
    failed_openings: int = 0
    biribaki_unplayed: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScoreLine:
    label: str
    points: int


@dataclass(frozen=True, slots=True)
class TeamScore:
    name: str
    score: int
    lines: tuple[ScoreLine, ...]
    problems: tuple[str, ...]
    opening_required: int
    opening_text: str
    melds: tuple[MeldVerdict, ...]
    # Card points of the opening the team gave (marked melds or cards); None when not given.
    opening_points: int | None = None


@dataclass(frozen=True, slots=True)
class HandScore:
    teams: tuple[TeamScore, ...]
    problems: tuple[str, ...]  # the hand's own, then each team's (every one names its side)

    @property
    def legal(self) -> bool:
        return not self.problems


def score_hand(
    variant: Variant,
    teams: Sequence[TeamHand],
    kozi: Suit | None = None,
    table_format: TableFormat = FORMATS["4p"],
) -> HandScore:
    """Score one hand for every team; problems never stop the arithmetic, so a scorer can
    see the score a disputed hand would give. Every problem is a sentence naming its side."""
    scored = tuple(_score_team(variant, team, kozi) for team in teams)
    problems = _hand_problems(teams, table_format)
    for team in scored:
        problems += team.problems
    return HandScore(scored, tuple(problems))


def scores_alike(
    variant: Variant,
    before: Fraction | int,
    other: Fraction | int,
    opening_named: bool,
    failed_openings: int = 0,
) -> bool:
    """Whether a side scores exactly alike (every point, line, problem and word) with
    `other` as its score before the hand as with `before`, given whether it names its
    opening (as cards or marked melds) and its failed opening attempts. That score counts
    only through the opening requirement, and in the words of a named opening that falls
    short; so a correction of an early hand need not score again a later hand this says is
    alike. (Keep this in step with every use of `score_before` in this module.)"""

    def needed(score: Fraction | int) -> Requirement:
        return requirement(
            variant.opening_table,
            score,
            variant.opening_comparison,
            failed_openings,
            variant.opening_failed_increment,
        )

    if needed(before) != needed(other):
        return False
    return not opening_named or format_points(before) == format_points(other)


def _score_team(variant: Variant, team: TeamHand, kozi: Suit | None) -> TeamScore:
    verdicts = tuple(judge_meld(meld, variant, kozi) for meld in team.melds)
    lines: list[ScoreLine] = []
    problems: list[str] = []
    melded = sum(v.card_points for v in verdicts)
    if verdicts:
        lines.append(ScoreLine(tr("Cards melded"), melded))
    for v in verdicts:
        if not v.legal:
            head = tr(
                "The meld {cards} of {team} is not legal.",
                cards=format_cards(v.cards),
                team=team.name,
            )
            problems.append(joined(" ", [head, *v.problems]))
        elif v.bonus:
            lines.append(ScoreLine(joined(" ", [v.bonus_label, v.name]), v.bonus))
    biribas = [v for v in verdicts if v.biriba]
    if variant.wild_meld_lockout:
        problems += _lockout_problems(variant, team, verdicts)
    if team.went_out:
        problems += _going_out_problems(variant, team, biribas)
        if variant.going_out_bonus:
            lines.append(ScoreLine(ptr("score line", "Went out"), variant.going_out_bonus))
    lines += _cut_lines(variant, team, problems)
    lines += _hand_lines(variant, team)
    lines += _penalty_lines(variant, team, verdicts, biribas)
    needed = requirement(
        variant.opening_table,
        team.score_before,
        variant.opening_comparison,
        team.failed_openings,
        variant.opening_failed_increment,
    )
    opening_problems, opening_lines, opening_points = _opening(variant, team, needed)
    problems += opening_problems
    lines += opening_lines
    return TeamScore(
        name=team.name,
        score=sum(line.points for line in lines),
        lines=tuple(lines),
        problems=tuple(problems),
        opening_required=needed.least_meeting(_point_step(variant)),
        opening_text=needed.text,
        melds=verdicts,
        opening_points=opening_points,
    )


def kozi_missing(variant: Variant, kozi: Suit | None) -> str | None:
    """The sentence asking for the hand's kózi, where the variant deals one every hand and
    none was given (a kózi biriba scored as a plain one would be silently wrong)."""
    if kozi is None and variant.kozi and not variant.kozi_optional:
        return tr("Choose this hand's kózi: {variant} has one every hand.", variant=variant.name)
    return None


def _going_out_problems(variant: Variant, team: TeamHand, biribas: list[MeldVerdict]) -> list[str]:
    problems = []
    word = variant.biriba_word
    if variant.going_out_needs_clean_biriba and not any(v.clean for v in biribas):
        problems.append(
            tr_for(
                word,
                "{team} went out without a clean {biriba} on its side.",
                team=team.name,
                **variant.words(),
            )
        )
    elif variant.going_out_needs_biriba and not biribas:
        problems.append(
            tr_for(
                word,
                "{team} went out without a {biriba} on its side.",
                team=team.name,
                **variant.words(),
            )
        )
    if variant.going_out_needs_biribaki and not team.took_biribaki:
        problems.append(
            tr_for(
                variant.biribaki_word,
                "{team} went out without having taken its {biribaki}.",
                team=team.name,
                **variant.words(),
            )
        )
    return problems


def _lockout_problems(
    variant: Variant, team: TeamHand, verdicts: tuple[MeldVerdict, ...]
) -> list[str]:
    """While a side's meld of wilds is unfinished, its wilds may go nowhere else."""
    unfinished = [
        v for v in verdicts if v.legal and v.kind is MeldKind.WILD and v.size < variant.biriba_size
    ]
    if not unfinished:
        return []
    others = [v for v in verdicts if v.kind is not MeldKind.WILD and v.wild_cards]
    # Of two unfinished wild melds, the longer (then the first by its cards) is named, so the
    # sentence does not change with the order the melds were entered in.
    named = min(unfinished, key=lambda v: (-v.size, format_cards(v.cards)))
    return [
        tr(
            "The meld {cards} of {team} uses the wild card {wilds}, but while the wild meld "
            "{wild_meld} of {team} has fewer than {size} cards, no other meld may use a wild card.",
            cards=format_cards(v.cards),
            team=team.name,
            wilds=format_cards(v.wild_cards),
            wild_meld=format_cards(named.cards),
            size=variant.biriba_size,
        )
        for v in others
    ]


def _cut_lines(variant: Variant, team: TeamHand, problems: list[str]) -> list[ScoreLine]:
    if team.cut is None:
        return []
    bonus = variant.cut_exact_bonus if team.cut is Cut.EXACT else variant.cut_off_by_one_bonus
    if not bonus:
        if team.cut is Cut.EXACT:
            claim = tr(
                "{team} claims an exact cut, but this variant gives no bonus for it.",
                team=team.name,
            )
        else:
            claim = tr(
                "{team} claims a cut off by one card, but this variant gives no bonus for it.",
                team=team.name,
            )
        problems.append(claim)
        return []
    exact = team.cut is Cut.EXACT
    label = tr("Exact cut") if exact else ptr("score line", "Cut off by one card")
    return [ScoreLine(label, bonus)]


def _hand_lines(variant: Variant, team: TeamHand) -> list[ScoreLine]:
    lines = []
    if team.hands is not None:
        left = sum(variant.card_points(c) for hand in team.hands for c in hand)
        if left:
            lines.append(ScoreLine(tr("Cards left in hands"), -left))
    if team.hand_points:
        lines.append(ScoreLine(tr("Cards left in hands"), -team.hand_points))
    if team.biribaki_unplayed:
        if variant.penalty_biribaki_unplayed is UnplayedBiribaki.FLAT:
            unplayed = variant.penalty_biribaki_unplayed_flat
        else:
            unplayed = sum(variant.card_points(c) for c in team.biribaki_unplayed)
        label = tr_for(variant.biribaki_word, "{Biribaki} taken but not played", **variant.words())
        lines.append(ScoreLine(label, -unplayed))
    return lines


def _penalty_lines(
    variant: Variant,
    team: TeamHand,
    verdicts: tuple[MeldVerdict, ...],
    biribas: list[MeldVerdict],
) -> list[ScoreLine]:
    if not verdicts and variant.penalty_nothing_melded:
        # The one penalty for a team that laid nothing replaces the two below.
        return [ScoreLine(tr("Melded nothing"), -variant.penalty_nothing_melded)]
    lines = []
    if not team.took_biribaki and variant.penalty_no_biribaki:
        label = tr_for(variant.biribaki_word, "No {biribaki} taken", **variant.words())
        lines.append(ScoreLine(label, -variant.penalty_no_biribaki))
    if not biribas and variant.penalty_no_biriba:
        label = tr_for(variant.biriba_word, "No {biriba}", **variant.words())
        lines.append(ScoreLine(label, -variant.penalty_no_biriba))
    return lines


def _opening(
    variant: Variant, team: TeamHand, needed: Requirement
) -> tuple[list[str], list[ScoreLine], int | None]:
    """The opening's problems, its lines (a 0-point "not checked" note where nothing was
    given but it may have been met) and the card points of the opening given, if any."""
    problems = []
    if team.failed_openings and not variant.opening_failed_increment:
        problems.append(
            tr(
                "{team} lists failed opening attempts, but this variant has no rule for them.",
                team=team.name,
            )
        )
    if team.opening is not None and team.opening_melds is not None:
        problems.append(
            tr(
                "The opening of {team} is given both as cards and as marked melds; give one.",
                team=team.name,
            )
        )
        return problems, [], None
    if team.opening_melds:
        given, value = _marked_opening(variant, team, team.opening_melds, needed)
        return problems + given, [], value
    if team.opening is not None:
        given, value = _opening_cards(variant, team, team.opening, needed)
        return problems + given, [], value
    if not team.melds or needed.is_met_by(0):
        return problems, [], None
    # Nothing marked: if even every meld together falls short, no opening was possible.
    total = sum(variant.card_points(c) for meld in team.melds for c in meld)
    if not needed.is_met_by(total):
        problems.append(
            tr(
                "{team} needs {needed} to open, but all its melds together hold {value} points.",
                team=team.name,
                needed=needed.text,
                value=total,
            )
        )
        return problems, [], None
    note = ScoreLine(tr("Opening not checked (needed {needed})", needed=needed.text), 0)
    return problems, [note], None


def _marked_opening(
    variant: Variant, team: TeamHand, indexes: tuple[int, ...], needed: Requirement
) -> tuple[list[str], int | None]:
    outside = [i for i in indexes if not 0 <= i < len(team.melds)]
    if outside:
        problem = tr(
            "The opening of {team} names meld index {index}, but its melds are numbered "
            "0 to {last}.",
            team=team.name,
            index=outside[0],
            last=len(team.melds) - 1,
        )
        return [problem], None
    chosen = [team.melds[i] for i in sorted(set(indexes))]
    value = sum(variant.card_points(c) for meld in chosen for c in meld)
    problems = []
    if not needed.is_met_by(value):
        problems.append(
            tr(
                "The opening of {team} ({cards}) is worth {value} points, but with {before} "
                "before the hand it needed {needed}.",
                team=team.name,
                cards=" · ".join(format_cards(meld) for meld in chosen),
                value=value,
                before=format_points(team.score_before),
                needed=needed.text,
            )
        )
    return problems, value


def _opening_cards(
    variant: Variant, team: TeamHand, opening: tuple[Card, ...], needed: Requirement
) -> tuple[list[str], int | None]:
    problems = []
    if not team.melds:
        problems.append(
            tr("An opening meld is given for {team}, but it melded nothing.", team=team.name)
        )
        return problems, None
    melded = Counter(card for meld in team.melds for card in meld)
    missing = Counter(opening) - melded
    if missing:
        problems.append(
            tr(
                "The opening of {team} lists {cards}, which its melds do not hold.",
                team=team.name,
                cards=format_cards(sorted(missing.elements())),
            )
        )
    value = sum(variant.card_points(c) for c in opening)
    if not needed.is_met_by(value):
        problems.append(
            tr(
                "The first meld of {team} ({cards}) is worth {value} points, but with {before} "
                "before the hand it needed {needed}.",
                team=team.name,
                cards=format_cards(opening),
                value=value,
                before=format_points(team.score_before),
                needed=needed.text,
            )
        )
    return problems, value


def _hand_problems(teams: Sequence[TeamHand], table_format: TableFormat) -> list[str]:
    problems = []
    if len(teams) not in table_format.team_counts:
        fields = {
            "format": table_format.id,
            "counts": _or([str(n) for n in sorted(table_format.team_counts)]),
            "entered": len(teams),
        }
        message = ntr(
            "The {format} format plays with {counts} sides, but {entered} is entered.",
            "The {format} format plays with {counts} sides, but {entered} are entered.",
            len(teams),
            **fields,
        )
        problems.append(message)
    out = [t.name for t in teams if t.went_out]
    if len(out) == 2:
        problems.append(
            tr(
                "Only one side can go out in a hand, but {names} are both marked as gone out.",
                names=and_list(out),
            )
        )
    elif len(out) > 2:
        problems.append(
            tr(
                "Only one side can go out in a hand, but {names} are all marked as gone out.",
                names=and_list(out),
            )
        )
    cutters = [t.name for t in teams if t.cut is not None]
    if len(cutters) == 2:
        problems.append(
            tr(
                "Only the side that cut can earn a cut bonus, but {names} both claim one.",
                names=and_list(cutters),
            )
        )
    elif len(cutters) > 2:
        problems.append(
            tr(
                "Only the side that cut can earn a cut bonus, but {names} all claim one.",
                names=and_list(cutters),
            )
        )
    problems += deck_problems(teams, table_format)
    return problems


def meld_answer(
    cards: Sequence[Card], variant: Variant, kozi: Suit | None, table_format: TableFormat | None
) -> dict[str, Any]:
    """The referee's verdict on one meld as JSON (`POST /api/v1/melds/check`, before its
    words): the server's API and the phone's engine (play/offline_score.py) both ask this.
    No deck holds 162 aces of hearts: the copies are counted against the table's decks, or
    without a table against the largest one any format plays with."""
    answer = verdict_json(judge_meld(tuple(cards), variant, kozi))
    extra = deck_problems([TeamHand("", melds=(tuple(cards),))], table_format or LARGEST_FORMAT)
    answer["problems"] += extra
    answer["legal"] = answer["legal"] and not extra
    return answer


def deck_problems(teams: Sequence[TeamHand], table_format: TableFormat) -> list[str]:
    """Cards entered more often than the format's decks hold: one sentence naming every such
    card (a card may appear once a deck), and one on the jokers."""
    counts: Counter[Card] = Counter()
    for team in teams:
        for group in (*team.melds, *(team.hands or ()), team.biribaki_unplayed or ()):
            counts.update(group)
    problems = []
    decks = table_format.deck_words
    over = [(card, n) for card, n in sorted(counts.items()) if card != JOKER]
    over = [(card, n) for card, n in over if n > table_format.decks]
    if len(over) == 1:
        (card, n), limit = over[0], table_format.decks
        problems.append(
            tr(
                "{card} appears {times} times, but {decks} hold only {limit}.",
                card=card.label,
                times=n,
                decks=decks,
                limit=limit,
            )
        )
    elif over:
        # Upper-cased: a language may start the sentence with a lower-case word (Greek does).
        problems.append(
            upper_first(
                tr(
                    "{counts}, but {decks} hold only {limit} of each.",
                    counts=and_list(_appearances(over)),
                    decks=decks,
                    limit=table_format.decks,
                )
            )
        )
    jokers = counts[JOKER]
    if jokers > table_format.jokers:
        problems.append(
            tr(
                "jokers appear {times} times, but {decks} hold only {limit}.",
                times=jokers,
                decks=decks,
                limit=table_format.jokers,
            )
        )
    return problems


def _appearances(counts: list[tuple[Card, int]]) -> list[str]:
    """ "5♠ and 6♠ appear 3 times", "K♥ appears 4 times": the cards seen as often named
    together, fewest times first."""
    by_times: dict[int, list[Card]] = {}
    for card, n in counts:
        by_times.setdefault(n, []).append(card)
    return [
        ntr(
            "{cards} appears {times} times",
            "{cards} appear {times} times",
            len(cards),
            cards=and_list(c.label for c in cards),
            times=n,
        )
        for n, cards in sorted(by_times.items())
    ]


def _point_step(variant: Variant) -> int:
    """Every meld's value is a multiple of this (5 in every preset)."""
    step = 0
    for points in (
        variant.points_joker,
        variant.points_ace,
        variant.points_two,
        variant.points_eight_to_king,
        variant.points_three_to_seven,
    ):
        step = gcd(step, points)
    return step or 1


def _or(items: list[str]) -> str:
    """ "2 or 3" in the current language (every item joined, as in "2 or 3 or 4")."""
    text = items[0]
    for item in items[1:]:
        text = tr("{first} or {second}", first=text, second=item)
    return text
