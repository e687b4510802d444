"""What a phone in headless Chromium needs, for the browser tests, benchmarks and screenshots:
Debian's Chromium and its flags, the phone's viewport, the app served on a free port, logging
in through the login page, whether a page fits the phone, a screenshot in light and dark, and
the record of what a page asked for."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Request,
    ViewportSize,
    expect,
)
from werkzeug.serving import make_server

from support.world import signed_in

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

CHROMIUM = Path("/usr/bin/chromium")
#: What the browser tests drive: Debian's "old headless shell" (package chromium-headless-shell,
#: built from the same Chromium source: the same Blink and V8) where it is installed, else
#: Chromium. Without the full browser's windowing and compositing it took about a fifth less
#: CPU on the same tests, on a machine where the suite is CPU-bound. The benchmarks keep
#: Chromium itself: their figures stand for a phone's browser.
TEST_BROWSER = next(
    (p for p in (Path("/usr/bin/chromium-headless-shell"), CHROMIUM) if p.exists()), CHROMIUM
)
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
# The smallest height a thumb can tap (--tap in style.css).
TAP = 44
# Everything a thumb taps: the header's links and buttons, the page's links, buttons, fields
# and disclosures, the footer's buttons (the theme switch).
TAPPABLE = (
    "header a, header button, main a, main button, main input, main select, main textarea, "
    "main summary, footer button"
)


class Runtime:
    """Whether served pages get the offline engine's files (/runtime/…). tests/conftest.py
    turns them away for a browser test not marked ``offline_engine``: a hand page whose
    service worker kept them starts Pyodide at idle, about 2.4 s of CPU on every hand page
    (seven times in the acceptance flow), for tests whose subject is not the score offline.
    Turned away, they answer 404 as on a server where npm never ran, a case the app handles
    (README: "The score with no network")."""

    served = True


def _runtime_gate(app: Flask) -> WSGIApplication:
    def gated(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not Runtime.served and environ.get("PATH_INFO", "").startswith("/runtime/"):
            start_response("404 NOT FOUND", [("Content-Length", "0")])
            return [b""]
        return app(environ, start_response)

    return gated


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serve `app` on a free localhost port in a background thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, _runtime_gate(app), threaded=True)
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


# For each element: the start of its HTML, its height to tap (a checkbox or radio's biggest
# box among its own and its labels': the page draws some small or hidden from sight and makes
# the label the thing to tap, as in a checkbox row or the kózi's suit buttons), and the left
# and right edges that must lie on the screen: its own, or those of the box it scrolls
# sideways in (a wide table's), where it is reached by scrolling that box. An element hidden
# since the locator found it visible (a live preview that answered in between) is left out.
_TAP_TARGETS = """elements => elements.filter(e => e.getClientRects().length).map(e => {
    let tap = e.getBoundingClientRect();
    if (e.type === "checkbox" || e.type === "radio") {
        for (const label of e.labels || []) {
            const box = label.getBoundingClientRect();
            if (box.height > tap.height) tap = box;
        }
    }
    let reach = e.getBoundingClientRect();
    for (let up = e.parentElement; up; up = up.parentElement) {
        const overflow = getComputedStyle(up).overflowX;
        if (overflow === "auto" || overflow === "scroll") {
            reach = up.getBoundingClientRect();
            break;
        }
    }
    return {html: e.outerHTML.slice(0, 90), height: tap.height,
            left: reach.left, right: reach.right};
})"""


def fits_a_phone(page: Page, width: int = PHONE["width"]) -> None:
    """The page, once loaded, fits a phone `width` CSS pixels wide: it does not scroll
    sideways, and every visible thing to tap (TAPPABLE) is at least TAP pixels tall and lies
    within the screen's width (or in a box that does and scrolls sideways)."""
    page.wait_for_load_state()
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} scrolls sideways ({scroll}px > {width}px)"
    targets = page.locator(TAPPABLE).filter(visible=True).evaluate_all(_TAP_TARGETS)
    small = [target["html"] for target in targets if target["height"] < TAP]
    assert not small, f"too small to tap on {page.url}: {small}"
    outside = [t["html"] for t in targets if t["left"] < 0 or t["right"] > width]
    assert not outside, f"off the {width}px screen on {page.url}: {outside}"


def shoot(
    page: Page,
    folder: Path,
    name: str,
    check: Callable[[Page], None] = fits_a_phone,
    schemes: Sequence[Literal["light", "dark"]] = ("light", "dark"),
) -> None:
    """For each colour scheme of `schemes` the phone is set to: `check` the page, and save a
    full-page screenshot of it as `folder`/`name`.png (light) or `name`-dark.png (dark).
    The phone is set to light again at the end."""
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        check(page)
        suffix = "-dark" if scheme == "dark" else ""
        page.screenshot(path=folder / f"{name}{suffix}.png", full_page=True)
    page.emulate_media(color_scheme="light")


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


def until(page: Page, script: str, arg: object = None, seconds: float = 10) -> None:
    """Wait until `script` (a function, maybe async) gives a truthy value. Not
    page.wait_for_function: it takes an async function's promise for the truthy answer, so
    it never waits on one."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script}"
        page.wait_for_timeout(50)


def settled(page: Page) -> None:
    """Two frames on, a finger's pace: the dock and the picker keep the field in use above
    the keys in the frame after a change, so a tap in the same frame can land while the page
    moves under it (a verdict that came late scrolled "Add meld" from under the click)."""
    page.evaluate(
        # A hidden page draws no frame: half a second bounds the wait, so it never hangs.
        "() => new Promise(r => {"
        " requestAnimationFrame(() => requestAnimationFrame(r)); setTimeout(r, 500); })"
    )


def phone_context(
    browser: Browser,
    size: ViewportSize = PHONE,
    locale: str | None = None,
    scheme: Literal["light", "dark"] | None = None,
) -> BrowserContext:
    """A phone of its own: touch, `size`, and `locale` and `scheme` where given (None is the
    browser's own); no service worker, as it is not the offline phone (tests/conftest.py).
    The test closes it."""
    return browser.new_context(
        service_workers="block",
        viewport=size,
        locale=locale,
        color_scheme=scheme,
        is_mobile=True,
        has_touch=True,
    )


def sign_in(page: Page, app: Flask, base_url: str, user_id: int = 1) -> None:
    """The phone signed in as user `user_id` without the login page: the session cookie a
    fresh login makes (support.world.signed_in), given to the page's browser context."""
    client = app.test_client()
    signed_in(client, user_id)
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    assert cookie is not None
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])
