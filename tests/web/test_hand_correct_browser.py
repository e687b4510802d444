"""Never a silently wrong score, on a phone (issue 10): the kózi must be chosen before Save
works, opening melds are marked with one tap and the live line follows, a lone 15-point meld
against a 75 minimum is refused, a stale problem banner goes as soon as a meld changes, and
"Went out" ticks the biribaki. At 390×844 and 360×640 in English, and once in Greek.

One app for the whole module's single test: the passes share it and each starts its own
phone (browser context)."""

# Greek letters that look like Latin ones are the point of the Greek pass.
# ruff: noqa: RUF001

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, ViewportSize, expect
from support.browser import log_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Club, Hand

pytestmark = pytest.mark.browser

USERNAME, PASSWORD = "eleni", "correct horse"
PHONES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 360, "height": 640}]
SHOTS = Path("/tmp/shots-correct")


def _matches(app: Flask) -> tuple[int, int]:
    with app.app_context():
        owner = accounts.create_user(USERNAME, PASSWORD)
        club = clubs.create_club(owner, "Friday Biriba")
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di")]
        teams = [matches.TeamSpec("A", (ids[0], ids[2])), matches.TeamSpec("B", (ids[1], ids[3]))]
        pagat = matches.create_match(club, owner, "pagat", "4p", teams).id
        club = db.session.get(Club, club.id)
        assert club is not None
        wikipedia = matches.create_match(club, owner, "wikipedia", "4p", teams).id
        return pagat, wikipedia


def _stored(app: Flask, match_id: int) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(Hand).where(Hand.match_id == match_id)).all())


def _fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll"
    for chip in page.locator(".opening-chip:visible").all():
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 44, "the Opening chip is a tap target"
        # Its word fits inside it, and it sits beside its meld's cards, not under them.
        assert chip.evaluate("c => c.scrollWidth <= c.clientWidth"), "the chip's word fits"
        field = chip.locator("xpath=..").locator("[data-meld]").bounding_box()
        assert field is not None and abs(field["y"] - box["y"]) < box["height"], "chip beside"


def _meld(page: Page, side: int, row: int, cards: str) -> None:
    holder = page.locator(f"[data-side='{side}'] [data-meld-row]").nth(row)
    if not holder.is_visible():
        page.locator(f"[data-side='{side}'] [data-add-meld]").click()
    holder.locator("[data-meld]").fill(cards)


def _pagat_pass(page: Page, base: str, match_id: int) -> None:
    page.goto(f"{base}/matches/{match_id}/hands/new")
    save = page.locator("button[name=save]")
    preview = page.locator("button[name=preview]")
    # No kózi yet: Save and Preview wait for it, and say so; there is no "none" button.
    expect(save).to_be_disabled()
    expect(preview).to_be_disabled()
    expect(page.locator("[data-kozi-hint]")).to_be_visible()
    expect(page.locator("#kozi-none")).to_have_count(0)
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.locator("[data-kozi-hint]").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"kozi-gate-{width}.png")
    page.locator(".kozi-picker").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"kozi-picker-{width}.png")
    page.locator("label[for='kozi-H']").click()
    expect(save).to_be_enabled()
    expect(page.locator("[data-kozi-hint]")).to_be_hidden()

    # Went out ticks the biribaki; unticking the biribaki unticks Went out.
    went_out, took = page.locator("[name=s0-out]"), page.locator("[name=s0-biribaki]")
    page.locator("label.toggle", has=went_out).click()
    expect(went_out).to_be_checked()
    expect(took).to_be_checked()
    page.locator("label.toggle", has=took).click()
    expect(went_out).not_to_be_checked()

    # A refused save, then a change: the stale banner and scores go at once.
    _meld(page, 0, 0, "3H 5S 9D")
    page.locator("label.toggle", has=took).click()
    save.click()
    banner = page.locator("[data-hand-errors]")
    expect(banner).to_be_visible()
    expect(page.locator("[data-problem-list] li")).to_have_count(1)
    _meld(page, 0, 0, "3H 4H 5H")
    expect(banner).to_have_count(0)
    # then the live preview gives the current score: 3H 4H 5H are 15, nothing wrong
    expect(page.locator("[data-preview-score]").first).to_have_text("15")
    expect(page.locator("[data-problems]")).to_be_hidden()
    expect(page.locator("[data-preview-total]").first).to_have_text("15")


def _wikipedia_pass(
    page: Page, app: Flask, base: str, match_id: int, words: dict[str, str], shot: str | None
) -> None:
    page.goto(f"{base}/matches/{match_id}/hands/new")
    page.locator("label[for='kozi-C']").click()
    line = page.locator("[data-side='0'] [data-opening-line]")
    expect(line).to_have_text(words["needs_75"])
    _meld(page, 0, 0, "AS AH AD")
    _meld(page, 0, 1, "KC KD KS")
    # As a player looks before tapping: both verdicts in, so the page is still. A verdict
    # arriving grows its row and the dock keeps the field in view, which moved the chip
    # away between the mouse's press and release on a busy machine.
    for row in (0, 1):
        verdict = page.locator("[data-side='0'] [data-meld-row]").nth(row).locator("[data-verdict]")
        expect(verdict).not_to_be_empty()
    chips = page.locator("[data-side='0'] .opening-chip")
    chips.nth(0).click()
    expect(line).to_have_text(words["so_far_45"])
    chips.nth(1).click()
    expect(line).to_have_text(words["so_far_75"])
    expect(page.locator("[data-side='0'] [data-opening-mark]").nth(1)).to_be_checked()
    # B lays a lone 15-point run against 75: refused at once by the live preview, and by Save
    _meld(page, 1, 0, "3H 4H 5H")
    problem = page.locator("[data-problem-list] li")
    expect(problem).to_have_text([words["lone_15"]])
    if shot:
        SHOTS.mkdir(exist_ok=True)
        _fits(page, 390)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=SHOTS / f"{shot}-{scheme}.png", full_page=True)
            page.locator("[data-side='0']").screenshot(path=SHOTS / f"{shot}-side-{scheme}.png")
            page.locator("[data-preview]").screenshot(path=SHOTS / f"{shot}-preview-{scheme}.png")
        page.emulate_media(color_scheme="light")
    page.locator("button[name=save]").click()
    expect(page.locator("[data-hand-errors]")).to_be_visible()
    expect(page.locator("[data-problem-list] li")).to_have_text([words["lone_15"]])
    assert _stored(app, match_id) == 0


ENGLISH = {
    "needs_75": "needs at least 75 · no opening marked yet",
    "so_far_45": "needs at least 75 · opening so far 45",
    "so_far_75": "needs at least 75 · opening so far 75",
    "lone_15": "B needs at least 75 to open, but all its melds together hold 15 points.",
}
GREEK = {
    "needs_75": "θέλει τουλάχιστον 75 · δεν σημειώθηκε ακόμα άνοιγμα",
    "so_far_45": "θέλει τουλάχιστον 75 · άνοιγμα ως τώρα 45",
    "so_far_75": "θέλει τουλάχιστον 75 · άνοιγμα ως τώρα 75",
    "lone_15": (
        "B: για να ανοίξει χρειάζεται τουλάχιστον 75, αλλά όλοι οι συνδυασμοί της μαζί "
        "κάνουν 15 πόντους."
    ),
}


def test_never_a_silently_wrong_score_on_two_phones_and_in_greek(
    browser: Browser, app: Flask, live_server: str
) -> None:
    pagat, wikipedia = _matches(app)
    passes = [(PHONES[0], "en"), (PHONES[1], "en"), (PHONES[0], "el")]
    for phone, language in passes:
        context = browser.new_context(
            service_workers="block",  # not the offline phone: tests/conftest.py
            viewport=phone,
            is_mobile=True,
            has_touch=True,
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, seen=errors: seen.append(str(error)))
        log_in(page, live_server, USERNAME, PASSWORD)
        words = ENGLISH
        if language == "el":
            page.locator(".lang-switch").get_by_role("button", name="Ελληνικά").click()
            expect(page.locator("html")).to_have_attribute("lang", "el")
            words = GREEK
        _pagat_pass(page, live_server, pagat)
        _fits(page, phone["width"])
        shot = f"hand-opening-{language}" if phone["width"] == 390 else None
        _wikipedia_pass(page, app, live_server, wikipedia, words, shot)
        _fits(page, phone["width"])
        assert errors == []
        context.close()
