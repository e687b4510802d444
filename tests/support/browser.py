"""What a phone in headless Chromium needs, for the browser tests, benchmarks and screenshots:
Debian's Chromium and its flags, the phone's viewport, the app served on a free port, logging
in through the login page, and the record of what a page asked for."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import BrowserContext, Locator, Page, Request, ViewportSize, expect
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
# Playwright cannot download its own browsers here, so it drives Debian's Chromium with the
# flags from architecture.md: no sandbox as root, no GPU, and no traffic of Chromium's own.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: ViewportSize = {"width": 390, "height": 844}


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serve `app` on a free localhost port in a background thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # Polled every 50 ms, not every 500 (serve_forever's default): `shutdown` waits for the
    # next poll, and every browser test stops a server.
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="live-server", daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@dataclass(frozen=True)
class Shown:
    """Where a visible element is on the page (CSS pixels from the viewport's corner, as
    Locator.bounding_box gives them), its type attribute and the start of its HTML."""

    x: float
    y: float
    width: float
    height: float
    type: str | None
    html: str


def shown(target: Locator) -> list[Shown]:
    """Every element of `target` that Playwright counts as visible, with its box: one round
    trip to the browser, where is_visible, get_attribute and bounding_box for each element
    took three (hundreds on a page of buttons)."""
    found = target.filter(visible=True).evaluate_all(
        """elements => elements.map(e => {
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height,
                    type: e.getAttribute("type"), html: e.outerHTML.slice(0, 90)};
        })"""
    )
    return [Shown(**one) for one in found]


def log_in(page: Page, base_url: str, username: str, password: str) -> None:
    """Log in through the login page, and wait until the header names the user."""
    page.goto(base_url + "/login")
    page.locator("#username").fill(username)
    page.locator("#password").fill(password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".nav-user")).to_have_text(username)


def record_requests(target: Page | BrowserContext) -> list[str]:
    """A list that gathers the URL of every request `target` makes from now on."""
    urls: list[str] = []

    def remember(request: Request) -> None:  # Playwright cannot wrap a bound builtin
        urls.append(request.url)

    target.on("request", remember)
    return urls


def from_elsewhere(urls: list[str], base_url: str) -> list[str]:
    """The URLs in `urls` that go to another host than `base_url` (data: URLs go nowhere)."""
    ours = urlsplit(base_url).netloc
    return [url for url in urls if urlsplit(url).netloc not in ("", ours)]
