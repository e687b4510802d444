"""The referee tools as a person uses them on a phone (Chromium at 390×844)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask, render_template_string
from playwright.sync_api import Browser, Page, Request, expect
from support.browser import PHONE

pytestmark = pytest.mark.browser


def watch_requests(page: Page) -> list[Request]:
    requests: list[Request] = []

    def remember(request: Request) -> None:  # Playwright cannot wrap a bound builtin
        requests.append(request)

    page.on("request", remember)
    return requests


def assert_stays_home(requests: list[Request], live_server: str) -> None:
    ours = urlsplit(live_server).netloc
    elsewhere = [r.url for r in requests if urlsplit(r.url).netloc not in ("", ours)]
    assert elsewhere == [], "nothing may load from another host (no CDN)"


def assert_fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def tap_cards(page: Page, *codes: str) -> None:
    for code in codes:
        page.locator(f'.card-picker [data-card="{code}"]').tap()


def test_meld_checker_live_verdict_with_the_picker(
    page: Page, live_server: str, screenshots: Path
) -> None:
    requests = watch_requests(page)
    page.goto(live_server + "/referee/meld")
    page.evaluate("window.stillTheSamePage = true")  # a reload would forget it
    verdict = page.locator("#meld-verdict")

    expect(page.locator(".card-picker")).to_be_visible()
    page.locator('label[for="kozi-H"]').tap()
    tap_cards(page, "3H", "4H", "2H", "6H", "7H")

    expect(page.locator("#cards")).to_have_value("3H 4H 2H 6H 7H")
    expect(verdict).to_have_class(re.compile(r"\bverdict-legal\b"))
    expect(verdict.locator(".verdict-title")).to_have_text("✓ Legal")
    expect(verdict.locator(".verdict-tags li")).to_have_text(["run", "dirty", "kózi"])
    expect(verdict).to_contain_text("2♥ stands for 5♥")
    expect(verdict).to_contain_text("None: a biriba needs 7 cards or more.")
    assert page.evaluate("window.stillTheSamePage") is True
    assert any(r.method == "POST" and r.url.endswith("/api/v1/melds/check") for r in requests), (
        "the verdict comes from the JSON API"
    )

    assert_fits_the_phone(page)
    # Every tap target in sight (the three-card set keys are away: no meld of one card).
    targets = page.locator(".picker-card, .picker-tool, .suit-button")
    for target in targets.filter(visible=True).all():
        box = target.bounding_box()
        assert box is not None
        assert box["width"] >= 44 and box["height"] >= 44, "every tap target is 44px or more"
    page.screenshot(path=screenshots / "referee-meld.png", full_page=True)

    # The first and the last card of a run lay the whole run; ⌫ takes the guess back whole.
    page.locator("[data-picker-clear]").tap()
    expect(verdict).to_contain_text("Add cards to see the verdict.")
    tap_cards(page, "5S", "JS")

    expect(page.locator("#cards")).to_have_value("5S 6S 7S 8S 9S 10S JS")
    expect(verdict.locator(".verdict-tags li")).to_have_text(["run", "clean", "biriba"])
    expect(verdict).to_contain_text("200: Clean biriba")
    page.locator("[data-picker-back]").tap()
    expect(page.locator("#cards")).to_have_value("5S JS")
    page.locator("[data-picker-back]").tap()
    expect(page.locator("#cards")).to_have_value("5S")
    assert page.evaluate("window.stillTheSamePage") is True

    page.emulate_media(color_scheme="dark")
    assert_fits_the_phone(page)
    page.screenshot(path=screenshots / "referee-meld-dark.png", full_page=True)
    assert_stays_home(requests, live_server)


def test_typing_mixes_with_tapping_and_shows_a_bad_card_at_once(
    page: Page, live_server: str
) -> None:
    page.goto(live_server + "/referee/meld")
    cards = page.locator("#cards")
    errors = page.locator("#cards-errors")

    cards.fill("3H-5H 4X")
    expect(errors).to_have_text("'4X' is not a card: suits are S H D C (or ♠ ♥ ♦ ♣).")
    expect(cards).to_have_attribute("aria-invalid", "true")

    cards.fill("3H-5H")
    tap_cards(page, "6H", "JK")
    expect(cards).to_have_value("3H-5H 6H JK")
    expect(errors).to_be_hidden()
    expect(page.locator("#meld-verdict")).to_contain_text("joker stands for 7♥")

    for _ in range(3):
        page.locator("[data-picker-back]").tap()
    expect(cards).to_have_value("3H-4H")  # a typed range loses its last card


def test_opening_table_follows_the_preset(page: Page, live_server: str, screenshots: Path) -> None:
    page.goto(live_server + "/referee/meld")
    band = page.locator("#opening_band")
    expect(band).to_be_hidden()  # pagat has no opening table

    page.locator("#variant").select_option("wikipedia")
    expect(band).to_be_visible()
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/wikipedia")
    page.locator("#cards").fill("AH AD AC AS AH AD AC AS")
    band.select_option("3000")

    opening = page.locator("#meld-verdict .opening-short dd")
    expect(opening).to_have_text("Does not open: 120 card points, more than 120 needed.")
    page.locator("#opening").fill("120")
    expect(page.locator("#meld-verdict .opening-met dd")).to_have_text(
        "Opens: 120 card points meet at least 120."
    )
    expect(band).to_have_value("")
    page.screenshot(path=screenshots / "referee-meld-opening.png", full_page=True)

    page.locator("#variant").select_option("venezuelan")
    expect(band).to_be_hidden()
    expect(page.locator("[data-no-kozi]")).to_be_visible()


def test_one_picker_serves_whichever_card_input_had_focus(
    page: Page, live_server: str, app: Flask
) -> None:
    # How a hand-entry page with a field per meld can share one picker.
    with app.test_request_context():
        picker = render_template_string(
            '{% from "macros/cards.html" import card_picker %}'
            '{{ card_picker(label="Cards for any meld") }}'
        )
    page.goto(live_server + "/rules")  # our origin, for the script below
    # The picker's scripts in the order base.html and a page load them: its helpers, the card
    # notation, then the picker.
    scripts = "".join(
        f'<script src="{live_server}/static/js/{name}.js"></script>'
        for name in ("helpers", "cards", "card-picker")
    )
    page.set_content(
        '<form><input id="first" data-card-input><input id="second" data-card-input>'
        f"{picker}</form>{scripts}"
    )
    page.evaluate(
        "window.heard = 0; document.addEventListener('input', () => { window.heard += 1; })"
    )

    tap_cards(page, "JK")  # nothing focused yet: the form's first card input
    page.locator("#second").focus()
    tap_cards(page, "10D", "AS")

    expect(page.locator("#first")).to_have_value("JK")
    expect(page.locator("#second")).to_have_value("10D AS")
    assert page.evaluate("window.heard") == 3, "every tap is heard as an input event"


def test_meld_checker_without_javascript_posts_and_shows_the_verdict(
    browser: Browser, live_server: str, screenshots: Path
) -> None:
    context = browser.new_context(
        service_workers="block",  # not the offline phone: tests/conftest.py
        java_script_enabled=False,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    try:
        page.goto(live_server + "/referee/meld")
        expect(page.locator(".card-picker")).to_be_hidden()

        page.locator('label[for="kozi-H"]').click()
        page.locator("#cards").fill("3H 4H 2H 6H 7H")
        with page.expect_navigation():
            page.get_by_role("button", name="Check", exact=True).click()

        verdict = page.locator("#meld-verdict")
        expect(verdict.locator(".verdict-title")).to_have_text("✓ Legal")
        expect(verdict.locator(".verdict-tags li")).to_have_text(["run", "dirty", "kózi"])
        expect(verdict).to_contain_text("2♥ stands for 5♥")
        expect(page.locator("#kozi-H")).to_be_checked()
        expect(page.locator("#cards")).to_have_value("3H 4H 2H 6H 7H")
        assert_fits_the_phone(page)
        page.screenshot(path=screenshots / "referee-meld-nojs.png", full_page=True)
    finally:
        context.close()


def test_rules_pages_fit_a_phone(page: Page, live_server: str, screenshots: Path) -> None:
    requests = watch_requests(page)
    page.goto(live_server + "/rules")

    expect(page.locator(".tap-card")).to_have_count(8)
    assert_fits_the_phone(page)
    page.screenshot(path=screenshots / "referee-rules.png", full_page=True)

    page.get_by_role("link", name=re.compile(r"^Greek Biriba \(pagat\.com\)")).tap()
    expect(page).to_have_url(live_server + "/rules/pagat")
    expect(page.get_by_role("heading", level=1)).to_have_text("Greek Biriba (pagat.com)")
    expect(page.locator(".rule-assumed")).to_have_count(2)
    assert_fits_the_phone(page)
    page.screenshot(path=screenshots / "referee-rules-pagat.png", full_page=True)

    page.emulate_media(color_scheme="dark")
    assert_fits_the_phone(page)
    page.screenshot(path=screenshots / "referee-rules-pagat-dark.png", full_page=True)
    page.goto(live_server + "/rules")
    page.screenshot(path=screenshots / "referee-rules-dark.png", full_page=True)
    assert_stays_home(requests, live_server)
