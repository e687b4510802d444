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

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from scorekeeper.rules.cards import Rank
from scorekeeper.rules.opening import OPENING_TABLES, Requirement, requirement
from scorekeeper.rules.variants import AceRule, Direction, TargetRule, UnplayedBiribaki, Variant
from scorekeeper.words.game_words import pot_of, requirement_text, word_of

ASSUMED_NOTE = _l(
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
        return _(
            "Score %(scores)s: %(needs)s", scores=self.scores, needs=requirement_text(self.needs)
        )


def describe_rules(variant: Variant) -> list[RuleGroup]:
    """The variant's rules in plain words, grouped as players look them up."""
    sections: list[tuple[str, Callable[[Variant], list[Rule]]]] = [
        (_("Card points"), _card_points),
        (_("Melds"), _melds),
        (_("%(word)s bonuses", word=word_of(variant).capitalize()), _bonuses),
        (_("Going out"), _going_out),
        (_("Penalties"), _penalties),
        (_("Opening meld"), _opening),
        (_("Match"), _rules_of_the_match),
    ]
    return [RuleGroup(title, tuple(words(variant))) for title, words in sections]


def summary(variant: Variant) -> str:
    """One line for a list of rule sets: target and win rule, opening minimum, sets."""
    if variant.opening_table is None:
        opening = _("no opening minimum")
    else:
        opening = _("opening table %(table)s", table=variant.opening_table)
    won = _("Won by %(winner)s", winner=_winner(variant))
    return f"{won} · {opening} · {_sets_short(variant)}"


def band_lines(variant: Variant) -> list[BandLine]:
    """The rows of the variant's opening table (none without one), with its own comparison."""
    if variant.opening_table is None:
        return []
    bands = OPENING_TABLES[variant.opening_table].bands
    lines = []
    for i, band in enumerate(bands):
        upper = bands[i + 1].from_score if i + 1 < len(bands) else None
        if len(bands) == 1:
            scores = _("any score")
        elif i == 0:
            scores = _("below %(score)d", score=upper)
        elif upper is None:
            scores = _("%(score)d and over", score=band.from_score)
        else:
            scores = _("%(low)d to %(high)d", low=band.from_score, high=(upper or 0) - 1)
        needs = requirement(variant.opening_table, band.from_score, variant.opening_comparison)
        lines.append(BandLine(band.from_score, scores, needs))
    return lines


# --- the groups ------------------------------------------------------------------------------


def _rule(variant: Variant, text: str, *options: str, details: tuple[str, ...] = ()) -> Rule:
    assumed = tuple(name for name in options if name in variant.assumed)
    return Rule(text, options, assumed, details)


def _card_points(v: Variant) -> list[Rule]:
    return [
        _rule(v, _("A joker counts %(points)s.", points=_points(v.points_joker)), "points_joker"),
        _rule(v, _("An ace counts %(points)s.", points=_points(v.points_ace)), "points_ace"),
        _rule(
            v,
            _(
                "A 2 counts %(points)s, even where it stands in for another card.",
                points=_points(v.points_two),
            ),
            "points_two",
        ),
        _rule(
            v,
            _(
                "An 8, 9, 10, J, Q or K counts %(points)s.",
                points=_points(v.points_eight_to_king),
            ),
            "points_eight_to_king",
        ),
        _rule(
            v,
            _("A 3, 4, 5, 6 or 7 counts %(points)s.", points=_points(v.points_three_to_seven)),
            "points_three_to_seven",
        ),
    ]


def _melds(v: Variant) -> list[Rule]:
    if v.max_size is None:
        longest = _("A meld may be as long as the cards allow.")
    else:
        longest = _("A meld may hold at most %(cards)s.", cards=_cards(v.max_size))
    rules = [
        _rule(v, _("A meld has at least %(cards)s.", cards=_cards(v.min_size)), "min_size"),
        _rule(v, longest, "max_size"),
        # Without sets, the set bonuses can never be earned, so they are said here.
        _rule(v, _sets_sentence(v), "set_ranks", *(() if v.set_ranks else _SET)),
        _rule(v, str(_ACE_WORDS[v.ace]), "ace"),
        _rule(v, _wilds_sentence(v.max_wilds), "max_wilds"),
    ]
    if v.wild_melds:
        rules.append(
            _rule(v, _("A meld of wild cards only (jokers and 2s) is allowed."), "wild_melds")
        )
        if v.wild_meld_lockout:
            lockout = _(
                "While a team's wild meld has fewer than %(cards)s, "
                "that team may use no wild card in any other meld.",
                cards=_cards(v.biriba_size),
            )
        else:
            lockout = _("A team with a wild meld may still use wild cards in its other melds.")
        rules.append(_rule(v, lockout, "wild_meld_lockout"))
    else:
        rules.append(
            _rule(
                v,
                _("A meld of wild cards only (jokers and 2s) is not allowed."),
                "wild_melds",
                "wild_meld_lockout",
                "bonus_wild_meld",
            )
        )
    return rules


def _bonuses(v: Variant) -> list[Rule]:
    word, size = word_of(v), v.biriba_size
    rules = [
        _rule(
            v,
            _(
                "A meld of %(size)d or more cards is a %(word)s; only a %(word)s earns a bonus.",
                size=size,
                word=word,
            ),
            "biriba_size",
        ),
        Rule(
            _(
                "A %(word)s is clean when no card in it acts as a wild card, and dirty otherwise.",
                word=word,
            )
        ),
        _rule(
            v,
            _(
                "A run %(word)s earns %(bonus)s.",
                word=word,
                bonus=_pair(v.bonus_run_clean, v.bonus_run_dirty),
            ),
            *_RUN,
        ),
    ]
    if v.set_ranks:
        bonus = _pair(v.bonus_set_clean, v.bonus_set_dirty)
        rules.append(_rule(v, _("A set %(word)s earns %(bonus)s.", word=word, bonus=bonus), *_SET))
    if v.kozi:
        kozi = _(
            "Each hand has a kózi (trump) suit. A run %(word)s in that suit earns "
            "%(bonus)s; sets are never kózi.",
            word=word,
            bonus=_pair(v.bonus_kozi_run_clean, v.bonus_kozi_run_dirty),
        )
        rules.append(_rule(v, kozi, "kozi", *_KOZI))
        if v.kozi_optional:
            every = _("A hand may also be played without a kózi.")
        else:
            every = _("Every hand has its kózi: the scorer names it before a hand is saved.")
        rules.append(_rule(v, every, "kozi_optional"))
    rules += _full_bonuses(v)
    if v.bonus_semiclean is None:
        semiclean = _(
            "A %(word)s with a wild card in it is dirty, wherever the wild card sits.", word=word
        )
    else:
        semiclean = _(
            "A semi-clean %(word)s (its one wild card at one end of at least "
            "%(size)d natural cards in sequence, or a set of at least %(size)d "
            "natural cards and one wild) earns %(bonus)d.",
            word=word,
            size=size,
            bonus=v.bonus_semiclean,
        )
    rules.append(_rule(v, semiclean, "bonus_semiclean"))
    if v.wild_melds:
        wild = _(
            "A wild %(word)s (%(size)d or more wild cards) earns %(bonus)d.",
            word=word,
            size=size,
            bonus=v.bonus_wild_meld,
        )
        rules.append(_rule(v, wild, "bonus_wild_meld"))
    return rules


def _full_bonuses(v: Variant) -> list[Rule]:
    """The 13-card run, and the kózi options where the variant has no kózi suit."""
    word = word_of(v)
    no_kozi = () if v.kozi else ("kozi", "kozi_optional", *_KOZI, *_FULL_KOZI)
    if v.max_size is not None and v.max_size < 13:
        # A size limit rules the full run out, so its bonuses are never earned.
        full = _(
            "A full %(word)s (a run of all 13 ranks) cannot be made: melds are too short.",
            word=word,
        )
        options = (*_FULL, *(_FULL_KOZI if v.kozi else ()))
        rules = [_rule(v, full, *options)]
    else:
        full = _(
            "A full %(word)s (a run of all 13 ranks) earns %(bonus)s.",
            word=word,
            bonus=_pair(v.bonus_full_run_clean, v.bonus_full_run_dirty),
        )
        rules = [_rule(v, full, *_FULL)]
        if v.kozi:
            full_kozi = _(
                "A full %(word)s in the kózi suit earns %(bonus)s.",
                word=word,
                bonus=_pair(v.bonus_full_kozi_run_clean, v.bonus_full_kozi_run_dirty),
            )
            rules.append(_rule(v, full_kozi, *_FULL_KOZI))
    if no_kozi:
        rules.append(
            _rule(
                v,
                _(
                    "There is no kózi (trump) suit: a run %(word)s earns the same in every suit.",
                    word=word,
                ),
                *no_kozi,
            )
        )
    return rules


def _going_out(v: Variant) -> list[Rule]:
    word, pot = word_of(v), pot_of(v)
    if v.going_out_bonus:
        bonus = _("Going out earns the team a bonus of %(bonus)d.", bonus=v.going_out_bonus)
    else:
        bonus = _("Going out earns no bonus.")
    if v.going_out_needs_clean_biriba:
        needs = _("A player may go out only when the team has a clean %(word)s.", word=word)
    elif v.going_out_needs_biriba:
        needs = _("A player may go out only when the team has a %(word)s.", word=word)
    else:
        needs = _("A player may go out without a %(word)s on the team's side.", word=word)
    if v.going_out_needs_biribaki:
        pot_rule = _("A player may go out only after the team has taken its %(pot)s.", pot=pot)
    else:
        pot_rule = _("A player may go out before the team has taken its %(pot)s.", pot=pot)
    return [
        _rule(v, bonus, "going_out_bonus"),
        _rule(v, needs, "going_out_needs_biriba", "going_out_needs_clean_biriba"),
        _rule(v, pot_rule, "going_out_needs_biribaki"),
    ]


def _penalties(v: Variant) -> list[Rule]:
    word, pot = word_of(v), pot_of(v)
    if v.penalty_biribaki_unplayed is UnplayedBiribaki.CARD_POINTS:
        unplayed = _(
            "A team that took its %(pot)s but never played it loses the points of its cards.",
            pot=pot,
        )
    else:
        unplayed = _(
            "A team that took its %(pot)s but never played it loses %(points)d.",
            pot=pot,
            points=v.penalty_biribaki_unplayed_flat,
        )
    if v.penalty_no_biribaki:
        no_pot = _(
            "A team that never took its %(pot)s loses %(points)d.",
            pot=pot,
            points=v.penalty_no_biribaki,
        )
    else:
        no_pot = _("No penalty for a team that never took its %(pot)s.", pot=pot)
    if v.penalty_no_biriba:
        no_word = _(
            "A team with no %(word)s at the end of the hand loses %(points)d.",
            word=word,
            points=v.penalty_no_biriba,
        )
    else:
        no_word = _("No penalty for a team with no %(word)s at the end of the hand.", word=word)
    if v.penalty_nothing_melded:
        nothing = _("A team that melded nothing loses %(points)d.", points=v.penalty_nothing_melded)
    else:
        nothing = _("No penalty for a team that melded nothing.")
    return [
        Rule(_("The cards left in a player's hand count against the team.")),
        _rule(v, no_pot, "penalty_no_biribaki"),
        _rule(v, no_word, "penalty_no_biriba"),
        _rule(v, nothing, "penalty_nothing_melded"),
        _rule(v, unplayed, "penalty_biribaki_unplayed", "penalty_biribaki_unplayed_flat"),
    ]


def _opening(v: Variant) -> list[Rule]:
    if v.opening_table is None:
        return [
            _rule(
                v,
                _("A team may open with any meld: there is no minimum."),
                "opening_table",
                "opening_comparison",
                "opening_failed_increment",
            )
        ]
    table = _(
        "A team's first meld of the hand (one meld or several laid in one turn) needs a "
        "minimum of card points, bonuses not counted, set by the team's score before the "
        "hand (table %(table)s):",
        table=v.opening_table,
    )
    if v.opening_failed_increment:
        failed = _(
            "After each failed attempt the minimum rises by %(points)d for the rest of the hand.",
            points=v.opening_failed_increment,
        )
    else:
        failed = _("A failed attempt does not raise the minimum.")
    details = tuple(line.text for line in band_lines(v))
    return [
        _rule(v, table, "opening_table", "opening_comparison", details=details),
        _rule(v, failed, "opening_failed_increment"),
    ]


def _rules_of_the_match(v: Variant) -> list[Rule]:
    if v.cut_exact_bonus or v.cut_off_by_one_bonus:
        if v.cut_exact_bonus:
            exact = _(
                "Cutting exactly the right number of cards earns the cutter's team %(points)d.",
                points=v.cut_exact_bonus,
            )
        else:
            exact = _("Cutting exactly the right number of cards earns nothing.")
        if v.cut_off_by_one_bonus:
            near = _(
                "A cut off by one card earns the cutter's team %(points)d.",
                points=v.cut_off_by_one_bonus,
            )
        else:
            near = _("A cut off by one card earns nothing.")
        cut = [_rule(v, exact, "cut_exact_bonus"), _rule(v, near, "cut_off_by_one_bonus")]
    else:
        cut = [
            _rule(v, _("There is no bonus for the cut."), "cut_exact_bonus", "cut_off_by_one_bonus")
        ]
    direction = str(_DIRECTION_WORDS[v.deal_direction])
    return [
        _rule(v, _("The match is won by %(winner)s.", winner=_winner(v)), "target", "target_rule"),
        _deals_rule(v),
        _rule(v, _("Dealing and play go %(direction)s.", direction=direction), "deal_direction"),
        *cut,
    ]


# --- words -----------------------------------------------------------------------------------

_RUN = ("bonus_run_clean", "bonus_run_dirty")
_SET = ("bonus_set_clean", "bonus_set_dirty")
_KOZI = ("bonus_kozi_run_clean", "bonus_kozi_run_dirty")
_FULL = ("bonus_full_run_clean", "bonus_full_run_dirty")
_FULL_KOZI = ("bonus_full_kozi_run_clean", "bonus_full_kozi_run_dirty")

_ACE_WORDS = {
    AceRule.LOW_OR_HIGH: _l(
        "An ace is low (A-2-3) or high (Q-K-A), never both in one run; K-A-2 is no run."
    ),
    AceRule.BOTH_ENDS: _l(
        "An ace may be low (A-2-3), high (Q-K-A), or both in one run (A-2-…-K-A); K-A-2 is no run."
    ),
    AceRule.LOW_ONLY: _l("An ace is always low (A-2-3), never high."),
    AceRule.HIGH_ONLY: _l("An ace is always high (Q-K-A), never low."),
}
_DIRECTION_WORDS = {
    Direction.ANTICLOCKWISE: _l("anticlockwise"),
    Direction.CLOCKWISE: _l("clockwise"),
}
#: Ranks in the order players list them for sets: 3 up to K, then the ace.
_SET_ORDER = [Rank(r) for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def _ordered_ranks(v: Variant) -> list[Rank]:
    return [rank for rank in _SET_ORDER if rank in v.set_ranks]


def _sets_sentence(v: Variant) -> str:
    ranks = _ordered_ranks(v)
    if not ranks:
        return _("No sets: runs only.")
    first, last = _SET_ORDER.index(ranks[0]), _SET_ORDER.index(ranks[-1])
    if len(ranks) > 5 and ranks == _SET_ORDER[first : last + 1]:
        return _(
            "Sets (3 or more cards of one rank) may be made of any rank from %(first)s to "
            "%(last)s; never of 2s, which are wild.",
            first=ranks[0],
            last=ranks[-1],
        )
    return _(
        "Sets (3 or more cards of one rank) may be made only of %(ranks)s; never of 2s, "
        "which are wild.",
        ranks=_and_list([str(r) for r in ranks]),
    )


def _sets_short(v: Variant) -> str:
    ranks = _ordered_ranks(v)
    if not ranks:
        return _("runs only, no sets")
    first, last = _SET_ORDER.index(ranks[0]), _SET_ORDER.index(ranks[-1])
    if len(ranks) > 5 and ranks == _SET_ORDER[first : last + 1]:
        return _("sets of %(first)s to %(last)s", first=ranks[0], last=ranks[-1])
    return _("sets of %(ranks)s only", ranks=" ".join(str(r) for r in ranks))


def _deals_rule(v: Variant) -> Rule:
    """How a match ends: at the target (and past it on a tie), or after fixed deals."""
    if v.deals is None:
        return _rule(
            v,
            _("If the leading sides are level once the target is passed, another hand is played."),
            "deals",
        )
    return _rule(
        v,
        ngettext(
            "The match ends after %(num)d hand, whatever the target: the higher total wins, "
            "and equal totals are a draw.",
            "The match ends after %(num)d hands, whatever the target: the higher total wins, "
            "and equal totals are a draw.",
            v.deals,
        ),
        "deals",
    )


def _winner(v: Variant) -> str:
    if v.target_rule is TargetRule.ABOVE:
        return _("the first side above %(target)d", target=v.target)
    return _("the first side to reach %(target)d", target=v.target)


def _wilds_sentence(count: int) -> str:
    if count == 0:
        return _("No meld may hold a wild card.")
    return ngettext(
        "A meld holds at most one wild card (a joker or a 2); a 2 in its own place in a run of "
        "its suit is a natural card, not a wild.",
        "A meld holds at most %(num)d wild cards (a joker or a 2); a 2 in its own place in a "
        "run of its suit is a natural card, not a wild.",
        count,
    )


def _pair(clean: int, dirty: int) -> str:
    return _("%(clean)d when clean, %(dirty)d when dirty", clean=clean, dirty=dirty)


def _points(count: int) -> str:
    return ngettext("%(num)d point", "%(num)d points", count)


def _cards(count: int) -> str:
    return ngettext("%(num)d card", "%(num)d cards", count)


def _and_list(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(list)s and %(last)s", list=", ".join(words[:-1]), last=words[-1])
