"""On a phone (390×844 and 360×640, English and Greek, light and dark): the club page's list
of matches, each with its totals and state, fits without sideways scrolling; and the demo's
sandbox hand shows the match total after a meld is tapped in with the card picker."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, Route, expect
from support.browser import fits_a_phone, log_in, shoot
from support.hand_entries import REFERENCE_HAND, typed

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.match import TeamSpec

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
PHONE = {"width": 390, "height": 844}


def _club(app: Flask) -> int:
    with app.app_context():
        user = accounts.create_user("eleni", "correct horse")
        club = clubs.create_club(user, "Kafeneio Biriba Club of Agia Paraskevi")
        names = ("Eleni Papadopoulou", "Nikos", "Maria Konstantinidou", "Giorgos")
        p = [clubs.add_player(club, name).id for name in names]
        teams = [
            TeamSpec("Eleni & Maria", (p[0], p[2])),
            TeamSpec("Nikos & Giorgos", (p[1], p[3])),
        ]
        hand = {
            **REFERENCE_HAND,
            "teams": [
                {**REFERENCE_HAND["teams"][0], "name": "Eleni & Maria"},
                {**REFERENCE_HAND["teams"][1], "name": "Nikos & Giorgos"},
            ],
        }
        for target in (600, 3000):
            match = matches.create_match(club, user, "pagat", "4p", teams, target=target)
            matches.record_hand(match, user, typed(match, hand))
        matches.create_match(club, user, "pagat", "4p", teams, target=3000)
        return club.id


def test_the_club_page_lists_scores_and_fits_a_small_phone(
    page: Page, app: Flask, live_server: str, screenshots: Path
) -> None:
    club_id = _club(app)
    log_in(page, live_server, "eleni", "correct horse")
    page.goto(f"{live_server}/clubs/{club_id}")
    listed = page.locator("#matches .tap-card")
    expect(listed).to_have_count(3)
    expect(listed.nth(0)).to_contain_text("Not started yet")
    expect(listed.nth(1)).to_contain_text("Running · 1 hand played")
    expect(listed.nth(2)).to_contain_text("Won by Eleni & Maria")
    expect(listed.nth(2)).to_contain_text("Eleni & Maria 665 · Nikos & Giorgos −95")
    shoot(page, screenshots, "club-matches")
    page.set_viewport_size(SMALL)
    fits_a_phone(page, SMALL["width"])
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Ελληνικά").click()
    expect(listed.nth(2)).not_to_contain_text("Won by")
    shoot(page, screenshots, "club-matches-el")
    page.set_viewport_size(SMALL)
    fits_a_phone(page, SMALL["width"])


def test_a_visitor_tries_a_hand_in_the_demo(
    page: Page, live_server: str, screenshots: Path
) -> None:
    page.goto(live_server + "/demo")
    page.get_by_role("link", name="Try entering hand 6").click()
    expect(page.get_by_role("heading", level=1, name="Try a hand")).to_be_visible()
    page.locator("label[for=kozi-S]").click()
    page.locator("#s0-meld-1").click()
    picker = page.locator("[data-card-picker]")
    expect(picker).to_be_visible()
    for card in ("3H", "4H", "5H"):
        picker.locator(f"[data-card='{card}']").click()
    expect(page.locator("#s0-meld-1")).to_have_value("3H 4H 5H")
    totals = page.locator("[data-preview-totals]")
    expect(totals).to_be_visible()
    expect(totals.locator("[data-preview-total]")).to_have_count(2)
    expect(page.locator("[data-preview-sides]")).to_contain_text("Eleni & Maria")
    page.locator("#s0-meld-1").blur()
    shoot(page, screenshots, "demo-hand")
    page.set_viewport_size(SMALL)
    fits_a_phone(page, SMALL["width"])
    page.set_viewport_size(PHONE)

    page.get_by_role("button", name="Ελληνικά").click()
    page.locator("label[for=kozi-S]").click()
    page.locator("#s1-meld-1").fill("4C 5C 6C")
    expect(page.locator("[data-preview-totals] [data-preview-total]")).to_have_count(2)
    expect(page.locator("h1")).not_to_have_text("Try a hand")
    shoot(page, screenshots, "demo-hand-el")
    page.set_viewport_size(SMALL)
    fits_a_phone(page, SMALL["width"])


def test_no_card_key_is_in_reach_before_the_entry_script_runs(page: Page, live_server: str) -> None:
    """On a slow phone the picker's keys came up at the foot of the form before the hand
    entry's script ran; a card tapped there was written, then the script folded the picker
    away under the finger. Now the picker opens only once that script has run."""
    held: list[Route] = []
    page.route("**/js/hand-entry.*.js", lambda route: held.append(route))
    page.goto(live_server + "/demo/hand", wait_until="commit")
    expect(page.locator("#s0-meld-1")).to_be_visible()
    picker = page.locator("[data-card-picker]")
    # The picker's own script has run (it marks the picker ready, or once showed it).
    ran = "[data-card-picker][data-picker-ready], [data-card-picker]:not([hidden])"
    expect(page.locator(ran)).to_have_count(1)
    page.locator("#s0-meld-1").click()
    expect(picker).to_be_hidden()

    assert len(held) == 1
    held[0].continue_()
    expect(picker).to_be_visible()  # opened for the field already in use
    for card in ("3H", "4H", "5H"):
        picker.locator(f"[data-card='{card}']").click()
    expect(page.locator("#s0-meld-1")).to_have_value("3H 4H 5H")
