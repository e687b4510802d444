"""Forms for registering, logging in and API tokens. Each message is a sentence for the
person holding the phone; accounts.service still has the last word on every rule."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from scorekeeper.accounts.service import MIN_PASSWORD
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm

MAX_PASSWORD = 200

# Phones capitalise and "correct" the first letter of a username unless told not to.
USERNAME_INPUT = {"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def _new_password(label: Any) -> Any:
    """A new password's field: its length checked, the browser offered to make one."""
    return PasswordField(
        label,
        description=_l("At least %(count)d characters.", count=MIN_PASSWORD),
        validators=[
            DataRequired(_l("Choose a password.")),
            Length(
                min=MIN_PASSWORD,
                max=MAX_PASSWORD,
                message=_l(
                    "A password needs %(least)d to %(most)d characters.",
                    least=MIN_PASSWORD,
                    most=MAX_PASSWORD,
                ),
            ),
        ],
        render_kw={"autocomplete": "new-password"},
    )


def _repeat(label: Any) -> Any:
    """The new password typed a second time, which must match the first."""
    return PasswordField(
        label,
        validators=[
            DataRequired(_l("Type the password a second time.")),
            EqualTo("password", _l("The two passwords differ; type the same one twice.")),
        ],
        render_kw={"autocomplete": "new-password"},
    )


def _remember() -> Any:
    """Keep the login past the browser's closing (a remember-me cookie), ticked by default:
    the phone at the table is the player's own."""
    return BooleanField(_l("Keep me logged in on this device"), default=True)


class RegisterForm(PageForm):
    username = StringField(
        _l("Username"),
        filters=[_strip],
        validators=[
            DataRequired(_l("Choose a username.")),
            Length(max=80, message=_l("A username has at most 80 characters.")),
        ],
        render_kw={**USERNAME_INPUT, "autocomplete": "username"},
    )
    password = _new_password(_l("Password"))
    repeat = _repeat(_l("Repeat the password"))
    # As on the login page: a new account stays logged in once the browser closes, unless
    # the person says otherwise (a borrowed phone).
    remember = _remember()


class LoginForm(PageForm):
    username = StringField(
        _l("Username"),
        filters=[_strip],
        validators=[DataRequired(_l("Enter your username."))],
        render_kw={**USERNAME_INPUT, "autocomplete": "username"},
    )
    password = PasswordField(
        _l("Password"),
        validators=[DataRequired(_l("Enter your password."))],
        render_kw={"autocomplete": "current-password"},
    )
    remember = _remember()


class PasswordForm(PageForm):
    """A new password, with the current one: a session left open on a borrowed phone must
    not be enough to take the account."""

    current = PasswordField(
        _l("Current password"),
        validators=[DataRequired(_l("Enter your current password."))],
        render_kw={"autocomplete": "current-password"},
    )
    password = _new_password(_l("New password"))
    repeat = _repeat(_l("Repeat the new password"))


class TokenForm(PageForm):
    label = StringField(
        _l("What is it for?"),
        description=_l("A name to tell your tokens apart, such as “scoring script”."),
        filters=[_strip],
        validators=[Length(max=80, message=_l("A label has at most 80 characters."))],
        render_kw={"autocomplete": "off"},
    )
