"""The home page as a person sees it on a phone."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from support.browser import from_elsewhere, record_requests
from support.static_names import plain

pytestmark = pytest.mark.browser


def test_home_page_fits_a_phone_and_stays_on_our_server(
    page: Page, live_server: str, screenshots: Path
) -> None:
    requested = record_requests(page)

    page.goto(live_server + "/")

    expect(page.get_by_role("heading", level=1, name="Scorekeeper")).to_be_visible()
    expect(page.get_by_role("link", name="Register", exact=True).first).to_be_visible()
    expect(page.get_by_role("link", name="Try the demo")).to_be_visible()
    expect(page.locator(".home-shot img")).to_have_js_property("complete", True)
    assert page.locator(".home-shot img").evaluate("img => img.naturalWidth") > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for box in (card.bounding_box() for card in page.locator(".tap-card, .button").all()):
        assert box is not None
        assert box["height"] >= 44, "every tap target is at least 44px tall"

    elsewhere = from_elsewhere(requested, live_server)
    assert elsewhere == [], "the page must not load anything from another host (no CDN)"
    assert any(plain(url).endswith("/static/style.css") for url in requested)

    page.screenshot(path=screenshots / "home.png", full_page=True)

    page.emulate_media(color_scheme="dark")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=screenshots / "home-dark.png", full_page=True)
