"""What a use case can refuse, each with a message for the player. The web layer maps them
to status codes: NotFound 404, Forbidden 403, Invalid 400, Conflict 409, HandRefused 422."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Invalid(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class HandRefused(ServiceError):
    """A hand with problems and no accepted reason: nothing was saved."""

    status = 422

    def __init__(self, message: str, problems: list[str], preview: dict[str, object]) -> None:
        super().__init__(message)
        self.problems = problems
        self.preview = preview
