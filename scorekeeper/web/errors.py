"""Error responses: JSON under /api/, HTML pages everywhere else."""

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.extensions import db
from scorekeeper.services.errors import HandRefused, ServiceError


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


def handle_service_error(error: ServiceError) -> ResponseReturnValue:
    """A use case said no: nothing was saved, and the message says why."""
    db.session.rollback()
    if _wants_json():
        body: dict[str, object] = {"error": error.message}
        if isinstance(error, HandRefused):
            body |= {"problems": error.problems, "preview": error.preview}
        return body, error.status
    title = {403: "Not allowed", 404: "Not found", 409: "Changed meanwhile"}.get(
        error.status, "Cannot do that"
    )
    page = {"code": error.status, "name": title, "description": error.message}
    return render_template("error.html", error=page), error.status


def register(app: Flask) -> None:
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(InternalServerError, handle_server_error)
