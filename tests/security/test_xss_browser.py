"""Names and notes full of markup render as text: every name, label and note of the world
holds `<img src=x onerror=alert(1)>`, and on every page that shows them, in a phone's
Chromium, no dialog opens, no such element exists, and the text reads literally."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Dialog, Page, expect
from security_browser import log_in_as, owner_pages
from security_world import build_world

pytestmark = pytest.mark.browser

PAYLOAD = "<img src=x onerror=alert(1)>"


def dressed(text: str) -> str:
    return f"{text} {PAYLOAD}"


def test_markup_in_names_and_notes_is_only_text(
    page: Page, app: Flask, live_server: str, screenshots: Path
) -> None:
    world = build_world(app, dressed)
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:
        dialogs.append(f"{page.url}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", refuse)
    log_in_as(page, app, world, "owner", live_server)

    # Store some more through the pages themselves: a player, a club and a token label.
    page.goto(f"{live_server}/clubs/{world.club}")
    page.locator("main form[action$='/players'] input[name=name]").fill(f"Zoe {PAYLOAD}")
    page.locator("main form[action$='/players'] button[type=submit]").click()
    expect(page.get_by_text("Zoe <img", exact=False).first).to_be_visible()
    page.goto(f"{live_server}/account/tokens")
    page.get_by_label("What is it for?").fill(f"phone {PAYLOAD}")
    page.get_by_role("button", name="Create a token").click()
    expect(page.locator("#new-token")).to_be_visible()

    shown_on = []
    for path in owner_pages(app, world):
        page.goto(live_server + path)
        page.wait_for_load_state("load")
        injected = page.locator("img[src='x'], img[src$='/x']").count()
        assert injected == 0, f"{path}: the markup became an element"
        body = page.locator("body").inner_text()
        fields = page.eval_on_selector_all(
            "input, textarea, option", "els => els.map(e => e.value || e.textContent)"
        )
        if PAYLOAD in body or any(PAYLOAD in str(value) for value in fields):
            shown_on.append(path)
        if path in (f"/clubs/{world.club}", f"/matches/{world.match}"):
            page.screenshot(path=screenshots / f"xss-{path.strip('/').replace('/', '-')}.png")
    assert dialogs == []

    m = world.match
    must_show = {
        "/clubs",  # club names
        f"/clubs/{world.club}",  # club, players, members
        f"/clubs/{world.club}/invite",
        f"/clubs/{world.club}/matches/new?format=4p",  # players in the seat lists
        f"/matches/{m}",  # teams and players on the scoreboard
        f"/matches/{m}/hands/1/history",  # who changed it, and the note
        f"/matches/{m}/hands/2/history",
        f"/matches/{m}/hands/new",  # seats by player name
        f"/matches/{m}/hands/2/edit",  # the accepted reason in its field
        f"/matches/{m}/hands/1/delete",
        f"/join/{world.invite_code}",
        "/account/tokens",  # token labels, the username in the header
    }
    assert must_show <= set(shown_on), sorted(must_show - set(shown_on))
