"""One `Variant` holds every rule option as data; house rules are overrides of a preset.

Code that scores or judges branches on these option values, never on a preset's id, so a
house rule changes behaviour exactly as a preset would.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import Card, Rank
from .formats import MOST_CARDS
from .i18n import term, tr
from .opening import OPENING_TABLES, Comparison


class OptionError(ValueError):
    """An unknown house-rule option or a value it cannot take; the message names both."""


class AceRule(StrEnum):
    LOW_OR_HIGH = "low_or_high"  # A-2-3 or Q-K-A, never both in one run
    BOTH_ENDS = "both_ends"  # A-2-…-K-A allowed (Buraco, US rules)
    LOW_ONLY = "low_only"
    HIGH_ONLY = "high_only"


class TargetRule(StrEnum):
    ABOVE = "above"  # 5000 needs 5005
    AT_LEAST = "at_least"


class UnplayedBiribaki(StrEnum):
    CARD_POINTS = "card_points"  # the pot's cards count against the team
    FLAT = "flat"  # a fixed penalty instead (Buraco's alternative)


class Direction(StrEnum):
    ANTICLOCKWISE = "anticlockwise"
    CLOCKWISE = "clockwise"


SET_RANKS_3_TO_A = frozenset(r for r in Rank if r not in (Rank.TWO, Rank.JOKER))

#: Fields that describe a variant rather than being rules players can change.
_NOT_OPTIONS = frozenset(
    {"id", "english_name", "assumed", "sources", "biriba_word", "biribaki_word"}
)


@dataclass(frozen=True, slots=True)
class Variant:
    """Every rule of one way of playing; `with_options()` makes a house-rule copy."""

    id: str
    english_name: str  # `name` gives it in the current language
    # Card points: each card counts its own printed value wherever it sits.
    points_joker: int
    points_ace: int
    points_two: int
    points_eight_to_king: int
    points_three_to_seven: int
    # Meld legality
    set_ranks: frozenset[Rank] = SET_RANKS_3_TO_A
    ace: AceRule = AceRule.LOW_OR_HIGH
    min_size: int = 3
    max_size: int | None = None
    max_wilds: int = 1
    wild_melds: bool = False
    wild_meld_lockout: bool = False
    # Biriba bonuses (clean / dirty)
    biriba_size: int = 7
    kozi: bool = True
    kozi_optional: bool = False  # with a kózi suit: may a hand also be played without one?
    bonus_run_clean: int = 200
    bonus_run_dirty: int = 100
    bonus_set_clean: int = 300
    bonus_set_dirty: int = 150
    bonus_kozi_run_clean: int = 400
    bonus_kozi_run_dirty: int = 200
    bonus_full_run_clean: int = 1000
    bonus_full_run_dirty: int = 500
    bonus_full_kozi_run_clean: int = 2000
    bonus_full_kozi_run_dirty: int = 1000
    bonus_semiclean: int | None = None
    bonus_wild_meld: int = 0
    # Going out
    going_out_bonus: int = 100
    going_out_needs_biriba: bool = True
    going_out_needs_clean_biriba: bool = False
    going_out_needs_biribaki: bool = True
    # Penalties (positive numbers, subtracted)
    penalty_no_biribaki: int = 100
    penalty_no_biriba: int = 0
    penalty_nothing_melded: int = 0
    penalty_biribaki_unplayed: UnplayedBiribaki = UnplayedBiribaki.CARD_POINTS
    penalty_biribaki_unplayed_flat: int = 100
    # Cut bonus
    cut_exact_bonus: int = 0
    cut_off_by_one_bonus: int = 0
    # Opening meld
    opening_table: str | None = None
    opening_comparison: Comparison | None = None  # None: the table's own comparison
    opening_failed_increment: int = 0
    # Match
    target: int = 5000
    target_rule: TargetRule = TargetRule.ABOVE
    # A fixed number of hands (a tournament's deals per round): the match ends after this
    # many hands whatever the totals, and the higher total wins (equal totals: a draw).
    # None: the match is played to the target.
    deals: int | None = None
    deal_direction: Direction = Direction.ANTICLOCKWISE
    # Which option values fill gaps in the sources (shown as assumptions on rules pages).
    assumed: frozenset[str] = field(default_factory=frozenset)
    sources: tuple[str, ...] = ()
    # What the players of this variant call a 7+ meld and the extra packet of cards.
    biriba_word: str = "biriba"
    biribaki_word: str = "biribaki"

    def __post_init__(self) -> None:
        _check_consistent(self)

    @property
    def name(self) -> str:
        """The variant's name in the current language (a house-rule copy keeps its preset's)."""
        return tr(self.english_name)

    def words(self) -> dict[str, str]:
        """The variant's own words in the current language, as message fields: `biriba` and
        `biribaki`, and each capitalized (`Biriba`, `Biribaki`) for the start of a sentence."""
        biriba, biribaki = term(self.biriba_word), term(self.biribaki_word)
        return {
            "biriba": biriba,
            "Biriba": biriba.capitalize(),
            "biribaki": biribaki,
            "Biribaki": biribaki.capitalize(),
        }

    def card_points(self, card: Card) -> int:
        """Points of one card, by its printed rank (a 2 standing in for a K is still a 2)."""
        rank = card.rank
        if rank is Rank.JOKER:
            return self.points_joker
        if rank is Rank.ACE:
            return self.points_ace
        if rank is Rank.TWO:
            return self.points_two
        return self.points_eight_to_king if rank.position >= 8 else self.points_three_to_seven

    def options(self) -> dict[str, Any]:
        """Every option as JSON-ready values (the inverse of `with_options`)."""
        return {name: _to_json(getattr(self, name)) for name in option_names()}

    def with_options(self, **overrides: Any) -> Variant:
        """A copy with house rules applied; JSON-style values (lists, strings) are accepted.

        An overridden option is the players' own choice, so it stops being an assumption.
        """
        known = option_names()
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in known:
                raise OptionError(
                    tr("'{name}' is not an option of variant {variant}", name=name, variant=self.id)
                )
            changes[name] = _coerce(name, value)
        if not changes:
            return self
        return dataclasses.replace(self, **changes, assumed=self.assumed - changes.keys())


def option_names() -> tuple[str, ...]:
    return _OPTION_NAMES


_FIELD_TYPES = {f.name: str(f.type) for f in dataclasses.fields(Variant)}
_OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Variant) if f.name not in _NOT_OPTIONS)
_ENUMS: dict[str, type[StrEnum]] = {
    "ace": AceRule,
    "target_rule": TargetRule,
    "penalty_biribaki_unplayed": UnplayedBiribaki,
    "deal_direction": Direction,
    "opening_comparison": Comparison,
}


def _coerce(name: str, value: Any) -> Any:
    kind = _FIELD_TYPES[name]
    optional = kind.endswith("| None")
    if value is None:
        if optional:
            return None
        raise OptionError(tr("Option '{name}' needs a value, not null", name=name))
    if name in _ENUMS:
        enum = _ENUMS[name]
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(m.value for m in enum)
            raise OptionError(
                tr(
                    "Option '{name}' cannot be {value}: use one of {allowed}",
                    name=name,
                    value=_show(value),
                    allowed=allowed,
                )
            ) from None
    if name == "set_ranks":
        return _coerce_ranks(value)
    if kind.startswith("bool"):
        if not isinstance(value, bool):
            raise OptionError(
                tr(
                    "Option '{name}' must be true or false, not {value}",
                    name=name,
                    value=_show(value),
                )
            )
        return value
    if kind.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(
                tr(
                    "Option '{name}' must be a whole number, not {value}",
                    name=name,
                    value=_show(value),
                )
            )
        most = option_most(name)
        if abs(value) > most:  # negatives are named by _check_consistent
            raise OptionError(
                tr(
                    "Option '{name}' must be a whole number from 0 to {most}, not {value}",
                    name=name,
                    most=most,
                    value=value if abs(value) < 10**30 else "…",
                )
            )
        return value
    if kind.startswith("str"):
        if not isinstance(value, str):
            raise OptionError(
                tr("Option '{name}' must be text, not {value}", name=name, value=_show(value))
            )
        return value
    raise OptionError(tr("Option '{name}' cannot be set", name=name))  # pragma: no cover


#: The most hands a match of fixed deals may have (a tournament plays 1 to 8 a round).
MOST_DEALS = 100

#: The largest value of each whole-number option: far above any table's rule, and small
#: enough that no score built from them overflows the database's BIGINT (issue 11).
_MOST = {
    "points_joker": 1_000,
    "points_ace": 1_000,
    "points_two": 1_000,
    "points_eight_to_king": 1_000,
    "points_three_to_seven": 1_000,
    "min_size": MOST_CARDS,
    "max_size": MOST_CARDS,
    "max_wilds": MOST_CARDS,
    "biriba_size": MOST_CARDS,
    "target": 1_000_000,
    "deals": MOST_DEALS,
}
_MOST_OTHER = 100_000  # bonuses, penalties and the opening's step


def option_most(name: str) -> int:
    """The largest value the whole-number option `name` takes."""
    return _MOST.get(name, _MOST_OTHER)


def _coerce_ranks(value: Any) -> frozenset[Rank]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple | set | frozenset):
        raise OptionError(
            tr("Option 'set_ranks' must be a list of ranks, not {value}", value=_show(value))
        )
    ranks = set()
    for item in value:
        word = str(item).upper()
        try:
            ranks.add(Rank("10" if word == "T" else word))
        except ValueError:
            raise OptionError(
                tr(
                    "Option 'set_ranks' cannot hold {value}: ranks are A 3–10 J Q K",
                    value=_show(item),
                )
            ) from None
    return frozenset(ranks)


def _check_consistent(v: Variant) -> None:
    """Reject option combinations that make no game, naming the option at fault."""
    if v.set_ranks & {Rank.TWO, Rank.JOKER}:
        raise OptionError(
            tr("Option 'set_ranks' cannot hold 2 or JK: a set of wild cards is no set")
        )
    if v.min_size < 2:
        raise OptionError(tr("Option 'min_size' must be at least 2, not {value}", value=v.min_size))
    if v.max_size is not None and v.max_size < v.min_size:
        raise OptionError(
            tr(
                "Option 'max_size' ({max_size}) cannot be below 'min_size' ({min_size})",
                max_size=v.max_size,
                min_size=v.min_size,
            )
        )
    if v.max_wilds < 0:
        raise OptionError(tr("Option 'max_wilds' cannot be negative ({value})", value=v.max_wilds))
    if v.biriba_size < 1:
        raise OptionError(
            tr("Option 'biriba_size' must be at least 1, not {value}", value=v.biriba_size)
        )
    if v.target <= 0:
        raise OptionError(tr("Option 'target' must be above 0, not {value}", value=v.target))
    if v.deals is not None and v.deals < 1:
        raise OptionError(
            tr("Option 'deals' must be at least 1, or null, not {value}", value=v.deals)
        )
    if v.opening_table is not None and v.opening_table not in OPENING_TABLES:
        tables = ", ".join(OPENING_TABLES)
        raise OptionError(
            tr(
                "Option 'opening_table' cannot be {value}: use one of {tables}, or null",
                value=_show(v.opening_table),
                tables=tables,
            )
        )
    for name in _OPTION_NAMES:
        value = getattr(v, name)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise OptionError(
                tr("Option '{name}' cannot be negative ({value})", name=name, value=value)
            )


def _show(value: Any) -> str:
    """A value as JSON (null, true, "x"): house rules usually arrive as JSON."""
    try:
        return json.dumps(_to_json(value), ensure_ascii=False)
    except TypeError:
        return repr(value)


def _to_json(value: Any) -> Any:
    if isinstance(value, frozenset):
        # In run order with the ace high, as players list the ranks that may form sets.
        return sorted((str(r) for r in value), key=lambda r: 14 if r == "A" else Rank(r).position)
    return value


def options_from_json(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """Check that house-rule options arrived as a JSON object."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise OptionError(
            tr(
                "'options' must be an object of option names and values, not {value}",
                value=_show(data),
            )
        )
    return dict(data)
