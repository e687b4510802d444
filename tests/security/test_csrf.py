"""CSRF: every POST, PUT and DELETE of app.url_map, sent by the logged-in owner of the club
with no token, a forged one or another session's, is refused and changes nothing; the same
request with its token goes through. The JSON API takes a bearer token instead of a CSRF
token, but a write that rides on the session cookie alone is refused like a form."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from security_routes import CSRF_EXEMPT, TABLE
from security_world import UNSAFE, World, client_as, csrf_token, every_rule, fill, snapshot
from support.databases import writes
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper import create_app

# What a request may do here is decided before and after the database: SQLite alone.
pytestmark = pytest.mark.one_database

WRITES = [
    (method, rule)
    for method, rule in every_rule(
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    )
    if method in UNSAFE
]
PROTECTED = [(m, r) for m, r in WRITES if r.endpoint not in CSRF_EXEMPT]
API_WRITES = [(m, r) for m, r in PROTECTED if r.rule.startswith("/api/")]


def route_id(value: Any) -> str:
    return value.rule if isinstance(value, Rule) else str(value)


def request_for(world: World, owner: FlaskClient, method: str, rule: Rule) -> dict[str, Any]:
    """The table's request that does the route's job; a route not in it gets an empty form
    (test_access_matrix.py asks for its row)."""
    route = TABLE.get((method, rule.endpoint))
    return route.ask(world, owner) if route is not None and route.ask else {"data": {}}


def refused_for_csrf(response: TestResponse) -> bool:
    """Flask-WTF's refusal as web/security.py words it, not a refusal for any other reason."""
    text = response.get_data(as_text=True)
    if response.is_json:
        return response.status_code == 400 and "X-CSRFToken" in response.json["error"]
    return response.status_code == 400 and "without its security token" in text


@pytest.mark.parametrize(("method", "rule"), PROTECTED, ids=route_id)
def test_a_write_without_its_token_is_refused(
    app: Flask, world: World, method: str, rule: Rule
) -> None:
    owner = client_as(app, world, "owner")
    someone_else = client_as(app, world, "viewer")
    url = fill(rule, world.url_values())
    before = snapshot(app)
    seen = writes()  # while it has not moved, nothing but reads was sent: all is as before

    def send(token: str | None) -> TestResponse:
        # A fresh body each time: an uploaded file is read, and closed, by its request.
        sent = request_for(world, owner, method, rule)
        headers = dict(sent.pop("headers", {})) | ({"X-CSRFToken": token} if token else {})
        return owner.open(url, method=method, headers=headers, **sent)

    for token in (None, "forged-token", csrf_token(someone_else)):
        response = send(token)
        assert refused_for_csrf(response), (
            f"{method} {rule.rule} with token {token!r} answered {response.status_code}: "
            f"{response.get_data(as_text=True)[:300]!r}; protect it with a CSRF token"
        )
        if writes() != seen:
            assert snapshot(app) == before, f"{method} {rule.rule} changed data without a token"
            seen = writes()

    route = TABLE.get((method, rule.endpoint))
    if route is not None:  # with its token the same request does its job
        response = send(csrf_token(owner))
        assert response.status_code == route.statuses["owner"], response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "rule"), [w for w in WRITES if w not in PROTECTED], ids=route_id
)
def test_an_exempt_write_changes_no_stored_data(
    app: Flask, world: World, method: str, rule: Rule
) -> None:
    """The few writes without a token (CSRF_EXEMPT says why) store nothing a forger could use."""
    owner = client_as(app, world, "owner")
    sent = request_for(world, owner, method, rule)
    before = snapshot(app)
    response = owner.open(fill(rule, world.url_values()), method=method, **sent)
    assert response.status_code < 400, response.get_data(as_text=True)
    assert snapshot(app) == before


def test_every_exempt_route_exists() -> None:
    endpoints = {rule.endpoint for _, rule in WRITES}
    assert set(CSRF_EXEMPT) <= endpoints, sorted(set(CSRF_EXEMPT) - endpoints)


@pytest.mark.parametrize(("method", "rule"), API_WRITES, ids=route_id)
def test_an_api_write_with_a_bearer_token_needs_no_csrf_token(
    app: Flask, world: World, method: str, rule: Rule
) -> None:
    script = app.test_client()  # no session cookie at all
    sent = request_for(world, client_as(app, world, "owner"), method, rule)
    headers = dict(sent.pop("headers", {})) | {"Authorization": f"Bearer {world.token}"}
    response = script.open(fill(rule, world.url_values()), method=method, headers=headers, **sent)
    assert response.status_code == TABLE[(method, rule.endpoint)].statuses["owner"], (
        response.get_data(as_text=True)
    )


def test_a_session_api_write_names_the_header_it_needs(app: Flask, world: World) -> None:
    owner = client_as(app, world, "owner")
    response = owner.post(f"/api/v1/clubs/{world.club}/players", json={"name": "Zoe"})
    assert response.status_code == 400
    assert response.json["error"].startswith(
        "A write with a session cookie needs the X-CSRFToken header; "
        "scripts send Authorization: Bearer <token> instead."
    )
    response = owner.post(
        f"/api/v1/clubs/{world.club}/players",
        json={"name": "Zoe"},
        headers={"X-CSRFToken": csrf_token(owner)},
    )
    assert response.status_code == 201


def test_a_revoked_bearer_token_does_not_skip_the_csrf_check(app: Flask, world: World) -> None:
    """A cookie with a dead token alongside is still a cookie-only write."""
    owner = client_as(app, world, "owner")
    owner.post(
        f"/account/tokens/{world.token_id}/revoke", headers={"X-CSRFToken": csrf_token(owner)}
    )
    before = snapshot(app)
    response = owner.post(
        f"/api/v1/clubs/{world.club}/players",
        json={"name": "Zoe"},
        headers={"Authorization": f"Bearer {world.token}"},
    )
    assert response.status_code == 400 and refused_for_csrf(response)
    assert snapshot(app) == before


def test_the_refusal_page_is_a_sentence_in_greek_too(app: Flask, world: World) -> None:
    owner = client_as(app, world, "owner")
    owner.set_cookie("lang", "el")
    response = owner.post(f"/clubs/{world.club}/players", data={"name": "Zoe"})
    assert response.status_code == 400
    assert "χωρίς το κλειδί ασφαλείας της" in response.get_data(as_text=True)
