"""Security on every response and request: headers, cookie flags, and what a refused CSRF
token looks like (a page in the reader's language, or JSON under /api/)."""

from __future__ import annotations

import io
from functools import cached_property
from typing import IO
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wsgi import get_input_stream

from scorekeeper.extensions import csrf
from scorekeeper.web.gettext import gettext as _

#: Only this site's own files: no inline script or style, no other host, no plugins, no
#: framing. The page scripts are files under static/js and every style is in style.css.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        # WebAssembly only (the rules engine on the phone, Pyodide): still no eval of text.
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: Match pages keep the screen awake (static/js/wake-lock.js); nothing else is wanted.
PERMISSIONS_POLICY = (
    "screen-wake-lock=(self), camera=(), microphone=(), geolocation=(), payment=(), usb=()"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # "same-origin", not "no-referrer": Flask-WTF checks the Referer of HTTPS form posts, and
    # invitation links (/join/<code>) must not leak to other sites.
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: Sent only when cookies are Secure, i.e. the site is served over HTTPS alone.
HSTS = "max-age=31536000"
#: What an API client hears when it writes with a session cookie and no CSRF token.
API_CSRF_NEEDED = (
    "A write with a session cookie needs the X-CSRFToken header; "
    "scripts send Authorization: Bearer <token> instead."
)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


#: Routes that take a larger body than MAX_CONTENT_LENGTH, and the config key of their limit.
LARGE_BODIES = {"club_export.import_page": "MAX_IMPORT_LENGTH"}


class BoundedRequest(Request):
    """A request whose body is limited as soon as its route is known: MAX_CONTENT_LENGTH
    everywhere, a route's own limit (LARGE_BODIES) where it takes files. Known before any
    hook runs, so not even the CSRF check parses a form larger than its route allows."""

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is None and current_app and self.endpoint in LARGE_BODIES:
            return int(current_app.config[LARGE_BODIES[self.endpoint]])
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value

    @cached_property
    def stream(self) -> IO[bytes]:
        """The body, refused whole (413) when it is over the limit. A body sent in chunks
        has no Content-Length to check first, and werkzeug's own stream then ends quietly
        at the limit: a form or JSON cut short was read as if it were all (a field lost, or
        "not valid JSON" for a body too large). Read to one byte past the limit instead."""
        limit = self.max_content_length
        chunked = self.content_length is None and "wsgi.input_terminated" in self.environ
        if not chunked or limit is None:
            return get_input_stream(self.environ, max_content_length=limit)
        body = self.environ["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            raise RequestEntityTooLarge()
        return io.BytesIO(body)


def size_words(size: int) -> str:
    """A byte count as people read it: "256 KB", "5 MB"."""
    if size >= 1024 * 1024 and size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    return f"{max(1, size // 1024)} KB"


def too_large(_error: RequestEntityTooLarge) -> ResponseReturnValue:
    """413, said as a sentence with the limit: JSON under /api/, the error page elsewhere."""
    limit = request.max_content_length
    if limit is None:
        message = _("The request is larger than this server takes.")
    else:
        message = _(
            "The request is larger than this server takes here: at most %(size)s.",
            size=size_words(limit),
        )
    if request.path.startswith("/api/"):
        return {"error": message}, 413
    page = {"code": 413, "name": _("Request Entity Too Large"), "description": message}
    return render_template("error.html", error=page), 413


def secure_cookies() -> bool:
    """Whether cookies go over HTTPS only (SCOREKEEPER_SESSION_COOKIE_SECURE=true)."""
    return bool(current_app.config.get("SESSION_COOKIE_SECURE", False))


def fixed_headers(app: Flask) -> list[tuple[str, str]]:
    """The security headers every answer carries (HSTS only when cookies are Secure)."""
    headers = list(HEADERS.items())
    if app.config.get("SESSION_COOKIE_SECURE", False):
        headers.append(("Strict-Transport-Security", HSTS))
    return headers


def add_headers(response: Response) -> Response:
    for name, value in fixed_headers(current_app):
        response.headers.setdefault(name, value)
    return response


def protect_session_write() -> None:
    """CSRF for a JSON API write made with a session cookie (scripts with a bearer token
    need none: no other site can make a browser send an Authorization header)."""
    if request.method in UNSAFE_METHODS and current_app.config["WTF_CSRF_ENABLED"]:
        csrf.protect()


def refused_csrf(error: CSRFError) -> ResponseReturnValue:
    """A form sent without its token, or with an expired or foreign one: nothing was saved."""
    if request.path.startswith("/api/"):
        return {"error": f"{API_CSRF_NEEDED} ({error.description})"}, 400
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json"
    ):
        # The phone's outbox (static/js/outbox.js) sending a hand form: "csrf" tells it the
        # hand itself is fine and stays queued until a fresh token can be had.
        return {"saved": False, "errors": [error.description], "problems": [], "csrf": True}, 400
    page = {
        "code": 400,
        "name": _("The form could not be checked"),
        "description": _(
            "This form came without its security token, or the token is no longer valid, "
            "so nothing was saved. Go back, reload the page and send it again."
        ),
    }
    return render_template("error.html", error=page), 400


def init_app(app: Flask) -> None:
    # Behind N reverse proxies (SCOREKEEPER_PROXY_COUNT=N), trust their X-Forwarded-* headers:
    # the client's address for the login limits, and https for the CSRF referrer check.
    proxies = int(app.config.get("PROXY_COUNT", 0))
    if proxies > 0:
        # Flask's documented way in for WSGI middleware; mypy reads it as replacing a method.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    # The remember-me cookie follows the session cookie's Secure flag unless set apart.
    app.config.setdefault("REMEMBER_COOKIE_SECURE", app.config["SESSION_COOKIE_SECURE"])
    app.request_class = BoundedRequest
    app.after_request(add_headers)
    app.register_error_handler(CSRFError, refused_csrf)
    app.register_error_handler(RequestEntityTooLarge, too_large)


def safe_next(target: str | None) -> str | None:
    """`target` if it is a path on this site, else None: a `next` parameter must never send
    someone to another host after they typed their password (an open redirect).

    >>> safe_next("/clubs/3?tab=players"), safe_next("//evil.example"), safe_next("https://x.y/")
    ('/clubs/3?tab=players', None, None)
    """
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    # Browsers drop tabs and newlines from URLs and read a backslash as a slash, so
    # "/\t/evil.example" would become "//evil.example".
    if any(ch == "\\" or ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target
