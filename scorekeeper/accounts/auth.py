"""Registering, logging in and out. Passwords and their hashes are accounts.service's."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm

from scorekeeper.accounts import service as accounts
from scorekeeper.accounts.forms import LoginForm, RegisterForm
from scorekeeper.errors import Invalid
from scorekeeper.models import User
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.security import safe_next

bp = Blueprint("auth", __name__)


def me() -> User:
    """The logged-in user as a real model object (``current_user`` is only a proxy, which
    SQLAlchemy cannot store in a relationship). Use it behind ``@login_required``."""
    user: User = current_user._get_current_object()
    return user


def signed_in() -> User | None:
    """The logged-in user, or None on a page anyone may open (a share link, the referee,
    an invitation): the one reading of ``current_user`` for pages outside the login."""
    return me() if current_user.is_authenticated else None


def check_login(username: str, password: str) -> User | None:
    """The account `username` and `password` open, checked once per request: the limiter
    may already have checked them (accounts/limits.py) and the view must not hash twice. A
    failure is reported to the limiter once, so the account and the address that keep
    failing are known."""
    key = (username, password)
    checked = g.get("login_checked")
    if checked is not None and checked[0] == key:
        return checked[1]
    user = accounts.authenticate(username, password)
    g.login_checked = (key, user)
    if user is None:
        report = current_app.extensions.get("scorekeeper_login_failed")
        if report is not None:
            report(username)
    return user


def _next_page() -> str:
    return safe_next(request.args.get("next")) or url_for("clubs.index")


def _page(template: str, form: FlaskForm) -> ResponseReturnValue:
    """A form page: 200 when first shown, 400 when it comes back with errors."""
    status = 400 if form.is_submitted() else 200
    next_url = safe_next(request.args.get("next"))
    return render_template(template, form=form, next=next_url), status


@bp.route("/register", methods=["GET", "POST"])
def register() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(_next_page())
    form = RegisterForm()
    if form.validate_on_submit():
        try:
            user = accounts.register(form.username.data, form.password.data)
        except accounts.UsernameTaken as error:
            form.username.errors.append(error.message)
        except accounts.WeakPassword as error:
            form.password.errors.append(error.message)
        except Invalid as error:
            form.form_errors.append(error.message)
        else:
            login_user(user, remember=form.remember.data)
            flash(
                _(
                    "Welcome, %(name)s: your account is ready and you are logged in.",
                    name=user.username,
                )
            )
            return redirect(_next_page())
    return _page("accounts/register.html", form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(_next_page())
    form = LoginForm()
    if form.validate_on_submit():
        user = check_login(form.username.data, form.password.data)
        if user is None:
            form.form_errors.append(
                _("That username and password do not match an account; check both and try again.")
            )
        else:
            login_user(user, remember=form.remember.data)
            flash(_("Welcome back, %(name)s.", name=user.username))
            return redirect(_next_page())
    return _page("accounts/login.html", form)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    if current_user.is_authenticated:
        logout_user()
        flash(_("You are logged out."))
    return redirect(url_for("pages.home"))
