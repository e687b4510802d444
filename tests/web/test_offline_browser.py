# ruff: noqa: RUF001  (Greek words are Greek letters, not look-alikes)
"""Never lose a hand, on a phone, in English and in Greek: a hand form survives reload and Back
as a draft on the phone; with the network gone a saved hand waits in the outbox (through a
reload), is sent by itself when the network is back and stored once; a queued hand the server
refuses comes back as its draft with the server's problems.

One app (with CSRF on, as in production: the outbox must send a valid token) serves the whole
module over http://127.0.0.1, where service workers run without HTTPS. Screenshots land in
tests/screenshots/offline-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect
from support.browser import PHONE, log_in, serve, settled, shoot, until
from support.databases import file_app
from support.hand_entries import typed
from support.world import new_club, pagat_match

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, User

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

PASSWORD = "correct horse"
SMALL: ViewportSize = {"width": 360, "height": 640}
LANGS = ("en", "el")
# The lines this piece adds, in each language.
TEXTS = {
    "en": {
        "restored": "Restored your unsaved entry.",
        "discard": "Discard",
        "offline verdict": "Checked when you are back online.",
        "waiting": "waiting to send",
        "totals unknown": "Totals once sent.",
        "refused": "Not saved: the server refused it.",
        "fix": "Fix hand",
        "problems title": "The server refused this hand when it was sent",
    },
    "el": {
        "restored": "Επανήλθε η καταχώριση που δεν είχες αποθηκεύσει.",
        "discard": "Απόρριψη",
        "offline verdict": "Θα ελεγχθεί μόλις επανέλθει η σύνδεση.",
        "waiting": "περιμένει να σταλεί",
        "totals unknown": "Τα σύνολα, μόλις σταλεί.",
        "refused": "Δεν αποθηκεύτηκε: ο διακομιστής τον απέρριψε.",
        "fix": "Διόρθωση γύρου",
        "problems title": "Ο διακομιστής απέρριψε αυτόν τον γύρο όταν στάλθηκε",
    },
}


# What hand-entry.js dispatches after a live preview (its "hand:preview" event, described at
# the top of static/js/hand-entry.js).
PREVIEW = """() => document.querySelector('#hand-form').dispatchEvent(new CustomEvent(
    'hand:preview', {bubbles: true, detail: {errors: [], problems: [], teams: [],
    totals: [{name: 'A', total: '665'}, {name: 'B', total: '−95'}]}}))"""
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


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("offline")) as app:
        with app.app_context():
            user = accounts.create_user("eleni", PASSWORD)
            new_club(user)
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


def new_match(app: Flask) -> int:
    """A pagat match for four: A = Ann & Cy, B = Bob & Di."""
    with app.app_context():
        club = db.session.scalars(db.select(Club)).one()
        user = db.session.scalars(db.select(User)).one()
        ids = [p.id for p in sorted(club.players, key=lambda p: p.id)]
        return pagat_match(club, user, ids).id


def phone(browser: Browser, server: str, lang: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    log_in(page, server, "eleni", PASSWORD)
    return context, page


def player_field(page: Page, name: str) -> Any:
    return page.locator(".hands .field", has_text=name).locator("input")


def enter_melds(page: Page, side: int, melds: list[str]) -> None:
    """Type melds into a side's rows, adding rows as the scorer does with "Add meld", each
    after the last one's verdict has come (online) and the page has stopped moving."""
    rows = page.locator(f"[data-side='{side}'] [data-meld-row]")
    for i, cards in enumerate(melds):
        if i >= rows.count() or not rows.nth(i).is_visible():
            page.locator(f"[data-side='{side}'] [data-add-meld]").click()
        rows.nth(i).locator("input").fill(cards)
        if page.evaluate("navigator.onLine"):
            expect(rows.nth(i).locator("[data-verdict]")).not_to_be_empty()
        settled(page)


def enter_reference_hand(page: Page) -> None:
    """presets.md's reference hand: kózi ♥, A out with two biribas 665, B −95."""
    page.locator("label[for='kozi-H']").click()
    enter_melds(page, 0, ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"])
    page.locator("[data-side='0'] input[name='s0-out']").check()
    page.locator("[data-side='0'] input[name='s0-biribaki']").check()
    enter_melds(page, 1, ["3C 4C 5C", "KS KD JK"])
    player_field(page, "Bob").fill("AS 9D")
    player_field(page, "Di").fill("JK 4H")


def api_match(page: Page, server: str, match_id: int) -> dict[str, Any]:
    answer = page.request.get(f"{server}/api/v1/matches/{match_id}")
    assert answer.ok
    body: dict[str, Any] = answer.json()
    return body


def worker_ready(page: Page, server: str, match_id: int) -> None:
    """Wait until the service worker controls the page and keeps the match's pages."""
    # Functions, not bare expressions: Playwright retries an expression with eval(), which
    # the page's CSP forbids once the first try finds no worker yet.
    # Wait for an active worker, not for this page's controller: a page whose navigation
    # began while the worker was still activating is never claimed, and waits forever.
    until(page, "async () => Boolean(await navigator.serviceWorker.ready)")
    page.reload()  # this visit goes through the active worker, which keeps the page
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
    until(
        page,
        """async (url) => {
            const keys = await caches.keys();
            for (const key of keys) {
                if (key.startsWith('scorekeeper-pages-')) {
                    const cache = await caches.open(key);
                    if (await cache.match(url)) return true;
                }
            }
            return false;
        }""",
        f"{server}/matches/{match_id}/hands/new",
    )


@pytest.mark.parametrize("lang", LANGS)
def test_a_draft_survives_reload_and_back_until_saved_or_discarded(
    browser: Browser, app: Flask, server: str, lang: str, screenshots: Path
) -> None:
    words = TEXTS[lang]
    match_id = new_match(app)
    context, page = phone(browser, server, lang)
    form_url = f"{server}/matches/{match_id}/hands/new"
    page.goto(form_url)
    note = page.locator("[data-draft-note]")
    expect(note).to_be_hidden()

    # Mid-entry: kózi, six melds (one more row than the form draws), flags, cards left.
    page.locator("label[for='kozi-S']").click()
    melds = ["5S-JS", "QD QC QH", "8H 9H 10H", "KC KD KH", "4D 5D 6D", "JC JD JS"]
    enter_melds(page, 0, melds)
    page.locator("input[name='s0-out']").check()
    page.locator("input[name='s0-biribaki']").check()
    player_field(page, "Bob").fill("AS 9D")
    page.locator("#s1-points").fill("35")
    key = page.locator("input[name=key]").input_value()

    def restored() -> None:
        expect(note).to_be_visible()
        expect(note).to_contain_text(words["restored"])
        expect(page.locator("#kozi-S")).to_be_checked()
        expect(page.locator("[data-side='0'] [data-meld]")).to_have_count(6)
        for i, cards in enumerate(melds):
            expect(page.locator("[data-side='0'] [data-meld]").nth(i)).to_have_value(cards)
        expect(page.locator("[data-side='0'] [data-meld]").nth(5)).to_be_visible()
        expect(page.locator("input[name='s0-out']")).to_be_checked()
        expect(page.locator("input[name='s0-biribaki']")).to_be_checked()
        expect(page.locator("input[name='s1-out']")).not_to_be_checked()
        expect(player_field(page, "Bob")).to_have_value("AS 9D")
        expect(page.locator("#s1-points")).to_have_value("35")
        # The same hand: a retry after a lost answer must not become a second hand.
        expect(page.locator("input[name=key]")).to_have_value(key)

    page.reload()
    restored()
    shoot(page, screenshots, f"offline-draft-restored-{lang}")
    page.set_viewport_size(SMALL)  # the smallest phone: the line and its button still fit
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    assert (note.bounding_box() or {"height": 0})["height"] < 130
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=screenshots / f"offline-draft-restored-{lang}-360.png")
    page.set_viewport_size(PHONE)

    # Back: to the scoreboard, then Back to the form.
    page.locator(".crumbs a").click()
    expect(page).to_have_url(f"{server}/matches/{match_id}")
    page.go_back()
    restored()

    # Discard: the form as the server draws it, with a key of its own.
    page.locator("[data-draft-discard]").click()
    expect(note).to_be_hidden()
    expect(page.locator("[data-side='0'] [data-meld]").first).to_have_value("")
    expect(page.locator("#kozi-S")).not_to_be_checked()
    expect(page.locator("input[name=key]")).not_to_have_value(key)
    page.reload()
    expect(note).to_be_hidden()

    # Saving clears the draft.
    enter_reference_hand(page)
    draft_key = page.locator("#hand-form").get_attribute("data-draft")
    assert page.evaluate("k => localStorage.getItem(k)", draft_key) is not None
    page.locator("[data-save]").click()
    expect(page).to_have_url(f"{server}/matches/{match_id}")
    expect(page.locator("[data-total]")).to_have_text(["665", "−95"])
    assert page.evaluate("k => localStorage.getItem(k)", draft_key) is None
    page.goto(form_url)
    expect(note).to_be_hidden()

    # A correction's draft keeps the version it started from: if the hand changed meanwhile,
    # saving it is refused as stale (409) instead of overwriting the other correction.
    page.goto(f"{server}/matches/{match_id}/hands/1/edit")
    expect(page.locator("input[name=version]")).to_have_value("1")
    page.locator("label[for='kozi-D']").click()
    correct_elsewhere(app, match_id)  # another phone: version 2
    page.reload()
    expect(note).to_be_visible()
    expect(page.locator("#kozi-D")).to_be_checked()
    expect(page.locator("input[name=version]")).to_have_value("1")
    page.locator("[data-save]").click()
    expect(page.locator("#hand-errors a")).to_have_count(1)  # "Open hand 1 as it is now"
    assert api_match(page, server, match_id)["hands"][0]["kozi"] == "S"
    context.close()


def correct_elsewhere(app: Flask, match_id: int) -> None:
    """Hand 1 corrected on another phone: kózi ♠ (version 2)."""
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        hand = matches.hand_of(match, 1)
        matches.edit_hand(match, 1, None, typed(match, {**hand.entry, "kozi": "S"}), hand.version)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hand_saved_offline_waits_then_is_sent_once(
    browser: Browser, app: Flask, server: str, lang: str, screenshots: Path
) -> None:
    words = TEXTS[lang]
    match_id = new_match(app)
    context, page = phone(browser, server, lang)
    board_url = f"{server}/matches/{match_id}"
    page.goto(board_url)
    worker_ready(page, server, match_id)

    context.set_offline(True)
    page.locator("a.button-big").click()  # "Enter hand 1", from the worker's cache
    expect(page.locator("#hand-form")).to_be_visible()
    enter_reference_hand(page)
    first_meld = page.locator("[data-side='0'] [data-meld-row]").first
    expect(first_meld.locator("[data-verdict]")).to_have_text(words["offline verdict"])
    if lang == "en":
        # A live preview came before the network went (hand-entry.js's "hand:preview", as
        # the top of static/js/hand-entry.js describes it): the outbox keeps the totals it
        # gave. In Greek none came, and the scoreboard says the totals come once the hand is
        # sent.
        page.evaluate(PREVIEW)
    page.locator("[data-save]").click()

    expect(page).to_have_url(board_url)
    waiting = page.locator("[data-outbox-board]")
    expect(waiting).to_be_visible()
    expect(waiting.locator(".outbox-item")).to_have_count(1)
    expect(waiting).to_contain_text(words["waiting"])
    if lang == "en":
        expect(waiting).to_contain_text("Totals after it: A 665 · B −95")
    else:
        expect(waiting).to_contain_text(words["totals unknown"])
    page.reload()  # still offline: the outbox is on the phone, not in the page
    expect(waiting.locator(".outbox-item")).to_have_count(1)
    page.set_viewport_size(SMALL)
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    waiting.screenshot(path=screenshots / f"offline-waiting-{lang}-360.png")
    page.set_viewport_size(PHONE)
    # The next hand is hand 2, though the page was drawn when hand 1 was next.
    expect(page.locator("a.button-big")).to_contain_text("2")
    shoot(page, screenshots, f"offline-waiting-{lang}")

    # A second tab on the same scoreboard: both try to send when the network is back.
    other = context.new_page()
    other.goto(board_url)
    expect(other.locator("[data-outbox-board] .outbox-item")).to_have_count(1)
    assert api_match(page, server, match_id)["hands"] == []  # nothing reached the server

    context.set_offline(False)
    expect(waiting).to_be_hidden(timeout=15000)
    expect(page.locator("[data-total]")).to_have_text(["665", "−95"])
    expect(other.locator("[data-outbox-board]")).to_be_hidden(timeout=15000)
    match = api_match(page, server, match_id)
    assert [h["number"] for h in match["hands"]] == [1]
    assert [t["score"] for t in match["teams"]] == [665, -95]
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('outbox'))") == []

    # Logging out forgets the pages kept for offline use: the next person sees none of them.
    other.close()
    assert page.evaluate(KEPT_PAGES) > 0
    page.locator("form.nav-form button").click()
    expect(page.locator(".nav-user")).to_have_count(0)
    assert page.evaluate(KEPT_PAGES) == 0
    context.close()


def test_a_queued_hand_the_server_refuses_comes_back_as_its_draft(
    browser: Browser, app: Flask, server: str, screenshots: Path
) -> None:
    for lang in LANGS:
        words = TEXTS[lang]
        match_id = new_match(app)
        context, page = phone(browser, server, lang)
        board_url = f"{server}/matches/{match_id}"
        page.goto(board_url)
        worker_ready(page, server, match_id)

        context.set_offline(True)
        page.locator("a.button-big").click()
        page.locator("label[for='kozi-H']").click()
        enter_melds(page, 0, ["3H 5S 9D", "5S-JS"])  # 3H 5S 9D is no meld at all
        page.locator("[data-save]").click()
        expect(page).to_have_url(board_url)
        expect(page.locator("[data-outbox-board] .outbox-item")).to_have_count(1)

        context.set_offline(False)
        refused = page.locator("[data-outbox-board] .outbox-refused")
        expect(refused).to_be_visible(timeout=15000)
        expect(refused).to_contain_text(words["refused"])
        shoot(page, screenshots, f"offline-refused-{lang}")
        assert api_match(page, server, match_id)["hands"] == []
        refused.get_by_role("link", name=words["fix"]).click()

        expect(page).to_have_url(f"{board_url}/hands/new")
        problems = page.locator("[data-draft-problems]")
        expect(problems).to_be_visible()
        expect(problems).to_contain_text(words["problems title"])
        expect(problems).to_contain_text("3♥ 5♠ 9♦")
        expect(page.locator("#kozi-H")).to_be_checked()
        expect(page.locator("[data-side='0'] [data-meld]").first).to_have_value("3H 5S 9D")
        shoot(page, screenshots, f"offline-refused-draft-{lang}")
        context.close()
