"""Failed logins are limited per account and per address, so nobody can guess passwords at
speed. Per account they are counted in the database (accounts/failures.py), so every worker
and machine shares the count with no other store; per address Flask-Limiter counts them, in
memory or in Redis when SCOREKEEPER_RATELIMIT_STORAGE_URI names one (every worker then
shares those too).

Each app gets a Limiter of its own: the extension keeps its storage and switches on the
instance, and tests build many apps in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Flask, Response, current_app, g, render_template, request
from flask.typing import ResponseReturnValue, RouteCallable
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, parse

from scorekeeper.accounts import failures
from scorekeeper.accounts.auth import check_login
from scorekeeper.accounts.forms import LoginForm, RegisterForm
from scorekeeper.errors import ServiceError
from scorekeeper.web.gettext import gettext as _
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


def tried_username() -> str:
    """The name of the account being tried ("" for none), as sent: failures.py counts it by
    the same key the login finds the account by, however it is spelt.

    Read by the login form itself, so the name counted is the name checked whatever the
    body: Flask-WTF also reads a JSON body, which request.form never holds."""
    username = LoginForm(meta={"csrf": False}).username.data
    return username if isinstance(username, str) else ""


def _owner_failures() -> tuple[RateLimitItem, str]:
    item = parse(str(current_app.config["LOGIN_OWNER_ADDRESS_FAILURES"]))
    return item, address_key()


def _limiter() -> Limiter:
    limiter: Limiter = current_app.extensions["scorekeeper_limiter"]
    return limiter


def login_failed(username: str) -> None:
    """Count a failed login against the account it named and the address it came from (see
    `owner_at_clean_address`)."""
    item, address = _owner_failures()
    _limiter().limiter.hit(item, "owner-check", address)
    failures.count_failure(username)


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


def per_account(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """The login view, refusing tries at an account that has failed too often lately (by
    the database's count), unless the owner is at the door (`owner_at_clean_address`)."""

    @wraps(view)
    def limited(*args: Any, **kwargs: Any) -> ResponseReturnValue:
        if request.method == "POST" and _limiter().enabled:
            wait = failures.wait_before_trying(tried_username())
            if wait is not None and not owner_at_clean_address():
                page, status = _login_page_again()
                return page, status, {"Retry-After": str(wait)}
        return view(*args, **kwargs)

    return limited


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


def _login_page_again() -> tuple[str, int]:
    message = _(
        "Too many failed attempts to log in to this account or from this address. "
        "Wait a minute, then try again."
    )
    form = _shown_again(LoginForm)
    form.form_errors.append(message)
    next_url = safe_next(request.args.get("next"))
    return render_template("accounts/login.html", form=form, next=next_url), 429


def too_many(_error: RateLimitExceeded) -> ResponseReturnValue:
    """429, said as a sentence: the login form again with the reason, JSON under /api/.
    (Flask-Limiter adds Retry-After and the X-RateLimit headers.)"""
    if request.endpoint == LOGIN_ENDPOINT:
        return _login_page_again()
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
    per_address = limiter.limit(
        _config_value("LOGIN_LIMIT_PER_ADDRESS"),
        key_func=address_key,
        methods=["POST"],
        deduct_when=failed,
        scope="address",
    )
    # Flask-Limiter types its decorator as making a view that may be async; a sync view
    # stays sync, so it is still the RouteCallable Flask keeps.
    login = cast(Callable[..., ResponseReturnValue], app.view_functions[LOGIN_ENDPOINT])
    app.view_functions[LOGIN_ENDPOINT] = cast(RouteCallable, per_address(per_account(login)))
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
