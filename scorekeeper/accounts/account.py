"""The account pages: API tokens for scripts that use the JSON API with a bearer token, the
password, and logging out everywhere."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required, login_user, logout_user

from scorekeeper.accounts import service as accounts
from scorekeeper.accounts.auth import me
from scorekeeper.accounts.forms import PasswordForm, TokenForm
from scorekeeper.errors import Invalid
from scorekeeper.web.gettext import gettext as _

bp = Blueprint("account", __name__, url_prefix="/account")


def _tokens_page(
    form: TokenForm, new_token: str | None = None, status: int = 200
) -> tuple[str, int]:
    page = render_template(
        "accounts/tokens.html", form=form, tokens=accounts.list_tokens(me()), new_token=new_token
    )
    return page, status


@bp.get("/tokens")
@login_required
def tokens() -> ResponseReturnValue:
    return _tokens_page(TokenForm(formdata=None))


@bp.post("/tokens")
@login_required
def create_token() -> ResponseReturnValue:
    form = TokenForm()
    if not form.validate_on_submit():
        return _tokens_page(form, status=400)
    token = accounts.create_token(me(), form.label.data or "")
    # The token is shown in this response only: never flashed (the session cookie is signed,
    # not encrypted) and never stored by a browser or proxy cache.
    body, status = _tokens_page(TokenForm(formdata=None), new_token=token, status=201)
    return body, status, {"Cache-Control": "no-store"}


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password() -> ResponseReturnValue:
    """A new password ends every other session; this one stays logged in."""
    form = PasswordForm()
    if form.validate_on_submit():
        user = me()
        try:
            accounts.change_password(user, form.current.data, form.password.data)
        except accounts.WeakPassword as error:
            form.password.errors.append(error.message)
        except Invalid as error:
            form.current.errors.append(error.message)
        else:
            # The session secret is new: log this session in again under it, keeping
            # a remember-me cookie if this device had one.
            login_user(user, remember=current_remember_cookie())
            flash(_("Your password is changed; every other device is logged out."))
            return redirect(url_for(".tokens"))
    status = 400 if form.is_submitted() else 200
    return render_template("accounts/password.html", form=form), status


@bp.post("/logout-everywhere")
@login_required
def logout_everywhere() -> ResponseReturnValue:
    """End every session and remember-me cookie of the account, this one too."""
    accounts.end_sessions(me())
    logout_user()
    flash(_("You are logged out on every device. API tokens still work until you revoke them."))
    return redirect(url_for("auth.login"))


def current_remember_cookie() -> bool:
    """Whether this device keeps its login (a remember-me cookie came with the request)."""
    return current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in request.cookies


@bp.post("/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    accounts.revoke_token(me(), token_id)
    flash(_("The token is revoked: requests that send it are refused from now on."))
    return redirect(url_for(".tokens"))
