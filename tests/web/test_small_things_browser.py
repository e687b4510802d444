"""Issue 19's small things, as a person sees them on a phone (390×844 and 360×640, English
and Greek, light and dark where colour is the point):

* registering keeps you logged in as logging in does, past the browser's closing;
* the match rules' back link has one arrow ("‹ Match 1");
* ♥ and ♦ are red in the match's hand history, on the scoreboard and a hand's history;
* the share button keeps its distance from the panel under it;
* a withdrawn share link's open page no longer says it follows the table live;
* the club's big screen is the whole television: no site header or footer;
* cards typed in a card field are in the text's colour, only a placeholder is grey;
* a correction's preview totals say "after hand 2", a new hand's "after this hand";
* the footer has no JSON API or health check: those live on the referee and API pages.

One app for the module; each phone and language is one browser context walking every page."""

# The arrow of a back link is the point of one check.
# ruff: noqa: RUF001, RUF002

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, ViewportSize, expect
from support.browser import fits_a_phone, log_in, settled, shoot
from support.hand_entries import A_WINS, B_WINS, typed
from support.world import new_club, pagat_match

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match
from scorekeeper.play import sharing

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

PASSWORD = "correct horse"
PHONES: tuple[ViewportSize, ...] = ({"width": 390, "height": 844}, {"width": 360, "height": 640})
TV: ViewportSize = {"width": 1920, "height": 1080}
# What a colour name resolves to on the page, in the scheme it is in now.
COLOUR_OF = """name => {
    const probe = document.createElement("span");
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
}"""
# Each ♥ or ♦ in `selector`'s text, and how many of them are drawn in `colour`.
RED_SYMBOLS = """([selector, colour]) => {
    let all = 0, red = 0;
    for (const box of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const symbols = (node.data.match(/[♥♦]/g) || []).length;
            all += symbols;
            if (symbols && getComputedStyle(node.parentElement).color === colour) red += symbols;
        }
    }
    return [all, red];
}"""


@dataclass(frozen=True)
class World:
    club_id: int
    match_id: int
    club_link: str


def build(app: Flask) -> World:
    """A club with a running match of three hands (kózi ♥, so red suits in every list) and a
    big-screen link."""
    with app.app_context():
        user = accounts.create_user("eleni", PASSWORD)
        club, ids = new_club(user, "Kafeneio")
        match = pagat_match(club, user, list(ids.values()))
        for hand in (A_WINS, B_WINS, A_WINS):
            matches.record_hand(match, user, typed(match, hand))
        return World(club.id, match.id, sharing.create_link(club, None, user))


def share_link(app: Flask, world: World) -> str:
    with app.app_context():
        club, match = db.session.get(Club, world.club_id), db.session.get(Match, world.match_id)
        assert club is not None and match is not None
        return sharing.create_link(club, match, None)


def withdraw_links(app: Flask, world: World) -> None:
    with app.app_context():
        club, match = db.session.get(Club, world.club_id), db.session.get(Match, world.match_id)
        assert club is not None and match is not None
        for link in sharing.live_links(club, match):
            sharing.revoke(club, match, link.id)


def test_registering_keeps_you_logged_in_past_the_browser_closing(
    browser: Browser, live_server: str, screenshots: Path
) -> None:
    phone = {"viewport": PHONES[0], "is_mobile": True, "has_touch": True}
    context = browser.new_context(**phone, service_workers="block")
    page = context.new_page()
    page.goto(live_server + "/register")
    keep = page.locator("#remember")
    expect(keep).to_be_checked()  # ticked, as on the login page
    shoot(page, screenshots, "small-register")
    page.locator("#username").fill("nikos")
    page.locator("#password").fill(PASSWORD)
    page.locator("#repeat").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".nav-user")).to_have_text("nikos")
    # The browser closes: only cookies with an expiry outlive it.
    kept = [cookie for cookie in context.cookies() if cookie["expires"] > 0]
    context.close()
    reopened = browser.new_context(**phone, service_workers="block")
    try:
        reopened.add_cookies(kept)  # type: ignore[arg-type]
        page = reopened.new_page()
        page.goto(live_server + "/clubs")
        expect(page.locator(".nav-user")).to_have_text("nikos")
    finally:
        reopened.close()


def test_small_things_on_two_phones_in_two_languages(
    browser: Browser, app: Flask, live_server: str, screenshots: Path
) -> None:
    world = build(app)
    for phone in PHONES:
        for lang in ("en", "el"):
            context = browser.new_context(
                viewport=phone, is_mobile=True, has_touch=True, service_workers="block"
            )
            context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
            page = context.new_page()
            try:
                walk(page, app, live_server, world, screenshots, phone, lang)
            finally:
                context.close()


def walk(
    page: Page, app: Flask, base: str, world: World, folder: Path, phone: ViewportSize, lang: str
) -> None:
    greek, width = lang == "el", phone["width"]
    tag = f"{lang}-{width}"
    shots = phone == PHONES[0]  # pictures at 390×844; the 360 pass only checks

    def look(name: str) -> None:
        if shots:
            shoot(page, folder, f"small-{name}-{tag}", lambda p: fits_a_phone(p, width))
        else:
            fits_a_phone(page, width)

    # --- the footer: the players' links only; the others on the referee and API pages -------
    page.goto(base + "/referee")
    foot = page.locator(".site-footer")
    expect(foot.locator("a[href='/demo']")).to_have_count(1)
    expect(foot.locator("a[href='/api'], a[href='/healthz']")).to_have_count(0)
    expect(page.locator("main a[href='/api']")).to_have_text("JSON API")
    look("referee")
    page.goto(base + "/api")
    expect(page.locator(".site-footer a[href='/healthz']")).to_have_count(0)
    expect(page.locator("main a[href='/healthz']")).to_have_text(
        "Έλεγχος λειτουργίας" if greek else "Health check"
    )
    look("api")

    # --- the scoreboard: red cards in the hands, the share button apart from the panel ------
    log_in(page, base, "eleni", PASSWORD)
    page.goto(f"{base}/matches/{world.match_id}")
    page.locator("#hand-1 summary").click()
    settled(page)
    red_in(page, "#hand-1 .score-lines")
    share = page.locator(".share-action").bounding_box()
    below = page.locator(".share-action ~ .panel:visible").first.bounding_box()
    assert share is not None and below is not None
    assert below["y"] - (share["y"] + share["height"]) >= 12, "the share button touches a panel"
    look("scoreboard")

    # --- a hand's history: red cards in its melds and lines ----------------------------------
    page.goto(f"{base}/matches/{world.match_id}/hands/1/history")
    red_in(page, ".version-side")
    look("history")

    # --- the rules: one arrow back to the match ------------------------------------------------
    page.goto(f"{base}/matches/{world.match_id}/rules")
    back = page.locator(".ref-crumb a").first
    before = back.evaluate("a => getComputedStyle(a, '::before').content")
    arrows = back.inner_text().count("‹") + before.count("‹")
    assert arrows == 1, f"the back link shows {arrows} arrows: {before} {back.inner_text()}"
    expect(back).to_have_text(f"Παρτίδα {world.match_id}" if greek else f"Match {world.match_id}")
    look("rules")

    # --- correcting hand 2: cards in the text's colour, totals after hand 2 -------------------
    page.goto(f"{base}/matches/{world.match_id}/hands/2/edit")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        typed_colour(page)
    page.emulate_media(color_scheme="light")
    page.locator("label[for=kozi-S]").click()  # a change: the live preview answers
    title = page.locator("[data-preview-totals] .preview-totals-title")
    expect(title).to_have_text(
        "Σύνολο παρτίδας μετά τον γύρο 2" if greek else "Match total after hand 2"
    )
    title.scroll_into_view_if_needed()
    look("edit-hand")
    page.goto(f"{base}/matches/{world.match_id}/hands/new")
    page.locator("label[for=kozi-S]").click()
    page.locator("#s0-meld-1").fill("3C 4C 5C")
    expect(title).to_have_text(
        "Σύνολο παρτίδας μετά από αυτόν τον γύρο" if greek else "Match total after this hand"
    )

    # --- a shared link withdrawn while it is open: no promise to follow the table ------------
    page.goto(f"{base}/watch/{world.match_id}/{share_link(app, world)}")
    note = page.locator(".shared-note")
    expect(note).to_be_visible()
    withdraw_links(app, world)
    expect(page.locator("[data-live-gone-note]")).to_be_visible(timeout=6000)
    expect(note).to_be_hidden()
    look("withdrawn")

    # --- the big screen: the whole screen, on a phone and on a television ---------------------
    page.goto(f"{base}/clubs/{world.club_id}/live/{world.club_link}")
    expect(page.locator(".big-match")).to_have_count(1)
    expect(page.locator(".site-header, .site-footer")).to_have_count(0)
    look("big-screen")
    if shots:
        page.set_viewport_size(TV)
        settled(page)
        grid = page.locator(".big-grid").bounding_box()
        assert grid is not None
        assert grid["y"] + grid["height"] >= TV["height"] - 64, "the tables fill the height"
        assert page.evaluate("document.documentElement.scrollHeight") <= TV["height"]
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=folder / f"small-big-screen-tv-{tag}-{scheme}.png")
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(phone)


def red_in(page: Page, selector: str) -> None:
    """Every ♥ and ♦ in `selector` is drawn in the red of a red suit, light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        red = page.evaluate(COLOUR_OF, "--red-suit")
        assert red != page.evaluate(COLOUR_OF, "--text")
        symbols, in_red = page.evaluate(RED_SYMBOLS, [selector, red])
        assert symbols > 0, f"no red suit in {selector}"
        assert in_red == symbols, f"{symbols - in_red} of {symbols} red suits not red ({scheme})"
    page.emulate_media(color_scheme="light")


def typed_colour(page: Page) -> None:
    """A filled card field's cards are in the text's colour; an empty one's placeholder is
    the muted grey."""
    text, muted = page.evaluate(COLOUR_OF, "--text"), page.evaluate(COLOUR_OF, "--muted")
    meld = page.locator("#s0-meld-1")
    expect(meld).not_to_have_value("")
    expect(meld).to_have_attribute("inputmode", "none")  # the picker's, with card faces
    assert meld.evaluate("e => getComputedStyle(e).color") == text, "typed cards look grey"
    found = page.locator("input[data-card-input][placeholder]").evaluate_all(
        "fields => fields.filter(f => !f.value).map(f => getComputedStyle(f, '::placeholder')"
        ".color)"
    )
    assert found and set(found) == {muted}, f"placeholders: {found}"
