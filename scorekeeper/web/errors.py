"""Error responses: JSON under /api/, HTML pages everywhere else."""

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.errors import ServiceError
from scorekeeper.extensions import db
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l

#: The titles of HTTP errors as werkzeug names them, in the page's language.
HTTP_TITLES = {
    400: _l("Bad Request"),
    403: _l("Forbidden"),
    404: _l("Not Found"),
    405: _l("Method Not Allowed"),
    413: _l("Request Entity Too Large"),
    415: _l("Unsupported Media Type"),
    500: _l("Internal Server Error"),
}
#: werkzeug's default explanations, word for word, so a Greek page can say them in Greek.
HTTP_DESCRIPTIONS = {
    400: _l("The browser (or proxy) sent a request that this server could not understand."),
    403: _l(
        "You don't have the permission to access the requested resource. It is either "
        "read-protected or not readable by the server."
    ),
    404: _l(
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again."
    ),
    405: _l("The method is not allowed for the requested URL."),
    413: _l("The data value transmitted exceeds the capacity limit."),
    415: _l("The server does not support the media type transmitted in the request."),
    500: _l(
        "The server encountered an internal error and was unable to complete your request. "
        "Either the server is overloaded or there is an error in the application."
    ),
}
#: What a page says when a use case refused.
SERVICE_TITLES = {
    403: _l("Not allowed"),
    404: _l("Not found"),
    409: _l("Changed meanwhile"),
}


def _is_api_path() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _render(error: HTTPException) -> ResponseReturnValue:
    if _is_api_path():
        # Start from werkzeug's response so headers such as a 405's Allow survive.
        response = error.get_response()
        response.set_data(current_app.json.dumps({"error": error.description}))
        response.mimetype = "application/json"
        return response
    code = error.code or 500
    description = error.description
    if code in HTTP_DESCRIPTIONS and description == type(error).description:
        description = str(HTTP_DESCRIPTIONS[code])
    page = {"code": code, "name": HTTP_TITLES.get(code, error.name), "description": description}
    return render_template("error.html", error=page), code


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    return _render(error)


def handle_server_error(error: InternalServerError) -> ResponseReturnValue:
    # A failed request may leave a transaction open; the next request must not inherit it.
    db.session.rollback()
    return _render(error)


def handle_service_error(error: ServiceError) -> ResponseReturnValue:
    """A use case said no: nothing was saved, and the message says why."""
    db.session.rollback()
    if _is_api_path():
        body: dict[str, object] = {"error": error.message, **error.details()}
        return body, error.status
    title = SERVICE_TITLES.get(error.status) or _("Cannot do that")
    page = {"code": error.status, "name": title, "description": error.message}
    return render_template("error.html", error=page), error.status


#: PostgreSQL's codes for a write that met another one: serialization failure, deadlock,
#: and a lock not had within lock_timeout. Each leaves nothing changed and may be retried.
BUSY_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
#: How long a client is asked to wait before it tries again.
RETRY_AFTER_SECONDS = 2


def database_busy(error: OperationalError) -> bool:
    """Whether the database refused because another write held it, not because it broke:
    SQLite's "database is locked" (its busy timeout ran out, or a snapshot went stale) and
    PostgreSQL's lock timeouts, deadlocks and serialization failures."""
    if "database is locked" in str(error.orig):
        return True
    return getattr(error.orig, "sqlstate", None) in BUSY_SQLSTATES


def handle_database_error(error: OperationalError) -> ResponseReturnValue:
    """A database busy with other writes answers 503 with Retry-After, never 500: nothing
    was changed, and the same request may simply be sent again (the phone's outbox keeps
    a hand it could not send and sends it later). Any other database failure is a 500."""
    db.session.rollback()
    if not database_busy(error):
        raise error
    message = _(
        "The server is busy with other changes just now, so nothing was changed. "
        "Try again in a moment."
    )
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if _is_api_path():
        return {"error": message}, 503, headers
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json"
    ):
        # The phone's outbox (static/js/outbox.js) keeps a hand refused with a 5xx.
        return {"saved": False, "errors": [message], "problems": []}, 503, headers
    page = {"code": 503, "name": _("Busy"), "description": message}
    return render_template("error.html", error=page), 503, headers


def register(app: Flask) -> None:
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(OperationalError, handle_database_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(InternalServerError, handle_server_error)
