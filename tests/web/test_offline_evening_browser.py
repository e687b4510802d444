"""A whole offline evening (issue 19 item 5): hand 1 saved online, then three hands entered
and saved with no network. The scoreboard shows them numbered 2, 3 and 4 with their kózi and
the totals after each, and who deals next, worked out by the rules engine on the phone
(Pyodide) and marked as not yet sent; back online they are sent and the server's totals are
those the phone showed. If the server's ever differ, the scoreboard says so.

The expected figures are the engine's own on the server (POST /api/v1/hands/score's use case,
each hand from the totals the one before left), never numbers written here. English runs the
whole evening through the hand form; Greek gets the same three hands put in the outbox as
the hand form would, on a match of its own, in the same browser context.

Skipped where npm did not install Pyodide (`make runtime`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import PHONE, fits_a_phone, log_in, serve
from support.databases import file_app
from support.hand_entries import form_fields
from support.offline_phone import enter, entry, match_with_hand_1, scored_from, worker_keeps
from support.world import new_club

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.play.engine_files import runtime_version
from scorekeeper.rules.match import dealer_for

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [
    pytest.mark.offline_engine,
    pytest.mark.browser_context_args(service_workers="allow"),
    pytest.mark.browser,
    pytest.mark.skipif(
        runtime_version() is None,
        reason="Pyodide is not installed (no npm at setup: `make runtime`); no offline engine",
    ),
]

PASSWORD = "correct horse"
SHOTS = Path(__file__).parents[1] / "screenshots"
WORDS = {
    "en": {
        "not sent": "not yet sent",
        "after": "After this hand: ",
        "next": "Next to deal: ",
        "cards": "Totals on this phone, counting 3 hands not yet sent.",
    },
    "el": {
        "not sent": "δεν έχει σταλεί",
        "after": "Μετά τον γύρο: ",
        "next": "Μοιράζει: ",
        "cards": "Σύνολα σε αυτό το κινητό, μαζί με 3 γύρους που δεν έχουν σταλεί ακόμα.",
    },
}
#: Hand 1 is saved online; the evening's next three are saved with no network.
FIRST, EVENING = PAGAT_HANDS[0], PAGAT_HANDS[1:4]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("evening")) as app:
        with app.app_context():
            new_club(accounts.create_user("eleni", PASSWORD))
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


def expected(app: Flask, match_id: int) -> tuple[list[str], list[str], str]:
    """The server engine's word on the evening: each side's score per hand, the totals after
    each ("A 1250 · B 310"), and who deals after hand 4."""
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        totals = dict(matches.view_of(match).totals)
        setup = matches.setup_of(match)
        dealer = dealer_for(setup, 1 + len(EVENING))
        assert dealer is not None
        dealer_name = matches.names_of(match)[dealer]
    scores, after = scored_from(app, EVENING, totals)
    return scores, after, dealer_name


def queued_board(page: Page, lang: str, scores: list[str], after: list[str], dealer: str) -> None:
    """The scoreboard's hands waiting on the phone: 2, 3, 4, with kózi and totals."""
    words = WORDS[lang]
    rows = page.locator("[data-outbox-board] .outbox-queued")
    expect(rows).to_have_count(3, timeout=30_000)
    assert [rows.nth(i).get_attribute("data-queued-number") for i in range(3)] == ["2", "3", "4"]
    symbols = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
    expect(rows.locator(".kozi-mark")).to_have_text([symbols[h[0]] for h in EVENING])
    expect(rows.locator(".badge")).to_have_text([words["not sent"]] * 3)
    expect(rows.locator(".outbox-scores")).to_have_text(scores)
    expect(rows.locator(".outbox-text")).to_have_text([words["after"] + a for a in after])
    expect(page.locator("[data-outbox-board] .outbox-next")).to_have_text(words["next"] + dealer)
    expect(page.locator(".next-dealer strong")).to_have_text(dealer)
    # The standings cards: the phone's totals, said to count the hands not sent yet.
    last = [part.split(" ", 1)[1] for part in after[-1].split(" · ")]
    expect(page.locator("[data-total]")).to_have_text(last)
    expect(page.locator("[data-total].standing-total-phone")).to_have_count(len(last))
    expect(page.locator("[data-standings-phone]")).to_have_text(words["cards"])


def test_a_whole_offline_evening_shows_the_right_totals_before_it_is_sent(
    browser: Browser, app: Flask, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, server, "eleni", PASSWORD)

    # English: the evening typed into the hand form with no network.
    match_id, members, names = match_with_hand_1(app)
    scores, after, dealer = expected(app, match_id)
    board = f"{server}/matches/{match_id}"
    page.goto(board)
    worker_keeps(page, server, match_id)
    assert not page.evaluate(
        "() => performance.getEntriesByType('resource').some(e => e.name.includes('/runtime/'))"
    ), "a scoreboard with nothing waiting starts no engine"
    context.set_offline(True)
    for hand in EVENING:
        page.locator("a.button-big").click()  # "Enter hand N", from the worker's cache
        expect(page.locator("#hand-form")).to_be_visible()
        enter(page, entry(hand), [[names[str(p)] for p in side] for side in members])
        # The live preview follows the hands before it on the phone.
        number = 2 + EVENING.index(hand)
        totals = [part.split(" ", 1)[1] for part in after[number - 2].split(" · ")]
        expect(page.locator("[data-preview-total]")).to_have_text(totals, timeout=20_000)
        page.locator("[data-save]").click()
        expect(page).to_have_url(board)
    queued_board(page, "en", scores, after, dealer)
    page.screenshot(path=SHOTS / "offline-scoreboard-3-queued-en.png", full_page=True)
    fits_a_phone(page)

    context.set_offline(False)
    expect(page.locator("[data-outbox-board]")).to_be_hidden(timeout=20_000)
    last = [part.split(" ", 1)[1] for part in after[-1].split(" · ")]
    expect(page.locator("[data-total]")).to_have_text(last)
    for number, totals in enumerate(after, 2):
        assert page.locator(f"#hand-{number}").get_attribute("data-totals-after") == totals
    expect(page.locator(".outbox-differs")).to_have_count(0)

    # Greek: the same three hands put in the outbox as the hand form puts them.
    context.add_cookies([{"name": "lang", "value": "el", "url": server}])
    match_id, members, names = match_with_hand_1(app)
    board = f"{server}/matches/{match_id}"
    page.goto(board)
    worker_keeps(page, server, match_id)
    context.set_offline(True)
    user = page.locator("script[data-user][src*='outbox']").get_attribute("data-user")
    items = [
        {
            "url": f"/matches/{match_id}/hands/new",
            "match": str(match_id),
            "hand": "new",
            "draft": f"scorekeeper:draft:{user}:{match_id}:new",
            "fields": [*form_fields(entry(hand), members), ("key", key)],
            "key": key,
            "version": "",
            "totals": None,
            "queued": 0,
        }
        for hand, key in ((hand, secrets.token_hex(16)) for hand in EVENING)
    ]
    page.evaluate(
        "([name, items]) => localStorage.setItem(name, items)",
        [f"scorekeeper:outbox:{user}:{match_id}", json.dumps(items)],
    )
    page.reload()
    queued_board(page, "el", scores, after, dealer)
    page.screenshot(path=SHOTS / "offline-scoreboard-3-queued-el.png", full_page=True)
    page.set_viewport_size({"width": 360, "height": 640})
    page.reload()
    queued_board(page, "el", scores, after, dealer)
    page.screenshot(path=SHOTS / "offline-scoreboard-3-queued-el-360.png", full_page=True)
    fits_a_phone(page, 360)
    page.set_viewport_size(PHONE)

    context.set_offline(False)
    expect(page.locator("[data-outbox-board]")).to_be_hidden(timeout=20_000)
    expect(page.locator("[data-total]")).to_have_text(last)

    # Had the server scored hand 4 otherwise than the phone, the scoreboard would say so.
    page.evaluate(
        "([name, sent]) => localStorage.setItem(name, sent)",
        [
            f"scorekeeper:sent:{user}:{match_id}",
            json.dumps([{"key": "k", "number": 4, "phone": "A 1 · B 2"}]),
        ],
    )
    page.reload()
    differs = page.locator(".outbox-differs")
    expect(differs).to_contain_text(after[-1])
    expect(differs).to_contain_text("A 1 · B 2")
    differs.screenshot(path=SHOTS / "offline-scoreboard-differs-el.png")
    differs.get_by_role("button").click()
    expect(differs).to_have_count(0)
    page.reload()
    expect(page.locator(".outbox-differs")).to_have_count(0)
    context.close()
