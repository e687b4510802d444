"""Security headers on every response, pages free of inline script and style, and cookies
that page scripts cannot read, other sites' forms do not carry, and HTTPS alone gets when
SCOREKEEPER_SESSION_COOKIE_SECURE=true."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from security_routes import TABLE
from security_world import (
    World,
    build_world,
    client_as,
    drop,
    every_rule,
    fill,
    secure_app,
)
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from scorekeeper import create_app

# What a request may do here is decided before and after the database: SQLite alone.
pytestmark = pytest.mark.one_database

GETS = [
    rule
    for method, rule in every_rule(
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    )
    if method == "GET"
]
EXPECTED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# Inline script, inline style and event handlers: what the policy forbids, looked for in HTML.
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script> block"),
    (re.compile(r"<style\b", re.I), "a <style> block"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def route_id(rule: Rule) -> str:
    return rule.rule


def assert_secure_headers(response: TestResponse) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in filter(None, (p.strip() for p in policy.split(";"))):
        name, _, value = part.partition(" ")
        directives[name] = value
    assert directives.get("default-src") == "'self'", policy
    # WebAssembly for the rules engine on the phone (Pyodide), and nothing more.
    assert directives.get("script-src") == "'self' 'wasm-unsafe-eval'", policy
    assert directives.get("frame-ancestors") == "'none'", policy
    assert directives.get("object-src") == "'none'", policy
    assert "unsafe-inline" not in policy, policy
    assert "unsafe-eval" not in policy.replace("'wasm-unsafe-eval'", ""), policy
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, name
    assert "screen-wake-lock=(self)" in response.headers.get("Permissions-Policy", "")
    assert "camera=()" in response.headers["Permissions-Policy"]


@pytest.mark.parametrize("rule", GETS, ids=route_id)
def test_every_page_has_the_headers_and_no_inline_code(
    app: Flask, world: World, rule: Rule
) -> None:
    """Each GET route as the club's owner sees it: secure headers, and HTML that needs no
    'unsafe-inline' (the browser test then proves the pages work under the policy)."""
    route = TABLE.get(("GET", rule.endpoint))
    assert route is not None, f"GET {rule.rule} is not in tests/security/security_routes.py"
    response = client_as(app, world, "owner").get(fill(rule, world.url_values()))
    assert response.status_code == route.statuses["owner"]
    assert_secure_headers(response)
    if response.mimetype == "text/html":
        page = response.get_data(as_text=True)
        for pattern, what in INLINE:
            found = pattern.search(page)
            assert found is None, (
                f"{rule.rule} has {what}: {page[found.start() : found.start() + 80]!r}"
            )


@pytest.mark.parametrize(
    ("role", "path"),
    [
        ("anonymous", "/no/such/page"),
        ("anonymous", "/clubs"),  # a redirect to the login page
        ("anonymous", "/api/v1/clubs"),  # 401 JSON
        ("stranger", "/clubs/{club}"),  # 404 for another club
        ("viewer", "/matches/{match}/hands/new"),  # 403
        ("anonymous", "/static/js/copy.js"),
    ],
)
def test_refusals_redirects_and_files_carry_the_headers_too(
    app: Flask, world: World, role: str, path: str
) -> None:
    response = client_as(app, world, role).get(path.format(club=world.club, match=world.match))
    assert response.status_code in (200, 302, 401, 403, 404)
    assert_secure_headers(response)


def test_a_csrf_refusal_and_a_limit_carry_the_headers(app: Flask, world: World) -> None:
    owner = client_as(app, world, "owner")
    assert_secure_headers(owner.post(f"/clubs/{world.club}/players", data={"name": "Zoe"}))


@pytest.mark.stateless
def test_no_hsts_over_plain_http(app: Flask) -> None:
    assert "Strict-Transport-Security" not in app.test_client().get("/").headers


# --- cookies -----------------------------------------------------------------------------------


def set_cookies(response: TestResponse) -> dict[str, str]:
    """Each Set-Cookie header by cookie name."""
    return {h.split("=", 1)[0]: h for h in response.headers.getlist("Set-Cookie")}


def flags(header: str) -> set[str]:
    return {part.strip().lower() for part in header.split(";")[1:]}


def log_in_remembered(app: Flask, world: World, site: str = "http://localhost") -> dict[str, str]:
    """Log in with "remember me" and switch language and theme: every cookie the app sets."""
    client = app.test_client()
    # Over https Flask-WTF also wants a Referer from the same site.
    sent: dict[str, Any] = {"base_url": site, "headers": {"Referer": f"{site}/login"}}
    page = client.get("/login", **sent).get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="', 1)[-1].split('"', 1)[0]
    data = {
        "username": world.usernames["owner"],
        "password": "correct horse",
        "remember": "y",
        "csrf_token": token,
    }
    response = client.post("/login", data=data, **sent)
    assert response.status_code == 302, response.get_data(as_text=True)
    cookies = set_cookies(response)
    cookies |= set_cookies(client.post("/language", data={"lang": "el"}, **sent))
    cookies |= set_cookies(client.post("/theme", data={"theme": "dark"}, **sent))
    return cookies


def test_cookies_are_httponly_and_samesite_lax(app: Flask, world: World) -> None:
    cookies = log_in_remembered(app, world)
    assert {"session", "remember_token", "lang", "theme"} <= cookies.keys(), cookies
    for name, header in cookies.items():
        assert {"httponly", "samesite=lax"} <= flags(header), header
        assert "secure" not in flags(header), f"{name}: plain http in development"


def test_one_switch_makes_every_cookie_secure(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SESSION_COOKIE_SECURE", "true")
    app = secure_app(database_url)
    try:
        cookies = log_in_remembered(app, build_world(app), site="https://localhost")
        for header in cookies.values():
            assert {"secure", "httponly", "samesite=lax"} <= flags(header), header
        response = app.test_client().get("/", base_url="https://localhost")
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    finally:
        drop(app)
