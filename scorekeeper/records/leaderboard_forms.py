"""Forms of the leaderboard page: the owner's minimum of matches to be ranked."""

from __future__ import annotations

from wtforms import Field, StringField, ValidationError

from scorekeeper.numbers import whole_number
from scorekeeper.records.leaderboard import MAX_MINIMUM
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm

_BAD_MINIMUM = _l("The minimum of matches must be a whole number from 0 to 1000.")


def _whole_number(_form: PageForm, field: Field) -> None:
    text = (field.data or "").strip()
    if whole_number(text, MAX_MINIMUM) is None:
        raise ValidationError(_BAD_MINIMUM)


class MinimumForm(PageForm):
    # Text, not IntegerField: one clear message for "", "-1" and "three" alike.
    minimum = StringField(
        _l("Matches needed to be ranked"),
        description=_l("Players with fewer finished matches in a season are listed apart."),
        validators=[_whole_number],
        render_kw={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"},
    )

    @property
    def count(self) -> int:
        return int(self.minimum.data.strip())
