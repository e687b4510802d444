"""What the security browser tests share: a phone logged in as someone of the world, and
every HTML page of the app that the club's owner may open (read from app.url_map)."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Page
from security_routes import TABLE
from security_world import World, client_as, every_rule, fill

#: Routes that answer with something other than a page to read.
NOT_PAGES = ("static", "health.", "api.", "api_matches.", "i18n.switch_language_link")


def log_in_as(page: Page, app: Flask, world: World, role: str, live_server: str) -> None:
    """Give the phone the session cookie Flask makes for `role` (no login form needed, so
    usernames full of markup stay as they are)."""
    client = client_as(app, world, role)
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    assert cookie is not None
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server}])


def owner_pages(app: Flask, world: World) -> list[str]:
    """Every GET page the owner may open, with its URL parameters filled with real ids."""
    paths = []
    owner = client_as(app, world, "owner")
    for method, rule in every_rule(app):
        route = TABLE.get((method, rule.endpoint))
        if method != "GET" or rule.endpoint.startswith(NOT_PAGES):
            continue
        assert route is not None, f"GET {rule.rule} is not in tests/security/security_routes.py"
        if route.statuses["owner"] == 200:
            path = fill(rule, world.url_values())
            # Downloads (CSV, JSON backups) and other answers that are not HTML are no pages.
            if owner.get(path, buffered=True).mimetype == "text/html":
                paths.append(path)
    # The other hand of the match too: its accepted reason and its correction form.
    m = world.match
    paths += [f"/matches/{m}/hands/2/history", f"/matches/{m}/hands/2/edit"]
    paths += [f"/referee/meld?match={m}", f"/clubs/{world.club}/matches/new?format=4p"]
    return paths
