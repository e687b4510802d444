"""Every option of a `Variant` in plain words, for the rules pages and a match's house rules.

`describe_rules` takes any variant, not only a preset, so a match whose players changed some
options shows its own rules; `Variant.with_options` already drops those options from
`assumed`, so a changed option is no longer marked as an assumption.

Each `Rule` names the options it describes. Together the rules of one variant name every
option exactly once (a test holds this), so no option can go missing from the pages when a
new one is added to `Variant`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper.rules.cards import Rank
from scorekeeper.rules.opening import OPENING_TABLES, Requirement, requirement
from scorekeeper.rules.variants import AceRule, Direction, TargetRule, UnplayedBiribaki, Variant

ASSUMED_NOTE = (
    "The sources are silent here; this is the common usage and can be changed as a house rule."
)


@dataclass(frozen=True, slots=True)
class Rule:
    """One sentence about the game and the `Variant` options it puts into words."""

    text: str
    options: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()  # those of `options` that fill a gap in the sources
    details: tuple[str, ...] = ()  # lines under the sentence, such as an opening table's rows


@dataclass(frozen=True, slots=True)
class RuleGroup:
    title: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class BandLine:
    """One row of an opening table in words: "below 1500" → at least 75."""

    from_score: int
    scores: str
    needs: Requirement

    @property
    def text(self) -> str:
        return f"Score {self.scores}: {self.needs.text}"


def describe_rules(variant: Variant) -> list[RuleGroup]:
    """The variant's rules in plain words, grouped as players look them up."""
    sections: list[tuple[str, Callable[[Variant], list[Rule]]]] = [
        ("Card points", _card_points),
        ("Melds", _melds),
        (f"{variant.biriba_word.capitalize()} bonuses", _bonuses),
        ("Going out", _going_out),
        ("Penalties", _penalties),
        ("Opening meld", _opening),
        ("Match", _match),
    ]
    return [RuleGroup(title, tuple(words(variant))) for title, words in sections]


def summary(variant: Variant) -> str:
    """One line for a list of rule sets: target and win rule, opening minimum, sets."""
    if variant.opening_table is None:
        opening = "no opening minimum"
    else:
        opening = f"opening table {variant.opening_table}"
    return f"Won by {_winner(variant)} · {opening} · {_sets_short(variant)}"


def band_lines(variant: Variant) -> list[BandLine]:
    """The rows of the variant's opening table (none without one), with its own comparison."""
    if variant.opening_table is None:
        return []
    bands = OPENING_TABLES[variant.opening_table].bands
    lines = []
    for i, band in enumerate(bands):
        upper = bands[i + 1].from_score if i + 1 < len(bands) else None
        if len(bands) == 1:
            scores = "any score"
        elif i == 0:
            scores = f"below {upper}"
        elif upper is None:
            scores = f"{band.from_score} and over"
        else:
            scores = f"{band.from_score} to {upper - 1}"
        needs = requirement(variant.opening_table, band.from_score, variant.opening_comparison)
        lines.append(BandLine(band.from_score, scores, needs))
    return lines


# --- the groups ------------------------------------------------------------------------------


def _rule(variant: Variant, text: str, *options: str, details: tuple[str, ...] = ()) -> Rule:
    assumed = tuple(name for name in options if name in variant.assumed)
    return Rule(text, options, assumed, details)


def _card_points(v: Variant) -> list[Rule]:
    return [
        _rule(v, f"A joker counts {_points(v.points_joker)}.", "points_joker"),
        _rule(v, f"An ace counts {_points(v.points_ace)}.", "points_ace"),
        _rule(
            v,
            f"A 2 counts {_points(v.points_two)}, even where it stands in for another card.",
            "points_two",
        ),
        _rule(
            v,
            f"An 8, 9, 10, J, Q or K counts {_points(v.points_eight_to_king)}.",
            "points_eight_to_king",
        ),
        _rule(
            v,
            f"A 3, 4, 5, 6 or 7 counts {_points(v.points_three_to_seven)}.",
            "points_three_to_seven",
        ),
    ]


def _melds(v: Variant) -> list[Rule]:
    if v.max_size is None:
        longest = "A meld may be as long as the cards allow."
    else:
        longest = f"A meld may hold at most {_cards(v.max_size)}."
    rules = [
        _rule(v, f"A meld has at least {_cards(v.min_size)}.", "min_size"),
        _rule(v, longest, "max_size"),
        # Without sets, the set bonuses can never be earned, so they are said here.
        _rule(v, _sets_sentence(v), "set_ranks", *(() if v.set_ranks else _SET)),
        _rule(v, _ACE_WORDS[v.ace], "ace"),
        _rule(v, _wilds_sentence(v.max_wilds), "max_wilds"),
    ]
    if v.wild_melds:
        rules.append(
            _rule(v, "A meld of wild cards only (jokers and 2s) is allowed.", "wild_melds")
        )
        if v.wild_meld_lockout:
            lockout = (
                f"While a team's wild meld has fewer than {_cards(v.biriba_size)}, "
                "that team may use no wild card in any other meld."
            )
        else:
            lockout = "A team with a wild meld may still use wild cards in its other melds."
        rules.append(_rule(v, lockout, "wild_meld_lockout"))
    else:
        rules.append(
            _rule(
                v,
                "A meld of wild cards only (jokers and 2s) is not allowed.",
                "wild_melds",
                "wild_meld_lockout",
                "bonus_wild_meld",
            )
        )
    return rules


def _bonuses(v: Variant) -> list[Rule]:
    word = v.biriba_word
    rules = [
        _rule(
            v,
            f"A meld of {v.biriba_size} or more cards is a {word}; only a {word} earns a bonus.",
            "biriba_size",
        ),
        Rule(f"A {word} is clean when no card in it acts as a wild card, and dirty otherwise."),
        _rule(v, f"A run {word} earns {_pair(v.bonus_run_clean, v.bonus_run_dirty)}.", *_RUN),
    ]
    if v.set_ranks:
        rules.append(
            _rule(v, f"A set {word} earns {_pair(v.bonus_set_clean, v.bonus_set_dirty)}.", *_SET)
        )
    if v.kozi:
        kozi = (
            f"Each hand has a kózi (trump) suit. A run {word} in that suit earns "
            f"{_pair(v.bonus_kozi_run_clean, v.bonus_kozi_run_dirty)}; sets are never kózi."
        )
        rules.append(_rule(v, kozi, "kozi", *_KOZI))
    rules += _full_bonuses(v)
    if v.bonus_semiclean is None:
        semiclean = f"A {word} with a wild card in it is dirty, wherever the wild card sits."
    else:
        semiclean = (
            f"A semi-clean {word} (its one wild card at one end of at least "
            f"{v.biriba_size} natural cards in sequence, or a set of at least {v.biriba_size} "
            f"natural cards and one wild) earns {v.bonus_semiclean}."
        )
    rules.append(_rule(v, semiclean, "bonus_semiclean"))
    if v.wild_melds:
        wild = f"A wild {word} ({v.biriba_size} or more wild cards) earns {v.bonus_wild_meld}."
        rules.append(_rule(v, wild, "bonus_wild_meld"))
    return rules


def _full_bonuses(v: Variant) -> list[Rule]:
    """The 13-card run, and the kózi options where the variant has no kózi suit."""
    word = v.biriba_word
    no_kozi = () if v.kozi else ("kozi", *_KOZI, *_FULL_KOZI)
    if v.max_size is not None and v.max_size < 13:
        # A size limit rules the full run out, so its bonuses are never earned.
        full = f"A full {word} (a run of all 13 ranks) cannot be made: melds are too short."
        options = (*_FULL, *(_FULL_KOZI if v.kozi else ()))
        rules = [_rule(v, full, *options)]
    else:
        full = (
            f"A full {word} (a run of all 13 ranks) earns "
            f"{_pair(v.bonus_full_run_clean, v.bonus_full_run_dirty)}."
        )
        rules = [_rule(v, full, *_FULL)]
        if v.kozi:
            full_kozi = (
                f"A full {word} in the kózi suit earns "
                f"{_pair(v.bonus_full_kozi_run_clean, v.bonus_full_kozi_run_dirty)}."
            )
            rules.append(_rule(v, full_kozi, *_FULL_KOZI))
    if no_kozi:
        rules.append(
            _rule(
                v,
                f"There is no kózi (trump) suit: a run {word} earns the same in every suit.",
                *no_kozi,
            )
        )
    return rules


def _going_out(v: Variant) -> list[Rule]:
    word, pot = v.biriba_word, v.biribaki_word
    if v.going_out_bonus:
        bonus = f"Going out earns the team a bonus of {v.going_out_bonus}."
    else:
        bonus = "Going out earns no bonus."
    if v.going_out_needs_clean_biriba:
        needs = f"A player may go out only when the team has a clean {word}."
    elif v.going_out_needs_biriba:
        needs = f"A player may go out only when the team has a {word}."
    else:
        needs = f"A player may go out without a {word} on the team's side."
    if v.going_out_needs_biribaki:
        pot_rule = f"A player may go out only after the team has taken its {pot}."
    else:
        pot_rule = f"A player may go out before the team has taken its {pot}."
    return [
        _rule(v, bonus, "going_out_bonus"),
        _rule(v, needs, "going_out_needs_biriba", "going_out_needs_clean_biriba"),
        _rule(v, pot_rule, "going_out_needs_biribaki"),
    ]


def _penalties(v: Variant) -> list[Rule]:
    word, pot = v.biriba_word, v.biribaki_word
    if v.penalty_biribaki_unplayed is UnplayedBiribaki.CARD_POINTS:
        unplayed = f"A team that took its {pot} but never played it loses the points of its cards."
    else:
        unplayed = (
            f"A team that took its {pot} but never played it loses "
            f"{v.penalty_biribaki_unplayed_flat}."
        )
    return [
        Rule("The cards left in a player's hand count against the team."),
        _rule(
            v,
            _penalty(v.penalty_no_biribaki, f"a team that never took its {pot}"),
            "penalty_no_biribaki",
        ),
        _rule(
            v,
            _penalty(v.penalty_no_biriba, f"a team with no {word} at the end of the hand"),
            "penalty_no_biriba",
        ),
        _rule(
            v,
            _penalty(v.penalty_nothing_melded, "a team that melded nothing"),
            "penalty_nothing_melded",
        ),
        _rule(v, unplayed, "penalty_biribaki_unplayed", "penalty_biribaki_unplayed_flat"),
    ]


def _opening(v: Variant) -> list[Rule]:
    if v.opening_table is None:
        return [
            _rule(
                v,
                "A team may open with any meld: there is no minimum.",
                "opening_table",
                "opening_comparison",
                "opening_failed_increment",
            )
        ]
    table = (
        "A team's first meld of the hand (one meld or several laid in one turn) needs a "
        "minimum of card points, bonuses not counted, set by the team's score before the "
        f"hand (table {v.opening_table}):"
    )
    if v.opening_failed_increment:
        failed = (
            f"After each failed attempt the minimum rises by {v.opening_failed_increment} "
            "for the rest of the hand."
        )
    else:
        failed = "A failed attempt does not raise the minimum."
    details = tuple(line.text for line in band_lines(v))
    return [
        _rule(v, table, "opening_table", "opening_comparison", details=details),
        _rule(v, failed, "opening_failed_increment"),
    ]


def _match(v: Variant) -> list[Rule]:
    if v.cut_exact_bonus or v.cut_off_by_one_bonus:
        cut = [
            _rule(
                v,
                _cut(v.cut_exact_bonus, "Cutting exactly the right number of cards"),
                "cut_exact_bonus",
            ),
            _rule(v, _cut(v.cut_off_by_one_bonus, "A cut off by one card"), "cut_off_by_one_bonus"),
        ]
    else:
        cut = [
            _rule(v, "There is no bonus for the cut.", "cut_exact_bonus", "cut_off_by_one_bonus")
        ]
    return [
        _rule(v, f"The match is won by {_winner(v)}.", "target", "target_rule"),
        Rule("If the leading sides are level once the target is passed, another hand is played."),
        _rule(v, f"Dealing and play go {_DIRECTION_WORDS[v.deal_direction]}.", "deal_direction"),
        *cut,
    ]


# --- words -----------------------------------------------------------------------------------

_RUN = ("bonus_run_clean", "bonus_run_dirty")
_SET = ("bonus_set_clean", "bonus_set_dirty")
_KOZI = ("bonus_kozi_run_clean", "bonus_kozi_run_dirty")
_FULL = ("bonus_full_run_clean", "bonus_full_run_dirty")
_FULL_KOZI = ("bonus_full_kozi_run_clean", "bonus_full_kozi_run_dirty")

_ACE_WORDS = {
    AceRule.LOW_OR_HIGH: (
        "An ace is low (A-2-3) or high (Q-K-A), never both in one run; K-A-2 is no run."
    ),
    AceRule.BOTH_ENDS: (
        "An ace may be low (A-2-3), high (Q-K-A), or both in one run (A-2-…-K-A); K-A-2 is no run."
    ),
    AceRule.LOW_ONLY: "An ace is always low (A-2-3), never high.",
    AceRule.HIGH_ONLY: "An ace is always high (Q-K-A), never low.",
}
_DIRECTION_WORDS = {Direction.ANTICLOCKWISE: "anticlockwise", Direction.CLOCKWISE: "clockwise"}
#: Ranks in the order players list them for sets: 3 up to K, then the ace.
_SET_ORDER = [Rank(r) for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def _ordered_ranks(v: Variant) -> list[Rank]:
    return [rank for rank in _SET_ORDER if rank in v.set_ranks]


def _sets_sentence(v: Variant) -> str:
    ranks = _ordered_ranks(v)
    if not ranks:
        return "No sets: runs only."
    first, last = _SET_ORDER.index(ranks[0]), _SET_ORDER.index(ranks[-1])
    if len(ranks) > 5 and ranks == _SET_ORDER[first : last + 1]:
        which = f"of any rank from {ranks[0]} to {ranks[-1]}"
    else:
        which = "only of " + _and_list([str(r) for r in ranks])
    return f"Sets (3 or more cards of one rank) may be made {which}; never of 2s, which are wild."


def _sets_short(v: Variant) -> str:
    ranks = _ordered_ranks(v)
    if not ranks:
        return "runs only, no sets"
    first, last = _SET_ORDER.index(ranks[0]), _SET_ORDER.index(ranks[-1])
    if len(ranks) > 5 and ranks == _SET_ORDER[first : last + 1]:
        return f"sets of {ranks[0]} to {ranks[-1]}"
    return "sets of " + " ".join(str(r) for r in ranks) + " only"


def _winner(v: Variant) -> str:
    if v.target_rule is TargetRule.ABOVE:
        return f"the first side above {v.target}"
    return f"the first side to reach {v.target}"


def _wilds_sentence(count: int) -> str:
    if count == 0:
        return "No meld may hold a wild card."
    many = "one wild card" if count == 1 else f"{count} wild cards"
    return (
        f"A meld holds at most {many} (a joker or a 2); a 2 in its own place in a run of its "
        "suit is a natural card, not a wild."
    )


def _pair(clean: int, dirty: int) -> str:
    return f"{clean} when clean, {dirty} when dirty"


def _penalty(points: int, who: str) -> str:
    if points:
        return f"{who[0].upper()}{who[1:]} loses {points}."
    return f"No penalty for {who}."


def _cut(points: int, what: str) -> str:
    if points:
        return f"{what} earns the cutter's team {points}."
    return f"{what} earns nothing."


def _points(count: int) -> str:
    return "1 point" if count == 1 else f"{count} points"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _and_list(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]
