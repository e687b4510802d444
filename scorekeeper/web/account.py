"""The account page: API tokens for scripts that use the JSON API with a bearer token."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import login_required

from scorekeeper.services import accounts
from scorekeeper.web.auth import me
from scorekeeper.web.auth_forms import TokenForm

bp = Blueprint("account", __name__, url_prefix="/account")


def _tokens_page(
    form: TokenForm, new_token: str | None = None, status: int = 200
) -> tuple[str, int]:
    page = render_template(
        "account/tokens.html", form=form, tokens=accounts.list_tokens(me()), new_token=new_token
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


@bp.post("/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    accounts.revoke_token(me(), token_id)
    flash(_("The token is revoked: requests that send it are refused from now on."))
    return redirect(url_for(".tokens"))
