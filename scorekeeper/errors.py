"""What a use case can refuse, each with a message for the player. The web layer maps them
to status codes: NotFound 404, Forbidden 403, Invalid 400, Conflict 409 (and the match's
HandRefused 422)."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def details(self) -> dict[str, object]:
        """What a JSON answer carries besides its "error" (none here)."""
        return {}


class Invalid(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409
