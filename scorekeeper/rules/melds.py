"""Meld verdicts (presets.md §2): legal or not with every reason, kind, clean or dirty,
biriba, full, kózi, card points and bonus.

The verdict judges the final layout at the end of the hand, so it looks for the cleanest
arrangement the cards allow: a 2 of the run's suit goes to its natural place when it can.

>>> from scorekeeper.rules.presets import PAGAT
>>> v = judge_meld(parse_cards("3H 4H 2H 6H 7H"), PAGAT, kozi=Suit.HEARTS)
>>> v.legal, v.kind, v.clean, v.wild_cards
(True, <MeldKind.RUN: 'run'>, False, (Card(rank=<Rank.TWO: '2'>, suit=<Suit.HEARTS: 'H'>),))
>>> judge_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H"), PAGAT, kozi=Suit.HEARTS).bonus
400
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from itertools import pairwise
from typing import Any

from .cards import RANK_AT, Card, Rank, Suit, format_cards, parse_cards
from .i18n import and_list, joined, mark, ntr, tr, tr_for, upper_first
from .variants import AceRule, Variant

_WILD_RANKS = frozenset({Rank.JOKER, Rank.TWO})
#: A problem of one reading of the cards, put into words only if that reading is chosen:
#: judging tries several readings, and a legal meld puts no message into words at all.
Problem = Callable[[], str]
_POSITION = {rank: rank.position for rank in Rank}


class MeldKind(StrEnum):
    RUN = "run"
    SET = "set"
    WILD = "wild"  # a meld of wild cards only, where the variant allows one


class IllegalMeldError(ValueError):
    """Raised by `verify_meld`; the message gives every reason."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card in the meld's layout and the rank it plays as (None: a wild with no place)."""

    card: Card
    as_rank: Rank | None
    wild: bool


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    cards: tuple[Card, ...]
    problems: tuple[str, ...]
    kind: MeldKind | None
    clean: bool | None  # None when illegal, and for wild melds
    semiclean: bool  # one wild at an end of 7+ naturals (burraco's semipulito)
    biriba: bool
    full: bool  # a run of all 13 ranks
    kozi: bool
    suit: Suit | None  # of a run
    layout: tuple[Placed, ...]  # runs in rank order
    card_points: int
    bonus: int
    #: The English template of the bonus label ("Clean kózi {biriba}"), "" below biriba size.
    bonus_template: str = ""
    #: The variant judged under, whose words fill the label.
    variant: Variant | None = field(default=None, repr=False, compare=False)

    @property
    def bonus_label(self) -> str:
        """The bonus as players name it, in the language of the moment it is read:
        "Clean kózi biriba", "Καθαρό μπουράκο"; "" below biriba size. Judging a meld puts
        nothing into words; the label is made when a score line or a page asks for it."""
        if not self.bonus_template or self.variant is None:
            return ""
        variant = self.variant
        return upper_first(tr_for(variant.biriba_word, self.bonus_template, **variant.words()))

    @property
    def legal(self) -> bool:
        return not self.problems

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def wild_cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.layout if p.wild)

    @property
    def natural_twos(self) -> tuple[Card, ...]:
        """The 2s that sit in their own place in a run of their suit: natural, not wild."""
        return tuple(p.card for p in self.layout if p.card.rank is Rank.TWO and not p.wild)

    def stands_for(self, placed: Placed) -> Card | None:
        """The natural card a placed wild stands for in a run (None in sets and wild melds)."""
        if self.kind is not MeldKind.RUN or placed.as_rank is None or self.suit is None:
            return None
        return Card(placed.as_rank, self.suit)

    @property
    def name(self) -> str:
        """Short name for score lines: ``5♠–J♠`` for a run, the cards for anything else."""
        if self.kind is MeldKind.RUN and self.legal and self.suit is not None:
            first, last = self.layout[0], self.layout[-1]
            assert first.as_rank is not None and last.as_rank is not None
            return f"{first.as_rank}{self.suit.symbol}–{last.as_rank}{self.suit.symbol}"
        return format_cards(self.cards)


@dataclass(slots=True)
class _Attempt:
    kind: MeldKind | None
    problems: list[Problem]
    layout: Callable[[], tuple[Placed, ...]]  # built only for the reading that is chosen
    wilds: int
    duplicated: bool = False
    suit: Suit | None = None
    semiclean: bool = False

    def rank_key(self) -> tuple[int, bool, int]:
        # Fewest problems first; then prefer a reading without repeated cards (its message
        # says more), then the cleanest layout.
        return (len(self.problems), self.duplicated, self.wilds)


def judge_meld(cards: Iterable[Card], variant: Variant, kozi: Suit | None = None) -> MeldVerdict:
    """Judge one meld under `variant`, with `kozi` the hand's bonus suit (if any)."""
    cards = tuple(cards)
    naturals = [c for c in cards if c.rank not in _WILD_RANKS]
    if not cards:
        attempt = _Attempt(None, [], tuple, wilds=0)
    elif not naturals:
        attempt = _wild_meld(cards, variant)
    else:
        candidates = []
        if len({c.rank for c in naturals}) == 1:
            candidates.append(_set(cards, naturals, variant))
        if len({c.suit for c in naturals}) == 1:
            candidates.append(_runs(cards, naturals, variant))
        attempt = min(candidates, key=_Attempt.rank_key) if candidates else _mixed(cards, naturals)
    problems = _size_problems(len(cards), variant) + [problem() for problem in attempt.problems]
    return _verdict(cards, attempt, problems, variant, kozi)


def can_meld(cards: Iterable[Card], variant: Variant, kozi: Suit | None = None) -> bool:
    return judge_meld(cards, variant, kozi).legal


def verify_meld(cards: Iterable[Card], variant: Variant, kozi: Suit | None = None) -> MeldVerdict:
    verdict = judge_meld(cards, variant, kozi)
    if not verdict.legal:
        raise IllegalMeldError(" ".join(verdict.problems))
    return verdict


def check_notation(text: str, variant: Variant, kozi: Suit | None = None) -> MeldVerdict:
    """`judge_meld` on notation such as ``"3H-9H JK"``; CardError quotes a bad token."""
    return judge_meld(parse_cards(text), variant, kozi)


# --- verdict --------------------------------------------------------------------------------


def _verdict(
    cards: tuple[Card, ...],
    attempt: _Attempt,
    problems: list[str],
    variant: Variant,
    kozi: Suit | None,
) -> MeldVerdict:
    legal = not problems
    kind = attempt.kind
    clean = None if not legal or kind is MeldKind.WILD else attempt.wilds == 0
    biriba = legal and len(cards) >= variant.biriba_size
    full = legal and kind is MeldKind.RUN and len(cards) >= 13
    is_kozi = legal and kind is MeldKind.RUN and variant.kozi and kozi is not None
    is_kozi = is_kozi and attempt.suit is kozi
    semiclean = biriba and attempt.semiclean and variant.bonus_semiclean is not None
    bonus, template = 0, ""
    if biriba:
        bonus, template = _bonus(variant, kind, bool(clean), semiclean, full, is_kozi)
    return MeldVerdict(
        cards=cards,
        problems=tuple(problems),
        kind=kind,
        clean=clean,
        semiclean=semiclean,
        biriba=biriba,
        full=full,
        kozi=is_kozi,
        suit=attempt.suit,
        layout=attempt.layout(),
        card_points=sum(variant.card_points(c) for c in cards),
        bonus=bonus,
        bonus_template=template,
        variant=variant,
    )


#: Bonus labels by the biriba's shape, each clean, semi-clean and dirty: whole phrases, so a
#: language can order the words its own way and make them agree with the variant's word.
_LABELS = {
    "set": (
        mark("Clean {biriba} (set)"),
        mark("Semi-clean {biriba} (set)"),
        mark("Dirty {biriba} (set)"),
    ),
    "kozi full": (
        mark("Clean kózi full {biriba}"),
        mark("Semi-clean kózi full {biriba}"),
        mark("Dirty kózi full {biriba}"),
    ),
    "full": (
        mark("Clean full {biriba}"),
        mark("Semi-clean full {biriba}"),
        mark("Dirty full {biriba}"),
    ),
    "kozi": (
        mark("Clean kózi {biriba}"),
        mark("Semi-clean kózi {biriba}"),
        mark("Dirty kózi {biriba}"),
    ),
    "run": (
        mark("Clean {biriba}"),
        mark("Semi-clean {biriba}"),
        mark("Dirty {biriba}"),
    ),
}


def _bonus(
    variant: Variant,
    kind: MeldKind | None,
    clean: bool,
    semiclean: bool,
    full: bool,
    kozi: bool,
) -> tuple[int, str]:
    """The bonus and the English template of its label."""
    if kind is MeldKind.WILD:
        return variant.bonus_wild_meld, mark("Wild {biriba}")
    if kind is MeldKind.SET:
        pair = (variant.bonus_set_clean, variant.bonus_set_dirty)
        shape = "set"
    elif full and kozi:
        pair = (variant.bonus_full_kozi_run_clean, variant.bonus_full_kozi_run_dirty)
        shape = "kozi full"
    elif full:
        pair = (variant.bonus_full_run_clean, variant.bonus_full_run_dirty)
        shape = "full"
    elif kozi:
        pair = (variant.bonus_kozi_run_clean, variant.bonus_kozi_run_dirty)
        shape = "kozi"
    else:
        pair = (variant.bonus_run_clean, variant.bonus_run_dirty)
        shape = "run"
    clean_label, semiclean_label, dirty_label = _LABELS[shape]
    if clean:
        return pair[0], clean_label
    if semiclean and variant.bonus_semiclean is not None:
        return variant.bonus_semiclean, semiclean_label
    return pair[1], dirty_label


def _size_problems(size: int, variant: Variant) -> list[str]:
    if size < variant.min_size:
        return [
            tr(
                "A meld needs at least {need} cards; this one has {size}.",
                need=variant.min_size,
                size=size,
            )
        ]
    if variant.max_size is not None and size > variant.max_size:
        return [
            tr(
                "A meld may hold at most {most} cards in this variant; this one has {size}.",
                most=variant.max_size,
                size=size,
            )
        ]
    return []


def _too_many_wilds(wilds: list[Card], variant: Variant) -> list[Problem]:
    if len(wilds) <= variant.max_wilds:
        return []
    return [partial(_too_many_wilds_message, wilds, variant.max_wilds)]


def _too_many_wilds_message(wilds: list[Card], most: int) -> str:
    # The cards are listed with no count before them: "has 2: joker 2♠" read as two 2s.
    cards = and_list(c.label for c in wilds)
    if most == 0:
        message = tr("A meld may hold no wild card, but this one has {cards}.", cards=cards)
    else:
        message = ntr(
            "A meld may hold only one wild card, but this one has more: {cards}.",
            "A meld may hold {most} wild cards, but this one has more: {cards}.",
            most,
            most=most,
            cards=cards,
        )
    # Why a 2 counted as wild, said only when one did: with jokers alone it would puzzle.
    twos = [c for c in wilds if c.rank is Rank.TWO]
    if not twos:
        return message
    why = ntr(
        "{cards} stands in as a wild card here: a 2 is natural only in its own place in a run "
        "of its own suit.",
        "{cards} stand in as wild cards here: a 2 is natural only in its own place in a run "
        "of its own suit.",
        len(twos),
        cards=and_list(c.label for c in twos),
    )
    return joined(" ", [message, why])


# --- the three readings ------------------------------------------------------------------------


def _wild_meld(cards: tuple[Card, ...], variant: Variant) -> _Attempt:
    problems: list[Problem] = []
    if not variant.wild_melds:
        problems.append(partial(_wild_meld_message, cards))
    layout = tuple(Placed(c, None, True) for c in cards)
    return _Attempt(MeldKind.WILD, problems, lambda: layout, wilds=len(cards))


def _wild_meld_message(cards: tuple[Card, ...]) -> str:
    if all(c.rank is Rank.TWO for c in cards):
        return tr("{cards}: a set of 2s is never legal, 2s are wild.", cards=format_cards(cards))
    return tr(
        "{cards}: this variant allows no meld of wild cards only (jokers and 2s).",
        cards=format_cards(cards),
    )


def _set(cards: tuple[Card, ...], naturals: list[Card], variant: Variant) -> _Attempt:
    rank = naturals[0].rank
    wilds = [c for c in cards if c.rank in _WILD_RANKS]
    problems: list[Problem] = []
    if not variant.set_ranks:
        problems.append(partial(_no_sets_message, cards))
    elif rank not in variant.set_ranks:
        problems.append(partial(_set_rank_message, rank, variant.set_ranks))
    problems += _too_many_wilds(wilds, variant)
    layout = tuple(Placed(c, rank, False) for c in naturals) + tuple(
        Placed(c, rank, True) for c in wilds
    )
    semiclean = len(wilds) == 1 and len(naturals) >= variant.biriba_size
    return _Attempt(MeldKind.SET, problems, lambda: layout, len(wilds), semiclean=semiclean)


def _no_sets_message(cards: tuple[Card, ...]) -> str:
    return tr(
        "This variant allows no sets, only runs: {cards} is a set.", cards=format_cards(cards)
    )


def _set_rank_message(rank: Rank, set_ranks: frozenset[Rank]) -> str:
    return tr(
        "Sets of {ranks} are not allowed in this variant: only {allowed} may form sets.",
        ranks=tr(_PLURALS[rank]),
        allowed=" ".join(r.value for r in sorted(set_ranks, key=_set_order)),
    )


def _runs(cards: tuple[Card, ...], naturals: list[Card], variant: Variant) -> _Attempt:
    """The best reading of the cards as a run: each ace low or high, a suited 2 natural or
    wild; a reading that is legal with no wild at all ends the search."""
    suit = naturals[0].suit
    aces = [c for c in naturals if c.rank is Rank.ACE]
    plain = [(_POSITION[c.rank], c) for c in naturals if c.rank is not Rank.ACE]
    if variant.ace is AceRule.LOW_ONLY:
        ace_low_counts: range | list[int] = [len(aces)]
    elif variant.ace is AceRule.HIGH_ONLY:
        ace_low_counts = [0]
    else:
        # All aces low first: A-2-…-K reads as players write it, and ties keep the first.
        ace_low_counts = _ace_splits(len(aces))
    suited_two = next((c for c in cards if c.rank is Rank.TWO and c.suit is suit), None)
    all_wilds = [c for c in cards if c.rank in _WILD_RANKS]
    best: _Attempt | None = None
    for low in ace_low_counts:
        placed = plain + [(1 if i < low else 14, a) for i, a in enumerate(aces)]
        # The natural-2 reading first: it has one wild fewer, so it is the cleaner layout.
        for two_natural in (True, False) if suited_two else (False,):
            wilds = all_wilds
            here = placed
            if two_natural and suited_two is not None:
                wilds = list(all_wilds)
                wilds.remove(suited_two)
                here = [*placed, (2, suited_two)]
            attempt = _run(here, wilds, suit, variant)
            if best is None or attempt.rank_key() < best.rank_key():
                best = attempt
                if not attempt.problems and not attempt.wilds:
                    return best
    assert best is not None
    return best


def _ace_splits(aces: int) -> list[int]:
    """How many of the run's aces to try low, most first: one count of each kind only.

    A reading's rank (its problems, repeats and wilds) depends on the aces only through
    whether 0, 1 or 2+ of them sit low and 0, 1 or 2+ sit high; every count between those
    ranks the same as the first of its kind, which the search keeps on a tie. Trying all
    len(aces)+1 counts made judging quadratic in repeated aces (5,000 AH took 30 s)."""
    return sorted({n for n in (aces, aces - 1, aces - 2, 1, 0) if 0 <= n <= aces}, reverse=True)


def _mixed(cards: tuple[Card, ...], naturals: list[Card]) -> _Attempt:
    layout = tuple(Placed(c, None, False) for c in cards)
    return _Attempt(None, [partial(_mixed_message, cards, naturals)], lambda: layout, wilds=0)


def _mixed_message(cards: tuple[Card, ...], naturals: list[Card]) -> str:
    suits = Counter(c.suit for c in naturals)
    ranks = Counter(c.rank for c in naturals)
    (suit, in_suit), (rank, of_rank) = suits.most_common(1)[0], ranks.most_common(1)[0]
    if in_suit >= of_rank and in_suit > 1 and suit is not None:
        odd = [c for c in naturals if c.suit is not suit]
        fields = {"cards": format_cards(odd), "suit": suit.symbol}
        message = ntr(
            "A run keeps to one suit: {cards} is not {suit}.",
            "A run keeps to one suit: {cards} are not {suit}.",
            len(odd),
            **fields,
        )
    elif of_rank > 1:
        odd = [c for c in naturals if c.rank is not rank]
        fields = {"cards": format_cards(odd), "rank": rank.value}
        message = ntr(
            "A set holds one rank: {cards} is not {rank}.",
            "A set holds one rank: {cards} are not {rank}.",
            len(odd),
            **fields,
        )
    else:
        message = tr(
            "{cards} is neither a run (one suit, in sequence) nor a set (one rank).",
            cards=format_cards(cards),
        )
    return message


# --- runs ------------------------------------------------------------------------------------


def _run(
    placed: list[tuple[int, Card]], wilds: list[Card], suit: Suit | None, variant: Variant
) -> _Attempt:
    problems: list[Problem] = []
    at: dict[int, Card] = {}
    repeats: list[tuple[int, Card]] = []
    for pos, card in placed:
        if pos in at:
            repeats.append((pos, card))
        else:
            at[pos] = card
    if repeats:
        # Counted in one pass: one sum per repeated position was len(repeats) × positions.
        times = Counter(pos for pos, _ in repeats)
        problems.append(partial(_repeat_message, [(at[p], 1 + times[p]) for p in sorted(times)]))
    if len(wilds) > variant.max_wilds:
        problems += _too_many_wilds(wilds, variant)
    lo, hi = min(at), max(at)
    if lo == 1 and hi == 14 and variant.ace is not AceRule.BOTH_ENDS:
        problems.append(partial(_both_ends_message, at[1]))
    missing = [p for p in range(lo, hi + 1) if p not in at] if hi - lo + 1 > len(at) else []
    lo_bound, hi_bound, longest = _RUN_BOUNDS[variant.ace]
    slots = missing[: len(wilds)]
    if len(missing) > len(wilds):
        problems.append(partial(_gap_or_wrap, sorted(at), missing, len(wilds), suit, variant.ace))
    elif len(wilds) > len(missing):
        extra = len(wilds) - len(missing)
        up = max(0, min(extra, hi_bound - hi, longest - (hi - lo + 1)))
        down = extra - up
        if lo - down < lo_bound or (hi + up) - (lo - down) + 1 > longest:
            problems.append(
                partial(_too_long, len(at), len(wilds), variant.ace, lo_bound, hi_bound)
            )
        else:
            slots += list(range(hi + 1, hi + up + 1)) + list(range(lo - down, lo))

    def layout() -> tuple[Placed, ...]:
        by_pos = {pos: Placed(card, RANK_AT[pos], False) for pos, card in at.items()}
        for pos, wild in zip(slots, wilds, strict=False):
            by_pos[pos] = Placed(wild, RANK_AT[pos], True)
        ordered = tuple(by_pos[p] for p in sorted(by_pos))
        unplaced = tuple(Placed(w, None, True) for w in wilds[len(slots) :])
        return ordered + unplaced + tuple(Placed(c, RANK_AT[p], False) for p, c in repeats)

    semiclean = len(wilds) == 1 and _beside_naturals(slots, at) >= variant.biriba_size
    return _Attempt(MeldKind.RUN, problems, layout, len(wilds), bool(repeats), suit, semiclean)


def _repeat_message(repeated: list[tuple[Card, int]]) -> str:
    """One sentence naming every card a run holds more than once: "5♠ and 6♠ appear twice"."""
    by_times: dict[int, list[Card]] = {}
    for card, times in repeated:
        by_times.setdefault(times, []).append(card)
    counts = []
    for times, cards in sorted(by_times.items()):
        fields = {"cards": and_list(c.label for c in cards), "times": times}
        if times == 2:
            counts.append(
                ntr("{cards} appears twice", "{cards} appear twice", len(cards), **fields)
            )
        else:
            counts.append(
                ntr(
                    "{cards} appears {times} times",
                    "{cards} appear {times} times",
                    len(cards),
                    **fields,
                )
            )
    return tr("A run holds each card once, but {counts} in this one.", counts=and_list(counts))


def _both_ends_message(ace: Card) -> str:
    return tr(
        "This run has {card} at both ends, but an ace sits low (A-2-3) or high (Q-K-A) "
        "in a run, never both.",
        card=ace.label,
    )


#: Lowest and highest position a run may reach, and its longest length, by ace rule.
_RUN_BOUNDS = {
    AceRule.LOW_OR_HIGH: (1, 14, 13),
    AceRule.BOTH_ENDS: (1, 14, 14),
    AceRule.LOW_ONLY: (1, 13, 13),
    AceRule.HIGH_ONLY: (2, 14, 13),
}


def _beside_naturals(slots: list[int], at: dict[int, Card]) -> int:
    """How many natural cards follow or precede the one wild without a break: burraco's
    semipulito needs the wild to sit at one end of at least seven of them."""
    if len(slots) != 1:
        return 0
    longest = 0
    for step in (-1, 1):
        pos, count = slots[0] + step, 0
        while pos in at:
            pos, count = pos + step, count + 1
        longest = max(longest, count)
    return longest


def _gap_or_wrap(
    positions: list[int], missing: list[int], wilds: int, suit: Suit | None, ace: AceRule
) -> str:
    if ace in (AceRule.LOW_ONLY, AceRule.HIGH_ONLY) and _fits_other_ace(positions, wilds):
        if ace is AceRule.LOW_ONLY:
            return tr("In this variant an ace is always low (A-2-3), never high.")
        return tr("In this variant an ace is always high (Q-K-A), never low.")
    ranks = sorted({1 if p == 14 else p for p in positions})
    gaps = [b - a - 1 for a, b in pairwise(ranks)]
    gaps.append(ranks[0] + 13 - ranks[-1] - 1)  # the gap across K→A→2
    both_ends = 1 in positions and 14 in positions  # said already, or allowed
    wraps = sum(gaps) - max(gaps) <= wilds and gaps.index(max(gaps)) != len(gaps) - 1
    if wraps and not both_ends:
        return tr("A run never wraps around the ace: K-A-2 is not a run.")
    cards = format_cards(Card(RANK_AT[p], suit) for p in missing) if suit else ""
    if wilds == 0:
        return ntr(
            "The run has a gap: {cards} is missing, and no wild card fills it.",
            "The run has a gap: {cards} are missing, and no wild card fills it.",
            len(missing),
            cards=cards,
        )
    # More cards are missing than the wild cards fill, so at least two are.
    return tr("The run has a gap: {cards} are missing, more than its wild card fills.", cards=cards)


def _fits_other_ace(positions: list[int], wilds: int) -> bool:
    """Would the run close up if its ace sat at the other end?"""
    moved = sorted({14 if p == 1 else 1 if p == 14 else p for p in positions})
    return moved[-1] - moved[0] + 1 - len(moved) <= wilds


def _too_long(naturals: int, wilds: int, ace: AceRule, lo: int, hi: int) -> str:
    need = naturals + wilds
    if ace is AceRule.LOW_OR_HIGH:
        return tr(
            "A run can be at most 13 cards long (from A to K or from 2 to A), and never wraps "
            "around; this one would need {need}.",
            need=need,
        )
    return tr(
        "A run can be at most {longest} cards long (from {low} to {high}), and never wraps "
        "around; this one would need {need}.",
        longest=hi - lo + 1,
        low=RANK_AT[lo].value,
        high=RANK_AT[hi].value,
        need=need,
    )


#: Each rank that may form a set, in the plural: "Sets of jacks are not allowed".
_PLURALS = {
    Rank.ACE: mark("aces"),
    Rank.THREE: mark("3s"),
    Rank.FOUR: mark("4s"),
    Rank.FIVE: mark("5s"),
    Rank.SIX: mark("6s"),
    Rank.SEVEN: mark("7s"),
    Rank.EIGHT: mark("8s"),
    Rank.NINE: mark("9s"),
    Rank.TEN: mark("10s"),
    Rank.JACK: mark("jacks"),
    Rank.QUEEN: mark("queens"),
    Rank.KING: mark("kings"),
}


def _set_order(rank: Rank) -> int:
    return 14 if rank is Rank.ACE else rank.position


# --- the verdict as JSON ---------------------------------------------------------------------


def verdict_json(verdict: MeldVerdict) -> dict[str, Any]:
    """One meld's verdict as the referee API gives it (and a scored hand keeps it): plain
    JSON, so the server and the phone's engine (play/offline_score.py) answer alike."""
    return {
        "legal": verdict.legal,
        "kind": None if verdict.kind is None else verdict.kind.value,
        "clean": verdict.clean,
        "biriba": verdict.biriba,
        "size": verdict.size,
        "card_points": verdict.card_points,
        "bonus": verdict.bonus,
        "problems": list(verdict.problems),
        "semiclean": verdict.semiclean,
        "full": verdict.full,
        "kozi": verdict.kozi,
        "suit": None if verdict.suit is None else verdict.suit.value,
        "bonus_label": verdict.bonus_label,
        "name": verdict.name,
        "cards": " ".join(c.code for c in verdict.cards),
        # A 2 in its own place is natural: the verdict says so, or a clean run with a 2
        # in it would look like a mistake (verdict_words._clean).
        "natural_twos": [c.code for c in verdict.natural_twos],
        "wilds": [
            {"card": p.card.code, "stands_for": _stands_for(verdict, p)}
            for p in verdict.layout
            if p.wild
        ],
    }


def _stands_for(verdict: MeldVerdict, placed: Placed) -> str | None:
    card = verdict.stands_for(placed)
    if card is not None:
        return card.code
    return None if placed.as_rank is None else placed.as_rank.value
