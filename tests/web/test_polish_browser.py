"""Issue 10's calmer screens on a phone, 390×844 and 360×640, in English and Greek, light and
dark: the home page (signed out and in), the demo, the /api page, the scoreboard with its
deal order and numbers table, the new-match form's live deal order and POST refresh, the
hand history in local time, and the player page's rating trend.

One app for the module's one test, so the suite stays quick."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect
from support.browser import fits_a_phone, log_in, shoot
from support.hand_entries import REFERENCE_HAND, typed

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.match import TeamSpec

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

PASSWORD = "correct horse"
PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 640})
# Long names squeeze a table's first column: the narrowest case for "Hand" in the numbers.
NAMES = ("Annabel", "Bartholomew", "Cyrus", "Dimitra")


@dataclass(frozen=True)
class World:
    club_id: int
    running_id: int
    player_id: int


def build(app: Flask) -> World:
    """A club with a running match of one corrected hand, and three won matches, so the
    player page has a rating trend and the scoreboard a numbers table."""
    with app.app_context():
        user = accounts.create_user("eleni", PASSWORD)
        club = clubs.create_club(user, "Friday Biriba")
        ids = [clubs.add_player(club, name).id for name in NAMES]
        teams = [
            TeamSpec("Annabel & Cyrus", (ids[0], ids[2])),
            TeamSpec("Bartholomew & Dimitra", (ids[1], ids[3])),
        ]
        hand = {
            "kozi": "H",
            "teams": [
                {**side, "name": team.name}
                for side, team in zip(REFERENCE_HAND["teams"], teams, strict=True)
            ],
        }
        running = matches.create_match(club, user, "pagat", "4p", teams)
        matches.record_hand(running, user, typed(running, hand))
        matches.record_hand(running, user, typed(running, hand))
        matches.edit_hand(
            running, 2, user, typed(running, {**hand, "kozi": "S"}), expected_version=1
        )
        for _ in range(3):
            won = matches.create_match(club, user, "pagat", "4p", teams, target=100)
            matches.record_hand(won, user, typed(won, hand))
        return World(club.id, running.id, ids[0])


def line_count(target: Locator) -> int:
    """How many lines the element's text takes on screen."""
    return int(
        target.evaluate(
            """element => {
                const range = document.createRange();
                range.selectNodeContents(element);
                const tops = new Set();
                for (const rect of range.getClientRects()) {
                    if (rect.width > 0) tops.add(Math.round(rect.top));
                }
                return tops.size;
            }"""
        )
    )


def check_fit(page: Page, width: int, where: str) -> None:
    fits_a_phone(page, width)
    header = page.locator(".site-header").bounding_box()
    assert header is not None
    # one row for the brand and the language, one for the links: never a third
    assert header["height"] <= 112, f"{where}: the header takes {header['height']}px"


def big_enough(page: Page, selector: str) -> None:
    for target in page.locator(selector).all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44, f"{selector} is too small to tap"


def test_calm_screens_on_two_phones_in_two_languages(
    browser: Browser, app: Flask, live_server: str, screenshots: Path
) -> None:
    world = build(app)
    for phone in PHONES:
        for lang in ("en", "el"):
            # No service worker: nothing here is offline, and a worker still busy (the
            # logout clears its caches) made closing the context hang under load.
            context = browser.new_context(
                viewport=phone, is_mobile=True, has_touch=True, service_workers="block"
            )
            context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
            page = context.new_page()
            tag = f"{lang}-{phone['width']}"
            try:
                walk(page, live_server, world, screenshots, tag, phone["width"], lang)
            finally:
                # A blank page first: closing the context straight after the logout's page
                # once hung for 300 s in CI; with nothing of the app left running it closes.
                page.goto("about:blank")
                context.close()


def walk(
    page: Page, base: str, world: World, folder: Path, tag: str, width: int, lang: str
) -> None:
    greek = lang == "el"

    def fits(page: Page) -> None:
        check_fit(page, width, f"{page.url} {tag}")

    # --- signed out: the home page, the demo, the API page ---------------------------------
    page.goto(base + "/")
    big_enough(page, ".home-actions .button")
    demo = page.locator(".home-actions a[href='/demo']")
    expect(demo).to_have_text("Δες ένα παράδειγμα" if greek else "Try the demo")
    assert page.locator(".home-shot img").evaluate("img => img.naturalWidth") > 0
    shoot(page, folder, f"polish-home-{tag}", fits)
    demo.click()
    expect(page.locator("[data-deal-order]")).to_contain_text("Giorgos → Maria → Kostas → Eleni")
    expect(page.locator("#hand-5 details")).to_have_attribute("open", "")
    shoot(page, folder, f"polish-demo-{tag}", fits)
    page.goto(base + "/api")
    check_fit(page, width, f"api {tag}")

    # --- signed in: the home page's running match ------------------------------------------
    log_in(page, base, "eleni", PASSWORD)
    page.goto(base + "/")
    cards = page.locator(".running-card")
    expect(cards).to_have_count(1)
    big_enough(page, ".running-link, .running-new")
    shoot(page, folder, f"polish-home-in-{tag}", fits)

    # --- the scoreboard: deal order, and "Hand" on one line in the numbers -----------------
    page.goto(f"{base}/matches/{world.running_id}")
    expect(page.locator("[data-deal-order]")).to_contain_text("Cyrus → Bartholomew → Annabel")
    page.locator("#progress .chart-numbers > summary").click()
    first = page.locator("#progress .chart-numbers thead th").first
    expect(first).to_have_text("Γύρος" if greek else "Hand")
    assert line_count(first) == 1, "the numbers table breaks “Hand” in two"
    shoot(page, folder, f"polish-scoreboard-{tag}", fits)

    # --- history: local time, and what the correction changed ------------------------------
    page.goto(f"{base}/matches/{world.running_id}/hands/2/history")
    stamp = page.locator("time[data-local-time]").first
    expect(stamp).to_have_attribute("data-local", "1")
    assert "UTC" not in stamp.inner_text(), "shown in the phone's time, not UTC"
    expect(page.locator(".version-edited mark.changed-mark").first).to_be_visible()
    shoot(page, folder, f"polish-history-{tag}", fits)

    # --- the player page: the trend on one line ----------------------------------------------
    page.goto(f"{base}/clubs/{world.club_id}/players/{world.player_id}")
    trend = page.locator(".rating-trend")
    expect(trend).to_be_visible()
    assert line_count(trend) == 1, "the rating trend wraps a character a line"
    shoot(page, folder, f"polish-player-{tag}", fits)

    # --- the new-match form: the deal order follows the seats; refresh keeps the URL clean --
    new_match = f"{base}/clubs/{world.club_id}/matches/new"
    page.goto(new_match)
    order = page.locator("[data-deal-order]")
    before = order.inner_text()
    page.locator("#first_dealer").select_option(label="Cyrus")
    expect(order).not_to_have_text(before)
    expect(order).to_contain_text("Cyrus →")
    with page.expect_navigation():
        page.locator("#preset").select_option("buraco-us")
    assert page.url == new_match, "the refresh puts nothing in the URL, the CSRF token least"
    expect(page.locator("#preset")).to_have_value("buraco-us")
    expect(order).to_contain_text("αριστερά" if greek else "to the left")
    order.scroll_into_view_if_needed()
    shoot(page, folder, f"polish-new-match-{tag}", fits)
    page.locator(".nav-form button").click()  # log out for the next phone
    page.wait_for_load_state()
