"""Forms of the referee pages: the meld checker."""

from __future__ import annotations

import json
from typing import Any

from wtforms import Field, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional, ValidationError

from scorekeeper.match import MAX_CARD_TEXT, MAX_OPENING
from scorekeeper.numbers import whole_number
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.formats import MOST_CARDS
from scorekeeper.rules.presets import PAGAT, PRESETS, find_variant
from scorekeeper.rules.variants import OptionError, Variant
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm
from scorekeeper.words import SUIT_CHOICES, band_lines


def sentence(message: str) -> str:
    """An engine message as a sentence on a page: ends with a full stop."""
    return message if message.endswith((".", "!", "?")) else message + "."


_NO_CARDS = _l("Enter the cards of the meld, such as 3H 4H 5H.")


def _card_notation(form: MeldCheckForm, field: Field) -> None:
    if len(field.data) > MAX_CARD_TEXT:
        raise ValidationError(
            _("A meld is at most %(most)d characters of cards.", most=MAX_CARD_TEXT)
        )
    try:
        cards = parse_cards(field.data)
    except ValueError as error:
        raise ValidationError(sentence(str(error))) from None
    if not cards:  # only separators, such as ", ,"
        raise ValidationError(str(_NO_CARDS))
    if len(cards) > MOST_CARDS:  # the engine never judges more than the decks hold
        raise ValidationError(
            _(
                "A meld can hold at most %(most)d cards, all the cards of three decks; "
                "this one has %(count)d.",
                most=MOST_CARDS,
                count=len(cards),
            )
        )


def _preset_choice(variant: Variant) -> SelectChoice:
    """A preset option carrying what the page script needs when the preset changes."""
    bands = [
        {
            "score": line.from_score,
            "text": line.text,
        }
        for line in band_lines(variant)
    ]
    return SelectChoice(
        variant.id,
        variant.name,
        render_kw={
            "data-kozi": "1" if variant.kozi else "",
            "data-opening-table": variant.opening_table or "",
            "data-bands": json.dumps(bands, ensure_ascii=False),
        },
    )


class MeldCheckForm(PageForm):
    class Meta:
        # The checker stores nothing and reads no session, so there is nothing to forge; a
        # token would also expire on a phone left open at the table all evening.
        csrf = False

    variant = SelectField(
        _l("Rules"),
        choices=[_preset_choice(v) for v in PRESETS.values()],
        default=PAGAT.id,
        validate_choice=False,  # validate_variant names the bad value; aliases are allowed
    )
    kozi = RadioField(
        _l("Kózi suit"),
        choices=[SelectChoice(value, name) for value, _, name, _ in SUIT_CHOICES],
        default="",
    )
    cards = StringField(
        _l("Cards"),
        validators=[
            DataRequired(_NO_CARDS),
            _card_notation,
        ],
    )
    # A match's house rules, as JSON: set when the checker is opened from a match.
    options = HiddenField(default="")
    opening_band = SelectField(_l("Score before the hand"), validate_choice=False, default="")
    opening = IntegerField(
        _l("Or a minimum of card points"),
        validators=[
            Optional(),
            NumberRange(
                0, MAX_OPENING, _l("An opening needs a number of card points from 0 to 10000.")
            ),
        ],
    )

    def validate_variant(self, field: Field) -> None:
        try:
            find_variant(field.data or "")
        except OptionError as error:
            raise ValidationError(sentence(str(error))) from None

    def chosen_variant(self) -> Variant:
        """The chosen preset (pagat when the choice is unknown); offers its opening table."""
        try:
            variant = find_variant(self.variant.data or PAGAT.id)
        except OptionError:
            variant = PAGAT
        else:
            self.variant.data = variant.id  # an alias such as "greek" selects its preset
            try:
                variant = variant.with_options(**self.house_rules())
            except (OptionError, TypeError):
                self.options.data = ""  # rules that do not fit this preset are dropped
        # Built per request: the table rows are words in the page's language.
        self.variant.choices = [_preset_choice(v) for v in PRESETS.values()]
        self.opening_band.choices = [SelectChoice("", _l("No table row"))] + [
            SelectChoice(str(line.from_score), line.text) for line in band_lines(variant)
        ]
        return variant

    def opening_body(self) -> dict[str, int] | None:
        """The opening to check against, as the API takes it: a typed number wins over a
        row of the table."""
        if self.opening.data is not None and not self.opening.errors:
            return {"points": self.opening.data}
        band = (self.opening_band.data or "").strip()
        score = whole_number(band.removeprefix("-"))
        # Only a row of this preset's table: the choices are set by chosen_variant().
        rows = {choice.value for choice in self.opening_band.choices or ()}
        if score is None or band not in rows:
            return None
        return {"score": -score if band.startswith("-") else score}

    def house_rules(self) -> dict[str, Any]:
        try:
            rules = json.loads(self.options.data or "{}")
        except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
            return {}
        return rules if isinstance(rules, dict) else {}

    def request_body(self) -> dict[str, Any]:
        """The body of ``POST /api/v1/melds/check`` for what the form holds."""
        return {
            "variant": self.variant.data,
            "options": self.house_rules(),
            "kozi": self.kozi.data or None,
            "cards": self.cards.data,
            "opening": self.opening_body(),
        }
