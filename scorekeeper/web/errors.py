"""Error responses: JSON under /api/, HTML pages everywhere else."""

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.extensions import db


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _render(error: HTTPException) -> ResponseReturnValue:
    if _wants_json():
        # Start from werkzeug's response so headers such as a 405's Allow survive.
        response = error.get_response()
        response.set_data(current_app.json.dumps({"error": error.description}))
        response.mimetype = "application/json"
        return response
    return render_template("error.html", error=error), error.code or 500


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    return _render(error)


def handle_server_error(error: InternalServerError) -> ResponseReturnValue:
    # A failed request may leave a transaction open; the next request must not inherit it.
    db.session.rollback()
    return _render(error)


def register(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(InternalServerError, handle_server_error)
