"""A person on a phone registers, starts a club, adds the players and opens the invitation."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from support.browser import from_elsewhere, record_requests, shoot
from support.static_names import plain

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def test_register_start_a_club_add_players_and_invite(
    page: Page, live_server: str, screenshots: Path
) -> None:
    requested = record_requests(page)

    page.goto(live_server + "/")
    # The home page's big Register button (the header has a Register link too).
    page.get_by_role("main").get_by_role("link", name="Register").click()
    expect(page.get_by_role("heading", level=1, name="Register")).to_be_visible()
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Repeat the password").fill("shorter")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_text("A password needs 8 to 200 characters.")).to_be_visible()
    expect(page.get_by_text("The two passwords differ")).to_be_visible()
    shoot(page, screenshots, "register")

    page.get_by_label("Password", exact=True).fill("correct horse")
    page.get_by_label("Repeat the password").fill("correct horse")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1, name="My clubs")).to_be_visible()
    expect(page.locator(".nav-user")).to_have_text("eleni")

    page.get_by_label("Club name").fill("Friday Biriba at Eleni's")
    page.get_by_role("button", name="Start the club").click()
    expect(page.get_by_role("heading", level=1, name="Friday Biriba at Eleni's")).to_be_visible()

    for name in PLAYERS:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add the player").click()
        expect(page.get_by_text(f"{name} now plays in")).to_be_visible()
    expect(page.locator(".name-list li")).to_have_text(PLAYERS)
    expect(page.get_by_role("link", name="New match")).to_have_attribute(
        "href", urlsplit(page.url).path + "/matches/new"
    )
    shoot(page, screenshots, "club")

    page.get_by_role("link", name="Invite people").click()
    expect(page.get_by_role("heading", level=1, name="Invite people")).to_be_visible()
    link = page.locator("#invite-link").input_value()
    assert link.startswith(live_server + "/join/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator("[data-copy-status]")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    shoot(page, screenshots, "invite")

    elsewhere = from_elsewhere(requested, live_server)
    assert elsewhere == [], "nothing may load from another host (no CDN)"
    assert any(plain(url).endswith("/static/js/copy.js") for url in requested)


def test_tokens_and_invitation_landing_fit_a_phone(
    page: Page, live_server: str, screenshots: Path
) -> None:
    page.goto(live_server + "/register")
    page.get_by_label("Username").fill("a-rather-long-username-for-the-header")
    page.get_by_label("Password", exact=True).fill("correct horse")
    page.get_by_label("Repeat the password").fill("correct horse")
    page.get_by_role("button", name="Create my account").click()
    page.get_by_label("Club name").fill("Kafeneio Biriba Club of Agia Paraskevi")
    page.get_by_role("button", name="Start the club").click()
    page.get_by_role("link", name="My clubs").click()
    shoot(page, screenshots, "clubs")

    page.locator(".nav-user").click()
    page.get_by_label("What is it for?").fill("scoring script")
    page.get_by_role("button", name="Create a token").click()
    token = page.locator("#new-token").input_value()
    assert token.startswith("sk_")
    shoot(page, screenshots, "tokens")

    page.goto(live_server + "/clubs")
    page.get_by_role("link", name="Kafeneio Biriba Club").click()
    page.get_by_role("link", name="Invite people").click()
    link = page.locator("#invite-link").input_value()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("You are logged out.")).to_be_visible()
    page.goto(link)
    expect(page.get_by_role("link", name="Register to join")).to_be_visible()
    shoot(page, screenshots, "join")
