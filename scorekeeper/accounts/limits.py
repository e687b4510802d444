"""Failed logins are limited per account and per address (Flask-Limiter), so nobody can
guess passwords at speed. Counts live in memory, or in Redis when
SCOREKEEPER_RATELIMIT_STORAGE_URI names one (every worker then shares them).

Each app gets a Limiter of its own: the extension keeps its storage and switches on the
instance, and tests build many apps in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from flask import Flask, Response, current_app, g, render_template, request
from flask.typing import ResponseReturnValue, RouteCallable
from flask_babel import gettext as _
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, parse

from scorekeeper.accounts.auth import check_login
from scorekeeper.accounts.forms import LoginForm, RegisterForm
from scorekeeper.errors import ServiceError
from scorekeeper.web.page_form import PageForm
from scorekeeper.web.security import safe_next

LOGIN_ENDPOINT = "auth.login"
REGISTER_ENDPOINT = "auth.register"
FormT = TypeVar("FormT", bound=PageForm)
SETTINGS = {
    "RATELIMIT_KEY_PREFIX": "scorekeeper",
    "RATELIMIT_HEADERS_ENABLED": True,  # Retry-After says how long to wait
    # An unreachable Redis must not lock everyone out: count in memory until it is back.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
}


def address_key() -> str:
    # request.remote_addr is the proxy's unless PROXY_COUNT says how many to trust.
    return "address:" + (request.remote_addr or "unknown")


def account_key() -> str:
    """The account being tried, however its name is spelt (an empty name: no account limit).

    Read by the login form itself, so the name counted is the name checked whatever the
    body: Flask-WTF also reads a JSON body, which request.form never holds."""
    username = LoginForm(meta={"csrf": False}).username.data
    username = username.strip().casefold() if isinstance(username, str) else ""
    return "account:" + username if username else ""


def _owner_failures() -> tuple[RateLimitItem, str]:
    item = parse(str(current_app.config["LOGIN_OWNER_ADDRESS_FAILURES"]))
    return item, address_key()


def _limiter() -> Limiter:
    limiter: Limiter = current_app.extensions["scorekeeper_limiter"]
    return limiter


def login_failed() -> None:
    """Count a failed login against the address it came from (see `owner_at_clean_address`)."""
    item, address = _owner_failures()
    _limiter().limiter.hit(item, "owner-check", address)


def owner_at_clean_address() -> bool:
    """Whether this login skips the per-account limit: the right password, from an address
    that has not been failing. Otherwise anyone could lock a user out by failing logins on
    their username; the limit is there to slow the guesser, not the owner. A guesser spread
    over many addresses learns nothing more than the per-address failures allow, since each
    wrong password here counts against its address too (issue 11, item 8)."""
    if request.method != "POST":
        return False
    cached = g.get("owner_at_clean_address")
    if cached is not None:
        return bool(cached)
    g.owner_at_clean_address = False
    item, address = _owner_failures()
    if _limiter().limiter.test(item, "owner-check", address):
        form = LoginForm()
        if form.validate():  # CSRF token included
            user = check_login(form.username.data, form.password.data)
            g.owner_at_clean_address = user is not None
    return bool(g.owner_at_clean_address)


def _config_value(key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[key])


def failed(response: Response) -> bool:
    """Only attempts that did not log in count: a login that works answers with a redirect."""
    return response.status_code != 302


def _shown_again(form_class: type[FormT]) -> FormT:
    """The form as sent, to show again under the limit's message; an empty one when the
    request cannot be read as the form (a JSON body of objects): this page is an error
    handler's, and an error raised here would be a 500."""
    try:
        return form_class()
    except ServiceError:
        return form_class(formdata=None)


def too_many(_error: RateLimitExceeded) -> ResponseReturnValue:
    """429, said as a sentence: the login form again with the reason, JSON under /api/.
    (Flask-Limiter adds Retry-After and the X-RateLimit headers.)"""
    if request.endpoint == LOGIN_ENDPOINT:
        message = _(
            "Too many failed attempts to log in to this account or from this address. "
            "Wait a minute, then try again."
        )
        form = _shown_again(LoginForm)
        form.form_errors.append(message)
        next_url = safe_next(request.args.get("next"))
        return render_template("accounts/login.html", form=form, next=next_url), 429
    if request.endpoint == REGISTER_ENDPOINT:
        message = _(
            "Too many accounts were asked for from this address. Wait an hour, then try again."
        )
        register_form = _shown_again(RegisterForm)
        register_form.form_errors.append(message)
        next_url = safe_next(request.args.get("next"))
        return render_template("accounts/register.html", form=register_form, next=next_url), 429
    message = _("Too many requests in a short time. Wait a minute, then try again.")
    if request.path.startswith("/api/"):
        return {"error": message}, 429
    page = {"code": 429, "name": _("Too many requests"), "description": message}
    return render_template("error.html", error=page), 429


def init_app(app: Flask) -> None:
    for key, value in SETTINGS.items():
        app.config.setdefault(key, value)
    limiter = Limiter(address_key, app=app)
    per_account = limiter.limit(
        _config_value("LOGIN_LIMIT_PER_ACCOUNT"),
        key_func=account_key,
        methods=["POST"],
        deduct_when=failed,
        exempt_when=owner_at_clean_address,
        scope="account",
    )
    per_address = limiter.limit(
        _config_value("LOGIN_LIMIT_PER_ADDRESS"),
        key_func=address_key,
        methods=["POST"],
        deduct_when=failed,
        scope="address",
    )
    # Flask-Limiter types its decorator as making a view that may be async; a sync view
    # stays sync, so it is still the RouteCallable Flask keeps.
    app.view_functions[LOGIN_ENDPOINT] = cast(
        RouteCallable, per_address(per_account(app.view_functions[LOGIN_ENDPOINT]))
    )
    # Every account asked for counts, made or refused: a script must not make accounts
    # in bulk, nor test which usernames are taken at speed.
    per_address_register = limiter.limit(
        _config_value("REGISTER_LIMIT_PER_ADDRESS"),
        key_func=address_key,
        methods=["POST"],
        scope="register",
    )
    app.view_functions[REGISTER_ENDPOINT] = cast(
        RouteCallable, per_address_register(app.view_functions[REGISTER_ENDPOINT])
    )
    app.extensions["scorekeeper_limiter"] = limiter
    app.extensions["scorekeeper_login_failed"] = login_failed
    app.register_error_handler(RateLimitExceeded, too_many)
