"""The access matrix: every method of every route in app.url_map, asked by someone anonymous,
a stranger (the owner of another club), a viewer, a scorer and the owner of the club. Each
gets exactly what tests/security/security_routes.py says; a refusal changes nothing stored,
and an allowed write changes what it should. A route missing from the table fails here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from security_routes import LOGIN, TABLE, Route
from security_world import (
    ROLES,
    World,
    build_world,
    client_as,
    csrf_token,
    every_rule,
    fill,
    snapshot,
)
from support.databases import writes
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper import create_app

# What a request may do here is decided before and after the database: SQLite alone.
pytestmark = pytest.mark.one_database

# The routes as the app registers them, read when the tests are collected.
ROUTES = list(every_rule(create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})))
ADD_IT = (
    "add it to TABLE in tests/security/security_routes.py, saying what each of "
    f"{', '.join(ROLES)} gets"
)


def route_id(value: Any) -> str:
    return value.rule if isinstance(value, Rule) else str(value)


def test_the_table_classifies_every_route() -> None:
    routes = {(method, rule.endpoint) for method, rule in ROUTES}
    unclassified = sorted(routes - TABLE.keys())
    assert not unclassified, f"routes nobody has classified: {unclassified}; {ADD_IT}"
    gone = sorted(TABLE.keys() - routes)
    assert not gone, f"the table names routes the app no longer has: {gone}"


Build = Callable[[Callable[[Flask], World]], World]


@pytest.mark.parametrize(("method", "rule"), ROUTES, ids=route_id)
def test_each_role_gets_what_it_may(
    app: Flask, kept_world: Build, rebuilt_world: Build, method: str, rule: Rule
) -> None:
    route = TABLE.get((method, rule.endpoint))
    if route is None:
        pytest.fail(f"{method} {rule.rule} ({rule.endpoint}) is not in the access table: {ADD_IT}")
    world = kept_world(build_world)
    wrong = []
    # Every table before each role's request: the last role's after, unless rebuilt. A
    # request that sent no statement but reads (`writes` did not move) changed nothing.
    after = None
    for role in ROLES:
        before = snapshot(app) if after is None else after
        written = writes()
        response = ask(app, world, method, rule, route, role)
        after = snapshot(app) if writes() != written else before
        expected = route.statuses[role]
        if not answers(response, expected, rule):
            body = response.get_data(as_text=True)[:300]
            wrong.append(f"{role}: wanted {expected}, got {response.status_code} {body!r}")
        if (before != after) != (role in route.changes):
            did = "changed stored data" if before != after else "changed nothing"
            wrong.append(f"{role}: the request {did}")
        if before != after:  # start the next role from the same world
            world = rebuilt_world(build_world)
            after = None
    assert not wrong, f"{method} {rule.rule}:\n" + "\n".join(wrong)


def ask(app: Flask, world: World, method: str, rule: Rule, route: Route, role: str) -> TestResponse:
    client = client_as(app, world, role)
    sent = route.ask(world, client_as(app, world, "owner")) if route.ask else {}
    headers = dict(sent.pop("headers", {}))
    if method != "GET":  # with a valid token: CSRF is test_csrf.py's business
        headers["X-CSRFToken"] = csrf_token(client)
    url = fill(rule, world.url_values())
    # buffered: a streamed answer (the CSV) is read within its request, as a browser would.
    return client.open(url, method=method, headers=headers, buffered=True, **sent)


def answers(response: TestResponse, expected: int | str, rule: Rule) -> bool:
    if expected != LOGIN:
        return response.status_code == expected
    if rule.rule.startswith("/api/"):
        return response.status_code == 401 and response.is_json
    location = urlsplit(response.headers.get("Location", ""))
    return response.status_code == 302 and location.path == "/login"


def test_a_viewer_writing_is_forbidden_not_hidden(app: Flask, world: World) -> None:
    """403 with a sentence naming the role: the viewer knows the club, so hiding it is moot."""
    viewer = client_as(app, world, "viewer")
    response = viewer.post(
        f"/clubs/{world.club}/players",
        data={"name": "Zoe"},
        headers={"X-CSRFToken": csrf_token(viewer)},
    )
    assert response.status_code == 403
    assert "This needs the scorer role; you are a viewer here." in response.get_data(as_text=True)
