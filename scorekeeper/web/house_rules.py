"""The house-rules section of the new-match form: every option of a preset as an editable
field, grouped and worded as on the rules pages (`rule_words.describe_rules`).

A field keeps the text the player typed; `changed_options` reads the fields back into JSON
values and keeps only those that differ from the preset: those are the match's house rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.opening import OPENING_TABLES, Comparison
from scorekeeper.rules.variants import (
    AceRule,
    Direction,
    OptionError,
    TargetRule,
    UnplayedBiribaki,
    Variant,
)
from scorekeeper.web.rule_words import describe_rules

PREFIX = "opt-"
#: The target has its own field at the top of the form.
NOT_HERE = frozenset({"target"})

_CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "ace": (
        (AceRule.LOW_OR_HIGH, "low or high, not both"),
        (AceRule.BOTH_ENDS, "low, high or both ends"),
        (AceRule.LOW_ONLY, "low only"),
        (AceRule.HIGH_ONLY, "high only"),
    ),
    "target_rule": ((TargetRule.ABOVE, "above the target"), (TargetRule.AT_LEAST, "at least")),
    "penalty_biribaki_unplayed": (
        (UnplayedBiribaki.CARD_POINTS, "its cards' points"),
        (UnplayedBiribaki.FLAT, "a flat penalty"),
    ),
    "deal_direction": (
        (Direction.ANTICLOCKWISE, "anticlockwise"),
        (Direction.CLOCKWISE, "clockwise"),
    ),
    "opening_comparison": (
        ("", "as the table says"),
        (Comparison.AT_LEAST, "at least"),
        (Comparison.MORE_THAN, "more than"),
    ),
}


def option_label(name: str, v: Variant) -> str:
    """A short name for an option, in the variant's own words for biriba and biribaki."""
    word, pot = v.biriba_word, v.biribaki_word
    return {
        "points_joker": "Joker",
        "points_ace": "Ace",
        "points_two": "2",
        "points_eight_to_king": "8 to K",
        "points_three_to_seven": "3 to 7",
        "set_ranks": "Ranks that may form sets (blank: runs only)",
        "ace": "Ace in a run",
        "min_size": "Fewest cards in a meld",
        "max_size": "Most cards in a meld (blank: no limit)",
        "max_wilds": "Most wild cards in a meld",
        "wild_melds": "Melds of wild cards only",
        "wild_meld_lockout": "No other wilds while a wild meld is short",
        "biriba_size": f"Cards that make a {word}",
        "kozi": "A kózi suit each hand",
        "bonus_run_clean": "Run, clean",
        "bonus_run_dirty": "Run, dirty",
        "bonus_set_clean": "Set, clean",
        "bonus_set_dirty": "Set, dirty",
        "bonus_kozi_run_clean": "Kózi run, clean",
        "bonus_kozi_run_dirty": "Kózi run, dirty",
        "bonus_full_run_clean": "13-card run, clean",
        "bonus_full_run_dirty": "13-card run, dirty",
        "bonus_full_kozi_run_clean": "13-card kózi run, clean",
        "bonus_full_kozi_run_dirty": "13-card kózi run, dirty",
        "bonus_semiclean": "Semi-clean (blank: counts as dirty)",
        "bonus_wild_meld": f"Wild {word}",
        "going_out_bonus": "Bonus for going out",
        "going_out_needs_biriba": f"Going out needs a {word}",
        "going_out_needs_clean_biriba": f"Going out needs a clean {word}",
        "going_out_needs_biribaki": f"Going out needs the {pot} taken",
        "penalty_no_biribaki": f"No {pot} taken",
        "penalty_no_biriba": f"No {word}",
        "penalty_nothing_melded": "Nothing melded",
        "penalty_biribaki_unplayed": f"{pot.capitalize()} taken, not played, costs",
        "penalty_biribaki_unplayed_flat": "The flat penalty",
        "cut_exact_bonus": "Exact cut",
        "cut_off_by_one_bonus": "Cut off by one card",
        "opening_table": "Opening table",
        "opening_comparison": "Opening needs",
        "opening_failed_increment": "Added after a failed opening",
        "target": "Target",
        "target_rule": "To win, a score",
        "deal_direction": "The deal passes",
    }.get(name, name.replace("_", " ").capitalize())


def _table_choices() -> tuple[tuple[str, str], ...]:
    choices = [("", "none: no minimum")]
    for table_id, table in OPENING_TABLES.items():
        rows = "; ".join(
            f"{band.from_score}+: {band.points}" if band.from_score else str(band.points)
            for band in table.bands
        )
        choices.append((table_id, f"{table_id} ({rows})"))
    return tuple(choices)


@dataclass(frozen=True, slots=True)
class OptionField:
    name: str
    label: str
    kind: str  # "number", "bool", "choice", "text"
    value: Any  # the text shown (a bool for a checkbox)
    choices: tuple[tuple[str, str], ...]
    assumed: bool
    changed: bool
    optional: bool  # a number that may be left blank

    @property
    def input_name(self) -> str:
        return PREFIX + self.name


@dataclass(frozen=True, slots=True)
class OptionRule:
    text: str
    details: tuple[str, ...]
    fields: tuple[OptionField, ...]


@dataclass(frozen=True, slots=True)
class OptionGroup:
    title: str
    rules: tuple[OptionRule, ...]


def _shown(name: str, value: Any) -> Any:
    """An option's JSON value as its field shows it."""
    if isinstance(value, bool):
        return value
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(value)
    return str(value)


def _kind(name: str, value: Any) -> str:
    if name in _CHOICES or name == "opening_table":
        return "choice"
    if name == "set_ranks":
        return "text"
    return "bool" if isinstance(value, bool) else "number"


def option_groups(preset: Variant, data: Mapping[str, Any] | None) -> list[OptionGroup]:
    """The fields for every option, with the values in `data` (a submitted form), or the
    preset's own values when `data` is None."""
    defaults = preset.options()
    shown = {name: _shown(name, value) for name, value in defaults.items()}
    if data is not None:
        for name, value in defaults.items():
            if isinstance(value, bool):
                shown[name] = (PREFIX + name) in data
            elif (PREFIX + name) in data:
                shown[name] = str(data[PREFIX + name]).strip()
    try:
        # The sentences follow the edited rules when they make a game; else the preset's.
        described = preset.with_options(**changed_options(preset, data or {}))
    except (OptionError, ValueError):
        described = preset
    groups = []
    for group in describe_rules(described):
        rules = []
        for rule in group.rules:
            names = [n for n in rule.options if n not in NOT_HERE]
            if not names:
                continue
            fields = tuple(
                OptionField(
                    name=name,
                    label=option_label(name, preset),
                    kind=_kind(name, defaults[name]),
                    value=shown[name],
                    choices=_CHOICES.get(name)
                    or (_table_choices() if name == "opening_table" else ()),
                    assumed=name in preset.assumed,
                    changed=shown[name] != _shown(name, defaults[name]),
                    optional=name in ("max_size", "bonus_semiclean"),
                )
                for name in names
            )
            details = rule.details if rule.details else ()
            rules.append(OptionRule(rule.text, details, fields))
        if rules:
            groups.append(OptionGroup(group.title, tuple(rules)))
    return groups


class OptionInputError(ValueError):
    """A house-rule field that holds no value of its kind; the message names the field."""


def changed_options(preset: Variant, data: Mapping[str, Any]) -> dict[str, Any]:
    """The options whose submitted value differs from the preset's, as JSON values.

    Only fields present in `data` (and every checkbox, when the form was submitted) count;
    OptionInputError names a number field holding something else."""
    if not any(key.startswith(PREFIX) for key in data) and "shown_preset" not in data:
        return {}
    changed: dict[str, Any] = {}
    for name, default in preset.options().items():
        if name in NOT_HERE:
            continue
        key = PREFIX + name
        if isinstance(default, bool):
            value: Any = key in data
        elif key not in data:
            continue
        else:
            value = _read(name, str(data[key]).strip(), default, preset)
        if _same(value, default):
            continue
        changed[name] = value
    return changed


def _read(name: str, text: str, default: Any, preset: Variant) -> Any:
    if name == "set_ranks":
        return [("10" if t == "T" else t) for t in text.upper().replace(",", " ").split()]
    if name in _CHOICES or name == "opening_table":
        return text or None
    if not text and name in ("max_size", "bonus_semiclean"):
        return None
    if not text.isdigit():
        label = option_label(name, preset)
        raise OptionInputError(
            f"House rule “{label}” needs a whole number of 0 or more, not “{text}”."
        )
    return int(text)


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, list) and isinstance(value, list):
        return set(value) == set(default)
    return bool(value == default)
