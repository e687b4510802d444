"""Forms of the season pages: a season's name and days, a match's season, a confirmation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wtforms import DateField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length, ValidationError

from scorekeeper.models import Season
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm

#: The choice that hands a match back to the rule of its first hand.
BY_FIRST_HAND = ""


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


class DayField(DateField):
    """A date input (the phone's date picker) whose refusal says which day is wrong, in the
    page's language, rather than WTForms' "Not a valid date value"."""

    def __init__(self, *args: Any, invalid: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.invalid = invalid

    def process_formdata(self, valuelist: list[str]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(str(self.invalid)) from None


class SeasonForm(PageForm):
    name = StringField(
        _l("Season's name"),
        description=_l("Such as “Spring 2026” or “Winter league”."),
        filters=[_strip],
        validators=[
            InputRequired(_l("Give the season a name.")),
            Length(max=80, message=_l("A season's name has at most 80 characters.")),
        ],
        render_kw={"autocomplete": "off"},
    )
    starts_on = DayField(
        _l("First day"),
        invalid=_l("The first day is not a date; pick one, or write it as 2026-03-01."),
        validators=[InputRequired(_l("Give the season's first day."))],
    )
    ends_on = DayField(
        _l("Last day"),
        description=_l("Both days belong to the season; seasons of a club never overlap."),
        invalid=_l("The last day is not a date; pick one, or write it as 2026-05-31."),
        validators=[InputRequired(_l("Give the season's last day."))],
    )


class PlaceForm(PageForm):
    """The owner's choice of a match's season; build it with `place_form`."""

    season = SelectField(
        _l("Season of this match"),
        description=_l(
            "“By its first hand” puts the match in the season whose days hold its first hand."
        ),
        # Checked by validate_season, whose refusal names what to choose, in the page's language.
        validate_choice=False,
    )

    def validate_season(self, field: SelectField) -> None:
        if field.data not in {choice.value for choice in field.choices}:
            raise ValidationError(_l("Choose one of the club's seasons, or “By its first hand”."))


def place_form(seasons: Iterable[Season], chosen: int | None, **kwargs: Any) -> PlaceForm:
    form = PlaceForm(**kwargs)
    form.season.choices = [SelectChoice(BY_FIRST_HAND, _l("By its first hand"))] + [
        SelectChoice(str(s.id), s.name) for s in seasons
    ]
    if not form.is_submitted():
        form.season.data = BY_FIRST_HAND if chosen is None else str(chosen)
    return form


class ConfirmForm(PageForm):
    """A button that changes something: only its CSRF token to check."""
