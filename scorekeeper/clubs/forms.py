"""Forms of the club pages: a new club, a new player, a member's role, a confirmation."""

from __future__ import annotations

from wtforms import SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, Length

from scorekeeper.models import Role
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


class ClubForm(PageForm):
    name = StringField(
        _l("Club name"),
        description=_l("Your table's name, such as “Friday Biriba at Eleni's”."),
        filters=[_strip],
        validators=[
            DataRequired(_l("Give the club a name.")),
            Length(max=120, message=_l("A club's name has at most 120 characters.")),
        ],
        render_kw={"autocomplete": "off"},
    )


class PlayerForm(PageForm):
    name = StringField(
        _l("Player's name"),
        description=_l("Anyone who sits at the table; they need no account."),
        filters=[_strip],
        validators=[
            DataRequired(_l("Type the player's name.")),
            Length(max=80, message=_l("A player's name has at most 80 characters.")),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )


# The club page explains the roles above the list; the choices stay short for a phone.
ROLE_CHOICES = [
    SelectChoice(Role.VIEWER.value, _l("Viewer")),
    SelectChoice(Role.SCORER.value, _l("Scorer")),
    SelectChoice(Role.OWNER.value, _l("Owner")),
]


class RoleForm(PageForm):
    """One per member; build it with ``prefix=role_prefix(user_id)`` so ids stay unique."""

    role = SelectField(
        _l("Role"),
        choices=ROLE_CHOICES,
        validate_choice=True,
        validators=[DataRequired(_l("Choose viewer, scorer or owner."))],
    )


def role_prefix(user_id: int) -> str:
    return f"member-{user_id}"


class ConfirmForm(PageForm):
    """A button that changes something (remove a member, leave): only its CSRF token."""
