"""A correction made with no network (issue 19 item 5): hand 1 corrected on the phone while
the server cannot be reached. Before it is sent, the rules engine on the phone (Pyodide)
scores the corrected hand against the totals before it, and every total after it moves: the
correction's own line, the new hands waiting after it, the live preview of the hand typed
next, and the standings cards, which say in words that they count hands not yet sent. Back
online the server's answer replaces them, and it is the same.

The expected figures are the server engine's (POST /api/v1/hands/score's use case, each hand
from the totals the one before left), never numbers written here. English goes through the
correction's form and the hand form; Greek gets a correction and three new hands put in the
outbox as those forms put them, on a match of its own, and is looked at on two phones.

Skipped where npm did not install Pyodide (`make runtime`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import PHONE, fits_a_phone, log_in, serve, until
from support.databases import file_app
from support.hand_entries import form_fields
from support.offline_phone import enter, entry, match_with_hand_1, scored_from, worker_keeps
from support.world import new_club

from scorekeeper.accounts import service as accounts
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.play.engine_files import runtime_version

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
SMALL_PHONE = {"width": 360, "height": 640}
WORDS = {
    "en": {
        "correction": "Correction of hand 1",
        "after": "After this hand: ",
        "note": "Totals on this phone, counting {n} hands not yet sent.",
        "note one": "Totals on this phone, counting 1 hand not yet sent.",
    },
    "el": {
        "correction": "Διόρθωση του γύρου 1",
        "after": "Μετά τον γύρο: ",
        "note": "Σύνολα σε αυτό το κινητό, μαζί με {n} γύρους που δεν έχουν σταλεί ακόμα.",
    },
}
#: Hand 1 as corrected: Bob was left holding one card more (the 8♣) than it was saved with.
FIRST = PAGAT_HANDS[0]
BOB_HELD = "AS 9D 8C"
CORRECTED = (FIRST[0], FIRST[1], {**FIRST[2], "hands": [BOB_HELD, FIRST[2]["hands"][1]]})


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("correction")) as app:
        with app.app_context():
            new_club(accounts.create_user("eleni", PASSWORD))
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


def expected(app: Flask, hands: list[Any]) -> tuple[list[str], list[str]]:
    """The server engine's word: each hand of `hands` (the corrected hand 1, then the new
    ones) scored from the totals the one before left, from nothing: each side's scores
    ("A 665 · B −95") and the totals after it."""
    return scored_from(app, hands, {"A": Fraction(0), "B": Fraction(0)})


def figures(text: str) -> list[str]:
    """ "A 465 · B −95" → ["465", "−95"]: as the standings cards show them."""
    return [part.split(" ", 1)[1] for part in text.split(" · ")]


def board_shows(page: Page, lang: str, scores: list[str], after: list[str]) -> None:
    """The scoreboard's hands waiting on the phone: the correction of hand 1 first, then the
    new hands numbered 2, 3 …, each with its scores and the totals after it; and the
    standings cards at the totals after the last, said to count hands not yet sent."""
    words = WORDS[lang]
    rows = page.locator("[data-outbox-board] .outbox-queued")
    expect(rows).to_have_count(len(scores), timeout=30_000)
    numbers = [rows.nth(i).get_attribute("data-queued-number") for i in range(len(scores))]
    assert numbers == [str(n) for n in range(1, len(scores) + 1)]
    expect(rows.first).to_have_class("outbox-item outbox-queued outbox-correction")
    expect(rows.first.locator(".outbox-title")).to_contain_text(words["correction"])
    expect(rows.locator(".outbox-scores")).to_have_text(scores)
    expect(rows.locator(".outbox-text")).to_have_text([words["after"] + a for a in after])
    expect(page.locator("[data-total]")).to_have_text(figures(after[-1]))
    expect(page.locator(".standing-total-phone")).to_have_count(2)
    note = words["note one"] if len(scores) == 1 else words["note"].format(n=len(scores))
    expect(page.locator("[data-standings-phone]")).to_have_text(note)


def keep_pages(page: Page, server: str, match_id: int) -> None:
    """The worker keeps the scoreboard, the new hand's form and the engine, and hand 1's
    correction form."""
    page.goto(f"{server}/matches/{match_id}")
    worker_keeps(page, server, match_id)
    page.goto(f"{server}/matches/{match_id}/hands/1/edit")
    until(page, "async (url) => Boolean(await caches.match(url))", page.url)
    page.goto(f"{server}/matches/{match_id}")


def test_a_correction_made_offline_moves_the_phones_totals(
    browser: Browser, app: Flask, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, server, "eleni", PASSWORD)

    # English: hand 1 corrected in its form, then hand 2 typed, with no network.
    match_id, members, names = match_with_hand_1(app)
    scores, after = expected(app, [CORRECTED, PAGAT_HANDS[1]])
    old = expected(app, [FIRST])[1][0]
    assert old != after[0], "the correction changes the score"
    board = f"{server}/matches/{match_id}"
    keep_pages(page, server, match_id)
    expect(page.locator("[data-total]")).to_have_text(figures(old))
    context.set_offline(True)
    page.goto(f"{board}/hands/1/edit")  # from the worker's cache
    expect(page.locator("#hand-form")).to_be_visible()
    page.locator(".hands .field", has_text=names[str(members[1][0])]).locator("input").fill(
        BOB_HELD
    )
    # The correction's own preview: its totals after it, from the engine on the phone.
    expect(page.locator("[data-preview-total]")).to_have_text(figures(after[0]), timeout=30_000)
    page.locator("[data-save]").click()
    expect(page).to_have_url(board)
    board_shows(page, "en", scores[:1], after[:1])
    page.screenshot(path=SHOTS / "offline-scoreboard-correction-en.png", full_page=True)
    page.set_viewport_size(SMALL_PHONE)
    page.reload()
    board_shows(page, "en", scores[:1], after[:1])
    page.screenshot(path=SHOTS / "offline-scoreboard-correction-en-360.png", full_page=True)
    fits_a_phone(page, SMALL_PHONE["width"])
    page.set_viewport_size(PHONE)

    page.locator("a.button-big").click()  # "Enter hand 2", from the worker's cache
    expect(page.locator("#hand-form")).to_be_visible()
    enter(page, entry(PAGAT_HANDS[1]), [[names[str(p)] for p in side] for side in members])
    # The hand typed next follows the correction waiting before it.
    expect(page.locator("[data-preview-total]")).to_have_text(figures(after[1]), timeout=20_000)
    page.locator("[data-save]").click()
    expect(page).to_have_url(board)
    board_shows(page, "en", scores, after)
    fits_a_phone(page)

    context.set_offline(False)
    expect(page.locator("[data-outbox-board]")).to_be_hidden(timeout=20_000)
    expect(page.locator("[data-total]")).to_have_text(figures(after[-1]))
    expect(page.locator(".standing-total-phone")).to_have_count(0)
    expect(page.locator("[data-standings-phone]")).to_have_count(0)
    for number, totals in enumerate(after, 1):
        assert page.locator(f"#hand-{number}").get_attribute("data-totals-after") == totals
    expect(page.locator(".outbox-differs")).to_have_count(0)

    # Greek: the correction and three new hands put in the outbox as the forms put them.
    context.add_cookies([{"name": "lang", "value": "el", "url": server}])
    match_id, members, names = match_with_hand_1(app)
    board = f"{server}/matches/{match_id}"
    evening = PAGAT_HANDS[1:4]
    scores, after = expected(app, [CORRECTED, *evening])
    keep_pages(page, server, match_id)
    page.goto(f"{board}/hands/1/edit")
    base = page.evaluate(
        "() => JSON.parse(document.getElementById('offline-engine-setup').dataset.setup).correcting"
    )
    assert base["number"] == 1 and set(base["before"].values()) == {"0"}
    page.goto(board)
    context.set_offline(True)
    user = page.locator("script[data-user][src*='outbox']").get_attribute("data-user")

    def item(hand: Any, number: int | None) -> dict[str, Any]:
        key = secrets.token_hex(16)
        slot = "new" if number is None else str(number)
        url = f"/matches/{match_id}/hands/" + ("new" if number is None else f"{number}/edit")
        version = [] if number is None else [("version", "1")]
        return {
            "url": url,
            "match": str(match_id),
            "hand": "new" if number is None else number,
            "draft": f"scorekeeper:draft:{user}:{match_id}:{slot}",
            "fields": [*form_fields(entry(hand), members), ("key", key), *version],
            "key": key,
            "version": "" if number is None else "1",
            "totals": None,
            "queued": 0,
            "base": None if number is None else base,
        }

    items = [item(CORRECTED, 1), *(item(hand, None) for hand in evening)]
    page.evaluate(
        "([name, items]) => localStorage.setItem(name, items)",
        [f"scorekeeper:outbox:{user}:{match_id}", json.dumps(items)],
    )
    page.reload()
    board_shows(page, "el", scores, after)
    page.screenshot(path=SHOTS / "offline-scoreboard-correction-el.png", full_page=True)
    fits_a_phone(page)
    page.set_viewport_size(SMALL_PHONE)
    page.reload()
    board_shows(page, "el", scores, after)
    page.screenshot(path=SHOTS / "offline-scoreboard-correction-el-360.png", full_page=True)
    fits_a_phone(page, SMALL_PHONE["width"])
    page.set_viewport_size(PHONE)

    context.set_offline(False)
    expect(page.locator("[data-outbox-board]")).to_be_hidden(timeout=20_000)
    expect(page.locator("[data-total]")).to_have_text(figures(after[-1]))
    for number, totals in enumerate(after, 1):
        assert page.locator(f"#hand-{number}").get_attribute("data-totals-after") == totals
    expect(page.locator(".outbox-differs")).to_have_count(0)
    context.close()
