"""The Content-Security-Policy breaks nothing: a phone opens every page the owner may see,
plus the login pages as a visitor, uses the page scripts (the card picker's live verdicts,
the meld checker, the copy button), and the browser reports no violation of the policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import ConsoleMessage, Page, expect
from security_browser import log_in_as, owner_pages
from security_world import World

# Every page as a phone with its service worker gets it, the offline engine (WebAssembly) too.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.offline_engine,
    pytest.mark.browser_context_args(service_workers="allow"),
]

# Runs before any page script: every violation the page reports is kept on the window.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


class Watch:
    """Violations and CSP console errors on every page the phone opens."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self.console)

    def console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.found.append(f"{self.page.url}: {message.text}")

    def open(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status < 400, url
        assert "'unsafe-inline'" not in response.headers["content-security-policy"]
        self.page.wait_for_load_state("load")
        self.read()

    def read(self) -> None:
        for violation in self.page.evaluate("window.__violations || []"):
            self.found.append(f"{self.page.url}: {violation}")
        self.page.evaluate("window.__violations = []")


def test_no_page_breaks_the_policy(
    page: Page, app: Flask, world: World, live_server: str, screenshots: Path
) -> None:
    watch = Watch(page)
    for path in ("/", "/login", "/register", "/referee", "/rules"):
        watch.open(live_server + path)

    log_in_as(page, app, world, "owner", live_server)
    for path in owner_pages(app, world):
        watch.open(live_server + path)

    # The hand form's scripts: the card picker and a live verdict fetched from the API.
    watch.open(f"{live_server}/matches/{world.match}/hands/new")
    row = page.locator("[data-side='0'] [data-meld-row]").first
    row.locator("input").fill("5S-JS")
    expect(row.locator("[data-verdict]")).to_contain_text("Legal: run, clean, biriba")
    page.screenshot(path=screenshots / "csp-hand-entry.png")
    watch.read()

    # The meld checker answers as you type.
    watch.open(f"{live_server}/referee/meld")
    page.get_by_label("Cards").fill("QD QC QH")
    page.get_by_role("button", name="Check").first.click()
    expect(page.get_by_text("Legal").first).to_be_visible()
    watch.read()

    # A new token, and its copy button (static/js/copy.js).
    watch.open(f"{live_server}/account/tokens")
    page.get_by_label("What is it for?").fill("phone")
    page.get_by_role("button", name="Create a token").click()
    page.get_by_role("button", name="Copy the token").click()
    expect(page.locator("[data-copy-status]")).not_to_be_empty()
    watch.read()

    assert watch.found == []
