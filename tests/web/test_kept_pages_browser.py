# ruff: noqa: RUF001  (Greek words are Greek letters, not look-alikes)
"""Pages kept offline follow the session, on a phone: after "log out everywhere" on another
device, or once the member is removed from the club, the first contact with the network drops
the match pages the service worker kept, and they stay gone offline; a kept copy older than
OFFLINE_PAGES_MAX_AGE is not shown, and the offline page says it expired.

One app (CSRF on, as in production) serves the module over http://127.0.0.1, where service
workers run without HTTPS. Screenshots land in tests/screenshots/kept-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect
from support.browser import PHONE, log_in, serve, shoot, until
from support.databases import file_app
from support.world import new_club, pagat_match

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Club, Membership, Role, User

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

PASSWORD = "correct horse"
# How many pages the service worker keeps.
KEPT_PAGES = """async () => {
    let count = 0;
    for (const key of await caches.keys()) {
        if (key.startsWith('scorekeeper-pages-')) {
            count += (await (await caches.open(key)).keys()).length;
        }
    }
    return count;
}"""
# Whether the worker keeps `url` (a function, not an expression: the CSP forbids eval).
KEEPS = """async (url) => {
    for (const key of await caches.keys()) {
        if (key.startsWith('scorekeeper-pages-') && await (await caches.open(key)).match(url)) {
            return true;
        }
    }
    return false;
}"""
EXPIRED = {
    "en": "The copy of this page kept on this phone is more than 1 day old",
    "el": "Το αντίγραφο αυτής της σελίδας που κρατήθηκε σε αυτό το κινητό",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("kept")) as app:
        with app.app_context():
            eleni = accounts.create_user("eleni", PASSWORD)
            new_club(eleni)
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


def new_match(app: Flask, scorer: str | None = None) -> int:
    """A pagat match of Eleni's club; `scorer` (a new account) joins the club to score it."""
    with app.app_context():
        club = db.session.scalars(db.select(Club)).one()
        eleni = db.session.scalars(db.select(User).where(User.username == "eleni")).one()
        if scorer is not None:
            user = accounts.create_user(scorer, PASSWORD)
            db.session.add(Membership(club_id=club.id, user_id=user.id, role=Role.SCORER))
            db.session.commit()
        ids = [p.id for p in sorted(club.players, key=lambda p: p.id)]
        return pagat_match(club, eleni, ids).id


def phone(
    browser: Browser, server: str, user: str, lang: str = "en"
) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    log_in(page, server, user, PASSWORD)
    return context, page


def keep_scoreboard(page: Page, server: str, match_id: int) -> str:
    """Open the match's scoreboard and wait until the worker keeps it and its hand form."""
    board = f"{server}/matches/{match_id}"
    page.goto(board)
    # Wait for an active worker, then visit again through it: that visit is kept.
    until(page, "async () => Boolean(await navigator.serviceWorker.ready)")
    page.reload()
    until(page, "() => Boolean(navigator.serviceWorker.controller)")
    until(page, KEEPS, f"{board}/hands/new")
    return board


def readable_offline(context: BrowserContext, page: Page, board: str) -> None:
    """With the network gone, the kept scoreboard shows the match."""
    context.set_offline(True)
    page.goto(board)
    expect(page.locator("[data-total]")).to_have_count(2)
    expect(page.locator("main")).to_contain_text("Ann")


def shows_nothing_kept(context: BrowserContext, page: Page, board: str) -> None:
    """Offline again: neither of the match's pages shows; the offline page does."""
    context.set_offline(True)
    for url in (board, f"{board}/hands/new"):
        page.goto(url)
        expect(page.locator("[data-offline-fallback]")).to_be_visible()
        expect(page.locator("main")).not_to_contain_text("Ann")
    context.set_offline(False)


def test_log_out_everywhere_on_another_device_drops_the_kept_pages(
    browser: Browser, app: Flask, server: str
) -> None:
    match_id = new_match(app)
    context, page = phone(browser, server, "eleni")
    board = keep_scoreboard(page, server, match_id)
    readable_offline(context, page, board)

    laptop, elsewhere = phone(browser, server, "eleni")
    elsewhere.goto(f"{server}/account/tokens")
    elsewhere.get_by_role("button", name="Log out everywhere").click()
    expect(elsewhere.locator(".nav-user")).to_have_count(0)
    laptop.close()

    # The network comes back while the phone shows the kept scoreboard, and nothing is
    # opened: the worker hears of the logout all the same, and drops what it kept.
    context.set_offline(False)
    until(page, f"async () => (await ({KEPT_PAGES})()) === 0")
    shows_nothing_kept(context, page, board)
    context.close()


def test_a_member_removed_from_the_club_loses_its_kept_pages_before_the_next_page(
    browser: Browser, app: Flask, server: str
) -> None:
    match_id = new_match(app, scorer="nikos")
    context, page = phone(browser, server, "nikos")
    board = keep_scoreboard(page, server, match_id)
    readable_offline(context, page, board)
    page.close()
    with app.app_context():
        club = db.session.scalars(db.select(Club)).one()
        nikos = db.session.scalars(db.select(User).where(User.username == "nikos")).one()
        clubs.remove_member(club, nikos.id)

    # Back online, the first page the phone opens (the home page, still signed in) comes
    # only once the kept pages of the club left are gone.
    context.set_offline(False)
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator(".nav-user")).to_have_text("nikos")
    assert page.evaluate(KEPT_PAGES) == 0
    shows_nothing_kept(context, page, board)
    context.close()


def test_a_kept_page_past_its_max_age_gives_the_offline_page_saying_so(
    browser: Browser, app: Flask, server: str, screenshots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = new_match(app)
    for lang, words in EXPIRED.items():
        context, page = phone(browser, server, "eleni", lang)
        # The worker installed (its offline pages kept, naming the day), every copy kept
        # from now on is too old to show: 0 s.
        until(page, "async () => Boolean(await navigator.serviceWorker.ready)")
        monkeypatch.setitem(app.config, "OFFLINE_PAGES_MAX_AGE", 0)
        board = keep_scoreboard(page, server, match_id)
        monkeypatch.undo()
        context.set_offline(True)
        page.goto(board)
        expired = page.locator("[data-offline-expired]")
        expect(expired).to_contain_text(words)
        expect(page.locator("main")).not_to_contain_text("Ann")
        shoot(page, screenshots, f"kept-expired-{lang}")
        page.goto(f"{server}/clubs")  # never kept: the plain offline page
        expect(page.locator("[data-offline-fallback]")).to_be_visible()
        expect(expired).to_have_count(0)
        shoot(page, screenshots, f"kept-offline-{lang}")
        context.close()
