"""Sessions and remember-me cookies can be ended (issue 11, item 6): each names the user's
session secret, which "log out everywhere" and a password change make anew."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from security_world import PASSWORD, World, client_as, csrf_token, snapshot

from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import User


def logged_in(client: FlaskClient) -> bool:
    """Whether the client's cookies still open a page only a logged-in person sees."""
    return client.get("/account/tokens").status_code == 200


def log_in_remembered(app: Flask, world: World) -> tuple[FlaskClient, str]:
    """A phone that logged in with "keep me logged in": the client and its remember-me cookie."""
    phone = app.test_client()
    response = phone.post(
        "/login",
        data={
            "username": world.usernames["owner"],
            "password": PASSWORD,
            "remember": "y",
            "csrf_token": csrf_token(phone),
        },
    )
    assert response.status_code == 302
    cookie = phone.get_cookie("remember_token")
    assert cookie is not None
    return phone, cookie.value


def with_only_remember_cookie(app: Flask, value: str) -> FlaskClient:
    """A browser that was closed: no session cookie, the remember-me cookie alone."""
    client = app.test_client()
    client.set_cookie("remember_token", value)
    return client


def test_the_remember_cookie_and_session_name_the_session_secret(app: Flask, world: World) -> None:
    _phone, cookie = log_in_remembered(app, world)
    with app.app_context():
        user = db.session.get(User, world.users["owner"])
        assert user is not None
        assert cookie.split("|")[0] == f"{user.id}:{user.session_secret}"
    assert logged_in(with_only_remember_cookie(app, cookie))


def test_log_out_everywhere_ends_every_session_and_remember_cookie(
    app: Flask, world: World
) -> None:
    """Before, the remember-me cookie was the same at every login and worked after logout."""
    phone, cookie = log_in_remembered(app, world)
    laptop = client_as(app, world, "owner")
    assert logged_in(phone) and logged_in(laptop)
    response = laptop.post("/account/logout-everywhere", data={"csrf_token": csrf_token(laptop)})
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert not logged_in(laptop)
    assert not logged_in(phone)
    assert not logged_in(with_only_remember_cookie(app, cookie))
    # Tokens are apart: revoke them one by one.
    bearer = {"Authorization": f"Bearer {world.token}"}
    assert app.test_client().get("/api/v1/clubs", headers=bearer).status_code == 200
    # A new login works, with a cookie unlike the old one.
    _again, new_cookie = log_in_remembered(app, world)
    assert new_cookie != cookie


def test_a_new_password_needs_the_current_one(app: Flask, world: World) -> None:
    owner = client_as(app, world, "owner")
    before = snapshot(app)
    response = owner.post(
        "/account/password",
        data={
            "current": "not my password",
            "password": "a new password",
            "repeat": "a new password",
            "csrf_token": csrf_token(owner),
        },
    )
    assert response.status_code == 400
    assert "That is not your current password" in response.get_data(as_text=True)
    assert snapshot(app) == before
    assert logged_in(owner)


def test_a_new_password_must_not_be_easy_to_guess(app: Flask, world: World) -> None:
    """Issue 11, item 16: a common password is refused beside the new password field, and
    nothing changes (the old password still works, the session stays)."""
    owner = client_as(app, world, "owner")
    before = snapshot(app)
    response = owner.post(
        "/account/password",
        data={
            "current": PASSWORD,
            "password": "password123",
            "repeat": "password123",
            "csrf_token": csrf_token(owner),
        },
    )
    assert response.status_code == 400
    assert "one of the most common ones" in response.get_data(as_text=True)
    assert snapshot(app) == before
    assert logged_in(owner)


def test_a_new_password_logs_out_every_other_device(app: Flask, world: World) -> None:
    phone, cookie = log_in_remembered(app, world)
    laptop = client_as(app, world, "owner")
    response = laptop.post(
        "/account/password",
        data={
            "current": PASSWORD,
            "password": "a new password",
            "repeat": "a new password",
            "csrf_token": csrf_token(laptop),
        },
    )
    assert response.status_code == 302
    assert logged_in(laptop), "the device that changed it stays logged in"
    assert not logged_in(phone)
    assert not logged_in(with_only_remember_cookie(app, cookie))
    with app.app_context():
        assert accounts.authenticate(world.usernames["owner"], "a new password") is not None
        assert accounts.authenticate(world.usernames["owner"], PASSWORD) is None


def test_the_password_page_is_a_form(app: Flask, world: World) -> None:
    page = client_as(app, world, "owner").get("/account/password").get_data(as_text=True)
    for name in ("current", "password", "repeat"):
        assert re.search(rf'name="{name}"[^>]*type="password"', page), name
    assert 'autocomplete="current-password"' in page


@pytest.mark.parametrize("stored", ["{id}", "{id}:", "{id}:wrong", "x:{secret}"])
def test_a_session_without_the_right_secret_names_nobody(
    app: Flask, world: World, stored: str
) -> None:
    """Sessions made before the secret held the id alone: they name nobody now."""
    with app.app_context():
        user = db.session.get(User, world.users["owner"])
        assert user is not None
        value = stored.format(id=user.id, secret=user.session_secret)
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = value
        session["_fresh"] = True
    assert not logged_in(client)
