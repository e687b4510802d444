"""The house-rules section of the new-match form: every option of a preset as an editable
field, grouped and worded as on the rules pages (`rule_words.describe_rules`).

A field keeps the text the player typed; `changed_options` reads the fields back into JSON
values and keeps only those that differ from the preset: those are the match's house rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.numbers import short, whole_number
from scorekeeper.rules.opening import OPENING_TABLES, Comparison
from scorekeeper.rules.variants import (
    AceRule,
    Direction,
    OptionError,
    TargetRule,
    UnplayedBiribaki,
    Variant,
    option_most,
)
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.words import describe_rules, pot_of, word_of

PREFIX = "opt-"
#: The target has its own field at the top of the form.
NOT_HERE = frozenset({"target"})
#: Number options that may be left blank (None).
OPTIONAL = frozenset({"max_size", "bonus_semiclean", "deals"})

_CHOICES: dict[str, tuple[tuple[str, Any], ...]] = {
    "ace": (
        (AceRule.LOW_OR_HIGH, _l("low or high, not both")),
        (AceRule.BOTH_ENDS, _l("low, high or both ends")),
        (AceRule.LOW_ONLY, _l("low only")),
        (AceRule.HIGH_ONLY, _l("high only")),
    ),
    "target_rule": (
        (TargetRule.ABOVE, _l("above the target")),
        (TargetRule.AT_LEAST, _l("at least")),
    ),
    "penalty_biribaki_unplayed": (
        (UnplayedBiribaki.CARD_POINTS, _l("its cards' points")),
        (UnplayedBiribaki.FLAT, _l("a flat penalty")),
    ),
    "deal_direction": (
        (Direction.ANTICLOCKWISE, _l("anticlockwise")),
        (Direction.CLOCKWISE, _l("clockwise")),
    ),
    "opening_comparison": (
        ("", _l("as the table says")),
        (Comparison.AT_LEAST, _l("at least")),
        (Comparison.MORE_THAN, _l("more than")),
    ),
}


def option_label(name: str, v: Variant) -> str:
    """A short name for an option, in the variant's own words for biriba and biribaki."""
    return option_labels(v).get(name) or name.replace("_", " ").capitalize()


def option_labels(v: Variant) -> dict[str, str]:
    """Every option's short name (option_label), translated once: a page that labels forty
    options asks for this table once instead of building it forty times."""
    word, pot = word_of(v), pot_of(v)
    return {
        "points_joker": _("Joker"),
        "points_ace": _("Ace"),
        "points_two": "2",
        "points_eight_to_king": _("8 to K"),
        "points_three_to_seven": _("3 to 7"),
        "set_ranks": _("Ranks that may form sets (blank: runs only)"),
        "ace": _("Ace in a run"),
        "min_size": _("Fewest cards in a meld"),
        "max_size": _("Most cards in a meld (blank: no limit)"),
        "max_wilds": _("Most wild cards in a meld"),
        "wild_melds": _("Melds of wild cards only"),
        "wild_meld_lockout": _("No other wilds while a wild meld is short"),
        "biriba_size": _("Cards that make a %(word)s", word=word),
        "kozi": _("A kózi suit each hand"),
        "kozi_optional": _("A hand may have no kózi"),
        "bonus_run_clean": _("Run, clean"),
        "bonus_run_dirty": _("Run, dirty"),
        "bonus_set_clean": _("Set, clean"),
        "bonus_set_dirty": _("Set, dirty"),
        "bonus_kozi_run_clean": _("Kózi run, clean"),
        "bonus_kozi_run_dirty": _("Kózi run, dirty"),
        "bonus_full_run_clean": _("13-card run, clean"),
        "bonus_full_run_dirty": _("13-card run, dirty"),
        "bonus_full_kozi_run_clean": _("13-card kózi run, clean"),
        "bonus_full_kozi_run_dirty": _("13-card kózi run, dirty"),
        "bonus_semiclean": _("Semi-clean (blank: counts as dirty)"),
        "bonus_wild_meld": _("Wild %(word)s", word=word),
        "going_out_bonus": _("Bonus for going out"),
        "going_out_needs_biriba": _("Going out needs a %(word)s", word=word),
        "going_out_needs_clean_biriba": _("Going out needs a clean %(word)s", word=word),
        "going_out_needs_biribaki": _("Going out needs the %(pot)s taken", pot=pot),
        "penalty_no_biribaki": _("No %(pot)s taken", pot=pot),
        "penalty_no_biriba": _("No %(word)s", word=word),
        "penalty_nothing_melded": _("Nothing melded"),
        "penalty_biribaki_unplayed": _("%(Pot)s taken, not played, costs", Pot=pot.capitalize()),
        "penalty_biribaki_unplayed_flat": _("The flat penalty"),
        "cut_exact_bonus": _("Exact cut"),
        "cut_off_by_one_bonus": _("Cut off by one card"),
        "opening_table": _("Opening table"),
        "opening_comparison": _("Opening needs"),
        "opening_failed_increment": _("Added after a failed opening"),
        "target": _("Target"),
        "target_rule": _("To win, a score"),
        "deals": _("Hands in the match (blank: play to the target)"),
        "deal_direction": _("The deal passes"),
    }


def _table_choices() -> tuple[tuple[str, str], ...]:
    choices = [("", _("none: no minimum"))]
    for table_id, table in OPENING_TABLES.items():
        # A semicolon is a question mark in Greek: the separator is the language's own.
        rows = _("; ").join(
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
    labels = option_labels(preset)
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
                    label=labels.get(name) or option_label(name, preset),
                    kind=_kind(name, defaults[name]),
                    value=shown[name],
                    choices=_CHOICES.get(name)
                    or (_table_choices() if name == "opening_table" else ()),
                    assumed=name in preset.assumed,
                    changed=shown[name] != _shown(name, defaults[name]),
                    optional=name in OPTIONAL,
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
    if not text and name in OPTIONAL:
        return None
    most = option_most(name)
    value = whole_number(text, most)
    if value is None:
        label = option_label(name, preset)
        raise OptionInputError(
            _(
                "House rule “%(label)s” needs a whole number from 0 to %(most)d, not “%(text)s”.",
                label=label,
                most=most,
                text=short(text),
            )
        )
    return value


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, list) and isinstance(value, list):
        return set(value) == set(default)
    return bool(value == default)
