"""Who is asking: a logged-in session, or an API bearer token (`Authorization: Bearer …`)."""

from __future__ import annotations

from flask import Request

from scorekeeper.extensions import db, login_manager
from scorekeeper.models import User
from scorekeeper.services.accounts import user_for_token


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    return db.session.get(User, int(user_id)) if user_id.isdigit() else None


@login_manager.request_loader
def load_user_from_token(request: Request) -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return user_for_token(token.strip())
