"""Forms for registering, logging in and API tokens. Each message is a sentence for the
person holding the phone; services.accounts still has the last word on every rule."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from scorekeeper.services.accounts import MIN_PASSWORD

MAX_PASSWORD = 200

# Phones capitalise and "correct" the first letter of a username unless told not to.
USERNAME_INPUT = {"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


class RegisterForm(FlaskForm):  # type: ignore[misc]
    username = StringField(
        "Username",
        filters=[_strip],
        validators=[
            DataRequired("Choose a username."),
            Length(max=80, message="A username has at most 80 characters."),
        ],
        render_kw={**USERNAME_INPUT, "autocomplete": "username"},
    )
    password = PasswordField(
        "Password",
        description=f"At least {MIN_PASSWORD} characters.",
        validators=[
            DataRequired("Choose a password."),
            Length(
                min=MIN_PASSWORD,
                max=MAX_PASSWORD,
                message=f"A password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters.",
            ),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    repeat = PasswordField(
        "Repeat the password",
        validators=[
            DataRequired("Type the password a second time."),
            EqualTo("password", "The two passwords differ; type the same one twice."),
        ],
        render_kw={"autocomplete": "new-password"},
    )


class LoginForm(FlaskForm):  # type: ignore[misc]
    username = StringField(
        "Username",
        filters=[_strip],
        validators=[DataRequired("Enter your username.")],
        render_kw={**USERNAME_INPUT, "autocomplete": "username"},
    )
    password = PasswordField(
        "Password",
        validators=[DataRequired("Enter your password.")],
        render_kw={"autocomplete": "current-password"},
    )
    remember = BooleanField("Keep me logged in on this device", default=True)


class TokenForm(FlaskForm):  # type: ignore[misc]
    label = StringField(
        "What is it for?",
        description="A name to tell your tokens apart, such as “scoring script”.",
        filters=[_strip],
        validators=[Length(max=80, message="A label has at most 80 characters.")],
        render_kw={"autocomplete": "off"},
    )
